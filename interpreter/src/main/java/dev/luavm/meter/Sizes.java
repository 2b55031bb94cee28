package dev.luavm.meter;

/**
 * Fixed size estimates, in bytes, for what the memory meter charges. They approximate a
 * 64-bit JVM with compressed references; what matters is that they are fixed, so accounting
 * is deterministic across JVMs, and that they grow with what the script controls.
 */
public final class Sizes {
    private Sizes() {}

    public static final long REF = 8;
    public static final long STRING_HEADER = 40;
    public static final long TABLE_HEADER = 64;
    /** per array-part slot */
    public static final long ARRAY_SLOT = REF;
    /** per hash-part slot: key and value references */
    public static final long HASH_SLOT = 2 * REF;
    public static final long CLOSURE_HEADER = 40;
    public static final long UPVALUE = 32;
    public static final long COROUTINE_HEADER = 256;
    public static final long STACK_SLOT = REF;
    public static final long FRAME = 64;
    public static final long USERDATA = 32;

    public static long string(long length) {
        return STRING_HEADER + length;
    }
}
