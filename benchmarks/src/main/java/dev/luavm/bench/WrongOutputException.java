package dev.luavm.bench;

/** An engine printed something other than lua5.3's output: its time must not be reported. */
public final class WrongOutputException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public WrongOutputException(String engine, String program, String expected, String actual) {
        super(engine + " printed the wrong output for " + program + "\n--- expected (lua5.3)\n"
                + clip(expected) + "--- actual\n" + clip(actual));
    }

    private static String clip(String s) {
        String t = s.length() > 2000 ? s.substring(0, 2000) + "...[" + s.length() + " chars]" : s;
        return t.endsWith("\n") ? t : t + "\n";
    }
}
