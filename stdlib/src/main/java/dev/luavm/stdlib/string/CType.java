package dev.luavm.stdlib.string;

/**
 * The character classes of C's {@code <ctype.h>} in the "C" locale, which is what PUC-Rio Lua
 * uses for patterns, {@code upper}/{@code lower} and {@code %q}: ASCII only, so bytes 128-255
 * belong to no class and have no case.
 */
final class CType {
    private CType() {}

    static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    static boolean isLower(int c) {
        return c >= 'a' && c <= 'z';
    }

    static boolean isUpper(int c) {
        return c >= 'A' && c <= 'Z';
    }

    static boolean isAlpha(int c) {
        return isLower(c) || isUpper(c);
    }

    static boolean isAlnum(int c) {
        return isAlpha(c) || isDigit(c);
    }

    /** space, \t \n \v \f \r */
    static boolean isSpace(int c) {
        return c == ' ' || (c >= '\t' && c <= '\r');
    }

    static boolean isCntrl(int c) {
        return c < 32 || c == 127;
    }

    /** printable except space */
    static boolean isGraph(int c) {
        return c > 32 && c < 127;
    }

    static boolean isPunct(int c) {
        return isGraph(c) && !isAlnum(c);
    }

    static boolean isXDigit(int c) {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    static int toLower(int c) {
        return isUpper(c) ? c + ('a' - 'A') : c;
    }

    static int toUpper(int c) {
        return isLower(c) ? c - ('a' - 'A') : c;
    }

    /**
     * A byte as {@code lua_pushfstring}'s {@code %c} shows it in error messages: itself when
     * printable, else {@code <\ddd>} (so "invalid option '%<\0>'").
     */
    static String forMessage(int c) {
        return (c >= 32 && c < 127) ? String.valueOf((char) c) : "<\\" + c + ">";
    }
}
