package dev.luavm.host;

/**
 * Rewrites a value before it is written to the audit log, so secrets (tokens, card numbers)
 * never reach it: {@code (param, value) -> param.equals("token") ? "***" : value}. Applied to
 * each argument (named after its declared parameter, else {@code "#1"}, {@code "#2"}...) and to
 * each result ({@code "return#1"}...). Only the log is affected; the function and the policy see
 * the real values. Called on the sandbox's thread; must not keep the values.
 */
@FunctionalInterface
public interface Redactor {
    /** Returns the value to log in place of {@code value} (which may be returned as it is). */
    Object redact(String name, Object value);

    /** Logs everything as it is. */
    static Redactor none() {
        return Identity.NONE;
    }

    /** The one identity redactor, so the log can skip it. */
    final class Identity {
        static final Redactor NONE = (name, value) -> value;

        private Identity() {}
    }

    /** Logs the named parameters as {@code "<redacted>"}. */
    static Redactor hide(String... names) {
        java.util.Set<String> hidden = java.util.Set.of(names);
        return (name, value) -> hidden.contains(name) ? "<redacted>" : value;
    }
}
