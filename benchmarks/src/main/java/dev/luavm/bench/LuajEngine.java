package dev.luavm.bench;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaClosure;
import org.luaj.vm2.LuaFunction;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Prototype;
import org.luaj.vm2.lib.jse.JsePlatform;
import org.luaj.vm2.luajc.JavaLoader;
import org.luaj.vm2.luajc.LuaJC;

/**
 * LuaJ 3.0.1 (a Lua 5.2 implementation), either interpreting its own bytecode or, with
 * {@code luajc}, compiling each Lua function to a JVM class with BCEL.
 *
 * <p>Compiling once means: parse to a {@link Prototype} once; for luajc also generate and
 * define the classes once, in one {@link JavaLoader}, and only instantiate the main chunk
 * class per run. Each run gets fresh {@link JsePlatform#standardGlobals()}.
 */
final class LuajEngine implements Engine {

    private static final AtomicInteger CLASS_IDS = new AtomicInteger();

    private final boolean luajc;

    LuajEngine(boolean luajc) {
        this.luajc = luajc;
    }

    @Override
    public Program compile(String chunkName, byte[] source) throws Exception {
        Globals compileGlobals = JsePlatform.standardGlobals();
        Prototype proto = compileGlobals.compilePrototype(new ByteArrayInputStream(source), chunkName);
        if (!luajc) {
            return (scriptName, args) -> {
                Output out = new Output();
                Globals g = globals(out, scriptName, args);
                new LuaClosure(proto, g).call();
                return out.text();
            };
        }
        String className = "luajc_bench_" + CLASS_IDS.incrementAndGet();
        JavaLoader loader = new JavaLoader();
        // generates and defines the classes now; later runs only instantiate the main class
        loader.load(proto, className, chunkName, compileGlobals);
        return (scriptName, args) -> {
            Output out = new Output();
            Globals g = globals(out, scriptName, args);
            LuaFunction main = loader.load(className, g);
            main.call();
            return out.text();
        };
    }

    @Override
    public Session newSession() {
        Globals g = JsePlatform.standardGlobals();
        if (luajc) {
            LuaJC.install(g);
        }
        return code -> g.load(code).call();
    }

    private static Globals globals(Output out, String scriptName, List<String> args) {
        Globals g = JsePlatform.standardGlobals();
        g.STDOUT = out.stream;
        LuaTable arg = new LuaTable();
        arg.set(0, LuaValue.valueOf(scriptName));
        for (int i = 0; i < args.size(); i++) {
            arg.set(i + 1, LuaValue.valueOf(args.get(i)));
        }
        g.set("arg", arg);
        return g;
    }

    /** A captured standard output. */
    static final class Output {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream stream = new PrintStream(bytes, false, StandardCharsets.ISO_8859_1);

        String text() {
            stream.flush();
            return bytes.toString(StandardCharsets.ISO_8859_1);
        }
    }
}
