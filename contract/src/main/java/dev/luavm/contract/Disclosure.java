package dev.luavm.contract;

import dev.luavm.LuaLimitException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the message of a failed contracted run may say, by the contract's {@link ErrorDetail}.
 *
 * <p>A script chooses the text of its errors ({@code error(data)}), the keys of what it returns,
 * which calls it makes and how much it spends; each is a door through which data the contract
 * withholds could leave. Under {@link ErrorDetail#LOCATION} a message is rebuilt from parts that
 * carry no script-chosen text: the contract's own script name, a line bounded by the script's
 * length, a kind from a fixed vocabulary ({@link #kindOf}), the schema's paths, the contract's
 * function names and the runtime's fixed limit messages. Under {@link ErrorDetail#NONE} it is
 * the fixed {@link #WITHHELD}; under {@link ErrorDetail#FULL} it is the runtime's message.
 *
 * <p>Everything here is a function of the run's audit log and the script's text, so a replay
 * ({@link ContractReplay}) rebuilds the same message from the recorded log.
 */
final class Disclosure {
    /** The message of every failed outcome under {@code error_detail: none}. */
    static final String WITHHELD = "details withheld (error_detail: none)";

    private static final Set<String> TYPES = Set.of("nil", "boolean", "number", "string", "table", "function", "thread",
            "userdata");
    /** A {@code chunk:line: } prefix, as the VM puts before a message. */
    private static final Pattern POSITION = Pattern.compile("^([^\\n]*?):(\\d{1,9}): ");
    private static final Pattern ATTEMPT = Pattern.compile(
            "^attempt to (index|call|concatenate|perform arithmetic on|perform bitwise operation on|get length of) a (\\S+) value");
    private static final Pattern COMPARE = Pattern.compile("^attempt to compare (?:two (\\S+) values|(\\S+) with (\\S+))");
    private static final Pattern HOST_FAILED = Pattern.compile("^host function '([A-Za-z0-9_.]+)' (failed|returned an unconvertible value)");
    /** Runtime messages whose whole text is fixed; matched at the start of the message. */
    private static final List<String> FIXED = List.of("number has no integer representation", "table index is nil",
            "table index is NaN", "'for' initial value must be a number", "'for' limit must be a number",
            "'for' step must be a number", "'for' step is zero", "invalid key to 'next'", "bad argument",
            "permission denied", "not enough memory", "stack overflow", "C stack overflow", "string length overflow",
            "wrong number of arguments", "attempt to yield", "cannot resume", "error in error handling");

    private final ErrorDetail detail;
    private final String script;
    private final int lines;
    private final Set<String> functions;

    /**
     * @param chunkName the chunk name the script was run under ({@code "job.lua"}, {@code "@job.lua"})
     * @param script    the script's bytes (for the number of its lines)
     */
    Disclosure(Contract contract, String chunkName, byte[] script) {
        this.detail = contract.errorDetail();
        this.script = displayName(chunkName);
        int n = 1;
        for (byte b : script) if (b == '\n') n++;
        this.lines = n;
        this.functions = new java.util.HashSet<>();
        for (FunctionRule f : contract.functions()) functions.add(f.name());
        for (ModuleRule m : contract.modules()) for (FunctionRule f : m.functions()) functions.add(f.name());
    }

    ErrorDetail detail() {
        return detail;
    }

    /**
     * The name as the VM's messages show it ({@code luaO_chunkid}, as the interpreter's
     * {@code ChunkId}): without the leading {@code @} or {@code =}, a long file name cut to its
     * last characters after {@code ...}, a long {@code =} name cut to 59 characters.
     */
    static String displayName(String chunkName) {
        if (chunkName == null || chunkName.isEmpty()) return "input";
        String load = chunkName.charAt(0) == '=' || chunkName.charAt(0) == '@' ? chunkName : "=" + chunkName;
        int l = load.length();
        if (load.charAt(0) == '=') return l <= ID_SIZE ? load.substring(1) : load.substring(1, ID_SIZE);
        return l <= ID_SIZE ? load.substring(1) : "..." + load.substring(l - (ID_SIZE - 4));
    }

    /** PUC's LUA_IDSIZE. */
    private static final int ID_SIZE = 60;

    /** {@code full} under FULL, {@code location} under LOCATION, {@link #WITHHELD} under NONE. */
    private String pick(String full, String location) {
        return switch (detail) {
            case FULL -> full;
            case LOCATION -> location;
            case NONE -> WITHHELD;
        };
    }

    /** An uncaught Lua error (its message as the run's log has it). */
    String luaError(String message) {
        return pick(message, location(message, "error") + " (message withheld)");
    }

    /** A syntax error at {@code line} (-1 when unknown). */
    String syntaxError(String message, int line) {
        return pick(message, script + ":" + bounded(line) + ": syntax error (message withheld)");
    }

    /** A limit ({@code gas}, {@code cancelled}...) ended the run; {@code message} is the log's. */
    String limit(String label, String message) {
        return pick(message, limitMessage(label));
    }

    /** The limit's name as an outcome may show it: under NONE not even that. */
    String limitLabel(String label) {
        return detail == ErrorDetail.NONE ? null : label;
    }

    /** A failure the runtime describes ({@code prefix + ": " + text}); LOCATION keeps the prefix alone. */
    String described(String prefix, String text) {
        return pick(prefix + ": " + text, prefix + " (message withheld)");
    }

    /** A fixed message: shown under FULL and LOCATION. */
    String fixed(String message) {
        return pick(message, message);
    }

    /** The input or the result failed its schema: the validator's messages, or the schema's paths. */
    String schema(String what, List<String> messages, Collection<String> schemaPaths) {
        return pick(what + ": " + String.join("; ", messages), what + " at " + String.join(", ", schemaPaths));
    }

    /** A value has no JSON (or Lua) form: where and why, or only why. */
    String notConvertible(String prefix, JsonValues.NotConvertible problem) {
        if (problem == null) return fixed(prefix);
        return pick(prefix + ": " + problem.getMessage(), prefix + ": " + problem.kind());
    }

    /**
     * Calls were blocked. {@code calls}: each as (function, verdict, reason), in the order made;
     * {@code then}: how the run ended afterwards, as this disclosure gives it.
     */
    String blocked(List<String[]> calls, String then) {
        if (detail == ErrorDetail.NONE) return WITHHELD;
        List<String> shown = new ArrayList<>();
        if (detail == ErrorDetail.FULL) {
            for (String[] c : calls) shown.add(c[0] + " " + c[1] + " (" + c[2] + ")");
        } else {
            // which functions and verdicts, once each and sorted: the order and count of the calls, and
            // the reasons (a policy's text may quote an argument), stay in the log
            TreeSet<String> distinct = new TreeSet<>();
            for (String[] c : calls) distinct.add(c[0] + " " + c[1]);
            shown.addAll(distinct);
        }
        return "blocked call: " + String.join(", ", shown) + then;
    }

    /** {@code script:line: kind} for a Lua error's message; {@code fallbackKind} when no fixed kind matches. */
    private String location(String message, String fallbackKind) {
        int line = -1;
        String rest = message == null ? "" : message;
        Matcher m = POSITION.matcher(rest);
        if (m.find()) {
            // the position the VM wrote, when it is in the contract's script; a script can place an
            // error on any line of its own, so the line is bounded by the script's length
            if (m.group(1).equals(script)) line = Integer.parseInt(m.group(2));
            rest = rest.substring(m.end());
            // a rethrown message carries the positions of every raise: the kind is in the innermost
            for (int i = 0; i < 100 && (m = POSITION.matcher(rest)).find(); i++) rest = rest.substring(m.end());
        }
        String kind = kindOf(rest, functions);
        return script + ":" + bounded(line) + ": " + (kind == null ? fallbackKind : kind);
    }

    private String bounded(int line) {
        return line >= 1 && line <= lines ? Integer.toString(line) : "?";
    }

    /**
     * The kind of a Lua error's message (its position removed), from a fixed vocabulary, or null:
     * {@code attempt to index a nil value} (the type only when it is one of Lua's type names, since
     * a metatable's {@code __name} can stand in for it), {@code attempt to compare number with
     * nil}, {@code host function 'lookup' failed} (only for a function the contract grants), and
     * the runtime's fixed messages. Never a variable name: {@code (local 'x')} is dropped, since a
     * chunk the script loads may name its variables after data.
     */
    static String kindOf(String text, Set<String> functions) {
        Matcher m = ATTEMPT.matcher(text);
        if (m.find()) {
            return "attempt to " + m.group(1) + (TYPES.contains(m.group(2)) ? " a " + m.group(2) + " value" : " a value");
        }
        m = COMPARE.matcher(text);
        if (m.find()) {
            if (m.group(1) != null) return TYPES.contains(m.group(1)) ? "attempt to compare two " + m.group(1) + " values" : "attempt to compare";
            return TYPES.contains(m.group(2)) && TYPES.contains(m.group(3))
                    ? "attempt to compare " + m.group(2) + " with " + m.group(3) : "attempt to compare";
        }
        m = HOST_FAILED.matcher(text);
        if (m.find() && functions.contains(m.group(1))) return "host function '" + m.group(1) + "' " + m.group(2);
        for (String f : FIXED) if (text.startsWith(f)) return f;
        return null;
    }

    /** The runtime's fixed message for the limit labelled {@code label}. */
    static String limitMessage(String label) {
        for (LuaLimitException.Limit l : LuaLimitException.Limit.values()) {
            if (l.label.equals(label)) return LuaLimitException.messageFor(l);
        }
        return "limit exceeded";
    }
}
