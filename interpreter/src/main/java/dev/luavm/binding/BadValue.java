package dev.luavm.binding;

/**
 * A value that does not fit the Java type it must become: the problem in lauxlib's words
 * ({@code "number expected, got string"}) and where it was inside the argument
 * ({@code "lines[2].qty"}), built up as the conversion unwinds.
 */
final class BadValue extends Exception {
    private final String where;
    private final String problem;

    BadValue(String problem) {
        this("", problem);
    }

    private BadValue(String where, String problem) {
        super(problem, null, false, false);
        this.where = where;
        this.problem = problem;
    }

    /** The same problem one level further out: {@code at("lines")} then {@code at("[2]")}... */
    BadValue inside(String step) {
        String w = where.isEmpty() ? step : where.startsWith("[") ? step + where : step + "." + where;
        return new BadValue(w, problem);
    }

    /** {@code "number expected, got string"} or {@code "lines[2].qty: number expected, got string"}. */
    String describe() {
        return where.isEmpty() ? problem : where + ": " + problem;
    }

    /** Longest script-given text quoted in a message, before "...". */
    static final int MAX_QUOTED = 40;

    /**
     * {@code 'text'}, cut to {@value #MAX_QUOTED} characters: a message quotes what the script
     * gave (an enum name, a field name, a key), and a megabyte of it must not become a megabyte
     * of message.
     */
    static String quote(String text) {
        return "'" + (text.length() <= MAX_QUOTED ? text : text.substring(0, MAX_QUOTED) + "...") + "'";
    }

    static BadValue expected(String luaType, Object got) {
        return new BadValue(luaType + " expected, got " + TypeAdapter.luaTypeOf(got));
    }
}
