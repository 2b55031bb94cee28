package dev.luavm.host;

import java.util.List;
import java.util.Objects;

/**
 * One declared parameter of a host function: its name (used in messages and by redaction), its
 * Lua type, a one-line description, and the constraints its value must meet before the function
 * runs.
 *
 * <p>Types are Lua type names checked on the value the script passed: {@code nil},
 * {@code boolean}, {@code number}, {@code integer} (a number with an integer value),
 * {@code string}, {@code table}, {@code function}, {@code userdata}; {@code any} accepts
 * everything. A trailing {@code ?} makes the parameter optional (nil or absent accepted, and its
 * constraints then skipped): {@code "string?"}.
 */
public record Param(String name, String type, String description, List<ArgConstraint> constraints) {
    private static final List<String> TYPES =
            List.of("nil", "boolean", "number", "integer", "string", "table", "function", "userdata", "any");

    /** Checks the name and the type. */
    public Param {
        Objects.requireNonNull(name, "parameter name");
        Objects.requireNonNull(type, "parameter type");
        description = description == null ? "" : description;
        constraints = List.copyOf(constraints);
        if (!TYPES.contains(baseType(type))) {
            throw new IllegalArgumentException("parameter '" + name + "': unknown Lua type '" + type + "' (one of "
                    + String.join(", ", TYPES) + ", optionally followed by ?)");
        }
    }

    /** True when nil (or no value) is accepted. */
    public boolean optional() {
        return type.endsWith("?") || baseType(type).equals("any") || baseType(type).equals("nil");
    }

    /** The type without its optional mark. */
    public String baseType() {
        return baseType(type);
    }

    private static String baseType(String t) {
        return t.endsWith("?") ? t.substring(0, t.length() - 1) : t;
    }

    @Override
    public String toString() {
        return name + ": " + type;
    }
}
