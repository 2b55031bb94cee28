package dev.luavm.vm.tier;

/** Which functions run compiled ({@code LuaVM.Builder.tier}, {@code ./luavm --tier}). */
public enum Tier {
    /** everything interpreted */
    INTERP,
    /** functions start interpreted and are compiled once hot (entries and loop safepoints counted) */
    AUTO,
    /** every function is compiled on its first entry (tests: both tiers must agree on everything) */
    COMPILE_ALL;

    /** The tier named as on the command line: interp, auto, compile-all. */
    public static Tier parse(String s) {
        return switch (s) {
            case "interp" -> INTERP;
            case "auto" -> AUTO;
            case "compile-all" -> COMPILE_ALL;
            default -> throw new IllegalArgumentException("unknown tier '" + s + "' (interp, auto, compile-all)");
        };
    }
}
