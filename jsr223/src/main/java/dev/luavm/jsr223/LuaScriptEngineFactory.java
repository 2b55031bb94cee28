package dev.luavm.jsr223;

import dev.luavm.LuaVM;

import javax.script.ScriptEngine;
import javax.script.ScriptEngineFactory;
import java.util.List;

/**
 * The {@code javax.script} factory of luavm, found by {@code ScriptEngineManager} through
 * {@code META-INF/services} under the names {@code lua} and {@code luavm}, the extension
 * {@code lua} and the MIME types {@code text/x-lua} and {@code application/x-lua}.
 *
 * <pre>{@code
 * ScriptEngine lua = new ScriptEngineManager().getEngineByName("lua");
 * Object answer = lua.eval("return 6*7");     // 42L
 * }</pre>
 *
 * One {@link LuaVM} per factory is shared by the engines it makes (it holds no script state and
 * keeps the code of the compiled tier, so a function made hot by one engine's runs is compiled
 * once for all); each engine is a sandbox of its own. The tier is {@code LuaVM.create()}'s: hot
 * functions run as JVM bytecode (system property {@code luavm.tier}: {@code interp},
 * {@code auto}, {@code compile-all}); {@code getParameter("luavm.tier")} says which. Engines are not thread-safe ({@code THREADING} is null):
 * one thread at a time per engine.
 */
public final class LuaScriptEngineFactory implements ScriptEngineFactory {
    static final String VERSION = "0.1.0";
    private static final List<String> NAMES = List.of("lua", "luavm");
    private static final List<String> EXTENSIONS = List.of("lua");
    private static final List<String> MIME_TYPES = List.of("text/x-lua", "application/x-lua");
    /** {@link #getParameter} key: the compiled tier of this factory's engines ({@code interp}, {@code auto}, {@code compile-all}) */
    public static final String TIER = "luavm.tier";

    private volatile LuaVM vm;

    @Override
    public String getEngineName() {
        return "luavm";
    }

    @Override
    public String getEngineVersion() {
        return VERSION;
    }

    @Override
    public List<String> getExtensions() {
        return EXTENSIONS;
    }

    @Override
    public List<String> getMimeTypes() {
        return MIME_TYPES;
    }

    @Override
    public List<String> getNames() {
        return NAMES;
    }

    @Override
    public String getLanguageName() {
        return "Lua";
    }

    @Override
    public String getLanguageVersion() {
        return "5.3";
    }

    @Override
    public Object getParameter(String key) {
        return switch (key) {
            case ScriptEngine.ENGINE -> getEngineName();
            case ScriptEngine.ENGINE_VERSION -> getEngineVersion();
            case ScriptEngine.NAME -> NAMES.get(0);
            case ScriptEngine.LANGUAGE -> getLanguageName();
            case ScriptEngine.LANGUAGE_VERSION -> getLanguageVersion();
            case TIER -> vm().tier().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
            default -> null; // "THREADING": null, an engine is for one thread at a time
        };
    }

    @Override
    public String getMethodCallSyntax(String obj, String m, String... args) {
        return obj + ":" + m + "(" + String.join(", ", args) + ")";
    }

    @Override
    public String getOutputStatement(String toDisplay) {
        return "print(" + quote(toDisplay) + ")";
    }

    @Override
    public String getProgram(String... statements) {
        return String.join("\n", statements);
    }

    @Override
    public ScriptEngine getScriptEngine() {
        return new LuaScriptEngine(this, vm());
    }

    LuaVM vm() {
        LuaVM v = vm;
        if (v == null) {
            synchronized (this) {
                if (vm == null) vm = LuaVM.create();
                v = vm;
            }
        }
        return v;
    }

    /** A Lua string literal with the same bytes as {@code s} in UTF-8. */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\0' -> sb.append("\\0");
                default -> {
                    if (c < 0x20 || c == 0x7F) sb.append(String.format("\\%03d", (int) c)); // three digits: a digit may follow
                    else sb.append(c);
                }
            }
        }
        return sb.append('"').toString();
    }
}
