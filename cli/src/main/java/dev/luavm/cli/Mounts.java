package dev.luavm.cli;

import dev.luavm.vfs.Vfs;

import java.nio.file.Path;
import java.util.List;

/**
 * The CLI's {@code --mount} specifications, as a {@link Vfs}:
 * <pre>
 *   --mount /data=DIR:ro               a host directory, read-only
 *   --mount /out=DIR:rw[:QUOTA]        a host directory, read-write (QUOTA: how much it may grow)
 *   --mount /tmp=mem[:QUOTA]           an empty directory in memory
 *   --mount /scratch=DIR:overlay[:QUOTA]  DIR as it is, every change in memory, dropped after each run
 * </pre>
 * Quotas are sizes as {@code --memory} takes them ({@code 8m}, {@code 512k}); without one, a
 * mount is bounded only by the memory limit (memory, overlay) or not at all (rw).
 *
 * <p>The script's working directory ({@link Vfs#withWorkingDirectory}) is where the CLI's own
 * working directory is in the mounts: with {@code --mount /work=.:rw}, {@code /work}, so
 * {@code io.open("file.txt")} opens {@code ./file.txt} as lua5.3 would; with
 * {@code --mount /src=..:ro}, run from {@code ../app}, {@code /src/app}. Of several host
 * directories holding it, the innermost serves (the first mounted of equal ones). When no mount
 * holds it, relative names start at {@code /}.
 */
final class Mounts {
    private Mounts() {}

    /** The file system of the specifications, in order; a bad one raises IllegalArgumentException naming it. */
    static Vfs parse(List<String> specs) {
        Vfs vfs = Vfs.create();
        for (String spec : specs) vfs = add(vfs, spec);
        String wd = workingDirectory(vfs, Path.of(""));
        try {
            return wd == null ? vfs : vfs.withWorkingDirectory(wd);
        } catch (IllegalArgumentException notAName) { // a host name the VFS cannot spell: relative names from /
            return vfs;
        }
    }

    /**
     * The name {@code cwd} (a host directory) has in {@code vfs}: the point of the mount of the
     * innermost host directory holding it, plus the way down; null when no mount holds it. Both
     * are compared as real paths, so a link on either side does not hide the match.
     */
    static String workingDirectory(Vfs vfs, Path cwd) {
        Path here;
        try {
            here = cwd.toRealPath();
        } catch (java.io.IOException | SecurityException e) {
            return null;
        }
        String best = null;
        int bestDepth = -1;
        for (Vfs.Mount m : vfs.mounts()) {
            if (m.hostDirectory() == null) continue;
            Path root;
            try {
                root = m.hostDirectory().toRealPath();
            } catch (java.io.IOException | SecurityException e) {
                continue;
            }
            if (!here.startsWith(root) || root.getNameCount() <= bestDepth) continue;
            StringBuilder name = new StringBuilder(m.path().equals("/") ? "" : m.path());
            for (Path part : root.relativize(here)) {
                if (!part.toString().isEmpty()) name.append('/').append(part);
            }
            String candidate = name.length() == 0 ? "/" : name.toString();
            if (candidate.length() >= 4096) continue; // deeper than a name may be: no working directory there
            if (servedBy(vfs, candidate) != m) continue; // a nested mount shadows that host directory there
            best = candidate;
            bestDepth = root.getNameCount();
        }
        return best;
    }

    /** The mount serving {@code name}: the longest point containing it. */
    private static Vfs.Mount servedBy(Vfs vfs, String name) {
        Vfs.Mount best = null;
        for (Vfs.Mount m : vfs.mounts()) {
            String p = m.path();
            boolean holds = p.equals("/") || name.equals(p) || name.startsWith(p + "/");
            if (holds && (best == null || p.length() > best.path().length())) best = m;
        }
        return best;
    }

    private static Vfs add(Vfs vfs, String spec) {
        int eq = spec.indexOf('=');
        if (eq <= 0) throw new IllegalArgumentException("'" + spec + "': expected MOUNTPOINT=SOURCE:MODE");
        String point = spec.substring(0, eq);
        String source = spec.substring(eq + 1);
        try {
            if (source.equals("mem")) return vfs.mountMemory(point, Vfs.UNLIMITED);
            if (source.startsWith("mem:") && isSize(source.substring(4))) {
                return vfs.mountMemory(point, Quantities.parseSize(source.substring(4)));
            }
            String[] parts = source.split(":", -1);
            int n = parts.length;
            String mode;
            String quota = null;
            int dirEnd;
            if (n >= 2 && isMode(parts[n - 1])) {
                mode = parts[n - 1];
                dirEnd = n - 1;
            } else if (n >= 3 && isMode(parts[n - 2]) && !parts[n - 2].equals("ro")) {
                mode = parts[n - 2];
                quota = parts[n - 1];
                dirEnd = n - 2;
            } else {
                throw new IllegalArgumentException("'" + spec + "': the source needs a mode: DIR:ro, DIR:rw[:QUOTA], DIR:overlay[:QUOTA] or mem[:QUOTA]");
            }
            String dir = String.join(":", java.util.Arrays.asList(parts).subList(0, dirEnd));
            if (dir.isEmpty()) throw new IllegalArgumentException("'" + spec + "': no directory before ':" + mode + "'");
            long q = quota == null ? Vfs.UNLIMITED : Quantities.parseSize(quota);
            Path p = Path.of(dir);
            return switch (mode) {
                case "ro" -> vfs.mountReadOnly(point, p);
                case "rw" -> vfs.mountReadWrite(point, p, q);
                default -> vfs.mountOverlay(point, p, q);
            };
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            String m = e.getMessage();
            throw new IllegalArgumentException(m != null && m.startsWith("'" + spec) ? m : "'" + spec + "': " + m);
        }
    }

    private static boolean isMode(String s) {
        return s.equals("ro") || s.equals("rw") || s.equals("overlay");
    }

    private static boolean isSize(String s) {
        try {
            Quantities.parseSize(s);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
