package dev.luavm.cli;

import java.util.List;

/** Turns the command line into {@link Options}; a bad command line raises {@link UsageException}. */
final class ArgParser {
    private ArgParser() {}

    /** A malformed command line; the message says what is wrong. */
    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }

    static Options parse(String[] argv) throws UsageException {
        Options o = new Options();
        o.rawArgs = List.of(argv);
        int i = 0;
        while (i < argv.length) {
            String a = argv[i];
            if (a.equals("--")) {
                i++;
                break;
            }
            if (a.equals("-") || !a.startsWith("-")) break;
            if (a.startsWith("--")) {
                i = longOption(o, argv, i);
                continue;
            }
            switch (a) {
                case "-e" -> {
                    if (i + 1 >= argv.length) throw new UsageException("'-e' needs argument");
                    o.statements.add(argv[++i]);
                }
                case "-i" -> o.interactive = true;
                case "-l" -> o.listing++;
                case "-v" -> o.version = true;
                case "-E" -> { }
                default -> {
                    // lua.c accepts "-estat" glued together
                    if (a.startsWith("-e")) o.statements.add(a.substring(2));
                    else throw new UsageException("unrecognized option '" + a + "'");
                }
            }
            i++;
        }
        if (i < argv.length) {
            o.script = argv[i];
            o.scriptIndex = i;
        }
        if (o.listing > 0 && o.script == null) throw new UsageException("'-l' needs a script to list");
        if (o.restore != null && (o.seed != null || o.entropy)) {
            throw new UsageException("'--seed' and '--restore' exclude each other (a snapshot carries its seed)");
        }
        if (o.auditKey != null && o.audit == null) throw new UsageException("'--audit-key' needs '--audit FILE'");
        if (o.auditEvents != null && o.auditEvents < 1) throw new UsageException("--audit-events: must be at least 1");
        return o;
    }

    private static int longOption(Options o, String[] argv, int i) throws UsageException {
        String a = argv[i];
        String name = a;
        String value = null;
        int eq = a.indexOf('=');
        if (eq > 0) {
            name = a.substring(0, eq);
            value = a.substring(eq + 1);
        }
        if (name.equals("--help")) {
            o.help = true;
            return i + 1;
        }
        if (name.equals("--version")) {
            o.version = true;
            return i + 1;
        }
        if (!List.of("--gas", "--memory", "--timeout", "--output", "--depth", "--caps", "--path", "--audit", "--audit-key",
                "--audit-events", "--seed", "--tier", "--mount", "--save", "--restore").contains(name)) {
            throw new UsageException("unrecognized option '" + a + "'");
        }
        int next = i + 1;
        if (value == null) {
            if (next >= argv.length) throw new UsageException("'" + name + "' needs argument");
            value = argv[next++];
        }
        try {
            switch (name) {
                case "--gas" -> o.gas = Quantities.parseCount(value, value);
                case "--memory" -> o.memory = Quantities.parseSize(value);
                case "--timeout" -> o.timeout = Quantities.parseDuration(value);
                case "--output" -> o.output = Quantities.parseSize(value);
                case "--depth" -> o.depth = parseDepth(value);
                case "--path" -> o.paths.add(value);
                case "--mount" -> o.mounts.add(value);
                case "--audit" -> o.audit = value;
                case "--audit-key" -> o.auditKey = value;
                case "--audit-events" -> o.auditEvents = Quantities.parseCount(value, value);
                case "--seed" -> {
                    o.entropy = value.trim().equals("random");
                    o.seed = o.entropy ? null : parseSeed(value);
                }
                case "--tier" -> o.tier = dev.luavm.vm.tier.Tier.parse(value);
                case "--save" -> o.save = value;
                case "--restore" -> o.restore = value;
                default -> o.caps = value;
            }
        } catch (IllegalArgumentException e) {
            throw new UsageException(name + ": " + e.getMessage());
        }
        return next;
    }

    /** {@code --depth}: nested Lua calls, at least 10 (as {@code Limits.withCallDepth} and a contract's {@code depth}). */
    private static int parseDepth(String v) {
        long n = Quantities.parseCount(v.trim(), v);
        if (n < 10 || n > Integer.MAX_VALUE) throw new IllegalArgumentException("not a call depth from 10 to 2147483647: '" + v + "'");
        return (int) n;
    }

    /** A decimal (possibly negative) or 0x-hexadecimal 64-bit seed. */
    private static long parseSeed(String v) {
        try {
            String s = v.trim();
            if (s.startsWith("0x") || s.startsWith("0X")) return Long.parseUnsignedLong(s.substring(2), 16);
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a 64-bit integer or 'random': '" + v + "'");
        }
    }

    static final String USAGE = String.join("\n",
            "usage: luavm [options] [script [args]]",
            "Available options are:",
            "  -e stat         execute string 'stat'",
            "  -i              enter interactive mode after executing 'script'",
            "  -l              list the script's bytecode (like luac -l) instead of running it; -l -l: full;",
            "                  with --tier: run the script, then list the functions it compiled (stderr)",
            "  -v              show version information",
            "  -E              ignored (luavm reads no environment variables)",
            "  --              stop handling options",
            "  -               stop handling options and execute stdin",
            "  --gas N         gas per run: each -e chunk, the script, each REPL entry (default: unlimited)",
            "  --memory SIZE   memory the script may hold, e.g. 64m (default: 1g or half the JVM heap)",
            "  --timeout DUR   wall-clock limit, e.g. 500ms, 2s, 1m (default: none)",
            "  --output SIZE   bytes the script may print (default: unlimited)",
            "  --depth N       nested Lua calls before 'stack overflow' (default: 200000; a contract's depth)",
            "  --tier T        interp, auto (compile hot functions to JVM bytecode) or compile-all",
            "                  (default: auto; same output, errors and gas in every tier)",
            "  --caps LIST     library bundles, comma-separated: standard, none, base, string, ...",
            "                  (default: standard,package,io,os.exit,debug,compat: as stock lua5.3;",
            "                  --caps standard is strict 5.3, without bit32 and the other 5.2 names)",
            "  --path DIR      also let require read DIR/?.lua and DIR/?/init.lua (repeatable; the",
            "                  script's own directory, or '.' without a script, is always searched first;",
            "                  DIR is resolved once at start, relative to the working directory and",
            "                  through symbolic links; module names under it never leave it; under a",
            "                  --mount point, DIR is a path of the script's file system)",
            "  --mount SPEC    give the script a file system (repeatable): POINT=DIR:ro, POINT=DIR:rw[:QUOTA],",
            "                  POINT=mem[:QUOTA], POINT=DIR:overlay[:QUOTA] (changes in memory, dropped",
            "                  after each run); QUOTA as --memory; outside the mounts no file exists;",
            "                  relative names start where the working directory is in the mounts",
            "                  (--mount /work=.:rw: io.open('f') opens ./f)",
            "  --audit FILE    write the audit log with the recording to FILE (JSON Lines,",
            "                  replaced if it exists; hash-chained and sealed); replay it with 'luavm replay FILE'",
            "  --audit-key KEY seal the --audit log with an HMAC-SHA256 under the key in file KEY",
            "                  (at least 32 bytes, raw or as hex digits): only a keyed log resists a",
            "                  consistent rewrite; replay it with 'luavm replay FILE --audit-key KEY'",
            "  --audit-events N  events each run may write to the --audit log; beyond them the run",
            "                  ends with 'audit limit exceeded' (default: unlimited)",
            "  --seed N        fully deterministic runs: math.random and table.sort seeded with N, and",
            "                  virtual time (os.time from 2000-01-01 UTC, os.clock from gas used),",
            "                  so the same script prints the same bytes and uses the same gas",
            "                  (default: a fixed seed, so the same but for the clocks, which are real)",
            "  --seed random   a seed from the system's entropy: math.random differs from run to run",
            "                  (and so may table.sort's gas); recorded by --audit",
            "  --save FILE     after everything ran without an error, write the session's state to FILE",
            "                  (a snapshot: globals, functions, coroutines; replaced atomically)",
            "  --restore FILE  start from the state in FILE (written by --save or the REPL's :save)",
            "                  instead of a fresh one; same --caps needed (default: the same)",
            "  --help          show this help",
            "Without a script: the REPL on a terminal (history in ~/.luavm_history), else stdin is the script.",
            "In the REPL, ':save FILE' writes the session's state and ':load FILE' replaces it with FILE's.",
            "Exit status: 0 success, 1 error, 3 a limit ended the run, n after os.exit(n)",
            "(luavm replay: 4 a divergence or its ceiling reached, 1 a log it cannot use).",
            "");
}
