package dev.luavm.mcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Where an MCP session outlives its server ({@code luavm mcp --state DIR},
 * {@link LuaMcpServer.Builder#stateDirectory}): the file {@code DIR/session.luavm} holds the
 * session's sandbox as a snapshot ({@code Sandbox.snapshot()}, docs/SNAPSHOT.md) and what the
 * session has spent of its gas budget, written after every call and read when a server starts
 * again on the same directory.
 *
 * <h2>Crashes</h2>
 * Every write goes to a temporary file in the same directory, forced to disk, then moved over the
 * state file in one step (and the directory forced), so a server killed at any moment, SIGKILL
 * included, leaves the previous state or the new one, never a mix: a restarted server loses at
 * most the call that was in flight. A state file that cannot be read (damaged, from another
 * format version, needing a grant the server no longer has) is moved aside to
 * {@code session.luavm.bad} and the session starts afresh, with the gas the file says was spent
 * when at least that much is readable.
 *
 * <h2>One server per directory</h2>
 * The store holds a lock on {@code DIR/lock} for its life: a second server started on the same
 * directory fails at once instead of overwriting the first one's state.
 *
 * <h2>File</h2>
 * {@code "LVMCPST1"}, the gas spent (8 bytes, big-endian), the snapshot's length (4 bytes; 0: no
 * sandbox, as after {@code lua_reset}), the snapshot, then a CRC-32C of everything before it.
 */
final class SessionStore implements AutoCloseable {
    static final String FILE = "session.luavm";
    private static final byte[] MAGIC = {'L', 'V', 'M', 'C', 'P', 'S', 'T', '1'};
    private static final int HEADER = MAGIC.length + 8 + 4;

    /** What a state file held: the gas spent, and the snapshot (null: none). */
    record Stored(long gasSpent, byte[] snapshot) {}

    private final Path dir;
    private final Path file;
    private final FileChannel lockChannel;
    private final FileLock lock;

    private SessionStore(Path dir, FileChannel lockChannel, FileLock lock) {
        this.dir = dir;
        this.file = dir.resolve(FILE);
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    /**
     * The store of {@code dir} (created if missing), locked for this process.
     *
     * @throws IOException the directory cannot be made or locked, or another server holds it
     */
    static SessionStore open(Path dir) throws IOException {
        Files.createDirectories(dir);
        FileChannel ch = FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock l;
        try {
            l = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            l = null;
        }
        if (l == null) {
            ch.close();
            throw new IOException("another luavm mcp server uses the state directory " + dir);
        }
        return new SessionStore(dir, ch, l);
    }

    Path directory() {
        return dir;
    }

    /**
     * What the state file holds; null when there is none. A file that cannot be read throws
     * {@link IOException} saying why (the caller moves it aside with {@link #setAside}).
     */
    Stored load() throws IOException {
        if (!Files.exists(file)) return null;
        long size = Files.size(file);
        if (size < HEADER + 4 || size > Integer.MAX_VALUE - 8) throw new IOException("not a session state file (size " + size + ")");
        byte[] b = Files.readAllBytes(file);
        for (int i = 0; i < MAGIC.length; i++) {
            if (b[i] != MAGIC[i]) throw new IOException("not a session state file");
        }
        CRC32C crc = new CRC32C();
        crc.update(b, 0, b.length - 4);
        ByteBuffer buf = ByteBuffer.wrap(b);
        if (buf.getInt(b.length - 4) != (int) crc.getValue()) throw new IOException("damaged (its checksum does not match)");
        long gas = buf.getLong(MAGIC.length);
        int len = buf.getInt(MAGIC.length + 8);
        if (gas < 0 || len < 0 || HEADER + (long) len + 4 != b.length) throw new IOException("damaged (inconsistent lengths)");
        byte[] snap = len == 0 ? null : java.util.Arrays.copyOfRange(b, HEADER, HEADER + len);
        return new Stored(gas, snap);
    }

    /** Replaces the state file atomically (see the class comment). {@code snapshot} null: no sandbox. */
    void save(long gasSpent, byte[] snapshot) throws IOException {
        byte[] snap = snapshot == null ? new byte[0] : snapshot;
        ByteBuffer b = ByteBuffer.allocate(HEADER + snap.length + 4);
        b.put(MAGIC).putLong(gasSpent).putInt(snap.length).put(snap);
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, b.position());
        b.putInt((int) crc.getValue());
        b.flip();
        Path tmp = Files.createTempFile(dir, "." + FILE + ".", ".tmp");
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                while (b.hasRemaining()) ch.write(b);
                ch.force(true);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            forceDirectory();
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Moves an unreadable state file aside ({@code session.luavm.bad}, replacing an older one); returns where. */
    Path setAside() throws IOException {
        Path bad = dir.resolve(FILE + ".bad");
        Files.move(file, bad, StandardCopyOption.REPLACE_EXISTING);
        forceDirectory();
        return bad;
    }

    /** The rename itself made durable (where the platform lets a directory be opened). */
    private void forceDirectory() {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // not every file system lets a directory be forced; the rename is atomic either way
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            lockChannel.close();
        } catch (IOException e) {
            // the lock goes with the process anyway
        }
    }
}
