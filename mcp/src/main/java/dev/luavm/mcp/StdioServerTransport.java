package dev.luavm.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * MCP over stdio for one session: our framing and protocol checks in front of the SDK's server
 * session, which still answers {@code initialize}, {@code tools/list} and {@code tools/call}.
 *
 * <h2>Why not the SDK's own stdio transport</h2>
 * {@code StdioServerTransportProvider} (SDK 2.1.0) stops reading for good at the first line it
 * cannot deserialize (not JSON, a batch array, an object id, a line over its size bound), so one
 * bad frame ends all service without an answer; it handles requests concurrently
 * ({@code flatMap}), so one session's calls run in any order; it has no handler for
 * {@code notifications/cancelled}; and a request that arrives before
 * {@code notifications/initialized} waits forever on the session's exchange. This class replaces
 * it as the SDK's {@link McpServerTransportProvider} and fixes each of those before a message
 * reaches {@link McpServerSession#handle}.
 *
 * <h2>What holds</h2>
 * <ul>
 *   <li><b>Every frame is answered as JSON-RPC says, and reading goes on.</b> A line that is not
 *       JSON gets {@code -32700}; a line that is JSON but no message (batch array, scalar, wrong
 *       {@code jsonrpc}, an id that is not a string or an integer, a method that is not a
 *       string, params that are not an object, no method) gets {@code -32600}, with the id when
 *       it could be read, else null ({@link JsonRpc}). A line longer than the bound
 *       ({@code maxMessageBytes}) is read to its end, dropped, and answered {@code -32600}. Blank
 *       lines are skipped. Unknown methods get {@code -32601} (from the SDK).</li>
 *   <li><b>Lifecycle.</b> Before {@code initialize}, every request but {@code ping} gets
 *       {@code -32600} ("not initialized"); so does every request between {@code initialize} and
 *       {@code notifications/initialized}, and a second {@code initialize}. Bad initialize or
 *       tools/call params get {@code -32602}. {@code ping} is answered at any time.</li>
 *   <li><b>Ids.</b> A request whose id is that of a request still in progress gets
 *       {@code -32600}, and the one in progress goes on.</li>
 *   <li><b>Order.</b> {@code tools/call} requests run one at a time in the order they arrived
 *       ({@link CallQueue}); other requests are answered as soon as they are read.</li>
 *   <li><b>Cancellation.</b> {@code notifications/cancelled} with the id of a queued call drops it;
 *       with the id of the running call, cancels its run. Either way no answer is sent for it,
 *       as the MCP spec asks; an unknown or finished id is ignored, and so is {@code initialize}'s.</li>
 *   <li><b>End of input.</b> At the end of stdin nothing more is read; the calls already read
 *       still run, in order, each within its own limits, and are answered; then {@link #serve}
 *       returns. If stdout breaks (the client stopped reading), queued calls are dropped and the
 *       running one is cancelled.</li>
 * </ul>
 */
final class StdioServerTransport implements McpServerTransportProvider {
    private enum Phase { NEW, INITIALIZING, READY }

    private static final TypeRef<McpSchema.InitializeRequest> INITIALIZE = new TypeRef<>() {};
    private static final TypeRef<McpSchema.CallToolRequest> CALL_TOOL = new TypeRef<>() {};

    private final McpJsonMapper mapper;
    private final JsonRpc rpc = new JsonRpc();
    private final InputStream in;
    private final FrameWriter out;
    private final int maxMessageBytes;
    private final CallQueue calls;
    private final PrintStream log;
    private McpServerSession session;
    private Phase phase = Phase.NEW; // the reader thread's alone
    private String initializeKey;

    /** Guards {@link #inFlight} and {@link #withheld}, so an answer and a cancellation never cross. */
    private final Object answers = new Object();
    /** Requests read and not yet answered, by id key (the value tells a request from a later one with its id). */
    private final Map<String, JsonRpc.Request> inFlight = new HashMap<>();
    /** Requests cancelled while in progress: their answers are not sent. */
    private final Set<String> withheld = new HashSet<>();
    /** The cancellation of the tool call in progress (set on the worker thread, around the call). */
    private volatile CallCancellation current;

    StdioServerTransport(McpJsonMapper mapper, InputStream in, OutputStream out, int maxMessageBytes, long maxQueuedBytes,
                         String name, PrintStream log) {
        this.mapper = mapper;
        this.in = in;
        this.out = new FrameWriter(out);
        this.maxMessageBytes = maxMessageBytes;
        this.calls = new CallQueue("luavm-" + name + "-calls", maxQueuedBytes);
        this.log = log;
    }

    /** The cancellation of the tool call running on this thread; a fresh one when none is (a call from elsewhere). */
    CallCancellation currentCall() {
        CallCancellation c = current;
        return c != null ? c : new CallCancellation();
    }

    @Override
    public void setSessionFactory(McpServerSession.Factory sessionFactory) {
        this.session = sessionFactory.create(new SessionTransport());
    }

    /** Reads and answers until the end of input, then waits for the calls already read to be answered. */
    void serve() throws InterruptedException {
        if (session == null) throw new IllegalStateException("no MCP session: build the server on this transport first");
        LineReader reader = new LineReader(in, maxMessageBytes);
        calls.start();
        try {
            while (true) {
                LineReader.Frame frame;
                try {
                    frame = reader.next();
                } catch (IOException e) {
                    log.println("luavm mcp: reading stdin failed, serving no more: " + e.getMessage());
                    break;
                }
                if (frame == null) break;
                handle(frame);
            }
        } finally {
            calls.endOfInput();
        }
        calls.awaitDone();
        session.close();
    }

    private void handle(LineReader.Frame frame) throws InterruptedException {
        if (frame.tooLong()) {
            reply(JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "Invalid Request: a message may hold at most "
                    + maxMessageBytes + " bytes; this line held " + frame.length()));
            return;
        }
        if (blank(frame.bytes())) return;
        JsonRpc.Message m = rpc.classify(frame.bytes());
        if (m instanceof JsonRpc.Invalid i) {
            reply(i.error());
        } else if (m instanceof JsonRpc.Request r) {
            request(r, frame.length());
        } else if (m instanceof JsonRpc.Notification n) {
            notification(n);
        } else if (m instanceof JsonRpc.Response r) {
            forward(r.node(), McpSchema.JSONRPCResponse.class);
        }
    }

    private void request(JsonRpc.Request r, long bytes) throws InterruptedException {
        String method = r.method();
        if (method.equals(McpSchema.METHOD_PING)) {
            reply(JsonRpc.result(r.id(), JsonNodeFactory.instance.objectNode()));
            return;
        }
        boolean busy;
        synchronized (answers) {
            busy = inFlight.containsKey(r.key());
        }
        if (busy) {
            reply(JsonRpc.error(r.id(), JsonRpc.INVALID_REQUEST, "Invalid Request: id " + r.id()
                    + " is that of a request still in progress"));
            return;
        }
        if (method.equals(McpSchema.METHOD_INITIALIZE)) {
            if (phase != Phase.NEW) {
                reply(JsonRpc.error(r.id(), JsonRpc.INVALID_REQUEST, "Invalid Request: already initialized"));
                return;
            }
            String problem = initializeProblem(r.params());
            if (problem != null) {
                reply(JsonRpc.error(r.id(), JsonRpc.INVALID_PARAMS, "Invalid params: " + problem));
                return;
            }
            phase = Phase.INITIALIZING;
            initializeKey = r.key();
            forwardRequest(r);
            return;
        }
        if (phase != Phase.READY) {
            reply(JsonRpc.error(r.id(), JsonRpc.INVALID_REQUEST, "Invalid Request: the session is not initialized: "
                    + (phase == Phase.NEW ? "send initialize first" : "send notifications/initialized first")));
            return;
        }
        if (method.equals(McpSchema.METHOD_TOOLS_CALL)) {
            String problem = callProblem(r.params());
            if (problem != null) {
                reply(JsonRpc.error(r.id(), JsonRpc.INVALID_PARAMS, "Invalid params: " + problem));
                return;
            }
            McpSchema.JSONRPCRequest request = convert(r);
            if (request == null) return;
            CallCancellation cancellation = new CallCancellation();
            synchronized (answers) {
                inFlight.put(r.key(), r);
            }
            if (!calls.add(new CallQueue.Call(r.key(), bytes, cancellation, () -> runCall(r, request, cancellation)))) {
                synchronized (answers) {
                    inFlight.remove(r.key(), r);
                }
            }
            return;
        }
        forwardRequest(r);
    }

    /** On the queue's worker: the SDK runs the tool and writes the answer; an answer it never wrote is an internal error. */
    private void runCall(JsonRpc.Request r, McpSchema.JSONRPCRequest request, CallCancellation cancellation) {
        current = cancellation;
        try {
            session.handle(request).block();
        } catch (RuntimeException e) {
            log.println("luavm mcp: tools/call " + r.id() + " failed: " + e);
        } finally {
            current = null;
        }
        boolean unanswered;
        synchronized (answers) { // (once answered, the id may already be a new request's: hence remove(key, r))
            unanswered = inFlight.remove(r.key(), r) && !withheld.remove(r.key());
        }
        if (unanswered) reply(JsonRpc.error(r.id(), JsonRpc.INTERNAL_ERROR, "Internal error: the call gave no answer"));
    }

    private void forwardRequest(JsonRpc.Request r) {
        McpSchema.JSONRPCRequest request = convert(r);
        if (request == null) return;
        synchronized (answers) {
            inFlight.put(r.key(), r);
        }
        // with immediate execution the SDK answers on this thread (nothing but tools/call takes long)
        session.handle(request).subscribe(null, e -> log.println("luavm mcp: " + r.method() + " failed: " + e));
    }

    private McpSchema.JSONRPCRequest convert(JsonRpc.Request r) {
        try {
            return mapper.convertValue(r.node(), McpSchema.JSONRPCRequest.class);
        } catch (RuntimeException e) {
            reply(JsonRpc.error(r.id(), JsonRpc.INVALID_REQUEST, "Invalid Request: " + e.getMessage()));
            return null;
        }
    }

    private void notification(JsonRpc.Notification n) {
        switch (n.method()) {
            case "notifications/cancelled" -> cancel(n.params());
            case McpSchema.METHOD_NOTIFICATION_INITIALIZED -> {
                if (phase != Phase.INITIALIZING) return; // before initialize, or again: nothing to do
                phase = Phase.READY;
                forward(n.node(), McpSchema.JSONRPCNotification.class);
            }
            default -> {
                if (phase == Phase.READY) forward(n.node(), McpSchema.JSONRPCNotification.class);
            }
        }
    }

    /** {@code notifications/cancelled {requestId, reason?}}: see the class comment. */
    private void cancel(JsonNode params) {
        JsonNode id = params == null ? null : params.get("requestId");
        if (id == null || !(id.isTextual() || id.isIntegralNumber())) return; // a notification gets no answer
        String key = JsonRpc.idKey(id);
        if (key.equals(initializeKey)) return; // the spec: initialize is never cancelled
        synchronized (answers) {
            if (!inFlight.containsKey(key)) return;
            withheld.add(key);
        }
        CallQueue.Cancelled where = calls.cancel(key);
        if (where != CallQueue.Cancelled.RUNNING) {
            synchronized (answers) { // dropped from the queue (never answered), or already over
                if (where == CallQueue.Cancelled.QUEUED) inFlight.remove(key);
                withheld.remove(key);
            }
        }
    }

    private <T extends McpSchema.JSONRPCMessage> void forward(JsonNode node, Class<T> type) {
        T message;
        try {
            message = mapper.convertValue(node, type);
        } catch (RuntimeException e) {
            return; // a notification or a response that the SDK cannot read: neither gets an answer
        }
        session.handle(message).subscribe(null, e -> log.println("luavm mcp: handling a message failed: " + e));
    }

    private String initializeProblem(JsonNode p) {
        if (p == null) return "initialize needs params {protocolVersion, capabilities, clientInfo}";
        if (!p.path("protocolVersion").isTextual()) return "protocolVersion must be a string";
        if (!p.path("capabilities").isObject()) return "capabilities must be an object";
        JsonNode info = p.path("clientInfo");
        if (!info.isObject() || !info.path("name").isTextual() || !info.path("version").isTextual()) {
            return "clientInfo must be an object with string name and version";
        }
        try {
            mapper.convertValue(p, INITIALIZE);
            return null;
        } catch (RuntimeException e) {
            return firstLine(e.getMessage());
        }
    }

    private String callProblem(JsonNode p) {
        if (p == null || !p.path("name").isTextual()) return "tools/call needs params {name, arguments}";
        JsonNode args = p.get("arguments");
        if (args != null && !args.isNull() && !args.isObject()) return "arguments must be an object";
        JsonNode meta = p.get("_meta");
        if (meta != null && !meta.isNull()) {
            if (!meta.isObject()) return "_meta must be an object";
            JsonNode token = meta.get("progressToken");
            if (token != null && !(token.isTextual() || token.isIntegralNumber())) {
                return "progressToken must be a string or an integer";
            }
        }
        try {
            mapper.convertValue(p, CALL_TOOL);
            return null;
        } catch (RuntimeException e) {
            return firstLine(e.getMessage());
        }
    }

    /** Writes one of our own answers; a broken stdout ends the calls. */
    private void reply(JsonNode message) {
        if (!out.write(rpc.bytes(message))) calls.abort();
    }

    /** What the SDK sends: answers (withheld when cancelled) and notifications. */
    private void send(McpSchema.JSONRPCMessage message) {
        if (message instanceof McpSchema.JSONRPCResponse response) {
            String key = JsonRpc.idKey(response.id());
            synchronized (answers) {
                inFlight.remove(key);
                if (withheld.remove(key)) return;
            }
        }
        byte[] bytes;
        try {
            bytes = mapper.writeValueAsBytes(message);
        } catch (IOException e) {
            log.println("luavm mcp: a message could not be written as JSON: " + e.getMessage());
            return;
        }
        if (!out.write(bytes)) calls.abort();
    }

    private static boolean blank(byte[] line) {
        for (byte b : line) if (b != ' ' && b != '\t' && b != '\r') return false;
        return true;
    }

    private static String firstLine(String message) {
        if (message == null) return "unreadable";
        int nl = message.indexOf('\n');
        String s = nl < 0 ? message : message.substring(0, nl);
        return s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        return session == null ? Mono.empty() : session.sendNotification(method, params);
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.empty(); // the session ends with the input; see serve()
    }

    /** The SDK's view of this session's stream. */
    private final class SessionTransport implements McpServerTransport {
        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return Mono.fromRunnable(() -> send(message));
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
            return mapper.convertValue(data, typeRef);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.empty();
        }

        @Override
        public void close() {
            // the stream is the process's stdout: the caller of serve() owns it
        }
    }
}
