package dev.luavm.contract;

import java.util.List;

/**
 * One reviewed Lua module a contract carries ({@code modules:}): its name, its source (part of
 * the contract's text, so approving the contract approves the module's code) and the host
 * functions granted to that module's code only ({@code Capabilities.Builder#grantToModule}):
 * the script may {@code require} the module and use what it offers, but calling one of those
 * functions itself is refused.
 *
 * @param functions the functions granted to the module, with safety classes and call bounds as in {@code functions:}
 */
public record ModuleRule(String name, String source, List<FunctionRule> functions) {
    /** Copies the list. */
    public ModuleRule {
        functions = List.copyOf(functions);
    }
}
