package dev.luavm.cli;

import dev.luavm.Capabilities;
import dev.luavm.CompiledChunk;
import dev.luavm.Limits;
import dev.luavm.LuaException;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.audit.jsonl.JsonLinesAuditSink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a command line as {@code lua.c} does: {@code -e} chunks in order, then the script with
 * its arguments (as {@code ...} and in the {@code arg} table), then the REPL when asked for or
 * when there is no script and stdin is a terminal; with no script on a pipe, stdin is the script.
 *
 * <p>Defaults for trusted local use: the standard capabilities, no gas, time or output limit,
 * a memory cap of 1 GiB or half the JVM's maximum heap, whichever is smaller, and the default
 * call depth. Each of {@code --gas --memory --timeout --output --caps} overrides one.
 */
final class Runner {
    private final Options options;
    private final Console console;

    Runner(Options options, Console console) {
        this.options = options;
        this.console = console;
    }

    /** Limits from the command line over the CLI's defaults. */
    static Limits limits(Options o) {
        long heapHalf = Runtime.getRuntime().maxMemory() / 2;
        Limits l = Limits.unlimited()
                .withMemory(Math.min(1L << 30, heapHalf))
                .withCallDepth(Limits.DEFAULT_CALL_DEPTH);
        if (o.gas != null) l = l.withGas(o.gas);
        if (o.memory != null) l = l.withMemory(o.memory);
        if (o.timeout != null) l = l.withTimeout(o.timeout);
        if (o.output != null) l = l.withOutput(o.output);
        return l;
    }

    static Capabilities capabilities(Options o) {
        if (o.caps == null) return Capabilities.standard();
        return Capabilities.builder().bundles(Arrays.asList(o.caps.split(","))).build();
    }

    /** Where virtual time starts under {@code --seed}: os.time() is 946684800 at a run's start. */
    static final java.time.Instant VIRTUAL_EPOCH = java.time.Instant.parse("2000-01-01T00:00:00Z");

    int run() {
        if (options.version) console.out.println(Main.VERSION);
        LuaVM vm;
        Sandbox sandbox;
        JsonLinesAuditSink log = null;
        try {
            vm = LuaVM.builder().limits(limits(options)).build();
            Sandbox.Builder b = vm.sandbox()
                    .capabilities(capabilities(options))
                    .output((bytes, off, len) -> console.out.write(bytes, off, len))
                    .name("luavm");
            if (options.seed != null) b.randomSeed(options.seed).virtualTime(VIRTUAL_EPOCH);
            if (options.audit != null) {
                log = new JsonLinesAuditSink(Files.newOutputStream(Path.of(options.audit)));
                b.audit(log).record(true); // without --seed, the seed and clock readings are recorded for replay
            }
            sandbox = b.build();
        } catch (IOException e) {
            console.error("luavm", "cannot open " + options.audit + " (" + e.getMessage() + ")", null);
            return 1;
        } catch (IllegalArgumentException e) {
            console.error("luavm", e.getMessage(), null);
            closeQuietly(log);
            return 1;
        } catch (LuaException e) {
            console.error("luavm", e.getMessage(), null);
            closeQuietly(log);
            return statusOf(e);
        }
        try (sandbox) {
            return runAll(vm, sandbox);
        } finally {
            closeQuietly(log);
        }
    }

    private static void closeQuietly(JsonLinesAuditSink log) {
        if (log == null) return;
        try {
            log.close();
        } catch (IOException ignored) {
            // every event was flushed as it was written; a failure then already failed its run
        }
    }

    private int runAll(LuaVM vm, Sandbox sandbox) {
        try {
            sandbox.setGlobal("arg", argTable());
            for (String stat : options.statements) {
                int status = runChunk(vm, sandbox, "=(command line)", stat.getBytes(java.nio.charset.StandardCharsets.UTF_8), List.of());
                if (status != 0) return status;
            }
            if (options.script != null) {
                byte[] src;
                try {
                    src = readScript(options.script, console);
                } catch (IOException e) {
                    console.error("luavm", "cannot open " + options.script, null);
                    return 1;
                }
                int status = runChunk(vm, sandbox, chunkName(options.script), skipShebang(src), options.scriptArgs());
                if (status != 0) return status;
            }
            if (options.interactive) {
                new Repl(vm, sandbox, console).loop();
            } else if (options.script == null && options.statements.isEmpty() && !options.version) {
                if (console.interactiveTerminal) {
                    console.out.println(Main.VERSION);
                    new Repl(vm, sandbox, console).loop();
                } else {
                    byte[] src;
                    try {
                        src = console.in.readAllBytes();
                    } catch (IOException e) {
                        console.error("luavm", "cannot read stdin", null);
                        return 1;
                    }
                    return runChunk(vm, sandbox, "=stdin", skipShebang(src), List.of());
                }
            }
            return 0;
        } finally {
            console.out.flush();
        }
    }

    private int runChunk(LuaVM vm, Sandbox sandbox, String name, byte[] src, List<String> args) {
        try {
            CompiledChunk chunk = vm.compile(name, src);
            sandbox.run(chunk, args.toArray());
            console.out.flush();
            return 0;
        } catch (LuaException e) {
            report(console, "luavm", e);
            return statusOf(e);
        }
    }

    /** Prints an error as lua.c does: {@code prefix: message}, then the traceback. */
    static void report(Console console, String prefix, LuaException e) {
        String traceback = e instanceof LuaScriptException s ? s.luaTraceback() : null;
        console.error(prefix, e.getMessage(), traceback);
    }

    /** 3 for a limit, 1 for any other error. */
    static int statusOf(LuaException e) {
        return e instanceof LuaLimitException ? 3 : 1;
    }

    /** The {@code arg} table: the script at 0, its arguments above, the interpreter's below. */
    private Map<Long, String> argTable() {
        List<String> argv = new java.util.ArrayList<>();
        argv.add("luavm");
        argv.addAll(options.rawArgs);
        int script = options.scriptIndex < 0 ? 0 : options.scriptIndex + 1;
        Map<Long, String> arg = new LinkedHashMap<>();
        for (int i = 0; i < argv.size(); i++) arg.put((long) (i - script), argv.get(i));
        return arg;
    }

    static String chunkName(String script) {
        return script.equals("-") ? "=stdin" : "@" + script;
    }

    static byte[] readScript(String script, Console console) throws IOException {
        return script.equals("-") ? console.in.readAllBytes() : Files.readAllBytes(Path.of(script));
    }

    /** Blanks a first line starting with '#' (a Unix shebang), keeping line numbers, as luaL_loadfile. */
    static byte[] skipShebang(byte[] src) {
        if (src.length == 0 || src[0] != '#') return src;
        int nl = 0;
        while (nl < src.length && src[nl] != '\n') nl++;
        return Arrays.copyOfRange(src, nl, src.length);
    }
}
