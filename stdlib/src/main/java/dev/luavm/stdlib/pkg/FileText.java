package dev.luavm.stdlib.pkg;

import java.util.Arrays;

/**
 * What {@code luaL_loadfilex} hands the parser from a file's bytes: a UTF-8 byte-order mark
 * ({@code EF BB BF}, only when all three bytes are there) is dropped, then a first line
 * starting with {@code #} (a Unix "#!" line) is dropped up to and including its newline and
 * replaced by one newline, so line numbers stay right. Strings given to {@code load} get
 * neither treatment, as in PUC.
 */
public final class FileText {
    private FileText() {}

    public static byte[] strip(byte[] src) {
        int start = 0;
        if (src.length >= 3 && (src[0] & 0xff) == 0xEF && (src[1] & 0xff) == 0xBB && (src[2] & 0xff) == 0xBF) start = 3;
        if (start < src.length && src[start] == '#') {
            int nl = start;
            while (nl < src.length && src[nl] != '\n') nl++;
            // keep the newline itself (or add one at the end of file): the first line stays line 1
            if (nl < src.length) return Arrays.copyOfRange(src, nl, src.length);
            return new byte[] {'\n'};
        }
        return start == 0 ? src : Arrays.copyOfRange(src, start, src.length);
    }
}
