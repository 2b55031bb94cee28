package dev.luavm.vfs;

import java.util.List;
import java.util.Objects;

/**
 * A name inside one mount, as its {@link VfsBackend} receives it: the components below the
 * mount's root, already normalised ({@code .} and empty components gone, {@code ..} resolved
 * lexically, never past the root), each a non-empty name of at most 255 bytes of UTF-8 without
 * {@code /} or NUL. The empty path is the mount's root. A backend never sees anything else, so
 * it cannot be steered outside its root by a name.
 */
public final class VfsPath {
    /** the mount's root */
    public static final VfsPath ROOT = new VfsPath(List.of());

    private final List<String> parts;

    private VfsPath(List<String> parts) {
        this.parts = parts;
    }

    /**
     * The path of {@code parts}, checked: each one a plain name (not empty, {@code .} or
     * {@code ..}, without {@code /} or NUL).
     *
     * @throws IllegalArgumentException a part is not a plain name
     */
    public static VfsPath of(List<String> parts) {
        for (String p : parts) {
            if (!plainName(p)) throw new IllegalArgumentException("not a plain file name: '" + p + "'");
        }
        return parts.isEmpty() ? ROOT : new VfsPath(List.copyOf(parts));
    }

    /** The path of a slash-separated relative name ({@code "a/b"}; {@code ""} is the root). */
    public static VfsPath parse(String relative) {
        return relative.isEmpty() ? ROOT : of(List.of(relative.split("/", -1)));
    }

    static boolean plainName(String p) {
        return !p.isEmpty() && !p.equals(".") && !p.equals("..") && p.indexOf('/') < 0 && p.indexOf('\0') < 0;
    }

    /** The components, outermost first. */
    public List<String> parts() {
        return parts;
    }

    public boolean isRoot() {
        return parts.isEmpty();
    }

    /** The last component ("" for the root). */
    public String name() {
        return parts.isEmpty() ? "" : parts.get(parts.size() - 1);
    }

    /** The path without its last component (the root's parent is the root). */
    public VfsPath parent() {
        return parts.size() <= 1 ? ROOT : new VfsPath(parts.subList(0, parts.size() - 1));
    }

    /** This path with {@code name} appended. */
    public VfsPath child(String name) {
        if (!plainName(name)) throw new IllegalArgumentException("not a plain file name: '" + name + "'");
        String[] a = parts.toArray(new String[parts.size() + 1]);
        a[parts.size()] = name;
        return new VfsPath(List.of(a));
    }

    /** True when {@code other} is this path or lies below it. */
    public boolean contains(VfsPath other) {
        return other.parts.size() >= parts.size() && other.parts.subList(0, parts.size()).equals(parts);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VfsPath p && p.parts.equals(parts);
    }

    @Override
    public int hashCode() {
        return Objects.hash(parts);
    }

    /** Slash-separated, without a leading slash ({@code ""} for the root). */
    @Override
    public String toString() {
        return String.join("/", parts);
    }
}
