package dev.luavm.bench;

import dev.luavm.Capabilities;
import dev.luavm.CompiledChunk;
import dev.luavm.LuaVM;
import dev.luavm.Limits;
import dev.luavm.Sandbox;
import java.util.List;

/**
 * luavm through its public API only: the one class to adjust when that API changes.
 * {@link Engines} finds it by name.
 *
 * <p>Metered: {@code Limits.unlimited()} with finite gas and memory limits far beyond any
 * benchmark ({@link #METERED_GAS}, {@link #METERED_MEMORY}), so the run pays for metering but
 * is never stopped. They are deliberately not {@code Long.MAX_VALUE}, which
 * {@code unlimited()} itself uses and a VM may treat as "off". Unmetered: {@code Limits.unlimited()}.
 *
 * <p>{@code arg} is set by evaluating a table constructor rather than with
 * {@code setGlobal}, so this adapter needs no API for building Lua tables from Java.
 */
public final class LuavmEngine implements Engine {

    /** Gas for metered runs: finite, never reached. */
    static final long METERED_GAS = 1L << 62;
    /** Memory for metered runs: 1 TiB, finite, never reached. */
    static final long METERED_MEMORY = 1L << 40;

    private final LuaVM vm;
    private final boolean metered;

    /** {@code tier}: interp, auto or compile-all ({@code LuaVM.Builder.tier}). */
    public LuavmEngine(boolean metered, String tier) {
        this.metered = metered;
        this.vm = LuaVM.builder().tier(dev.luavm.vm.tier.Tier.parse(tier)).build();
    }

    public LuavmEngine(boolean metered) {
        this(metered, "interp");
    }

    private Limits limits() {
        return metered
                ? Limits.unlimited().withGas(METERED_GAS).withMemory(METERED_MEMORY)
                : Limits.unlimited();
    }

    private Sandbox newSandbox(java.io.OutputStream out) {
        Sandbox.Builder b = vm.sandbox().capabilities(Capabilities.standard()).limits(limits());
        return out == null ? b.build() : b.output(out).build();
    }

    @Override
    public Program compile(String chunkName, byte[] source) throws Exception {
        CompiledChunk chunk = vm.compile(chunkName, source);
        return (scriptName, args) -> {
            LuajEngine.Output out = new LuajEngine.Output();
            try (Sandbox sb = newSandbox(out.stream)) {
                sb.eval(argTable(scriptName, args));
                sb.run(chunk);
            }
            return out.text();
        };
    }

    @Override
    public Session newSession() throws Exception {
        Sandbox sb = newSandbox(null);
        return new Session() {
            @Override
            public Object eval(String code) throws Exception {
                return sb.eval(code);
            }

            @Override
            public void close() throws Exception {
                sb.close();
            }
        };
    }

    /** {@code arg = {[0] = "script", "a1", ...}} as Lua source. */
    private static String argTable(String scriptName, List<String> args) {
        StringBuilder sb = new StringBuilder("arg = {[0] = ").append(quote(scriptName));
        for (String a : args) {
            sb.append(", ").append(quote(a));
        }
        return sb.append('}').toString();
    }

    private static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                sb.append('\\').append(String.format("%03d", (int) c & 0xff));
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }
}
