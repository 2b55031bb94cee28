package dev.luavm.stdlib.io;

import dev.luavm.lib.CallContext;
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
        new Builtin("write") { @Override public int call(CallContext c) { return IoFunctions.fileWrite(c); } },
        new Builtin("flush") { @Override public int call(CallContext c) { return IoFunctions.fileFlush(c); } },
        new Builtin("setvbuf") { @Override public int call(CallContext c) { return IoFunctions.setvbuf(c); } },
        new Builtin("seek") { @Override public int call(CallContext c) { return IoFunctions.seek(c); } },
        new Builtin("close") { @Override public int call(CallContext c) { return IoFunctions.fileClose(c); } },
    };
    private static final Builtin[] INPUT_METHODS = {
        new Builtin("read") { @Override public int call(CallContext c) { return IoFunctions.fileRead(c); } },
        new Builtin("lines") { @Override public int call(CallContext c) { return IoFunctions.fileLines(c); } },
    };
    private static final Builtin[] FUNCTIONS = {
        new Builtin("io.write") { @Override public int call(CallContext c) { return IoFunctions.write(c); } },
        new Builtin("io.flush") { @Override public int call(CallContext c) { return IoFunctions.flush(c); } },
        new Builtin("io.close") { @Override public int call(CallContext c) { return IoFunctions.close(c); } },
        new Builtin("io.type") { @Override public int call(CallContext c) { return IoFunctions.type(c); } },
        new Builtin("io.output") { @Override public int call(CallContext c) { return IoFunctions.output(c); } },
    };
    private static final Builtin[] INPUT_FUNCTIONS = {
        new Builtin("io.read") { @Override public int call(CallContext c) { return IoFunctions.read(c); } },
        new Builtin("io.lines") { @Override public int call(CallContext c) { return IoFunctions.lines(c); } },
        new Builtin("io.input") { @Override public int call(CallContext c) { return IoFunctions.input(c); } },
    };
    private static final Builtin[] FILE_FUNCTIONS = {
        new Builtin("io.open") { @Override public int call(CallContext c) { return IoFunctions.open(c); } },
        new Builtin("io.tmpfile") { @Override public int call(CallContext c) { return IoFunctions.tmpfile(c); } },
    };
    private static final Builtin TOSTRING = new Builtin("__tostring") { @Override public int call(CallContext c) { return IoFunctions.tostring(c); } };
    private static final Builtin GC = new Builtin("__gc") { @Override public int call(CallContext c) { return IoFunctions.gc(c); } };

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
