package dev.luavm.lib;

/**
 * Library functions that the VM implements itself because they change the shape of the frame
 * stack rather than compute a value: protected calls and coroutine switches must not recurse on
 * the Java stack (VM rule 3) and must let a coroutine yield through them.
 */
public enum Intrinsic {
    PCALL, XPCALL, ERROR,
    COROUTINE_CREATE, COROUTINE_RESUME, COROUTINE_YIELD, COROUTINE_WRAP,
    COROUTINE_STATUS, COROUTINE_RUNNING, COROUTINE_ISYIELDABLE,
    /** load(chunk [, chunkname [, mode [, env]]]), text only */
    LOAD
}
