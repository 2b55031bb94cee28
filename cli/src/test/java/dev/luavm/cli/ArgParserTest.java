package dev.luavm.cli;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ArgParserTest {
    private static Options parse(String... argv) throws ArgParser.UsageException {
        return ArgParser.parse(argv);
    }

    @Test
    void scriptAndItsArgumentsAreSeparatedFromOptions() throws Exception {
        Options o = parse("-e", "x=1", "s.lua", "-e", "p");
        assertEquals(List.of("x=1"), o.statements);
        assertEquals("s.lua", o.script);
        assertEquals(2, o.scriptIndex);
        assertEquals(List.of("-e", "p"), o.scriptArgs());
    }

    @Test
    void dashIsStdinAndDoubleDashStopsOptions() throws Exception {
        assertEquals("-", parse("-").script);
        Options o = parse("--", "-v");
        assertEquals("-v", o.script);
        assertTrue(!o.version);
    }

    @Test
    void noScript() throws Exception {
        Options o = parse("-i");
        assertNull(o.script);
        assertEquals(-1, o.scriptIndex);
        assertTrue(o.interactive);
    }

    @Test
    void limitOptionsInBothForms() throws Exception {
        Options o = parse("--gas", "1_000", "--memory=64m", "--timeout", "500ms", "--output", "2k", "--caps", "string,base", "x.lua");
        assertEquals(1000L, o.gas);
        assertEquals(64L << 20, o.memory);
        assertEquals(Duration.ofMillis(500), o.timeout);
        assertEquals(2048L, o.output);
        assertEquals("string,base", o.caps);
        assertEquals("x.lua", o.script);
    }

    @Test
    void pathIsRepeatable() throws Exception {
        Options o = parse("--path", "lib", "--path=vendor/lua", "x.lua");
        assertEquals(java.util.List.of("lib", "vendor/lua"), o.paths);
        assertThrows(ArgParser.UsageException.class, () -> parse("--path"));
    }

    @Test
    void listingCountsRepeats() throws Exception {
        assertEquals(2, parse("-l", "-l", "a.lua").listing);
        assertThrows(ArgParser.UsageException.class, () -> parse("-l"));
    }

    @Test
    void badCommandLines() {
        assertThrows(ArgParser.UsageException.class, () -> parse("-e"));
        assertThrows(ArgParser.UsageException.class, () -> parse("-x"));
        assertThrows(ArgParser.UsageException.class, () -> parse("--gas"));
        assertThrows(ArgParser.UsageException.class, () -> parse("--gas", "ten"));
        assertThrows(ArgParser.UsageException.class, () -> parse("--memory", "12q"));
        assertThrows(ArgParser.UsageException.class, () -> parse("--frobnicate"));
    }

    @Test
    void quantities() {
        assertEquals(1024, Quantities.parseSize("1k"));
        assertEquals(3L << 30, Quantities.parseSize("3G"));
        assertEquals(5L << 20, Quantities.parseSize("5MiB"));
        assertEquals(77, Quantities.parseSize("77"));
        assertThrows(IllegalArgumentException.class, () -> Quantities.parseSize("99999999999g"));
        assertThrows(IllegalArgumentException.class, () -> Quantities.parseSize("-1k"));
        assertEquals(Duration.ofSeconds(2), Quantities.parseDuration("2s"));
        assertEquals(Duration.ofMinutes(1), Quantities.parseDuration("1m"));
        assertEquals(Duration.ofMillis(250), Quantities.parseDuration("250ms"));
        assertEquals(Duration.ofSeconds(3), Quantities.parseDuration("3"));
        assertThrows(IllegalArgumentException.class, () -> Quantities.parseDuration("soon"));
    }
}
