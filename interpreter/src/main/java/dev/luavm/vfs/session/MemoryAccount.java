package dev.luavm.vfs.session;

import dev.luavm.vfs.VfsException;

/**
 * Where the bytes the VFS keeps for a script are counted: the sandbox's memory meter, as held
 * memory (outside the Lua heap, counted until released). Memory that does not fit is
 * {@code No space left on device}, as a full tmpfs answers.
 */
public interface MemoryAccount {
    /** Counts {@code bytes} more, or fails with ENOSPC (then nothing was counted). */
    void hold(long bytes) throws VfsException;

    /** Gives back {@code bytes} counted before. */
    void release(long bytes);

    /** An account with no limit (tests, tools). */
    static MemoryAccount unlimited() {
        return new MemoryAccount() {
            @Override
            public void hold(long bytes) {
            }

            @Override
            public void release(long bytes) {
            }
        };
    }
}
