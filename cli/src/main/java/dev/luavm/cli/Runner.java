package dev.luavm.cli;

import dev.luavm.Capabilities;
import dev.luavm.CompiledChunk;
import dev.luavm.Limits;
import dev.luavm.LuaException;
import dev.luavm.LuaExitException;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaSnapshotException;
import dev.luavm.LuaVM;
import dev.luavm.OutputSink;
import dev.luavm.Sandbox;
import dev.luavm.stdlib.pkg.FileText;
import dev.luavm.audit.jsonl.AuditKey;
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
 * <p>Defaults for trusted local use: the standard capabilities plus {@code package} (require
 * reads Lua modules from the script's directory and each {@code --path}, nothing else),
 * {@code io} (the CLI's own stdin, stdout and stderr; files only under the {@code --mount}s),
 * {@code os.exit}, {@code debug} (the safe subset) and {@code compat} (as stock lua5.3: bit32,
 * math.pow and the other 5.2 names), no gas, time or output limit,
 * a memory cap of 1 GiB or half the JVM's maximum heap, whichever is smaller, and the default
 * call depth. Each of {@code --gas --memory --timeout --output --depth --caps} overrides one.
 */
final class Runner {
    private final Options options;
    private final Console console;
    /** the status of an os.exit, which ends everything that was still to run */
    private Integer exited;

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
        if (o.gas != null) l = l.withRunGas(o.gas); // per run: each -e chunk, the script, each REPL entry
        if (o.memory != null) l = l.withMemory(o.memory);
        if (o.timeout != null) l = l.withTimeout(o.timeout);
        if (o.output != null) l = l.withOutput(o.output);
        if (o.auditEvents != null) l = l.withAuditEvents(o.auditEvents);
        if (o.depth != null) l = l.withCallDepth(o.depth);
        return l;
    }

    /**
     * What a lua5.3 user expects besides the standard set: require, io on the CLI's own streams,
     * os.exit, the debug subset ({@code require 'debug'} works, as in lua5.3) and the Lua 5.2
     * compatibility functions stock lua5.3 is built with ({@code compat}).
     */
    static final List<String> DEFAULT_EXTRAS = List.of("package", "io", "os.exit", "debug", "compat");

    static Capabilities capabilities(Options o, LuaVM vm) {
        Capabilities.Builder b = o.caps == null ? Capabilities.standard().toBuilder().bundles(DEFAULT_EXTRAS)
                : Capabilities.builder().bundles(Arrays.asList(o.caps.split(",")));
        if (!o.mounts.isEmpty()) b.filesystem(Mounts.parse(o.mounts));
        return StandardBundles.capabilities(b, vm).build();
    }

    /** Where require reads modules: the script's directory ('.' without a script file), then each --path. */
    static List<Path> moduleDirectories(Options o) {
        List<Path> dirs = new java.util.ArrayList<>();
        Path parent = o.script == null || o.script.equals("-") ? null : Path.of(o.script).getParent();
        dirs.add(parent == null ? Path.of(".") : parent);
        for (String p : o.paths) dirs.add(Path.of(p));
        return dirs;
    }

    /** The CLI's own stdout, flushed when the script asks ({@code io.flush}). */
    private OutputSink stdout() {
        return new OutputSink() {
            @Override
            public void write(byte[] b, int off, int len) {
                console.out.write(b, off, len);
            }

            @Override
            public void flush() {
                console.out.flush();
            }
        };
    }

    /** {@code io.stderr}: unbuffered, after what stdout holds, as a terminal shows them. */
    private OutputSink stderr() {
        return new OutputSink() { // not a lambda: the first of a process costs ~1.5 ms of start-up (PROFILE.md)
            @Override
            public void write(byte[] b, int off, int len) {
                console.out.flush();
                console.err.write(b, off, len);
                console.err.flush();
            }
        };
    }

    /** Where virtual time starts under {@code --seed}: os.time() is 946684800 at a run's start. */
    // 2000-01-01T00:00:00Z as a number: Instant.parse loads the date-time formatter (~15 ms of every start-up)
    static final java.time.Instant VIRTUAL_EPOCH = java.time.Instant.ofEpochSecond(946_684_800L);

    int run() {
        if (options.version || options.interactive) console.out.println(Main.VERSION); // -i implies -v, as in lua.c
        LuaVM vm;
        Sandbox sandbox;
        JsonLinesAuditSink log = null;
        try {
            vm = StandardBundles.runtime().limits(limits(options)).tier(tier(options)).build();
            if (options.audit != null) {
                AuditKey key;
                try {
                    key = options.auditKey == null ? null : AuditKey.read(Path.of(options.auditKey));
                } catch (IOException | IllegalArgumentException e) {
                    console.error("luavm", "cannot use the audit key " + options.auditKey + " (" + e.getMessage() + ")", null);
                    return 1;
                }
                try {
                    log = JsonLinesAuditSink.create(Path.of(options.audit), key);
                } catch (IOException e) {
                    console.error("luavm", "cannot open " + options.audit + " (" + e.getMessage() + ")", null);
                    return 1;
                }
            }
            byte[] restore = null;
            if (options.restore != null) {
                try {
                    restore = SnapshotFiles.read(Path.of(options.restore));
                } catch (IOException | java.nio.file.InvalidPathException e) {
                    console.error("luavm", "cannot open " + options.restore, null);
                    closeQuietly(log);
                    return 1;
                }
            }
            sandboxes = new SandboxFactory(vm, log);
            sandbox = sandboxes.build(restore);
        } catch (LuaSnapshotException e) {
            console.error("luavm", "cannot restore " + options.restore + ": " + e.getMessage(), null);
            closeQuietly(log);
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
        try {
            int status = runAll(vm, sandbox);
            if (status == 0 && exited == null && options.save != null) status = save(current);
            return status;
        } finally {
            current.close(); // runs the pending __gc finalizers, as lua.c's lua_close
            console.out.flush();
            closeQuietly(log);
        }
    }

    /** The sandbox the command line runs in now (the REPL's {@code :load} replaces it). */
    private Sandbox current;
    private SandboxFactory sandboxes;

    /** Builds the CLI's sandbox, fresh or from a snapshot, with the command line's settings. */
    final class SandboxFactory {
        private final LuaVM vm;
        private final JsonLinesAuditSink log;

        SandboxFactory(LuaVM vm, JsonLinesAuditSink log) {
            this.vm = vm;
            this.log = log;
        }

        /** The sandbox; from {@code snapshot} when not null (the CLI's streams are re-bound to the restored handles). */
        Sandbox build(byte[] snapshot) {
            Sandbox.Builder b = vm.sandbox()
                    .capabilities(capabilities(options, vm))
                    .output(stdout())
                    .errorOutput(stderr())
                    .input(console.in)
                    .moduleDirectories(moduleDirectories(options))
                    .name("luavm");
            if (options.seed != null) {
                b.virtualTime(VIRTUAL_EPOCH);
                if (snapshot == null) b.randomSeed(options.seed); // a snapshot carries its generator
            }
            // else the fixed default seed: the same output and gas every run, but for the clocks
            if (options.entropy && snapshot == null) b.randomSeedFromEntropy();
            if (log != null) b.audit(log).record(true); // without --seed, the seed and clock readings are recorded for replay
            if (snapshot != null) b.restoreFrom(snapshot);
            Sandbox sb = b.build();
            current = sb;
            return sb;
        }
    }

    /** {@code --save}: the state after everything ran, written atomically. */
    private int save(Sandbox sb) {
        try {
            SnapshotFiles.write(Path.of(options.save), sb.snapshot());
            return 0;
        } catch (LuaSnapshotException e) {
            console.error("luavm", "cannot save the state: " + e.getMessage(), null);
            return 1;
        } catch (IOException | java.nio.file.InvalidPathException e) {
            console.error("luavm", "cannot write " + options.save + " (" + e.getMessage() + ")", null);
            return 1;
        }
    }

    private void closeQuietly(JsonLinesAuditSink log) {
        if (log == null) return;
        try {
            log.close(); // writes the sealed log_closed: a log without it reads as cut
        } catch (IOException e) {
            console.error("luavm", "cannot close the audit log " + options.audit + " (" + e.getMessage()
                    + "): it will read as cut", null);
        }
    }

    private int runAll(LuaVM vm, Sandbox sandbox) {
        try {
            sandbox.setGlobal("arg", argTable());
            for (String stat : options.statements) {
                int status = runChunk(vm, sandbox, "=(command line)", stat.getBytes(java.nio.charset.StandardCharsets.UTF_8), List.of());
                if (exited != null || status != 0) return status;
            }
            if (options.script != null) {
                byte[] src;
                try {
                    src = readScript(options.script, console);
                } catch (IOException e) {
                    console.error("luavm", "cannot open " + options.script, null);
                    return 1;
                }
                int status = runChunk(vm, sandbox, chunkName(options.script), FileText.strip(src), options.scriptArgs());
                if (exited != null || status != 0) return status;
            }
            if (options.interactive) {
                return repl(vm, sandbox).loop();
            } else if (options.script == null && options.statements.isEmpty() && !options.version) {
                if (console.interactiveTerminal) {
                    console.out.println(Main.VERSION);
                    return repl(vm, sandbox).loop();
                } else {
                    byte[] src;
                    try {
                        src = console.in.readAllBytes();
                    } catch (IOException e) {
                        console.error("luavm", "cannot read stdin", null);
                        return 1;
                    }
                    return runChunk(vm, sandbox, "=stdin", FileText.strip(src), List.of());
                }
            }
            return 0;
        } finally {
            console.out.flush();
            if (options.listing > 0) listCompiled(vm);
        }
    }

    private Repl repl(LuaVM vm, Sandbox sandbox) {
        return new Repl(vm, sandbox, console, null, snapshot -> sandboxes.build(snapshot));
    }

    /** The CLI's tier: --tier, else system property luavm.tier, else auto. */
    static dev.luavm.vm.tier.Tier tier(Options o) {
        if (o.tier != null) return o.tier;
        String p = System.getProperty("luavm.tier");
        return p != null && !p.isEmpty() ? dev.luavm.vm.tier.Tier.parse(p) : dev.luavm.vm.tier.Tier.AUTO;
    }

    /** {@code -l --tier T}: which functions the run compiled, on stderr (stdout is the script's). */
    private void listCompiled(LuaVM vm) {
        List<String> names = vm.compiledFunctions();
        console.err.println("luavm: tier " + vm.tier().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')
                + ", " + names.size() + " function" + (names.size() == 1 ? "" : "s") + " compiled");
        for (String n : names) console.err.println("  " + n);
        console.err.flush();
    }

    private int runChunk(LuaVM vm, Sandbox sandbox, String name, byte[] src, List<String> args) {
        try {
            CompiledChunk chunk = vm.compile(name, src);
            sandbox.run(chunk, args.toArray());
            console.out.flush();
            return 0;
        } catch (LuaException e) {
            console.out.flush();
            if (e instanceof LuaExitException x) exited = x.status();
            return report(console, sandbox, "luavm", e);
        }
    }

    /**
     * Prints an error as lua.c does: {@code prefix: message}, then the traceback; an error object
     * with {@code __tostring} is shown through it, computed by the sandbox under its limits (a
     * limit hit there is reported instead). {@code os.exit} prints nothing. Returns the status.
     */
    static int report(Console console, Sandbox sandbox, String prefix, LuaException e) {
        if (e instanceof LuaExitException exit) return exit.status();
        String traceback = e instanceof LuaScriptException s ? s.luaTraceback() : null;
        String message = e.getMessage();
        if (e instanceof LuaScriptException s) {
            try {
                String shown = sandbox.errorMessage(s);
                if (shown != null) {
                    message = shown;
                    traceback = null; // lua.c's msghandler returns the __tostring text alone
                }
            } catch (LuaExitException exit) {
                return exit.status();
            } catch (LuaException inner) {
                console.error(prefix, inner.getMessage(), null);
                return statusOf(inner);
            }
        }
        console.error(prefix, message, traceback);
        return statusOf(e);
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

}
