package dev.luavm.compiler;

import dev.luavm.grammar.LuaParser;
import dev.luavm.value.LuaString;
import org.antlr.v4.runtime.CommonToken;

/**
 * A token from {@link LuaLexer}: an ANTLR token (type from {@code dev.luavm.grammar.LuaParser})
 * that also carries its semantic value: the string's bytes as a {@link dev.luavm.value.LuaString}
 * for STRING, the name for NAME, a {@code Long} for INT and a {@code Double} for FLOAT.
 *
 * <p>Its text is what PUC shows after {@code near} (for a string, its delimiters and decoded
 * contents, as PUC's lexer buffer holds them); its line is the line where it ends, which is
 * PUC's {@code linenumber} once the token has been read.
 */
final class LuaToken extends CommonToken {
    /** Type given to single bytes that are no Lua token; the parser rejects them. */
    static final int OTHER = 0;

    final Object value;
    /**
     * For a STRING made without its text: its opening delimiter ({@code '"'} or {@code '\''}),
     * or {@code -(n + 1)} for a long bracket of level n. The text is made only if asked for
     * (for an error message), from the value.
     */
    private final int quote;

    LuaToken(int type, String text, Object value, int line, int index) {
        this(type, text, value, line, index, 0);
    }

    LuaToken(int type, String text, Object value, int line, int index, int quote) {
        super(type, text);
        this.value = value;
        this.quote = quote;
        setLine(line);
        setTokenIndex(index);
    }

    /** A NAME's or STRING's text is made when asked for: PUC's buffer, quoted. */
    @Override
    public String getText() {
        if (text == null) {
            if (getType() == LuaParser.NAME) {
                text = "'" + value + "'";
            } else if (quote > 0) {
                text = "'" + (char) quote + ((LuaString) value).toLatin1() + (char) quote + "'";
            } else {
                String level = "=".repeat(-quote - 1);
                text = "'[" + level + "[" + ((LuaString) value).toLatin1() + "]" + level + "]'";
            }
        }
        return text;
    }
}
