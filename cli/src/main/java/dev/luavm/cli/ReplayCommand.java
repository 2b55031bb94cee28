package dev.luavm.cli;

import dev.luavm.Limits;
import dev.luavm.LuaVM;
import dev.luavm.audit.jsonl.AuditKey;
import dev.luavm.audit.jsonl.JsonLinesAuditLog;
import dev.luavm.replay.Recording;
import dev.luavm.replay.ReplayResult;
import dev.luavm.replay.Replayer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@code luavm replay FILE [--script SCRIPT] [--audit-key KEY] [--max-gas N] [--timeout D]
 * [--max-memory SIZE] [--mount SPEC]...}: re-runs the runs recorded in an audit log written by
 * {@code luavm --audit FILE}, with no live host and every input from the log, printing their
 * output again.
 *
 * <p>The log is verified before anything of it runs: its hash chain, every seal (and, with
 * {@code --audit-key}, every seal's HMAC), its end, and each run's seal against its events
 * ({@link JsonLinesAuditLog}, {@link Recording}). The replay runs with exactly the recorded limits
 * and capabilities, under its own ceiling ({@code --max-gas}, default 1,000,000,000 for the whole
 * replay; {@code --timeout}, default 60s for the whole replay; {@code --max-memory}, default 1g).
 *
 * <p>Exit status: 0 when the replay is identical (output, results, errors, gas, host calls, clock
 * reads); 4 at the first divergence, or when the ceiling stopped the replay before the recorded
 * end (described on stderr: where, expected, got); 1 when the log cannot be used (unreadable,
 * cut, edited, reordered, keyed without its key: the message names the line). {@code --script}
 * replays a changed script in place of the last recorded run's source.
 *
 * <p>A run that used a file system (its log lists its mounts) is refused with exit 1 (the log
 * holds what it wrote, not what it read) unless {@code --mount SPEC}, as the interpreter's, gives
 * the recorded mounts again (same points, modes and quotas): the replay then reads the files as
 * they are now and writes where the run wrote.
 */
final class ReplayCommand implements Subcommand {
    static final int DIVERGED = 4;
    static final String USAGE = "usage: luavm replay FILE [--script SCRIPT] [--audit-key KEY] [--max-gas N] [--timeout DUR]"
            + " [--max-memory SIZE] [--mount SPEC]...\n"
            + "  --script SCRIPT    replay SCRIPT in place of the last run's recorded source\n"
            + "  --audit-key KEY    the log is keyed: verify every seal's HMAC under the key in file KEY\n"
            + "  --max-gas N        the replay's gas ceiling, for the whole replay (default 1000000000)\n"
            + "  --timeout DUR      the replay's time ceiling, for the whole replay (default 60s)\n"
            + "  --max-memory SIZE  the most memory the replayed script may hold (default 1g)\n"
            + "  --mount SPEC       the run used a file system: replay against these mounts (as the interpreter's --mount;\n"
            + "                     the recorded points, modes and quotas), reading the files as they are now\n"
            + "Exit status: 0 identical, 4 a divergence or the ceiling reached, 1 a log that cannot be used.\n";

    @Override
    public String summary() {
        return "FILE [--script S] [--audit-key K]  replay a log written by --audit (exit 0 identical, 4 diverged, 1 unusable)";
    }

    @Override
    public int run(List<String> args, Console console) {
        String file = null;
        String script = null;
        String keyFile = null;
        long maxGas = Replayer.DEFAULT_MAX_GAS;
        Duration timeout = Replayer.DEFAULT_TIMEOUT;
        long maxMemory = Replayer.DEFAULT_MAX_MEMORY;
        List<String> mounts = new java.util.ArrayList<>();
        dev.luavm.vfs.Vfs files = null;
        try {
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                String name = a;
                String value = null;
                int eq = a.indexOf('=');
                if (a.startsWith("--") && eq > 0) {
                    name = a.substring(0, eq);
                    value = a.substring(eq + 1);
                }
                switch (name) {
                    case "--help" -> {
                        console.out.print(USAGE);
                        return 0;
                    }
                    case "--script", "--audit-key", "--max-gas", "--timeout", "--max-memory", "--mount" -> {
                        if (value == null) {
                            if (i + 1 >= args.size()) throw new IllegalArgumentException("'" + name + "' needs an argument");
                            value = args.get(++i);
                        }
                        switch (name) {
                            case "--script" -> script = value;
                            case "--audit-key" -> keyFile = value;
                            case "--mount" -> mounts.add(value);
                            case "--max-gas" -> maxGas = positive(name, Quantities.parseCount(value, value));
                            case "--timeout" -> timeout = Quantities.parseDuration(value);
                            default -> maxMemory = positive(name, Quantities.parseSize(value));
                        }
                    }
                    default -> {
                        if (file != null || a.startsWith("--")) throw new IllegalArgumentException("unexpected argument '" + a + "'");
                        file = a;
                    }
                }
            }
            if (timeout.isZero() || timeout.isNegative()) throw new IllegalArgumentException("--timeout: must be positive");
            if (!mounts.isEmpty()) files = Mounts.parse(mounts);
        } catch (IllegalArgumentException e) {
            console.err.print("luavm replay: " + e.getMessage() + "\n" + USAGE);
            return 1;
        }
        if (file == null) {
            console.err.print(USAGE);
            return 1;
        }
        AuditKey key = null;
        if (keyFile != null) {
            try {
                key = AuditKey.read(Path.of(keyFile));
            } catch (IOException | IllegalArgumentException e) {
                console.error("luavm replay", "cannot use the audit key " + keyFile + ": " + e.getMessage(), null);
                return 1;
            }
        }
        if (dev.luavm.contract.ContractReplay.isContractLog(Path.of(file))) {   // written by luavm run --contract --audit
            if (script != null || files != null) {
                console.error("luavm replay", (script != null ? "--script" : "--mount") + " does not apply to a contract log", null);
                return 1;
            }
            return RunCommand.replayContractLog(Path.of(file), key, console);
        }
        Recording recording;
        try {
            recording = JsonLinesAuditLog.recording(Path.of(file), key);
        } catch (IOException | IllegalArgumentException e) {
            String why = e.getMessage();
            if (key == null && why != null && why.contains("this log is keyed")) why += " (replay it with --audit-key KEY)";
            console.error("luavm replay", "cannot replay " + file + ": " + why, null);
            return 1;
        }
        Replayer.Builder b;
        try {
            // compiled under the recorded limits, as the launcher compiled them, within the ceiling
            Limits recorded = Replayer.limitsOf(recording.runs().get(0).started());
            LuaVM vm = LuaVM.builder().limits(recorded.withGas(Math.min(recorded.gas(), maxGas))
                    .withMemory(Math.min(recorded.memoryBytes(), maxMemory))).build();
            b = Replayer.builder(vm, recording);
        } catch (IllegalArgumentException e) {
            console.error("luavm replay", "cannot replay " + file + ": the recorded limits cannot be used: " + e.getMessage(), null);
            return 1;
        }
        b
                .ceiling(maxGas, timeout)
                .maxMemory(maxMemory)
                .output((bytes, off, len) -> console.out.write(bytes, off, len));
        if (files != null) b.filesystem(files);
        if (script != null) {
            try {
                List<Recording.Run> runs = recording.runs();
                b.source(runs.get(runs.size() - 1).number(), dev.luavm.stdlib.pkg.FileText.strip(Files.readAllBytes(Path.of(script))));
            } catch (IOException e) {
                console.error("luavm replay", "cannot open " + script, null);
                return 1;
            }
        }
        Replayer replayer = b.build();
        ReplayResult result;
        try {
            result = withDeadline(replayer, timeout);
        } catch (IllegalArgumentException e) {
            console.out.flush();
            console.error("luavm replay", "cannot replay " + file + ": " + e.getMessage(), null);
            return 1;
        }
        console.out.flush();
        if (result.identical()) return 0;
        if (result.ceiling() != null) {
            String flag = result.ceiling().startsWith("gas") ? "--max-gas" : result.ceiling().startsWith("time") ? "--timeout" : "--max-memory";
            console.error("luavm replay", result + "; raise " + flag + " to replay further", null);
        } else {
            console.error("luavm replay", result.divergence().toString(), null);
        }
        return DIVERGED;
    }

    /** Replays, cancelling the replay at its time ceiling for the whole replay (a daemon thread, ended before returning). */
    private static ReplayResult withDeadline(Replayer replayer, Duration timeout) {
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(Math.max(1, timeout.toMillis()));
                replayer.cancel();
            } catch (InterruptedException e) {
                // the replay finished first
            }
        }, "luavm-replay-deadline");
        watchdog.setDaemon(true);
        watchdog.start();
        try {
            return replayer.replay();
        } finally {
            watchdog.interrupt();
            try {
                watchdog.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static long positive(String name, long v) {
        if (v <= 0) throw new IllegalArgumentException(name + ": must be positive");
        return v;
    }
}
