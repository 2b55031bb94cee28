package com.example.consumer;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

class MainTest {
    @Test
    void runsASandboxFromTheInstalledArtifact() {
        PrintStream saved = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            Main.main(new String[0]);
        } finally {
            System.setOut(saved);
        }
        // the last line: dev.luavm:luavm brings the compiled tier, on by default (the gas is the interpreter's)
        assertEquals("3 items\ntotal: 94\nhello, consumer (8 chars)\nstopped: GAS\n"
                + "fib(24) = 46368 in 1650543 gas, tier AUTO, compiled: [function <fib.lua:1>]\n",
                out.toString(StandardCharsets.UTF_8));
    }
}
