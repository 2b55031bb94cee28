package dev.luavm.host;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The directories a host lets {@code require} read Lua source modules from, read-only.
 *
 * <p>Each directory is resolved once, when this object is made: a relative name against the
 * working directory, then through every symbolic link in it, as the operating system would
 * ({@code ../src} from {@code /home/u/proj/test} is {@code /home/u/proj/src}, and a directory
 * that is a link is its target). {@code package.path} keeps the names as the host gave them
 * ({@code ../src/?.lua}), so messages read as lua5.3's.
 *
 * <p>A file name (as {@code package.path}'s templates make it) is readable only when it names a
 * regular file inside one of the directories: the name is the directory as given (or any other
 * spelling of its absolute, lexically normal name) followed by a <em>module part</em>, and the
 * module part may not leave the directory: a {@code ..} component in it, and a symbolic link
 * under the directory that leads outside it, make the name absent, as does every name outside
 * the directories, so a script learns nothing about the rest of the file system. Nothing else is
 * ever opened; nothing is ever written.
 */
public final class ModuleFiles {
    private final List<String> given;
    /** each directory as given, as a path (compared component by component) */
    private final List<Path> givenPaths = new ArrayList<>();
    /** each directory's absolute, lexically normal name: another spelling of it */
    private final List<Path> roots = new ArrayList<>();
    /** each directory resolved through its symbolic links, once */
    private final List<Path> realRoots = new ArrayList<>();

    /** Directories as the host names them (relative ones against the working directory), resolved now. */
    public ModuleFiles(List<Path> directories) {
        List<String> names = new ArrayList<>();
        for (Path d : directories) {
            names.add(d.toString());
            givenPaths.add(d);
            Path abs = d.toAbsolutePath();
            roots.add(abs.normalize());
            Path real;
            try {
                // not normalised first: ".." after a link is the link target's parent, as the OS has it
                real = abs.toRealPath();
            } catch (IOException e) {
                real = abs.normalize(); // absent now: nothing under it can be read until it exists
            }
            realRoots.add(real);
        }
        this.given = List.copyOf(names);
    }

    /** The directories as given, in search order (for {@code package.path}). */
    public List<String> directories() {
        return given;
    }

    /** The size of the module file {@code name}, or -1 when it is absent or outside the directories. */
    public long size(String name) {
        Path p = resolve(name);
        if (p == null) return -1;
        try {
            return Files.size(p);
        } catch (IOException e) {
            return -1;
        }
    }

    /** At most {@code max} bytes of the module file {@code name}, or null when it cannot be read. */
    public byte[] read(String name, long max) {
        Path p = resolve(name);
        if (p == null) return null;
        // NOFOLLOW: the checked real path is opened, not whatever a link put there since
        try (InputStream in = Channels.newInputStream(Files.newByteChannel(p, StandardOpenOption.READ,
                LinkOption.NOFOLLOW_LINKS))) {
            return in.readNBytes((int) Math.min(max, Integer.MAX_VALUE - 64));
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
    }

    /**
     * The module the module file {@code name} is, by its place inside its directory
     * ({@link ModuleIdentity#ofFile}, from the real paths, so a link inside the directories
     * gives the identity of the file it points to), or null.
     */
    public String moduleName(String name) {
        Found f = find(name);
        return f == null ? null : ModuleIdentity.ofFile(realRoots.get(f.root()).relativize(f.real()));
    }

    /** The real path of a regular file inside a root, or null. */
    private Path resolve(String name) {
        Found f = find(name);
        return f == null ? null : f.real();
    }

    /** A module file: its real path and the directory (index) it was found in. */
    private record Found(Path real, int root) {}

    private Found find(String name) {
        if (name.indexOf('\0') >= 0) return null;
        Path p;
        try {
            p = Path.of(name);
        } catch (InvalidPathException e) {
            return null;
        }
        for (int i = 0; i < realRoots.size(); i++) {
            Path part = modulePart(p, i);
            if (part == null) continue;
            for (Path c : part) {
                if (c.toString().equals("..")) return null; // a module name never leaves its directory
            }
            try {
                Path real = realRoots.get(i).resolve(part).toRealPath();
                if (real.startsWith(realRoots.get(i)) && Files.isRegularFile(real, LinkOption.NOFOLLOW_LINKS)) return new Found(real, i);
            } catch (IOException e) {
                return null;
            }
        }
        return null;
    }

    /**
     * The part of {@code p} under directory {@code i}: after the directory as given
     * ({@code ../src/Test/More.lua} under {@code ../src}), or after its absolute name for a name
     * without {@code ..} ({@code /home/u/proj/src/Test/More.lua}, {@code More.lua} under
     * {@code .}); null when {@code p} is not under it.
     */
    private Path modulePart(Path p, int i) {
        Path g = givenPaths.get(i);
        if (p.startsWith(g) && !p.equals(g)) return g.relativize(p);
        for (Path c : p) {
            if (c.toString().equals("..")) return null;
        }
        Path abs = p.toAbsolutePath().normalize();
        Path root = roots.get(i);
        return abs.startsWith(root) && !abs.equals(root) ? root.relativize(abs) : null;
    }

    /**
     * What {@code luaL_loadfilex} hands the parser from a file's bytes: a UTF-8 byte-order mark
     * ({@code EF BB BF}, only when all three bytes are there) is dropped, then a first line
     * starting with {@code #} (a Unix "#!" line) is dropped up to and including its newline and
     * replaced by one newline, so line numbers stay right. Strings given to {@code load} get
     * neither treatment, as in PUC. (Snapshots compare a module's text with it again on restore.)
     */
    public static byte[] loadText(byte[] src) {
        int start = 0;
        if (src.length >= 3 && (src[0] & 0xff) == 0xEF && (src[1] & 0xff) == 0xBB && (src[2] & 0xff) == 0xBF) start = 3;
        if (start < src.length && src[start] == '#') {
            int nl = start;
            while (nl < src.length && src[nl] != '\n') nl++;
            // keep the newline itself (or add one at the end of file): the first line stays line 1
            if (nl < src.length) return java.util.Arrays.copyOfRange(src, nl, src.length);
            return new byte[] {'\n'};
        }
        return start == 0 ? src : java.util.Arrays.copyOfRange(src, start, src.length);
    }
}
