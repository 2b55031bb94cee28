package dev.luavm.snapshot;

/**
 * Every tag byte of the snapshot format, in one table that the writer ({@link StateWriter}) and
 * the reader ({@link StateReader}) share (docs/SNAPSHOT.md lists the same table). Each group
 * uses its own range of codes, so a byte read where another group's tag belongs is refused
 * instead of being taken for something else.
 */
public enum Tag {
    // sections, in the order they appear
    /** the end of the sections; the checksum follows */
    END(Group.SECTION, 0x00),
    /** the sandbox's scalars: seed, identity counter, memory figures, collector flags */
    STATE(Group.SECTION, 0x01),
    /** every chunk a function comes from: name, source text, hashes, shared string constants */
    CHUNKS(Group.SECTION, 0x02),
    /** the names of the builtins and host functions the objects refer to */
    PERMANENTS(Group.SECTION, 0x03),
    /** the objects: strings, tables, closures, upvalues, coroutines, userdata, library objects */
    OBJECTS(Group.SECTION, 0x04),
    /** the globals, registry, metatables of the basic types, coroutines and finalizer lists */
    ROOTS(Group.SECTION, 0x05),
    /** a run paused at a host call: its token, its consumption, the pending call */
    PAUSED(Group.SECTION, 0x06),
    /** state of a bundle kept outside the Lua heap (a named participant), zero or more */
    EXTENSION(Group.SECTION, 0x07),

    // objects
    STRING(Group.OBJECT, 0x10),
    TABLE(Group.OBJECT, 0x11),
    CLOSURE(Group.OBJECT, 0x12),
    UPVALUE(Group.OBJECT, 0x13),
    COROUTINE(Group.OBJECT, 0x14),
    USERDATA(Group.OBJECT, 0x15),
    /** a function made by {@code coroutine.wrap} */
    WRAP(Group.OBJECT, 0x16),
    /** a builtin with state of its own that a library rebuilds ({@code dev.luavm.lib.Persistent}) */
    LIBRARY_OBJECT(Group.OBJECT, 0x17),

    // values
    NIL(Group.VALUE, 0x20),
    FALSE(Group.VALUE, 0x21),
    TRUE(Group.VALUE, 0x22),
    /** a zigzag varint */
    INTEGER(Group.VALUE, 0x23),
    /** eight bytes: the raw IEEE 754 bits (NaN payloads and -0.0 kept) */
    FLOAT(Group.VALUE, 0x24),
    /** an object, by its index in OBJECTS */
    REF(Group.VALUE, 0x25),
    /** a builtin or host function, by its index in PERMANENTS */
    PERMANENT(Group.VALUE, 0x26),

    // permanents
    /** a library builtin, by qualified name ({@code string.format}) */
    LIBRARY(Group.PERMANENT, 0x30),
    /** a granted host function, by grant name ({@code invoice.lookup}) */
    HOST(Group.PERMANENT, 0x31),

    // upvalues
    CLOSED(Group.UPVALUE_STATE, 0x40),
    OPEN(Group.UPVALUE_STATE, 0x41),

    // coroutine statuses
    SUSPENDED(Group.STATUS, 0x50),
    RUNNING(Group.STATUS, 0x51),
    NORMAL(Group.STATUS, 0x52),
    DEAD(Group.STATUS, 0x53),

    // frame kinds
    FRAME_LUA(Group.FRAME, 0x60),
    FRAME_PCALL(Group.FRAME, 0x61),
    FRAME_XPCALL(Group.FRAME, 0x62),
    FRAME_RESUME(Group.FRAME, 0x63),
    FRAME_WRAP(Group.FRAME, 0x64),
    /** the host call a paused run waits at */
    FRAME_PAUSED(Group.FRAME, 0x65);

    /** Which part of the format a tag belongs to. */
    public enum Group { SECTION, OBJECT, VALUE, PERMANENT, UPVALUE_STATE, STATUS, FRAME }

    public final Group group;
    public final int code;

    Tag(Group group, int code) {
        this.group = group;
        this.code = code;
    }

    private static final Tag[] BY_CODE = new Tag[256];

    static {
        for (Tag t : values()) {
            if (BY_CODE[t.code] != null) throw new ExceptionInInitializerError("duplicate tag code " + t.code);
            BY_CODE[t.code] = t;
        }
    }

    /** The tag of {@code group} with this code, or null. */
    public static Tag of(Group group, int code) {
        Tag t = code >= 0 && code < 256 ? BY_CODE[code] : null;
        return t != null && t.group == group ? t : null;
    }
}
