package dev.luavm.value;

import dev.luavm.meter.GasMeter;
import dev.luavm.meter.GasSink;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A Lua string: an immutable sequence of bytes. Lua strings are byte strings, not text: a
 * chunk is read as bytes, {@code "\xff"} is one byte, and nothing here assumes UTF-8.
 *
 * <p>Host strings ({@link #of(String)}) are encoded as UTF-8; {@link #toString()} decodes
 * as UTF-8 (malformed bytes become U+FFFD) and is for the host only, never for Lua semantics.
 * The hash is computed lazily over all bytes and cached; equality compares bytes.
 *
 * <p>Comparisons done for Lua semantics ({@code ==}, {@code <}, {@code <=} in the VM, and
 * {@code rawequal}, {@code table.sort}, {@code math.min}/{@code max} in the library) go through
 * {@link #equals(LuaString, GasSink)} and {@link #compareTo(LuaString, GasSink)}. Strings up to
 * {@link #FREE_COMPARE_BYTES} compare inside the operation's price; longer ones pay the byte rule
 * for the bytes they compare, in chunks each charged before it is compared: 64 bytes first,
 * doubling up to {@link #COMPARE_CHUNK}, so a difference found early costs little and an equal
 * prefix of any length costs what it is (equality first short-cuts on length and cached hashes). Hashing a long string is charged by the table that asks for the
 * hash first ({@link #cachedHash()} tells whether it is known).
 *
 * <p>Immutable, so one instance may be shared by every sandbox (library keys are). The cached
 * hash follows {@code java.lang.String}'s idiom: each field is only ever written with its final
 * value, so a thread that sees a stale field merely computes the hash again.
 */
public final class LuaString implements Comparable<LuaString> {
    public static final LuaString EMPTY = new LuaString(new byte[0]);

    /** Compares of strings up to this length stay inside the operation's base cost. */
    public static final int FREE_COMPARE_BYTES = 32;
    /** The first chunk of a long compare; chunks double from here to {@link #COMPARE_CHUNK}. */
    public static final int FIRST_COMPARE_CHUNK = 64;
    /** Long compares are charged and done in chunks of at most this many bytes (so they stop at the limit). */
    public static final int COMPARE_CHUNK = 4096;

    private final byte[] bytes;
    /** the cached hash; 0 until computed (a computed hash is never 0) */
    private int hash;

    private LuaString(byte[] bytes) {
        this.bytes = bytes;
    }

    /** Wraps {@code bytes} without copying; the caller must never modify them afterwards. */
    public static LuaString wrap(byte[] bytes) {
        return bytes.length == 0 ? EMPTY : new LuaString(bytes);
    }

    /** Copies {@code bytes[from, to)}. */
    public static LuaString copyOf(byte[] bytes, int from, int to) {
        return wrap(Arrays.copyOfRange(bytes, from, to));
    }

    /** A host string, encoded as UTF-8. */
    public static LuaString of(String s) {
        return wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    /** A string whose chars are all below 256, one byte per char (source text read as ISO-8859-1). */
    public static LuaString ofLatin1(String s) {
        return wrap(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    public int length() {
        return bytes.length;
    }

    /** The byte at {@code i} (0-based), as an unsigned value 0-255. */
    public int byteAt(int i) {
        return bytes[i] & 0xFF;
    }

    /** A copy of the bytes. */
    public byte[] toBytes() {
        return bytes.clone();
    }

    /** The bytes themselves, for read-only use by the runtime. Never modify them. */
    public byte[] bytesUnsafe() {
        return bytes;
    }

    /** Bytes {@code [from, to)} (0-based) as a new string. */
    public LuaString substring(int from, int to) {
        if (from == 0 && to == bytes.length) return this;
        return copyOf(bytes, from, to);
    }

    public LuaString concat(LuaString other) {
        if (other.bytes.length == 0) return this;
        if (bytes.length == 0) return other;
        byte[] r = Arrays.copyOf(bytes, bytes.length + other.bytes.length);
        System.arraycopy(other.bytes, 0, r, bytes.length, other.bytes.length);
        return new LuaString(r);
    }

    /** Index of {@code needle} at or after {@code from}, or -1 (plain search, as string.find with plain=true). */
    public int indexOf(LuaString needle, int from) {
        byte[] n = needle.bytes;
        if (n.length == 0) return from <= bytes.length ? from : -1;
        int last = bytes.length - n.length;
        byte first = n[0];
        outer:
        for (int i = from; i <= last; i++) {
            if (bytes[i] != first) continue;
            for (int j = 1; j < n.length; j++) {
                if (bytes[i + j] != n[j]) continue outer;
            }
            return i;
        }
        return -1;
    }

    /** The Latin-1 view: one char per byte. Used by the lexer and for byte-exact round trips. */
    public String toLatin1() {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = 0x9E3779B9 ^ bytes.length;
            for (byte b : bytes) {
                h = 31 * h + b;
            }
            h ^= h >>> 16;
            if (h == 0) h = 0x2545F491; // 0 means "not computed yet"
            hash = h;
        }
        return h;
    }

    /** The hash if it has been computed already, else 0 (computing it is byte work over every byte). */
    public int cachedHash() {
        return hash;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof LuaString other)) return false;
        if (other.bytes.length != bytes.length) return false;
        int h1 = hash;
        int h2 = other.hash;
        if (h1 != 0 && h2 != 0 && h1 != h2) return false;
        return Arrays.equals(bytes, other.bytes);
    }

    /** Byte-wise unsigned comparison: Lua's string order in the "C" locale. */
    @Override
    public int compareTo(LuaString o) {
        return Arrays.compareUnsigned(bytes, o.bytes);
    }

    /**
     * Lua's {@code ==} on strings, charging {@code gas} the byte rule for the bytes compared when
     * both are longer than {@link #FREE_COMPARE_BYTES} (different lengths or different cached
     * hashes answer false for free).
     */
    public boolean equals(LuaString o, GasSink gas) {
        if (this == o) return true;
        byte[] a = bytes;
        byte[] b = o.bytes;
        int n = a.length;
        if (b.length != n) return false;
        int h1 = hash;
        int h2 = o.hash;
        if (h1 != 0 && h2 != 0 && h1 != h2) return false;
        if (n <= FREE_COMPARE_BYTES) return Arrays.equals(a, b);
        return mismatch(a, b, n, gas) < 0;
    }

    /** {@link #compareTo(LuaString)} charging {@code gas} as {@link #equals(LuaString, GasSink)} does. */
    public int compareTo(LuaString o, GasSink gas) {
        byte[] a = bytes;
        byte[] b = o.bytes;
        int n = Math.min(a.length, b.length);
        if (n <= FREE_COMPARE_BYTES || this == o) return Arrays.compareUnsigned(a, b);
        int i = mismatch(a, b, n, gas);
        if (i < 0) return Integer.compare(a.length, b.length);
        return Integer.compare(a[i] & 0xFF, b[i] & 0xFF);
    }

    /** Index of the first difference within {@code [0, n)}, or -1; each chunk is charged before it is compared. */
    private static int mismatch(byte[] a, byte[] b, int n, GasSink gas) {
        int chunk = FIRST_COMPARE_CHUNK;
        for (int from = 0; from < n; from += chunk, chunk = Math.min(2 * chunk, COMPARE_CHUNK)) {
            int to = Math.min(n, from + chunk);
            gas.charge(GasMeter.byteWork(to - from));
            int i = Arrays.mismatch(a, from, to, b, from, to);
            if (i >= 0) return from + i;
        }
        return -1;
    }

    /** Decodes as UTF-8 for the host. Not for Lua semantics. */
    @Override
    public String toString() {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
