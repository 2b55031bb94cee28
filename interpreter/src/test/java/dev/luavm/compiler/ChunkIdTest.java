package dev.luavm.compiler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Chunk ids as PUC's luaO_chunkid (checked against lua5.3 error messages). */
class ChunkIdTest {
    @Test
    void fileNames() {
        assertEquals("t.lua", ChunkId.of("@t.lua"));
        String longName = "@" + "d/".repeat(40) + "file.lua";
        String id = ChunkId.of(longName);
        assertEquals(59, id.length());
        assertEquals("..." + longName.substring(longName.length() - 56), id);
    }

    @Test
    void literalNames() {
        assertEquals("stdin", ChunkId.of("=stdin"));
        assertEquals("x".repeat(59), ChunkId.of("=" + "x".repeat(100)));
    }

    @Test
    void sourceStrings() {
        assertEquals("[string \"x = = 1\"]", ChunkId.of("x = = 1"));
        assertEquals("[string \"f(...\"]", ChunkId.of("f(\n1"));
        assertEquals("[string \"" + "a".repeat(45) + "...\"]", ChunkId.of("a".repeat(100)));
        assertEquals("[string \"" + "a".repeat(44) + "\"]", ChunkId.of("a".repeat(44)));
        assertEquals("[string \"" + "a".repeat(45) + "...\"]", ChunkId.of("a".repeat(45)));
    }
}
