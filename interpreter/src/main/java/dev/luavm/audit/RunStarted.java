package dev.luavm.audit;

import java.util.List;
import java.util.Map;

/**
 * A run began.
 *
 * @param kind          {@code "eval"} (source text), {@code "run"} (a compiled chunk), {@code "call"} (a global function)
 *                      or {@code "tostring"} (an error object's {@code __tostring}, {@code Sandbox.errorMessage})
 *                      or {@code "close"} (the {@code __gc} finalizers {@code Sandbox.close} runs)
 * @param chunk         the chunk name, or the function's name for a call
 * @param sourceSha256  SHA-256 of the source bytes in hex; null for a call (no source)
 * @param inputsDigest  SHA-256 of the run's arguments in a canonical encoding ({@link Digests#ofValues})
 * @param capabilities  the sandbox's grants, one line each ({@code Capabilities.describe()})
 * @param limits        the sandbox's limits by name (gas, memoryBytes, callDepth, outputBytes, timeoutMillis, sourceBytes, parseDepth)
 * @param randomSeed    the seed of the sandbox's random generator
 * @param clockMillis   the sandbox clock's reading at the start (epoch milliseconds)
 */
public record RunStarted(String sandbox, long run, String kind, String chunk, String sourceSha256,
                         String inputsDigest, List<String> capabilities, Map<String, Object> limits,
                         long randomSeed, long clockMillis) implements AuditEvent {
    /** Copies the capability list and the limits. */
    public RunStarted {
        capabilities = List.copyOf(capabilities);
        limits = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(limits));
    }
}
