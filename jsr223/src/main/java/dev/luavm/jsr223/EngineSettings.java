package dev.luavm.jsr223;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaVM;
import dev.luavm.OutputSink;
import dev.luavm.Sandbox;
import dev.luavm.audit.AuditSink;
import dev.luavm.host.HostCallPolicy;

import javax.script.ScriptContext;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * The engine attributes that configure an engine's sandbox, read from its context
 * ({@code engine.put(key, value)}, or the manager's global scope) when the sandbox is made, at
 * the engine's first run; setting one of them in the engine's own bindings afterwards is an
 * {@link IllegalStateException}.
 *
 * <table>
 *   <caption>engine attributes</caption>
 *   <tr><th>key</th><th>value</th><th>default</th></tr>
 *   <tr><td>{@value #CAPABILITIES}</td><td>a {@link Capabilities}, or bundle names separated by commas
 *       ({@code "standard,docs"}, as the CLI's {@code --caps})</td><td>standard</td></tr>
 *   <tr><td>{@value #LIMITS}</td><td>a {@link Limits}</td><td>{@link Limits#defaults()} with gas per run
 *       ({@link Limits#withRunGas}) instead of for the engine's life</td></tr>
 *   <tr><td>{@value #GAS}</td><td>gas per run (a number)</td><td>100,000,000</td></tr>
 *   <tr><td>{@value #MEMORY}</td><td>bytes the script may hold</td><td>64 MiB</td></tr>
 *   <tr><td>{@value #TIMEOUT}</td><td>per run: a {@link Duration}, milliseconds, or ISO-8601 text ({@code PT2S})</td><td>10 s</td></tr>
 *   <tr><td>{@value #OUTPUT}</td><td>bytes printed per run</td><td>1 MiB</td></tr>
 *   <tr><td>{@value #POLICY}</td><td>a {@link HostCallPolicy}</td><td>allow all</td></tr>
 *   <tr><td>{@value #AUDIT}</td><td>an {@link AuditSink}</td><td>none</td></tr>
 *   <tr><td>{@value #SEED}</td><td>math.random's seed (a number)</td><td>{@link dev.luavm.Sandbox#DEFAULT_RANDOM_SEED}</td></tr>
 *   <tr><td>{@value #SANDBOX_NAME}</td><td>the sandbox's name in audit logs</td><td>generated</td></tr>
 * </table>
 * The single limits ({@code gas}, {@code memory}, ...) apply on top of {@value #LIMITS}.
 */
public final class EngineSettings {
    public static final String CAPABILITIES = "luavm.capabilities";
    public static final String LIMITS = "luavm.limits";
    public static final String GAS = "luavm.gas";
    public static final String MEMORY = "luavm.memory";
    public static final String TIMEOUT = "luavm.timeout";
    public static final String OUTPUT = "luavm.output";
    public static final String POLICY = "luavm.policy";
    public static final String AUDIT = "luavm.audit";
    public static final String SEED = "luavm.seed";
    public static final String SANDBOX_NAME = "luavm.name";

    /** Every key above. */
    public static final Set<String> KEYS = Set.of(CAPABILITIES, LIMITS, GAS, MEMORY, TIMEOUT, OUTPUT, POLICY, AUDIT, SEED,
            SANDBOX_NAME);

    private EngineSettings() {}

    /** True for keys that configure the engine rather than name Lua globals ({@code luavm.*}, {@code javax.script.*}). */
    static boolean isSetting(String key) {
        return key.startsWith("luavm.") || key.startsWith("javax.script.");
    }

    /** A sandbox as the context's attributes describe it, printing to {@code out}. */
    static Sandbox newSandbox(LuaVM vm, ScriptContext ctx, OutputSink out) {
        Sandbox.Builder b = vm.sandbox().capabilities(capabilities(ctx.getAttribute(CAPABILITIES))).limits(limits(ctx))
                .output(out);
        Object policy = ctx.getAttribute(POLICY);
        if (policy != null) b.policy(as(POLICY, policy, HostCallPolicy.class));
        Object audit = ctx.getAttribute(AUDIT);
        if (audit != null) b.audit(as(AUDIT, audit, AuditSink.class));
        Object seed = ctx.getAttribute(SEED);
        if (seed != null) b.randomSeed(number(SEED, seed));
        Object name = ctx.getAttribute(SANDBOX_NAME);
        if (name != null) b.name(name.toString());
        return b.build();
    }

    private static Capabilities capabilities(Object v) {
        if (v == null) return Capabilities.standard();
        if (v instanceof Capabilities c) return c;
        if (v instanceof String s) return Capabilities.builder().bundles(List.of(s.split(","))).build();
        if (v instanceof Iterable<?> it) {
            List<String> names = new java.util.ArrayList<>();
            for (Object o : it) names.add(String.valueOf(o));
            return Capabilities.builder().bundles(names).build();
        }
        throw new IllegalArgumentException(CAPABILITIES + ": a Capabilities or bundle names expected, got "
                + v.getClass().getName());
    }

    private static Limits limits(ScriptContext ctx) {
        Object l = ctx.getAttribute(LIMITS);
        // a long-lived engine runs many scripts: by default each gets the gas, rather than all together
        Limits limits = l == null ? Limits.defaults().withGas(Long.MAX_VALUE).withRunGas(Limits.DEFAULT_GAS)
                : as(LIMITS, l, Limits.class);
        Object v;
        if ((v = ctx.getAttribute(GAS)) != null) limits = limits.withRunGas(number(GAS, v));
        if ((v = ctx.getAttribute(MEMORY)) != null) limits = limits.withMemory(number(MEMORY, v));
        if ((v = ctx.getAttribute(OUTPUT)) != null) limits = limits.withOutput(number(OUTPUT, v));
        if ((v = ctx.getAttribute(TIMEOUT)) != null) limits = limits.withTimeout(duration(v));
        return limits;
    }

    private static <T> T as(String key, Object v, Class<T> type) {
        if (!type.isInstance(v)) {
            throw new IllegalArgumentException(key + ": a " + type.getSimpleName() + " expected, got " + v.getClass().getName());
        }
        return type.cast(v);
    }

    private static long number(String key, Object v) {
        if (v instanceof Number n) return n.longValue();
        if (v instanceof String s) {
            try {
                return Long.parseLong(s.trim().replace("_", ""));
            } catch (NumberFormatException e) {
                // fall through to the error below
            }
        }
        throw new IllegalArgumentException(key + ": a number expected, got '" + v + "'");
    }

    private static Duration duration(Object v) {
        if (v instanceof Duration d) return d;
        if (v instanceof Number n) return Duration.ofMillis(n.longValue());
        if (v instanceof String s) {
            try {
                return s.trim().startsWith("P") ? Duration.parse(s.trim()) : Duration.ofMillis(Long.parseLong(s.trim()));
            } catch (RuntimeException e) {
                // fall through to the error below
            }
        }
        throw new IllegalArgumentException(TIMEOUT + ": a Duration, milliseconds or ISO-8601 text (PT2S) expected, got '"
                + v + "'");
    }
}
