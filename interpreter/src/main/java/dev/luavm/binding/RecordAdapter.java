package dev.luavm.binding;

import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A record as a table of its named fields, through method handles looked up once
 * ({@link TypeAdapters}): the canonical constructor taking a table, the accessors making one.
 */
final class RecordAdapter extends TypeAdapter {
    /** A component of a record: its name, adapter, accessor (record -> value) and whether nil is allowed. */
    record Component(String name, TypeAdapter adapter, MethodHandle accessor, boolean primitive) {}

    private final Class<?> type;
    private List<Component> components;
    private Map<String, Integer> index;
    private MethodHandle constructor;
    /** set while {@link #shape()} describes this record (registration only), so a recursive record names itself */
    private boolean inShape;

    RecordAdapter(Class<?> type) {
        this.type = type;
    }

    void complete(List<Component> cs, MethodHandle ctor) {
        components = cs;
        constructor = ctor;
        index = new HashMap<>();
        for (int i = 0; i < cs.size(); i++) index.put(cs.get(i).name(), i);
    }

    @Override
    String luaType() {
        return "table";
    }

    @Override
    String shape() {
        if (inShape) return type.getSimpleName(); // a recursive record names itself
        inShape = true;
        try {
            List<String> fields = new ArrayList<>();
            for (Component c : components) fields.add(c.name() + ": " + c.adapter().shape());
            return "{" + String.join(", ", fields) + "}";
        } finally {
            inShape = false;
        }
    }

    @Override
    Object in(Object v, Crossing call) throws BadValue {
        Object prior = call.convertedIn(this, v);
        if (prior != null) return prior;
        call.enter();
        try {
            return call.rememberIn(this, v, inNested(v, call));
        } finally {
            call.leave();
        }
    }

    private Object inNested(Object v, Crossing call) throws BadValue {
        Map<?, ?> m;
        if (v instanceof Map<?, ?> x) m = x;
        else if (v instanceof List<?>) throw new BadValue("table with fields " + fieldNames() + " expected, got a sequence");
        else throw BadValue.expected("table", v);
        call.chargeGas(components.size() + m.size());
        for (Object k : m.keySet()) {
            if (!(k instanceof String s) || !index.containsKey(s)) {
                throw new BadValue("unknown field " + (k instanceof String s ? BadValue.quote(s)
                        : "[" + (k instanceof Number || k instanceof Boolean ? String.valueOf(k) : TypeAdapter.luaTypeOf(k)) + "]")
                        + " (fields: " + fieldNames() + ")");
            }
        }
        Object[] args = new Object[components.size()];
        for (int i = 0; i < args.length; i++) {
            Component c = components.get(i);
            Object fv = m.get(c.name());
            try {
                if (fv != null) args[i] = c.adapter().in(fv, call);
                else if (c.primitive()) throw BadValue.expected(c.adapter().luaType().equals("integer") ? "number" : c.adapter().luaType(), null);
                else args[i] = c.adapter().nil();
            } catch (BadValue e) {
                throw e.inside(c.name());
            }
        }
        try {
            return constructor.invokeExact(args);
        } catch (IllegalArgumentException e) { // the record's own validation: its message is the host's text
            throw new BadValue(e.getMessage() == null ? "invalid value" : e.getMessage());
        } catch (RuntimeException | Error e) { // anything else is the host's failure, not the script's
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private String fieldNames() {
        return String.join(", ", index.keySet().stream().sorted().toList());
    }

    @Override
    Object out(Object v, Crossing call) throws BadValue {
        Object prior = call.convertedOut(this, v);
        if (prior != null) return prior;
        call.enter(v);
        try {
            return call.rememberOut(this, v, outNested(v, call));
        } finally {
            call.leave(v);
        }
    }

    private Object outNested(Object v, Crossing call) throws BadValue {
        call.chargeGas(components.size());
        Map<String, Object> out = new LinkedHashMap<>();
        for (Component c : components) {
            Object fv;
            try {
                fv = c.accessor().invokeExact(v);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
            if (fv != null) {
                Object lv = c.adapter().out(fv, call);
                if (lv != null) out.put(c.name(), lv);
            }
        }
        return out;
    }
}
