package dev.luavm.vfs;

/**
 * One change a script made in an overlay (or one file of a memory mount): the path below the
 * mount, whether the file was written (created, changed, renamed there) or removed (a file or
 * directory of the host hidden), and the size of a written file.
 */
public record FileChange(String path, Kind kind, long size) {
    public enum Kind { WRITTEN, REMOVED }
}
