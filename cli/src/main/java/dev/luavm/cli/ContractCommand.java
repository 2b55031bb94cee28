package dev.luavm.cli;

import dev.luavm.LuaVM;
import dev.luavm.contract.Contract;
import dev.luavm.contract.ContractException;
import dev.luavm.contract.ContractRunner;
import dev.luavm.contract.ContractSummary;

import java.nio.file.Path;
import java.util.List;

/**
 * {@code luavm contract show FILE [--host NAME|CLASS]}: the contract as a short table for a
 * business owner, with plain sentences derived from it ("cannot call the network", "can call
 * only: ...", "stops after 500 ms"). {@code luavm contract check FILE [--host ...]}: loads the
 * contract and binds it to the host's registry, printing {@code ok} or the first problem (file,
 * line, field). Exit status 0, or 2 when the contract does not load.
 */
final class ContractCommand implements Subcommand {
    static final String USAGE = "usage: luavm contract show FILE [--host NAME|CLASS]\n"
            + "       luavm contract check FILE [--host NAME|CLASS]\n";

    @Override
    public String summary() {
        return "contract show|check FILE: a sandbox contract in plain words, or checked against the host";
    }

    @Override
    public int run(List<String> args, Console console) {
        RunCommand.quietValidatorLogging();
        String action = null, file = null, host = null;
        try {
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                if (a.equals("--host")) host = RunCommand.value(args, ++i, a);
                else if (a.equals("--help") || a.equals("-h")) {
                    console.out.print(USAGE);
                    return 0;
                } else if (a.startsWith("--")) throw new IllegalArgumentException("unrecognized option '" + a + "'");
                else if (action == null) action = a;
                else if (file == null) file = a;
                else throw new IllegalArgumentException("unexpected argument '" + a + "'");
            }
            if (action == null || !(action.equals("show") || action.equals("check"))) {
                throw new IllegalArgumentException(action == null ? "show or check?" : "unknown action '" + action + "'");
            }
            if (file == null) throw new IllegalArgumentException("no contract file given");
        } catch (IllegalArgumentException e) {
            console.error("luavm contract", e.getMessage(), null);
            console.err.print(USAGE);
            return RunCommand.CANNOT_START;
        }
        try {
            Contract contract = Contract.load(Path.of(file));
            HostModules modules = HostModules.load(host);
            if (action.equals("check")) {
                ContractRunner.bind(contract, modules.registry, modules.policy, LuaVM.create());
                console.out.println("ok: " + file + " (host: " + String.join(", ", modules.names) + ")");
                return 0;
            }
            // the host's declarations make the derived lines exact; without a matching registry only the forbidden list counts
            dev.luavm.Capabilities registry = modules.registry;
            try {
                ContractRunner.bind(contract, registry, modules.policy, LuaVM.create());
            } catch (ContractException e) {
                registry = null;
            }
            for (String line : ContractSummary.lines(contract, registry)) console.out.println(line);
            return 0;
        } catch (ContractException | IllegalArgumentException e) {
            console.error("luavm contract", e.getMessage(), null);
            return RunCommand.CANNOT_START;
        }
    }
}
