package dev.luavm;

/**
 * Root of every exception a sandbox throws at the host. Four kinds:
 * <ul>
 *   <li>{@link LuaScriptException}: the script raised an error (or had a syntax error,
 *       {@link LuaSyntaxException}) that nothing in Lua caught;</li>
 *   <li>{@link LuaLimitException}: the run was ended by a limit (gas, memory, time, output, depth)
 *       or by {@link Sandbox#cancel()};</li>
 *   <li>{@link LuaConversionException}: a value could not cross between Java and Lua (too deep,
 *       too many elements, cyclic);</li>
 *   <li>{@link LuaAuditException}: the audit log could not be written, so the run was stopped
 *       (it fails closed).</li>
 * </ul>
 * Messages are bounded in length and never run guest code: the host formats errors itself.
 */
public abstract class LuaException extends RuntimeException {
    LuaException(String message, Throwable cause) {
        super(message, cause);
    }
}
