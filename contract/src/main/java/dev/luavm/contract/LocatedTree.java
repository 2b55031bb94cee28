package dev.luavm.contract;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * A YAML or JSON document read into a Jackson tree, with the line of every field and element, so
 * that errors can say where they are. Fields are addressed by paths as the errors print them:
 * {@code limits.time}, {@code functions[2].name}; the root is {@code ""}.
 *
 * <p>Jackson's tree keeps no positions, so the tree is built here from the token stream. A key
 * given twice is an error (YAML and JSON both leave it undefined; a manifest must not be
 * ambiguous). The document's size is bounded by the caller.
 */
final class LocatedTree {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final int MAX_DEPTH = 64;

    final String file;
    final JsonNode root;
    private final Map<String, Integer> lines;

    private LocatedTree(String file, JsonNode root, Map<String, Integer> lines) {
        this.file = file;
        this.root = root;
        this.lines = lines;
    }

    /** The line of the value at {@code path}, or of its nearest enclosing field; 0 when unknown. */
    int line(String path) {
        String p = path;
        while (true) {
            Integer l = lines.get(p);
            if (l != null) return l;
            if (p.isEmpty()) return 0;
            int cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
            p = cut < 0 ? "" : p.substring(0, cut);
        }
    }

    /** Reads {@code text}: JSON when the file name ends in {@code .json}, YAML otherwise (which also reads JSON). */
    static LocatedTree read(String file, String text) {
        JsonFactory factory = file.toLowerCase(java.util.Locale.ROOT).endsWith(".json")
                ? JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build()
                : YAMLFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
        Map<String, Integer> lines = new HashMap<>();
        try (JsonParser p = factory.createParser(text)) {
            JsonToken t = p.nextToken();
            if (t == null) return new LocatedTree(file, NODES.missingNode(), lines);
            JsonNode root = value(p, "", lines, 0, file);
            if (p.nextToken() != null) {
                throw new ContractException(file, lineOf(p.currentTokenLocation()), null, "more than one document");
            }
            return new LocatedTree(file, root, lines);
        } catch (JsonProcessingException e) {
            String msg = e.getOriginalMessage();
            if (msg.startsWith("Duplicate field")) msg = "duplicate field" + msg.substring("Duplicate field".length());
            int nl = msg.indexOf('\n');
            throw new ContractException(file, e.getLocation() == null ? 0 : lineOf(e.getLocation()), null,
                    "syntax error: " + (nl < 0 ? msg : msg.substring(0, nl)));
        } catch (IOException e) {
            throw new ContractException(file, 0, null, "cannot read: " + e.getMessage());
        }
    }

    private static int lineOf(JsonLocation loc) {
        return Math.max(0, loc.getLineNr());
    }

    private static JsonNode value(JsonParser p, String path, Map<String, Integer> lines, int depth, String file)
            throws IOException {
        lines.putIfAbsent(path, lineOf(p.currentTokenLocation()));
        if (depth > MAX_DEPTH) throw new ContractException(file, lineOf(p.currentTokenLocation()), path, "nested too deeply");
        switch (p.currentToken()) {
            case START_OBJECT: {
                ObjectNode o = NODES.objectNode();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    String child = path.isEmpty() ? name : path + "." + name;
                    lines.put(child, lineOf(p.currentTokenLocation()));
                    p.nextToken();
                    o.set(name, value(p, child, lines, depth + 1, file));
                }
                return o;
            }
            case START_ARRAY: {
                ArrayNode a = NODES.arrayNode();
                int i = 0;
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    a.add(value(p, path + "[" + i++ + "]", lines, depth + 1, file));
                }
                return a;
            }
            case VALUE_STRING: return NODES.textNode(p.getText());
            case VALUE_NUMBER_INT:
                return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                        ? NODES.numberNode(p.getBigIntegerValue()) : NODES.numberNode(p.getLongValue());
            case VALUE_NUMBER_FLOAT: return NODES.numberNode(p.getDoubleValue());
            case VALUE_TRUE: return NODES.booleanNode(true);
            case VALUE_FALSE: return NODES.booleanNode(false);
            case VALUE_NULL: return NODES.nullNode();
            default:
                throw new ContractException(file, lineOf(p.currentTokenLocation()), path,
                        "unexpected " + p.currentToken());
        }
    }
}
