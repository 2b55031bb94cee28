package dev.luavm.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaException;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.dialect.DialectId;

import java.util.ArrayList;
import java.util.List;

/**
 * A JSON Schema of a contract's input or output, checked by networknt's json-schema-validator
 * (draft 2020-12 unless the schema's {@code $schema} names another draft).
 *
 * <p>Schemas come from contract files, so they must not reach out: the registry loads no
 * remote or file resource, only the meta-schemas it ships with; a {@code $ref} to anything else
 * fails when the contract loads.
 */
public final class JsonSchema {
    /** The most errors reported for one value. */
    static final int MAX_ERRORS = 10;

    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
            b -> b.schemaLoader(l -> l.fetchRemoteResources(false)
                    .block(iri -> !iri.toString().startsWith("https://json-schema.org/")
                            && !iri.toString().startsWith("http://json-schema.org/"))));

    private final JsonNode node;
    private final Schema schema;

    private JsonSchema(JsonNode node, Schema schema) {
        this.node = node;
        this.schema = schema;
    }

    /**
     * Compiles {@code node}, first checking it against its draft's meta-schema.
     *
     * @throws IllegalArgumentException naming what is wrong with the schema
     */
    static JsonSchema of(JsonNode node) {
        if (!node.isObject() && !node.isBoolean()) throw new IllegalArgumentException("a JSON Schema is an object");
        try {
            String dialect = node.path("$schema").asText(DialectId.DRAFT_2020_12);
            Schema meta = REGISTRY.getSchema(SchemaLocation.of(dialect));
            List<String> bad = messages(meta.validate(node));
            if (!bad.isEmpty()) throw new IllegalArgumentException("not a valid JSON Schema: " + String.join("; ", bad));
            Schema schema = REGISTRY.getSchema(node);
            schema.validate(com.fasterxml.jackson.databind.node.NullNode.getInstance()); // resolves $refs now, not at the first run
            return new JsonSchema(node, schema);
        } catch (SchemaException e) {
            throw new IllegalArgumentException("not a usable JSON Schema: " + e.getMessage());
        }
    }

    /** The schema as written. */
    public JsonNode node() {
        return node;
    }

    /**
     * The ways {@code value} fails the schema, at most {@value #MAX_ERRORS}, each as
     * {@code "$.amount: must be a number"}; empty when it conforms.
     */
    public List<String> check(JsonNode value) {
        return messages(schema.validate(value));
    }

    /**
     * How {@code value} fails the schema, in two forms: the validator's messages (as
     * {@link #check}; they quote the value's keys and values) and the schema locations that
     * failed ({@code #/properties/amount/type}, {@code #/additionalProperties}), each once, sorted:
     * words of the schema only, never of the value. Both empty when it conforms.
     */
    Failures failures(JsonNode value) {
        List<Error> errors = schema.validate(value);
        java.util.TreeSet<String> paths = new java.util.TreeSet<>();
        for (Error e : errors) paths.add(String.valueOf(e.getSchemaLocation()));
        List<String> shown = new ArrayList<>();
        for (String p : paths) {
            if (shown.size() == MAX_ERRORS) {
                shown.add("(" + (paths.size() - MAX_ERRORS) + " more)");
                break;
            }
            shown.add(p);
        }
        return new Failures(messages(errors), shown);
    }

    /** The messages and the schema locations of a value's failures ({@link #failures}). */
    record Failures(List<String> messages, List<String> schemaPaths) {
        boolean none() {
            return messages.isEmpty();
        }
    }

    private static List<String> messages(List<Error> errors) {
        List<String> out = new ArrayList<>();
        for (Error e : errors) {
            if (out.size() == MAX_ERRORS) {
                out.add("(" + (errors.size() - MAX_ERRORS) + " more)");
                break;
            }
            out.add(e.toString());
        }
        return out;
    }
}
