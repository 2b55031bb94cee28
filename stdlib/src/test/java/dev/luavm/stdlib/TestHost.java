package dev.luavm.stdlib;

import dev.luavm.lib.HostEnvironment;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** A host for tests: output captured in memory (or echoed), fixed seed, real clocks. */
public final class TestHost implements HostEnvironment {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final boolean echo;

    public TestHost() {
        this(false);
    }

    public TestHost(boolean echo) {
        this.echo = echo;
    }

    @Override
    public long currentTimeMillis() {
        return System.currentTimeMillis();
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public long randomSeed() {
        return 0;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        if (echo) {
            System.out.write(bytes, offset, length);
            System.out.flush();
        } else {
            out.write(bytes, offset, length);
        }
    }

    public String output() {
        return out.toString(StandardCharsets.UTF_8);
    }

    public void reset() {
        out.reset();
    }
}
