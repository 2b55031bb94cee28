package dev.luavm.stdlib.io;

import dev.luavm.lib.InstallContext;
import dev.luavm.lib.Library;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import dev.luavm.value.Userdata;

/**
 * The {@code io} bundle over the sandbox's own streams and, when the host granted a file system
 * ({@code Capabilities.Builder.filesystem}), its files.
 *
 * <p>Always: {@code io.stdout} and {@code io.stderr} (the host's output sinks, under the run's
 * output limit). With the host's input stream ({@code Sandbox.Builder.input}): {@code io.stdin}.
 * With either the input or a file system: {@code io.read}, {@code io.lines}, {@code io.input}.
 * With a file system: {@code io.open}, {@code io.tmpfile}, and file names in {@code io.lines},
 * {@code io.input} and {@code io.output}, all as lua5.3 on Linux; without one a file name is
 * refused ("no files in this sandbox") and no file is ever opened. {@code io.popen} is always
 * absent.
 *
 * <p>Handles are userdata with lua5.3's {@code FILE*} metatable (its own {@code __index},
 * {@code __name}, {@code __tostring}, {@code __gc}), one per sandbox; closing a standard file is
 * refused as lua5.3 refuses it ("cannot close standard file"). The default input and output
 * ({@code io.input()}, {@code io.output()}) live in the registry, as in PUC.
 */
public final class IoLibrary implements Library {
    static final LuaString IO_INPUT = LuaString.of("_IO_input");
    static final LuaString IO_OUTPUT = LuaString.of("_IO_output");
    /** the sandbox's FILE* metatable, for io.type's check */
    static final LuaString FILE_MT = LuaString.of("FILE*");

    private static final Builtin[] METHODS = {
        Builtin.of("write", IoFunctions::fileWrite),
        Builtin.of("flush", IoFunctions::fileFlush),
        Builtin.of("setvbuf", IoFunctions::setvbuf),
        Builtin.of("seek", IoFunctions::seek),
        Builtin.of("close", IoFunctions::fileClose),
    };
    private static final Builtin[] INPUT_METHODS = {
        Builtin.of("read", IoFunctions::fileRead),
        Builtin.of("lines", IoFunctions::fileLines),
    };
    private static final Builtin[] FUNCTIONS = {
        Builtin.of("io.write", IoFunctions::write),
        Builtin.of("io.flush", IoFunctions::flush),
        Builtin.of("io.close", IoFunctions::close),
        Builtin.of("io.type", IoFunctions::type),
        Builtin.of("io.output", IoFunctions::output),
    };
    private static final Builtin[] INPUT_FUNCTIONS = {
        Builtin.of("io.read", IoFunctions::read),
        Builtin.of("io.lines", IoFunctions::lines),
        Builtin.of("io.input", IoFunctions::input),
    };
    private static final Builtin[] FILE_FUNCTIONS = {
        Builtin.of("io.open", IoFunctions::open),
        Builtin.of("io.tmpfile", IoFunctions::tmpfile),
    };
    private static final Builtin TOSTRING = Builtin.of("__tostring", IoFunctions::tostring);
    private static final Builtin GC = Builtin.of("__gc", IoFunctions::gc);

    @Override
    public String name() {
        return "io";
    }

    /** File handles and {@code lines} iterators in a snapshot: the standard streams are re-bound to the restored sandbox's. */
    @Override
    public java.util.List<dev.luavm.lib.Unpersister> unpersisters() {
        return java.util.List.of(new dev.luavm.lib.Unpersister() {
            @Override
            public String kind() {
                return LuaFile.KIND;
            }

            @Override
            public Object restore(dev.luavm.lib.SnapshotIn in) {
                in.memory().charge(32); // the payload (the userdata is charged by the restore)
                return LuaFile.restore(in);
            }
        }, new dev.luavm.lib.Unpersister() {
            @Override
            public String kind() {
                return LinesIterator.KIND;
            }

            @Override
            public Object restore(dev.luavm.lib.SnapshotIn in) {
                return LinesIterator.restore(in);
            }
        });
    }

    @Override
    public void install(InstallContext ctx) {
        boolean input = ctx.host().input() != null;
        boolean files = ctx.host().fileSystem() != null;
        LuaTable mt = ctx.newTable();
        put(mt, METHODS, false);
        if (input || files) put(mt, INPUT_METHODS, false);
        mt.put(LuaString.of("__index"), mt);
        mt.put(LuaString.of("__name"), FILE_MT);
        mt.put(LuaString.of("__tostring"), TOSTRING);
        if (files) mt.put(LuaString.of("__gc"), GC);
        ctx.registry().put(FILE_MT, mt);

        LuaTable io = ctx.newTable();
        put(io, FUNCTIONS, true);
        Userdata stdout = handle(ctx, LuaFile.Kind.STDOUT, mt);
        io.put(LuaString.of("stdout"), stdout);
        io.put(LuaString.of("stderr"), handle(ctx, LuaFile.Kind.STDERR, mt));
        ctx.registry().put(IO_OUTPUT, stdout);
        if (input || files) put(io, INPUT_FUNCTIONS, true);
        if (files) put(io, FILE_FUNCTIONS, true);
        if (input) {
            Userdata stdin = handle(ctx, LuaFile.Kind.STDIN, mt);
            io.put(LuaString.of("stdin"), stdin);
            ctx.registry().put(IO_INPUT, stdin);
        }
        ctx.globals().put(LuaString.of("io"), io);
    }

    private static void put(LuaTable t, Builtin[] fns, boolean qualified) {
        for (Builtin f : fns) {
            String name = qualified ? f.name.substring(f.name.indexOf('.') + 1) : f.name;
            t.put(LuaString.of(name), f);
        }
    }

    private static Userdata handle(InstallContext ctx, LuaFile.Kind kind, LuaTable mt) {
        ctx.memory().charge(64); // the userdata and its payload
        return new Userdata(new LuaFile(kind), mt);
    }
}
