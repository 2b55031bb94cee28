/**
 * luavm over the Model Context Protocol, on the official MCP Java SDK.
 *
 * <ul>
 *   <li>{@link dev.luavm.mcp.LuaMcpServer}: the server (tools {@code lua_run}, {@code lua_docs},
 *       {@code lua_reset} over stdio) and its builder, the module's only public class;</li>
 *   <li>{@link dev.luavm.mcp.StdioServerTransport}: MCP over stdio in front of the SDK's session:
 *       every frame checked and answered ({@link dev.luavm.mcp.JsonRpc},
 *       {@link dev.luavm.mcp.LineReader}, {@link dev.luavm.mcp.FrameWriter}), the lifecycle, tool
 *       calls one at a time in arrival order ({@link dev.luavm.mcp.CallQueue}), cancellation
 *       ({@link dev.luavm.mcp.CallCancellation}), the end of input;</li>
 *   <li>{@link dev.luavm.mcp.LuaSession}: one MCP session's persistent sandbox, its gas budget
 *       and the {@code lua_run} report (output, results, usage, classified error);</li>
 *   <li>{@link dev.luavm.mcp.ProgressTicker}: progress notifications of a long call;</li>
 *   <li>{@link dev.luavm.mcp.Upstream}: code mode, an upstream MCP server's tools granted as Lua
 *       functions through the host-call gateway, over {@link dev.luavm.mcp.UpstreamTransport},
 *       which keeps the child process and ends it (and what it started) when we end;</li>
 *   <li>{@link dev.luavm.mcp.JsonValues}: JSON to and from the values a sandbox takes, bounded;</li>
 *   <li>{@link dev.luavm.mcp.SandboxDocs}: what {@code lua_docs} says.</li>
 * </ul>
 * Nothing here is reachable from {@code luavm-interpreter}: the SDK, Reactor and Jackson stay in
 * this module (and the CLI's jar).
 */
package dev.luavm.mcp;
