package dev.luavm.contract;

import dev.luavm.vfs.Vfs;

import java.util.List;

/**
 * A contract's {@code filesystem:} section: the mounts the script may use, each one the host
 * offers (its {@code Vfs}, in the registry), with a mode and a quota no looser than the host's,
 * and optionally fewer handles and files.
 *
 * <pre>
 * filesystem:
 *   mounts:
 *     - { path: /data, mode: read-only }
 *     - { path: /tmp, mode: memory, quota: 8MiB }
 *   max_open_files: 16          # optional: the host's otherwise
 *   max_files: 1000             # optional
 * </pre>
 */
public record FilesystemRule(List<MountRule> mounts, Integer maxOpenFiles, Long maxFiles) {
    /** One mount: its point, its mode, and its quota (null: the host's). */
    public record MountRule(String path, Vfs.Mode mode, Long quota) {
        /** A mount is written by the script: memory, overlay or read-write (a {@code writes:fs} effect). */
        public boolean writable() {
            return mode != Vfs.Mode.READ_ONLY;
        }
    }

    public FilesystemRule {
        mounts = List.copyOf(mounts);
    }

    /** The mode word of a contract ({@code read-only}, {@code read-write}, {@code memory}, {@code overlay}), or null. */
    static Vfs.Mode mode(String word) {
        for (Vfs.Mode m : Vfs.Mode.values()) if (m.word.equals(word)) return m;
        return null;
    }

    /** True when the contract's mode gives no more than the host's: read-only below overlay below read-write; memory only as memory. */
    static boolean within(Vfs.Mode contract, Vfs.Mode host) {
        if (contract == host) return true;
        if (host == Vfs.Mode.MEMORY || contract == Vfs.Mode.MEMORY) return false;
        return rank(contract) < rank(host);
    }

    private static int rank(Vfs.Mode m) {
        return switch (m) {
            case READ_ONLY -> 0;
            case OVERLAY -> 1;
            default -> 2;
        };
    }

    /** The host's mount {@code m} as this rule narrows it, added to {@code vfs}. */
    static Vfs mount(Vfs vfs, Vfs.Mount m, MountRule rule) {
        long quota = rule.quota() != null ? rule.quota() : m.quota();
        return switch (rule.mode()) {
            case READ_ONLY -> m.hostDirectory() != null ? vfs.mountReadOnly(m.path(), m.hostDirectory())
                    : vfs.mountReadOnly(m.path(), m.backend());
            case READ_WRITE -> m.hostDirectory() != null ? vfs.mountReadWrite(m.path(), m.hostDirectory(), quota)
                    : vfs.mountReadWrite(m.path(), m.backend(), quota);
            case MEMORY -> vfs.mountMemory(m.path(), quota);
            case OVERLAY -> m.hostDirectory() != null ? vfs.mountOverlay(m.path(), m.hostDirectory(), quota)
                    : vfs.mountOverlay(m.path(), m.backend(), quota);
        };
    }
}
