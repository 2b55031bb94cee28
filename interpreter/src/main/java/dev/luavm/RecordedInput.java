package dev.luavm;

import dev.luavm.audit.AuditTrail;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The host-given input stream of a recording sandbox: every byte it delivers to the script
 * ({@code io.read}, {@code io.lines}) is written to the recording, so a replay can feed the
 * script the same bytes without the original stream.
 */
final class RecordedInput extends FilterInputStream {
    /** set once the sandbox's audit trail exists (reads only happen during runs, after that) */
    private AuditTrail audit;

    RecordedInput(InputStream in) {
        super(in);
    }

    void recordTo(AuditTrail audit) {
        this.audit = audit;
        audit.inputPresent();
    }

    @Override
    public int read() throws IOException {
        int c = super.read();
        if (c >= 0 && audit != null) audit.inputRead(new byte[] {(byte) c}, 0, 1);
        return c;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0 && audit != null) audit.inputRead(b, off, n);
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        // skipped bytes were delivered too: read them so they are recorded
        byte[] buf = new byte[(int) Math.min(Math.max(n, 0), 8192)];
        int r = n <= 0 ? 0 : read(buf, 0, buf.length);
        return Math.max(r, 0);
    }

    @Override
    public boolean markSupported() {
        return false; // a reset would deliver bytes twice
    }
}
