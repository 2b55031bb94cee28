/**
 * luavm over the Model Context Protocol, on the official MCP Java SDK.
 *
 * <ul>
 *   <li>{@link dev.luavm.mcp.LuaMcpServer}: the server (tools {@code lua_run}, {@code lua_docs},
 *       {@code lua_reset} over stdio) and its builder, the module's only public class;</li>
 *   <li>{@link dev.luavm.mcp.LuaSession}: one MCP session's persistent sandbox and the
 *       {@code lua_run} report (output, results, usage, classified error);</li>
 *   <li>{@link dev.luavm.mcp.Upstream}: code mode, an upstream MCP server's tools granted as Lua
 *       functions through the host-call gateway;</li>
 *   <li>{@link dev.luavm.mcp.JsonValues}: JSON to and from the values a sandbox takes, bounded;</li>
 *   <li>{@link dev.luavm.mcp.SandboxDocs}: what {@code lua_docs} says;</li>
 *   <li>{@link dev.luavm.mcp.StdioPipes}: stdin/stdout watched so that every request read is
 *       answered before the end of input is passed on.</li>
 * </ul>
 * Nothing here is reachable from {@code luavm-interpreter}: the SDK, Reactor and Jackson stay in
 * this module (and the CLI's jar).
 */
package dev.luavm.mcp;
