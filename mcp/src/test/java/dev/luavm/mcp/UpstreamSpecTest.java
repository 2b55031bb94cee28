package dev.luavm.mcp;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** {@code --upstream NAME="CMD ARGS"} and the Lua names of tools. */
class UpstreamSpecTest {
    @Test
    void theCommandIsSplitAtSpacesWithQuotes() {
        Upstream.Spec s = Upstream.Spec.parse("fs=npx -y \"@scope/server files\" '/tmp/my dir' a\\ b");
        assertEquals("fs", s.name());
        assertEquals(List.of("npx", "-y", "@scope/server files", "/tmp/my dir", "a b"), s.command());
        assertEquals(List.of("cmd", "", "x=1"), Upstream.Spec.parse("u= cmd '' x=1").command());
    }

    @Test
    void badSpecsSayWhatIsWrong() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Upstream.Spec.parse("just-a-command"))
                .getMessage().contains("NAME=\"COMMAND ARGS\""));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Upstream.Spec.parse("my-fs=cmd"))
                .getMessage().contains("must be a Lua name"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Upstream.Spec.parse("end=cmd"))
                .getMessage().contains("must be a Lua name"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Upstream.Spec.parse("fs=")).getMessage()
                .contains("has no command"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Upstream.Spec.parse("fs=cmd 'open"))
                .getMessage().contains("unclosed quote"));
    }

    @Test
    void toolNamesBecomeLuaNames() {
        assertEquals("get_weather", Upstream.luaName("get-weather"));
        assertEquals("files_read", Upstream.luaName("files.read"));
        assertEquals("_3d", Upstream.luaName("3d"));
        assertEquals("end_", Upstream.luaName("end"));
        assertEquals("_", Upstream.luaName(""));
        assertEquals("caf_", Upstream.luaName("café"));
    }
}
