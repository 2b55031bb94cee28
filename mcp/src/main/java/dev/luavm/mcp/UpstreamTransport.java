package dev.luavm.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The SDK client's stdio transport to an upstream MCP server started as a child process, with the
 * process kept in hand so that it ends when we end.
 *
 * <h2>Why not the SDK's {@code StdioClientTransport}</h2>
 * The SDK's transport (2.1.0) keeps its {@link Process} private and, when closed, only sends
 * SIGTERM: an upstream that ignores it (or a launcher such as {@code npx} whose own child does)
 * outlives us, and nothing can end it from a shutdown hook. It also stops reading for good at the
 * first stdout line that is not a JSON-RPC message (a banner some servers print). This transport
 * keeps the process, skips (and logs) such lines, and ends the child the way the MCP spec's stdio
 * section says: close its stdin, wait, SIGTERM, wait, SIGKILL, and the same for every process it
 * started ({@link #stop}).
 *
 * <p>If this JVM is killed outright (SIGKILL), nothing of it runs; the child then reads the end
 * of its stdin, on which an MCP server is expected to exit. That is the only way out the OS gives
 * a portable JVM; an upstream that ignores the end of its input outlives a killed server.
 *
 * <p>It also knows the JSON-RPC id of each tool call it sent ({@link #watch}), so a call abandoned
 * at its time limit is cancelled upstream ({@code notifications/cancelled}).
 */
final class UpstreamTransport implements McpClientTransport {
    /** How long the child gets to exit after its stdin closes, and again after SIGTERM. */
    static final Duration EXIT_GRACE = Duration.ofSeconds(2);
    private static final int MAX_STDERR_LINE = 64 << 10;
    private static final Object UNSENT = new Object();

    private final String name;
    private final List<String> command;
    private final McpJsonMapper mapper;
    private final Consumer<String> log;
    private final int maxMessageBytes;
    /** The params object of a watched request, to its JSON-RPC id once sent. */
    private final Map<Object, Object> watched = Collections.synchronizedMap(new IdentityHashMap<>());
    private volatile Process process;
    private volatile FrameWriter stdin;

    UpstreamTransport(String name, List<String> command, McpJsonMapper mapper, int maxMessageBytes, Consumer<String> log) {
        this.name = name;
        this.command = List.copyOf(command);
        this.mapper = mapper;
        this.maxMessageBytes = maxMessageBytes;
        this.log = log;
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        return Mono.fromRunnable(() -> {
            Process p;
            try {
                p = new ProcessBuilder(command).start();
            } catch (IOException e) {
                throw new IllegalStateException("cannot start " + String.join(" ", command) + ": " + e.getMessage(), e);
            }
            process = p;
            stdin = new FrameWriter(p.getOutputStream());
            daemon("luavm-upstream-" + name + "-out", () -> readMessages(p.getInputStream(), handler));
            daemon("luavm-upstream-" + name + "-err", () -> readLog(p.getErrorStream()));
        });
    }

    private static void daemon(String threadName, Runnable body) {
        Thread t = new Thread(body, threadName);
        t.setDaemon(true);
        t.start();
    }

    private void readMessages(InputStream in, Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        LineReader reader = new LineReader(in, maxMessageBytes);
        try {
            for (LineReader.Frame f; (f = reader.next()) != null; ) {
                if (f.tooLong()) {
                    log.accept("a message of " + f.length() + " bytes was dropped (the bound is " + maxMessageBytes + ")");
                    continue;
                }
                String line = new String(f.bytes(), StandardCharsets.UTF_8);
                if (line.isBlank()) continue;
                McpSchema.JSONRPCMessage message;
                try {
                    message = McpSchema.deserializeJsonRpcMessage(mapper, line);
                } catch (IOException | RuntimeException e) {
                    log.accept("not a JSON-RPC message on stdout, skipped: "
                            + (line.length() > 200 ? line.substring(0, 200) + "..." : line));
                    continue;
                }
                handler.apply(Mono.just(message)).subscribe(null, e -> log.accept("handling a message failed: " + e));
            }
        } catch (IOException e) {
            // the pipe broke: the process is gone or going
        }
    }

    private void readLog(InputStream err) {
        LineReader reader = new LineReader(err, MAX_STDERR_LINE);
        try {
            for (LineReader.Frame f; (f = reader.next()) != null; ) {
                log.accept(f.tooLong() ? "(a line of " + f.length() + " bytes)" : new String(f.bytes(), StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            // the pipe broke: the process is gone or going
        }
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        return Mono.defer(() -> {
            FrameWriter w = stdin;
            if (w == null) return Mono.error(new IllegalStateException("upstream " + name + " is not started"));
            if (message instanceof McpSchema.JSONRPCRequest r && r.params() != null) {
                watched.replace(r.params(), UNSENT, r.id());
            }
            byte[] bytes;
            try {
                bytes = mapper.writeValueAsBytes(message);
            } catch (IOException e) {
                return Mono.error(e);
            }
            return w.write(bytes) ? Mono.empty()
                    : Mono.error(new IOException("upstream " + name + " has closed its input (the process ended?)"));
        });
    }

    /** Remembers the JSON-RPC id under which the request with these params (this very object) is sent. */
    void watch(Object params) {
        watched.put(params, UNSENT);
    }

    /** Forgets a watched request; when it was sent and {@code reason} is not null, cancels it upstream. */
    void forget(Object params, String reason) {
        Object id = watched.remove(params);
        if (reason == null || id == null || id == UNSENT) return;
        sendMessage(new McpSchema.JSONRPCNotification("notifications/cancelled", Map.of("requestId", id, "reason", reason)))
                .subscribe(null, e -> { /* gone already: nothing to cancel */ });
    }

    /** Completes when the child process has exited (never, before it started). */
    Mono<Void> exited() {
        Process p = process;
        return p == null ? Mono.never() : Mono.fromFuture(p.onExit()).then();
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        return mapper.convertValue(data, typeRef);
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(() -> stop(EXIT_GRACE));
    }

    /**
     * Ends the child and every process it started: closes its stdin, gives it {@code grace} to
     * exit, then SIGTERM and {@code grace} again, then SIGKILL. Returns once they have exited (or
     * the kill was sent). Any thread, any number of times.
     */
    void stop(Duration grace) {
        Process p = process;
        if (p == null) return;
        // taken before the child exits: its children would then be re-parented and out of reach
        List<ProcessHandle> family = new ArrayList<>(p.descendants().toList());
        FrameWriter w = stdin;
        if (w != null) w.close();
        if (!waitFor(p.toHandle(), grace)) {
            p.destroy();
            if (!waitFor(p.toHandle(), grace)) p.destroyForcibly();
        }
        for (ProcessHandle h : family) {
            if (!h.isAlive()) continue;
            h.destroy();
            if (!waitFor(h, Duration.ofMillis(500))) h.destroyForcibly();
        }
    }

    private static boolean waitFor(ProcessHandle h, Duration d) {
        try {
            h.onExit().get(d.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (java.util.concurrent.TimeoutException e) {
            return false;
        } catch (java.util.concurrent.ExecutionException e) {
            return !h.isAlive();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !h.isAlive();
        }
    }

    /** The child's process handle, or null before it started. */
    ProcessHandle handle() {
        Process p = process;
        return p == null ? null : p.toHandle();
    }
}
