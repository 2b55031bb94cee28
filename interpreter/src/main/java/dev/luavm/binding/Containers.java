package dev.luavm.binding;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The adapters of {@code Optional<T>}, {@code List<T>} and {@code Map<K, V>}, each over its element adapters. */
final class Containers {
    private Containers() {}

    static final class OptionalAdapter extends TypeAdapter {
        private final TypeAdapter value;

        OptionalAdapter(TypeAdapter value) {
            this.value = value;
        }

        @Override
        String luaType() {
            return value.luaType();
        }

        @Override
        String shape() {
            return value.shape();
        }

        @Override
        boolean acceptsNil() {
            return true;
        }

        @Override
        Object nil() {
            return Optional.empty();
        }

        @Override
        Object in(Object v, Crossing call) throws BadValue {
            return Optional.of(value.in(v, call));
        }

        @Override
        Object out(Object v, Crossing call) throws BadValue {
            Optional<?> o = (Optional<?>) v;
            return o.isEmpty() ? null : value.out(o.get(), call);
        }
    }

    static final class ListAdapter extends TypeAdapter {
        private final TypeAdapter element;

        ListAdapter(TypeAdapter element) {
            this.element = element;
        }

        @Override
        String luaType() {
            return "table";
        }

        @Override
        String shape() {
            return "list of " + element.shape();
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
            if (v instanceof Map<?, ?> m && m.isEmpty()) return new ArrayList<>();
            if (v instanceof Map<?, ?>) throw new BadValue("sequence expected, got table with other keys");
            if (!(v instanceof List<?> list)) throw BadValue.expected("table", v);
            call.chargeGas(list.size()); // 1 per value copied
            List<Object> out = new ArrayList<>(list.size());
            for (int i = 0; i < list.size(); i++) {
                try {
                    out.add(element.in(list.get(i), call));
                } catch (BadValue e) {
                    throw e.inside("[" + (i + 1) + "]");
                }
            }
            return out;
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
            Collection<?> c = (Collection<?>) v;
            call.chargeGas(c.size());
            List<Object> out = new ArrayList<>(c.size());
            for (Object e : c) out.add(e == null ? null : element.out(e, call));
            return out;
        }
    }

    static final class MapAdapter extends TypeAdapter {
        private final TypeAdapter key;
        private final TypeAdapter value;

        MapAdapter(TypeAdapter key, TypeAdapter value) {
            this.key = key;
            this.value = value;
        }

        @Override
        String luaType() {
            return "table";
        }

        @Override
        String shape() {
            return "table of " + key.shape() + " to " + value.shape();
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
            Map<Object, Object> out = new LinkedHashMap<>();
            if (v instanceof List<?> list) {
                call.chargeGas(list.size());
                for (int i = 0; i < list.size(); i++) put(out, (long) (i + 1), list.get(i), call);
            } else if (v instanceof Map<?, ?> m) {
                call.chargeGas(m.size());
                for (Map.Entry<?, ?> e : m.entrySet()) put(out, e.getKey(), e.getValue(), call);
            } else {
                throw BadValue.expected("table", v);
            }
            return out;
        }

        private void put(Map<Object, Object> out, Object k, Object v, Crossing call) throws BadValue {
            Object jk;
            try {
                jk = key.in(k, call);
            } catch (BadValue e) {
                throw new BadValue("key " + e.describe());
            }
            try {
                out.put(jk, value.in(v, call));
            } catch (BadValue e) {
                throw e.inside("[" + (k instanceof String s ? BadValue.quote(s) : k instanceof Number || k instanceof Boolean
                        ? String.valueOf(k) : TypeAdapter.luaTypeOf(k)) + "]");
            }
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
            Map<?, ?> m = (Map<?, ?>) v;
            call.chargeGas(m.size());
            Map<Object, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (e.getKey() == null || e.getValue() == null) continue;
                out.put(key.out(e.getKey(), call), value.out(e.getValue(), call));
            }
            return out;
        }
    }
}
