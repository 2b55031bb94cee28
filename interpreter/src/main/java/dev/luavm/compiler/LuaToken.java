package dev.luavm.compiler;

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

    LuaToken(int type, String text, Object value, int line, int index) {
        super(type, text);
        this.value = value;
        setLine(line);
        setTokenIndex(index);
    }
}
