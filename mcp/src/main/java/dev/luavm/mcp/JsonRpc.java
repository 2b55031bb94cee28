package dev.luavm.mcp;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.math.BigInteger;

/**
 * JSON-RPC 2.0 framing as MCP uses it: what one line from a client is, checked before the SDK sees
 * it, and the error answers the protocol prescribes.
 *
 * <p>A line is parsed strictly (one JSON value, no trailing tokens, UTF-8; a duplicate key is an
 * invalid request).
 * It is then exactly one of: a {@link Request} (a string {@code method} and an {@code id}), a
 * {@link Notification} (a {@code method}, no {@code id}), a {@link Response} (an {@code id} and
 * exactly one of {@code result} and {@code error}), or {@link Invalid}, which carries the error to
 * answer: {@code -32700} (parse error) for what is not JSON, {@code -32600} (invalid request) for
 * JSON that is no message: a batch array (MCP has no batches since 2025-06-18), a scalar, a
 * missing or wrong {@code jsonrpc}, an {@code id} that is neither a string nor an integer (MCP
 * forbids null ids), a {@code method} that is not a string, or {@code params} that are not an
 * object. The answer carries the request's id when it could be read, else null, as JSON-RPC says.
 */
final class JsonRpc {
    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    static final int INTERNAL_ERROR = -32603;

    /** A line, classified. */
    sealed interface Message permits Request, Notification, Response, Invalid {}

    /** A request: it gets exactly one answer (unless cancelled). */
    record Request(JsonNode id, String method, JsonNode params, ObjectNode node) implements Message {
        String key() {
            return idKey(id);
        }
    }

    /** A notification: never answered. */
    record Notification(String method, JsonNode params, ObjectNode node) implements Message {}

    /** A response to a request the server sent. */
    record Response(JsonNode id, ObjectNode node) implements Message {}

    /** Not a message: {@code error} is the answer to write. */
    record Invalid(ObjectNode error) implements Message {}

    private final ObjectMapper json;

    JsonRpc() {
        this.json = new ObjectMapper()
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    }

    ObjectMapper mapper() {
        return json;
    }

    /** What {@code line} is (never throws). */
    Message classify(byte[] line) {
        JsonNode node;
        try {
            node = json.readTree(line);
        } catch (JsonProcessingException e) {
            String why = firstLine(e.getOriginalMessage());
            // well-formed JSON, but which of the two values is meant? no message can say
            if (why.startsWith("Duplicate field")) return new Invalid(error(null, INVALID_REQUEST, "Invalid Request: " + why));
            return new Invalid(error(null, PARSE_ERROR, "Parse error: " + why));
        } catch (IOException | RuntimeException e) {
            return new Invalid(error(null, PARSE_ERROR, "Parse error: " + firstLine(String.valueOf(e.getMessage()))));
        }
        if (node == null || node.isMissingNode()) return new Invalid(error(null, PARSE_ERROR, "Parse error: no JSON value"));
        if (node.isArray()) {
            return new Invalid(error(null, INVALID_REQUEST, "Invalid Request: batch arrays are not supported (MCP sends "
                    + "one message per line)"));
        }
        if (!node.isObject()) {
            return new Invalid(error(null, INVALID_REQUEST, "Invalid Request: a message is a JSON object, not "
                    + node.getNodeType().name().toLowerCase(java.util.Locale.ROOT)));
        }
        ObjectNode o = (ObjectNode) node;
        JsonNode id = o.get("id");
        boolean hasId = o.has("id");
        if (hasId && !validId(id)) {
            return new Invalid(error(null, INVALID_REQUEST, "Invalid Request: id must be a string or an integer, not "
                    + (id.isNull() ? "null" : id.getNodeType().name().toLowerCase(java.util.Locale.ROOT)
                    + (id.isNumber() ? " with a fraction or exponent" : ""))));
        }
        JsonNode replyId = hasId ? id : null;
        JsonNode version = o.get("jsonrpc");
        if (version == null || !version.isTextual() || !version.asText().equals("2.0")) {
            return new Invalid(error(replyId, INVALID_REQUEST, "Invalid Request: \"jsonrpc\" must be \"2.0\""));
        }
        JsonNode method = o.get("method");
        if (method != null) {
            if (!method.isTextual()) return new Invalid(error(replyId, INVALID_REQUEST, "Invalid Request: method must be a string"));
            JsonNode params = o.get("params");
            if (params != null && !params.isObject() && !params.isNull()) {
                return new Invalid(error(replyId, hasId && params.isArray() ? INVALID_PARAMS : INVALID_REQUEST,
                        (hasId && params.isArray() ? "Invalid params" : "Invalid Request") + ": params must be an object"));
            }
            if (params != null && params.isNull()) params = null;
            return hasId ? new Request(id, method.asText(), params, o) : new Notification(method.asText(), params, o);
        }
        boolean result = o.has("result");
        boolean err = o.has("error");
        if (hasId && result != err && (result || validError(o.get("error")))) return new Response(id, o);
        if (result || err) {
            return new Invalid(error(null, INVALID_REQUEST, "Invalid Request: a response needs an id and exactly one of "
                    + "result and error {code, message}"));
        }
        return new Invalid(error(replyId, INVALID_REQUEST, "Invalid Request: no method"));
    }

    private static boolean validId(JsonNode id) {
        return id.isTextual() || id.isIntegralNumber();
    }

    private static boolean validError(JsonNode e) {
        return e != null && e.isObject() && e.path("code").isIntegralNumber() && e.path("message").isTextual();
    }

    /**
     * One key per id, the same whether the id comes as a JSON node (from the client) or as the
     * Java value the SDK echoes: {@code 1} and {@code "1"} are different ids.
     */
    static String idKey(Object id) {
        if (id instanceof JsonNode n) {
            if (n.isTextual()) return "s:" + n.asText();
            if (n.isIntegralNumber()) return "n:" + n.bigIntegerValue();
            return "?:" + n;
        }
        if (id instanceof String s) return "s:" + s;
        if (id instanceof Integer || id instanceof Long || id instanceof Short || id instanceof Byte) return "n:" + id;
        if (id instanceof BigInteger b) return "n:" + b;
        return "?:" + id;
    }

    /** {@code {"jsonrpc":"2.0","id":id,"error":{"code":code,"message":message}}}; a null id is written as null. */
    static ObjectNode error(JsonNode id, int code, String message) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("jsonrpc", "2.0");
        o.set("id", id == null ? NullNode.instance : id);
        ObjectNode e = o.putObject("error");
        e.put("code", code);
        e.put("message", message);
        return o;
    }

    /** {@code {"jsonrpc":"2.0","id":id,"result":result}}. */
    static ObjectNode result(JsonNode id, JsonNode result) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("jsonrpc", "2.0");
        o.set("id", id);
        o.set("result", result);
        return o;
    }

    byte[] bytes(JsonNode node) {
        try {
            return json.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree could not be written", e);
        }
    }

    private static String firstLine(String message) {
        if (message == null) return "not JSON";
        int nl = message.indexOf('\n');
        String s = nl < 0 ? message : message.substring(0, nl);
        return s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }
}
