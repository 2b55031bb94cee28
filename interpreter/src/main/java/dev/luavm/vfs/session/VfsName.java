package dev.luavm.vfs.session;

import dev.luavm.vfs.Errno;
import dev.luavm.vfs.VfsException;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A script's file name, normalised once: split at {@code /}, relative names taken from the
 * working directory ({@link dev.luavm.vfs.Vfs#withWorkingDirectory}; {@code /} by default),
 * {@code .} and empty components dropped, {@code ..} resolved lexically (the parent of
 * {@code /} is {@code /}). The result is a list of plain components from the root of the VFS; no
 * host path is ever made from it. Refused before any lookup: a NUL byte ({@link Errno#EINVAL}),
 * 4096 bytes or more ({@link Errno#ENAMETOOLONG}, Linux's {@code PATH_MAX}), the empty name
 * ({@link Errno#ENOENT}) and bytes that are not UTF-8 ({@link Errno#EILSEQ}).
 *
 * @param parts the components from the root of the VFS
 * @param directory the name ends as a directory's must ({@code /}, {@code /.}, {@code /..})
 * @param last the name's last component as written ({@code "."}, {@code ".."}, a name, or "" after a slash)
 * @param climbed the directories a {@code ..} left, in order: each must exist as a directory, as the
 *        kernel's walk requires ({@code sub/../a} fails when {@code sub} is absent or a file), though
 *        the result stays lexical
 */
record VfsName(List<String> parts, boolean directory, String last, List<List<String>> climbed) {
    /** Linux's {@code PATH_MAX}, counting the NUL */
    static final int PATH_MAX = 4096;
    /** Linux's {@code NAME_MAX} */
    static final int NAME_MAX = 255;

    /**
     * {@code name}, a relative one taken from {@code workingDirectory} (the components of a
     * normalised absolute name); {@code ..} climbs from there, never above {@code /}. The limits
     * apply to the name as the script wrote it, as the kernel's do.
     */
    static VfsName parse(byte[] name, List<String> workingDirectory) throws VfsException {
        for (byte b : name) if (b == 0) throw new VfsException(Errno.EINVAL);
        if (name.length >= PATH_MAX) throw new VfsException(Errno.ENAMETOOLONG);
        if (name.length == 0) throw new VfsException(Errno.ENOENT);
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(name)).toString();
        } catch (CharacterCodingException e) {
            throw new VfsException(Errno.EILSEQ);
        }
        String[] raw = text.split("/", -1);
        List<String> parts = new ArrayList<>(name[0] == '/' ? List.of() : workingDirectory);
        List<List<String>> climbed = new ArrayList<>();
        for (String p : raw) {
            if (p.isEmpty() || p.equals(".")) continue;
            if (p.equals("..")) {
                if (climbed.size() < 64) climbed.add(List.copyOf(parts)); // a bound: a name holds at most 2048 of them
                if (!parts.isEmpty()) parts.remove(parts.size() - 1);
                continue;
            }
            parts.add(p);
        }
        String last = raw[raw.length - 1];
        boolean directory = last.isEmpty() || last.equals(".") || last.equals("..");
        return new VfsName(List.copyOf(parts), directory, last, List.copyOf(climbed));
    }

    /** The index of the first component longer than {@code NAME_MAX} bytes, or -1. */
    int firstTooLong() {
        for (int i = 0; i < parts.size(); i++) {
            String p = parts.get(i);
            if (p.length() > NAME_MAX / 3 && p.getBytes(StandardCharsets.UTF_8).length > NAME_MAX) return i;
        }
        return -1;
    }

    /** The name as C's {@code %s} prints it in messages: up to the first NUL. */
    static String display(byte[] name) {
        int n = 0;
        while (n < name.length && name[n] != 0) n++;
        return new String(name, 0, n, StandardCharsets.ISO_8859_1);
    }
}
