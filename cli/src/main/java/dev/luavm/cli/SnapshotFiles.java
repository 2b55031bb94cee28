package dev.luavm.cli;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Snapshot files of the command line ({@code --save}, {@code --restore}, the REPL's
 * {@code :save} and {@code :load}): written atomically (a temporary file in the same directory,
 * forced to disk, then moved over the target), so a crash leaves the previous file or the new
 * one, never half of one.
 */
final class SnapshotFiles {
    private SnapshotFiles() {}

    /** The largest snapshot file the command line reads (a file larger than the JVM can hold is refused early). */
    static final long MAX_READ = Integer.MAX_VALUE - 8;

    static void write(Path file, byte[] snapshot) throws IOException {
        Path abs = file.toAbsolutePath();
        Path dir = abs.getParent();
        Path tmp = Files.createTempFile(dir, "." + abs.getFileName() + ".", ".tmp");
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(snapshot);
                while (b.hasRemaining()) ch.write(b);
                ch.force(true);
            }
            try {
                Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    static byte[] read(Path file) throws IOException {
        if (Files.size(file) > MAX_READ) throw new IOException("too large for a snapshot");
        return Files.readAllBytes(file);
    }
}
