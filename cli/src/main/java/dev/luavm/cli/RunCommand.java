package dev.luavm.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.luavm.LuaVM;
import dev.luavm.contract.Contract;
import dev.luavm.contract.ContractException;
import dev.luavm.contract.ContractLog;
import dev.luavm.contract.ContractReplay;
import dev.luavm.contract.ContractRunner;
import dev.luavm.contract.Outcome;
import dev.luavm.contract.Rollback;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code luavm run --contract FILE --input INPUT.json script.lua [--audit LOG] [--host NAME|CLASS] [--mount SPEC]...}:
 * runs the script under the contract (input checked first, exactly the contract's grants and
 * limits, result checked against the output schema) and prints the outcome as one JSON object,
 * {@code {"category": ..., "result": ..., "usage": ..., "message": ...}}. Exit status by category:
 * 0 ok, 1 logic-error, 3 limit, 5 malformed-input, 6 blocked-capability, 7 bad-output; 2 when
 * the command cannot start (a usage error, a contract that does not load, a missing file).
 *
 * <p>The host functions come from the {@link dev.luavm.contract.HostModule}s on the class path
 * (the invoice example's is in the CLI jar), or the one {@code --host} names. {@code --audit LOG}
 * appends the run to LOG as a {@link ContractLog} block (the contract, the input, the audit log
 * with its recording, the outcome), which {@code luavm replay LOG} reproduces
 * ({@link #replayContractLog}). {@code --mount SPEC} (as the interpreter's) offers a mount; the
 * contract's {@code filesystem:} section picks from them. An input file that is not JSON is
 * malformed input. A failed run's result is withheld and the item is marked for review.
 */
final class RunCommand implements Subcommand {
    static final String USAGE = "usage: luavm run --contract FILE --input INPUT.json script.lua [--audit LOG [--audit-key KEY]]"
            + " [--host NAME|CLASS] [--mount SPEC]...\n";
    /** The status when the command cannot start. */
    static final int CANNOT_START = 2;

    @Override
    public String summary() {
        return "--contract FILE --input INPUT.json script.lua [--audit LOG]  run under a sandbox contract; the outcome as JSON";
    }

    @Override
    public int run(List<String> args, Console console) {
        quietValidatorLogging();
        String contractFile = null, inputFile = null, script = null, audit = null, host = null, auditKey = null;
        List<String> mounts = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                switch (a) {
                    case "--contract" -> contractFile = value(args, ++i, a);
                    case "--input" -> inputFile = value(args, ++i, a);
                    case "--audit" -> audit = value(args, ++i, a);
                    case "--audit-key" -> auditKey = value(args, ++i, a);
                    case "--host" -> host = value(args, ++i, a);
                    case "--mount" -> mounts.add(value(args, ++i, a)); // what the host offers; the contract's filesystem: picks
                    case "--help", "-h" -> {
                        console.out.print(USAGE);
                        return 0;
                    }
                    default -> {
                        if (a.startsWith("--")) throw new IllegalArgumentException("unrecognized option '" + a + "'");
                        if (script != null) throw new IllegalArgumentException("one script only ('" + script + "' and '" + a + "')");
                        script = a;
                    }
                }
            }
            if (contractFile == null) throw new IllegalArgumentException("--contract FILE is required");
            if (inputFile == null) throw new IllegalArgumentException("--input INPUT.json is required");
            if (script == null) throw new IllegalArgumentException("no script given");
            if (auditKey != null && audit == null) throw new IllegalArgumentException("--audit-key needs --audit LOG");
        } catch (IllegalArgumentException e) {
            console.error("luavm run", e.getMessage(), null);
            console.err.print(USAGE);
            return CANNOT_START;
        }
        ContractRunner runner;
        List<String> hostNames;
        byte[] source;
        byte[] inputBytes;
        try {
            Contract contract = Contract.load(Path.of(contractFile));
            HostModules modules = HostModules.load(host);
            hostNames = modules.names;
            dev.luavm.Capabilities registry = mounts.isEmpty() ? modules.registry
                    : modules.registry.toBuilder().filesystem(Mounts.parse(mounts)).build();
            runner = ContractRunner.bind(contract, registry, modules.policy, LuaVM.create());
            source = read(script);
            inputBytes = read(inputFile);
        } catch (ContractException | IllegalArgumentException e) {
            console.error("luavm run", e.getMessage(), null);
            return CANNOT_START;
        }
        if (source == null || inputBytes == null) {
            console.error("luavm run", "cannot open " + (source == null ? script : inputFile), null);
            return CANNOT_START;
        }
        Outcome outcome;
        String chunk = "@" + Path.of(script).getFileName();
        if (audit != null) {
            dev.luavm.audit.jsonl.AuditKey key;
            try {
                key = auditKey == null ? null : dev.luavm.audit.jsonl.AuditKey.read(Path.of(auditKey));
            } catch (IOException | IllegalArgumentException e) {
                console.error("luavm run", "cannot use the audit key " + auditKey + ": " + e.getMessage(), null);
                return CANNOT_START;
            }
            try (ContractLog log = ContractLog.append(Path.of(audit), key)) {
                outcome = log.run(runner, hostNames, chunk, source, inputBytes, ContractRunner.Settings.DEFAULT);
            } catch (IOException e) {
                console.error("luavm run", "cannot write the audit log " + audit + ": " + e.getMessage(), null);
                return CANNOT_START;
            }
        } else {
            try {
                outcome = runner.run(chunk, source, inputBytes, ContractRunner.Settings.DEFAULT);
            } catch (RuntimeException e) {   // not an outcome of the script: the runtime failed
                console.error("luavm run", "internal error: " + e, null);
                return CANNOT_START;
            }
        }
        console.out.println(render(outcome, runner.contract().rollback()));
        console.out.flush();
        return outcome.category().exitStatus;
    }

    /**
     * {@code luavm replay LOG} for a contract log: replays each block and prints its outcome line
     * again (byte for byte what the log holds when the replay is identical). Exit 0 when every
     * block is identical, 4 at the first that is not (described on stderr), 1 when the log
     * cannot be read.
     */
    static int replayContractLog(Path file, dev.luavm.audit.jsonl.AuditKey key, Console console) {
        quietValidatorLogging();
        List<ContractReplay.Block> blocks;
        try {
            blocks = ContractReplay.replay(file, key, names -> HostModules.load(names.size() == 1 ? names.get(0) : null).registry,
                    LuaVM.create());
        } catch (IOException | RuntimeException e) {
            console.error("luavm replay", "cannot replay " + file + ": " + e.getMessage(), null);
            return 1;
        }
        for (ContractReplay.Block b : blocks) {
            if (!b.identical()) {
                console.error("luavm replay", "contract run at line " + b.line() + " (" + b.chunk() + "): " + b.problem()
                        + (b.got() != null ? "\n  expected " + b.expected() + "\n  got      " + b.got() : ""), null);
                return 4;
            }
            console.out.println(b.got());
        }
        console.out.flush();
        return 0;
    }

    /** The outcome's JSON, its message saying that a failed item went to review. */
    static String render(Outcome o, Rollback rule) {
        ObjectNode json = o.toJson();
        if (!o.ok()) {
            String where = rule == Rollback.MANUAL_REVIEW
                    ? "result withheld; the item is marked for manual review"
                    : "result withheld; no approved version to fall back to here, so the item is marked for review";
            json.put("message", o.message() + " (" + where + ")");
        }
        return json.toString();
    }

    private static byte[] read(String file) {
        try {
            return Files.readAllBytes(Path.of(file));
        } catch (IOException | java.nio.file.InvalidPathException e) {
            return null;
        }
    }

    static String value(List<String> args, int i, String option) {
        if (i >= args.size()) throw new IllegalArgumentException("'" + option + "' needs an argument");
        return args.get(i);
    }

    /** The JSON Schema validator logs through SLF4J, which warns on stderr when no logger is bound. */
    static void quietValidatorLogging() {
        if (System.getProperty("slf4j.internal.verbosity") == null) System.setProperty("slf4j.internal.verbosity", "ERROR");
    }
}
