package dev.luavm.stdlib.pkg;


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
        return dev.luavm.host.ModuleFiles.loadText(src);
    }
}
