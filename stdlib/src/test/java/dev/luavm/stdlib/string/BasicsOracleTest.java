package dev.luavm.stdlib.string;

/** len, sub, upper, lower, reverse, rep, byte, char against expectations computed by PUC-Rio Lua 5.3.6 (generated, see {@link OracleTestBase}). */
class BasicsOracleTest extends OracleTestBase {
    @Override
    protected void cases() {
        check(LEN, "3", s("abc"));
        check(LEN, "0", s(""));
        check(LEN, "3", 123L);
        check(LEN, "3", 0x1.8p+0);
        check(LEN, "error: bad argument #1 to 'string.len' (string expected, got no value)");
        check(SUB, "\"bc\"", s("abc"), 2L);
        check(SUB, "\"bc\"", s("abc"), -2L);
        check(SUB, "\"abc\"", s("abc"), 0L);
        check(SUB, "\"\"", s("abc"), 2L, 1L);
        check(SUB, "\"abc\"", s("abc"), -100L, 100L);
        check(SUB, "\"abc\"", s("abc"), Long.MIN_VALUE, 9223372036854775807L);
        check(SUB, "\"b\"", s("abc"), 2L, -2L);
        check(SUB, "\"\"", s("abc"), 4L);
        check(SUB, "\"c\"", s("abc"), 3L, 3L);
        check(SUB, "\"c\"", s("abc"), -1L, -1L);
        check(SUB, "\"\"", s("abc"), 1L, 0L);
        check(SUB, "\"\"", s("abc"), 9223372036854775807L);
        check(SUB, "\"ab\"", s("abc"), -3L, 2L);
        check(SUB, "\"bc\"", s("abc"), s("2"), s("3"));
        check(SUB, "\"bc\"", s("abc"), 0x1p+1);
        check(SUB, "error: bad argument #2 to 'string.sub' (number has no integer representation)", s("abc"), 0x1.cp+1);
        check(SUB, "error: bad argument #2 to 'string.sub' (number expected, got no value)", s("abc"));
        check(SUB, "error: bad argument #2 to 'string.sub' (number expected, got string)", s("abc"), s("x"));
        check(SUB, "\"23\"", 12345L, 2L, 3L);
        check(UPPER, "\"ABC\\200Z{@[`\"", s("aBc\u00c8z{@[`"));
        check(LOWER, "\"abc\\200z{@[`\"", s("AbC\u00c8Z{@[`"));
        check(UPPER, "\"\"", s(""));
        check(LOWER, "\"1.5\"", 0x1.8p+0);
        check(REVERSE, "\"cba\"", s("abc"));
        check(REVERSE, "\"\"", s(""));
        check(REVERSE, "\"b\\000a\"", s("a\u0000b"));
        check(REP, "\"xxx\"", s("x"), 3L);
        check(REP, "\"xabxabx\"", s("x"), 3L, s("ab"));
        check(REP, "\"\"", s("x"), 0L);
        check(REP, "\"\"", s("x"), -1L);
        check(REP, "\"ababab\"", s("ab"), 0x1.8p+1);
        check(REP, "error: bad argument #2 to 'string.rep' (number has no integer representation)", s("ab"), 0x1.4p+1);
        check(REP, "error: resulting string too large", s("x"), 0x1p+40);
        check(REP, "error: resulting string too large", s("x"), 0x1p+31);
        check(REP, "\"\"", s(""), 5L);
        check(REP, "\"----\"", s(""), 5L, s("-"));
        check(REP, "\"x\"", s("x"), 1L, s("sep"));
        check(REP, "error: resulting string too large", s("x"), 0x1p+30, s("yy"));
        check(REP, "\"\"", s("x"), Long.MIN_VALUE);
        check(REP, "error: bad argument #1 to 'string.rep' (string expected, got no value)");
        check(REP, "error: bad argument #2 to 'string.rep' (number expected, got no value)", s("x"));
        check(REP, "\"abc7abc\"", s("abc"), 2L, 7L);
        check(REP, "error: resulting string too large", s("x"), 9223372036854775807L);
        check(REP, "error: resulting string too large", s(""), 9223372036854775807L, s("a"));
        check(BYTE, "97", s("abc"));
        check(BYTE, "", s("abc"), 0L);
        check(BYTE, "99", s("abc"), -1L);
        check(BYTE, "97 98 99", s("abc"), 1L, -1L);
        check(BYTE, "", s("abc"), 10L);
        check(BYTE, "97 98 99", s("abc"), -10L, 10L);
        check(BYTE, "", s("abc"), 2L, 1L);
        check(BYTE, "255 0", s("\u00ff\u0000"), 1L, 2L);
        check(BYTE, "97 98 99", s("abc"), 1L, 0x1p+40);
        check(BYTE, "", s(""));
        check(BYTE, "error: bad argument #2 to 'string.byte' (number has no integer representation)", s("abc"), 0x1.8p+0);
        check(BYTE, "97 98 99", s("abc"), Long.MIN_VALUE, 9223372036854775807L);
        check(CHAR, "\"Hi\"", 72L, 105L);
        check(CHAR, "\"\"");
        check(CHAR, "error: bad argument #1 to 'string.char' (value out of range)", 256L);
        check(CHAR, "error: bad argument #1 to 'string.char' (value out of range)", -1L);
        check(CHAR, "\"A\"", s("65"));
        check(CHAR, "\"\\000\\255\"", 0L, 255L);
        check(CHAR, "error: bad argument #2 to 'string.char' (number has no integer representation)", 65L, 0x1.8p+0);
        check(CHAR, "error: bad argument #2 to 'string.char' (number expected, got nil)", 65L, null);
        check(CHAR, "\"A\"", 0x1.04p+6);
    }
}
