package dev.luavm.cli;

import dev.luavm.LuaVM;
import dev.luavm.audit.jsonl.JsonLinesAuditLog;
import dev.luavm.replay.Recording;
import dev.luavm.replay.ReplayResult;
import dev.luavm.replay.Replayer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code luavm replay FILE [--script SCRIPT]}: re-runs the runs recorded in an audit log written
 * by {@code luavm --audit FILE}, with no live host and every input from the log, printing their
 * output again. Exit status 0 when the replay is identical (output, results, errors, gas, host
 * calls, clock reads), 4 at the first divergence (described on stderr: event number, expected,
 * got), 1 when the log cannot be read or holds no recording. {@code --script} replays a changed
 * script in place of the last recorded run's source, to see where the change diverges.
 */
final class ReplayCommand implements Subcommand {
    static final int DIVERGED = 4;
    static final String USAGE = "usage: luavm replay FILE [--script SCRIPT]\n";

    @Override
    public String summary() {
        return "FILE [--script S]  replay a log written by --audit (exit 0 identical, 4 diverged)";
    }

    @Override
    public int run(List<String> args, Console console) {
        String file = null;
        String script = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--help")) {
                console.out.print(USAGE);
                return 0;
            } else if (a.equals("--script") && i + 1 < args.size()) {
                script = args.get(++i);
            } else if (a.startsWith("--script=")) {
                script = a.substring("--script=".length());
            } else if (file == null && !a.startsWith("--")) {
                file = a;
            } else {
                console.err.print("luavm replay: unexpected argument '" + a + "'\n" + USAGE);
                return 1;
            }
        }
        if (file == null) {
            console.err.print(USAGE);
            return 1;
        }
        if (dev.luavm.contract.ContractReplay.isContractLog(Path.of(file))) {   // written by luavm run --contract --audit
            if (script != null) {
                console.error("luavm replay", "--script does not apply to a contract log", null);
                return 1;
            }
            return RunCommand.replayContractLog(Path.of(file), console);
        }
        Recording recording;
        try {
            recording = JsonLinesAuditLog.recording(Path.of(file));
        } catch (IOException | IllegalArgumentException e) {
            console.error("luavm replay", "cannot replay " + file + ": " + e.getMessage(), null);
            return 1;
        }
        // compiled under the recorded limits, as the launcher compiled them
        LuaVM vm = LuaVM.builder().limits(Replayer.limitsOf(recording.runs().get(0).started())).build();
        Replayer.Builder b = Replayer.builder(vm, recording)
                .output((bytes, off, len) -> console.out.write(bytes, off, len));
        if (script != null) {
            try {
                List<Recording.Run> runs = recording.runs();
                b.source(runs.get(runs.size() - 1).number(), dev.luavm.stdlib.pkg.FileText.strip(Files.readAllBytes(Path.of(script))));
            } catch (IOException e) {
                console.error("luavm replay", "cannot open " + script, null);
                return 1;
            }
        }
        ReplayResult result = b.build().replay();
        console.out.flush();
        if (result.identical()) return 0;
        console.error("luavm replay", result.divergence().toString(), null);
        return DIVERGED;
    }
}
