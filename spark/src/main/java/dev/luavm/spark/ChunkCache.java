package dev.luavm.spark;

import dev.luavm.CompiledChunk;
import dev.luavm.audit.Digests;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The executor JVM's compiled scripts: a job ships a script's source, and the first task on an
 * executor to run it compiles it once; every later task and row of any job with the same source
 * and chunk name takes the compiled chunk from here. Keyed by the SHA-256 of the source (and the
 * chunk name, which messages show), least recently used first out, bounded both in entries
 * ({@link #MAX_CHUNKS}) and in source bytes ({@link #MAX_SOURCE_BYTES}), so a stream of
 * distinct scripts (the SQL function takes a script per row) cannot grow it without end.
 *
 * <p>What it holds is immutable compiled code that any number of sandboxes may run at once
 * ({@link CompiledChunk}): nothing a script can change is shared through it.
 */
final class ChunkCache {
    /** Most chunks kept. */
    static final int MAX_CHUNKS = 256;
    /** Most source bytes kept, all chunks together (compiled code is a small multiple of it). */
    static final long MAX_SOURCE_BYTES = 32L << 20;

    private static final ChunkCache SHARED = new ChunkCache(MAX_CHUNKS, MAX_SOURCE_BYTES);

    private record Key(String sha256, String chunkName) {}

    private record Entry(CompiledChunk chunk, long bytes) {}

    private final int maxChunks;
    private final long maxBytes;
    /** in access order, guarded by this */
    private final LinkedHashMap<Key, Entry> chunks = new LinkedHashMap<>(16, 0.75f, true);
    private long bytes;
    private final AtomicLong compilations = new AtomicLong();

    ChunkCache(int maxChunks, long maxBytes) {
        this.maxChunks = maxChunks;
        this.maxBytes = maxBytes;
    }

    static ChunkCache shared() {
        return SHARED;
    }

    /**
     * The compiled chunk of {@code source}, compiled now if this JVM does not hold it.
     *
     * @throws dev.luavm.LuaSyntaxException the source does not compile (nothing is cached)
     */
    CompiledChunk get(String chunkName, String source) {
        byte[] text = source.getBytes(StandardCharsets.UTF_8);
        Key key = new Key(Digests.sha256(text), chunkName);
        synchronized (this) {
            Entry e = chunks.get(key);
            if (e != null) return e.chunk;
        }
        // compiled outside the lock: a large script must not stall other tasks' look-ups; two
        // tasks that miss together both compile and the first one in is kept
        CompiledChunk chunk = ExecutorRuntime.vm().compile(chunkName, text);
        compilations.incrementAndGet();
        synchronized (this) {
            Entry e = chunks.get(key);
            if (e != null) return e.chunk;
            chunks.put(key, new Entry(chunk, text.length));
            bytes += text.length;
            evict();
        }
        return chunk;
    }

    /** Drops the least recently used chunks past either bound (the newest one always stays). */
    private void evict() {
        var it = chunks.entrySet().iterator();
        while ((chunks.size() > maxChunks || bytes > maxBytes) && chunks.size() > 1) {
            Map.Entry<Key, Entry> oldest = it.next();
            bytes -= oldest.getValue().bytes;
            it.remove();
        }
    }

    /** Compilations so far (for tests: once per script per JVM). */
    long compilations() {
        return compilations.get();
    }

    /** Chunks held now. */
    synchronized int size() {
        return chunks.size();
    }
}
