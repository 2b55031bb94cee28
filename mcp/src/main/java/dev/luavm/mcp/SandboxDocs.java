package dev.luavm.mcp;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.host.ArgConstraint;
import dev.luavm.host.Param;

import java.util.List;

/**
 * What {@code lua_docs} answers: the sandbox's libraries, host functions (with parameters,
 * results, safety and effects, an upstream tool's input schema among them) and limits, as
 * Markdown for a model to read.
 */
final class SandboxDocs {
    private SandboxDocs() {}

    static String markdown(Capabilities caps, Limits limits, long gasLeft) {
        StringBuilder sb = new StringBuilder("# Lua sandbox\n\n");
        sb.append("Lua 5.3 (luavm). Globals persist between `lua_run` calls; `lua_reset` starts afresh. ")
                .append("An expression's value is returned; `print` output is captured.\n\n");
        sb.append("Libraries: ").append(caps.bundles().isEmpty() ? "none" : String.join(", ", caps.bundles()))
                .append(". No `io`, no file or network access except through the host functions below.\n\n");
        sb.append("Limits: ").append(limits.timeout().toMillis()).append(" ms and ").append(limits.outputBytes())
                .append(" bytes of output per call; ").append(limits.memoryBytes()).append(" bytes of memory held; ")
                .append(gasLeft).append(" gas left of ").append(limits.gas()).append(" for this session.\n");
        sb.append(functions(caps));
        return sb.toString();
    }

    /** The host functions section. */
    static String functions(Capabilities caps) {
        StringBuilder sb = new StringBuilder();
        if (caps.hostFunctions().isEmpty()) return sb.append("\nNo host functions.\n").toString();
        sb.append("\n## Host functions\n");
        for (Capabilities.Grant g : caps.hostFunctions().values()) {
            sb.append("\n### `").append(g.path()).append('(');
            List<Param> ps = g.params();
            for (int i = 0; i < ps.size(); i++) sb.append(i > 0 ? ", " : "").append(ps.get(i).name());
            sb.append(")`\n\n").append(g.description()).append("\n\n");
            sb.append("Safety: ").append(g.safety());
            if (!g.effects().isEmpty()) sb.append("; effects: ").append(String.join(", ", g.effects()));
            sb.append('\n');
            for (Param p : ps) {
                sb.append("- `").append(p.name()).append("` (").append(p.type());
                for (ArgConstraint c : p.constraints()) sb.append(", ").append(c.describe());
                sb.append(')');
                if (!p.description().isEmpty()) sb.append(": ").append(p.description());
                sb.append('\n');
            }
            for (Param r : g.returns()) {
                sb.append("- returns ").append(r.type());
                if (!r.description().isEmpty()) sb.append(": ").append(r.description());
                sb.append('\n');
            }
        }
        return sb.toString();
    }
}
