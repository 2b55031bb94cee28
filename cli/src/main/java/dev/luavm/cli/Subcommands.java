package dev.luavm.cli;

import java.util.LinkedHashMap;
import java.util.Map;

/** The subcommands by name, in the order {@code --help} lists them; each line adds one. */
final class Subcommands {
    private Subcommands() {}

    private static final Map<String, Subcommand> BY_NAME = build();

    private static Map<String, Subcommand> build() {
        Map<String, Subcommand> m = new LinkedHashMap<>();
        // one line per subcommand: m.put("name", new NameCommand());
        m.put("mcp", new McpCommand());
        m.put("replay", new ReplayCommand());
        m.put("run", new RunCommand());
        m.put("contract", new ContractCommand());
        return Map.copyOf(m);
    }

    /** The subcommand named {@code name}, or null. */
    static Subcommand find(String name) {
        return BY_NAME.get(name);
    }

    /** The help section listing the subcommands (empty when there are none). */
    static String usage() {
        if (BY_NAME.isEmpty()) return "";
        StringBuilder sb = new StringBuilder("Commands:\n");
        for (String name : new java.util.TreeSet<>(BY_NAME.keySet())) {
            sb.append(String.format("  luavm %-10s %s%n", name, BY_NAME.get(name).summary()));
        }
        return sb.toString();
    }
}
