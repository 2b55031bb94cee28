package dev.luavm;

/**
 * The source did not compile: {@code chunk:line: message near 'token'}, as PUC's {@code luac}
 * reports it. Also raised for sources over {@link Limits#sourceBytes()} and binary chunks.
 */
public class LuaSyntaxException extends LuaScriptException {
    LuaSyntaxException(String message, String chunkName, int line) {
        super(message, message, chunkName, line, "", null);
    }

    /**
     * True when the error is at the end of the input ({@code <eof>}): the statement is
     * incomplete and more input could complete it (the REPL's {@code >>} continuation).
     */
    public boolean isIncomplete() {
        String m = getMessage();
        return m != null && m.endsWith("<eof>");
    }
}
