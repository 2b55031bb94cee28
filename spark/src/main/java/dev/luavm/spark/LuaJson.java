package dev.luavm.spark;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonFactory;
import dev.luavm.TypedAccess;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * A table returned by a script, as JSON text (the SQL function's result): a sequence is an array,
 * any other table an object whose keys are written as text (a number key as Lua prints it), in
 * the table's traversal order; integers and floats are JSON numbers (a float keeps its fraction
 * or exponent: {@code 3.0}), non-finite floats the strings {@code "inf"}, {@code "-inf"},
 * {@code "nan"} as in the audit log; booleans and strings as they are. A string that is not valid
 * UTF-8, or a function, has no JSON form: {@link LuaToSpark.Mismatch}.
 */
final class LuaJson {
    private static final JsonFactory FACTORY = new JsonFactory();

    private LuaJson() {}

    static String write(Object value) throws LuaToSpark.Mismatch {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            write(g, value);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.toString();
    }

    private static void write(JsonGenerator g, Object v) throws IOException, LuaToSpark.Mismatch {
        if (v == null) {
            g.writeNull();
        } else if (v instanceof Long l) {
            g.writeNumber(l);
        } else if (v instanceof Double d) {
            if (d.isNaN() || d.isInfinite()) g.writeString(d.isNaN() ? "nan" : d > 0 ? "inf" : "-inf");
            else g.writeNumber(TypedAccess.numberToString(d)); // 0.5, 3.0, 1e+100: all JSON numbers
        } else if (v instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (v instanceof String s) {
            g.writeString(s);
        } else if (v instanceof List<?> list) {
            g.writeStartArray();
            for (Object e : list) write(g, e);
            g.writeEndArray();
        } else if (v instanceof Map<?, ?> map) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                Object k = e.getKey();
                g.writeFieldName(k instanceof Number n ? TypedAccess.numberToString(n) : String.valueOf(k));
                write(g, e.getValue());
            }
            g.writeEndObject();
        } else if (v instanceof byte[]) {
            throw new LuaToSpark.Mismatch("result: string is not valid UTF-8");
        } else {
            throw new LuaToSpark.Mismatch("result: a " + LuaToSpark.luaType(v) + " has no JSON form");
        }
    }
}
