package dev.luavm.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The server's stdin and stdout, watched so that a client which writes its requests and closes
 * its end at once ({@code printf '...' | luavm mcp}) still gets every answer: the SDK's stdio
 * transport stops writing as soon as it reads the end of its input, so the end is passed on only
 * once every request read so far has been answered (or a grace period is over).
 */
final class StdioPipes {
    private static final int MAX_TRACKED_LINE = 16 << 20; // the SDK's own bound on a message

    private final ObjectMapper json = new ObjectMapper();
    private final Object lock = new Object();
    private long requests;
    private long responses;
    private final CountDownLatch ended = new CountDownLatch(1);
    private final long graceMillis;

    StdioPipes(long graceMillis) {
        this.graceMillis = graceMillis;
    }

    InputStream input(InputStream in) {
        return new Input(in);
    }

    OutputStream output(OutputStream out) {
        return new Output(out);
    }

    /** Blocks until the input has ended and been passed on. */
    void awaitEnd() throws InterruptedException {
        ended.await();
    }

    private JsonNode parse(ByteArrayOutputStream line) {
        if (line.size() == 0 || line.size() > MAX_TRACKED_LINE) return null;
        try {
            return json.readTree(line.toByteArray());
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private void sawInput(JsonNode n) {
        if (n == null) return;
        if (n.isArray()) {
            for (JsonNode e : n) sawInput(e);
        } else if (n.hasNonNull("id") && n.has("method")) {
            synchronized (lock) {
                requests++;
            }
        }
    }

    private void sawOutput(JsonNode n) {
        if (n == null) return;
        if (n.isArray()) {
            for (JsonNode e : n) sawOutput(e);
        } else if (n.has("id") && !n.has("method") && (n.has("result") || n.has("error"))) {
            synchronized (lock) {
                responses++;
                lock.notifyAll();
            }
        }
    }

    private void drain() {
        long deadline = System.currentTimeMillis() + graceMillis;
        synchronized (lock) {
            while (responses < requests) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) return;
                try {
                    lock.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private final class Input extends FilterInputStream {
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();
        private boolean eof;

        Input(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n <= 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (eof) return -1;
            int n;
            try {
                n = super.read(b, off, len);
            } catch (IOException e) {
                end();
                throw e;
            }
            if (n < 0) {
                sawInput(parse(line));
                line.reset();
                drain();
                end();
                return -1;
            }
            for (int i = off; i < off + n; i++) {
                if (b[i] == '\n') {
                    sawInput(parse(line));
                    line.reset();
                } else if (line.size() <= MAX_TRACKED_LINE) {
                    line.write(b[i]);
                }
            }
            return n;
        }

        private void end() {
            eof = true;
            ended.countDown();
        }
    }

    private final class Output extends FilterOutputStream {
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        Output(OutputStream out) {
            super(out);
        }

        @Override
        public synchronized void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            for (int i = off; i < off + len; i++) {
                if (b[i] == '\n') {
                    out.flush();
                    sawOutput(parse(line));
                    line.reset();
                } else if (line.size() <= MAX_TRACKED_LINE) {
                    line.write(b[i]);
                }
            }
        }
    }
}
