/**
 * luavm: a sandboxed Lua 5.3 runtime for the JVM. This package is the public API.
 *
 * <h2>Map of the implementation</h2>
 * <ul>
 *   <li>Entry: {@link dev.luavm.LuaVM} (compiles once, makes sandboxes), {@link dev.luavm.Sandbox}
 *       (one isolated Lua world), {@link dev.luavm.Capabilities} (what a sandbox may use),
 *       {@link dev.luavm.Limits} (what a run may consume), the exception family rooted at
 *       {@link dev.luavm.LuaException}.</li>
 *   <li>Front end: the ANTLR4 grammar (module {@code grammar}) and
 *       {@code dev.luavm.compiler.LuaCompiler}, which turns source bytes into a
 *       {@code dev.luavm.bytecode.Prototype} of PUC-style register bytecode; every instruction is
 *       described once, in {@code dev.luavm.bytecode.OpCode}, and listed by
 *       {@code dev.luavm.bytecode.Disassembler}.</li>
 *   <li>Runtime: {@code dev.luavm.vm.LuaState} (per-sandbox state) and the dispatch loop with its
 *       numbered rules in {@code dev.luavm.vm.Interpreter}; values in {@code dev.luavm.value}
 *       ({@code dev.luavm.value.LuaTable}, {@code dev.luavm.value.LuaString}, closures).</li>
 *   <li>Meters: {@code dev.luavm.meter.GasMeter} (work) and {@code dev.luavm.meter.MemoryMeter}
 *       (the one allocation choke point).</li>
 *   <li>Libraries: the {@code dev.luavm.lib.Library} SPI, implemented by the capability bundles of
 *       the {@code stdlib} module; library code sees the VM only through
 *       {@code dev.luavm.lib.CallContext} and the host only through
 *       {@code dev.luavm.lib.HostEnvironment}.</li>
 *   <li>Host functions: granted in {@link dev.luavm.Capabilities}, all called through one gateway,
 *       {@link dev.luavm.host.HostGateway}.</li>
 * </ul>
 */
package dev.luavm;
