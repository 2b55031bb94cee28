package dev.luavm.bench;

import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.classdump.luna.StateContext;
import org.classdump.luna.Table;
import org.classdump.luna.Variable;
import org.classdump.luna.compiler.CompilerChunkLoader;
import org.classdump.luna.env.RuntimeEnvironment;
import org.classdump.luna.env.RuntimeEnvironments;
import org.classdump.luna.exec.DirectCallExecutor;
import org.classdump.luna.impl.StateContexts;
import org.classdump.luna.lib.StandardLibrary;
import org.classdump.luna.load.ChunkFactory;
import org.classdump.luna.runtime.LuaFunction;

/**
 * Luna 0.4.1 (the continuation of Rembulan): Lua 5.3 compiled to JVM bytecode, executed
 * with a {@link DirectCallExecutor} (no tick limit).
 *
 * <p>Compiling once means {@link CompilerChunkLoader#compileTextChunk}, which generates and
 * defines the classes; each run instantiates the chunk in a fresh state with a fresh
 * {@link StandardLibrary}.
 */
final class LunaEngine implements Engine {

    private static final AtomicInteger LOADER_IDS = new AtomicInteger();

    @Override
    public Program compile(String chunkName, byte[] source) throws Exception {
        CompilerChunkLoader loader = newLoader();
        ChunkFactory factory = loader.compileTextChunk(chunkName, new String(source, StandardCharsets.ISO_8859_1));
        return (scriptName, args) -> {
            LuajEngine.Output out = new LuajEngine.Output();
            StateContext state = StateContexts.newDefaultInstance();
            Table env = stdlib(state, loader, out.stream);
            Table arg = state.newTable();
            arg.rawset(0, scriptName);
            for (int i = 0; i < args.size(); i++) {
                arg.rawset(i + 1, args.get(i));
            }
            env.rawset("arg", arg);
            LuaFunction<Variable, ?, ?, ?, ?> main = factory.newInstance(new Variable(env));
            DirectCallExecutor.newExecutor().call(state, main);
            return out.text();
        };
    }

    @Override
    public Session newSession() {
        CompilerChunkLoader loader = newLoader();
        StateContext state = StateContexts.newDefaultInstance();
        Table env = stdlib(state, loader, OutputStream.nullOutputStream());
        DirectCallExecutor executor = DirectCallExecutor.newExecutor();
        AtomicInteger chunkIds = new AtomicInteger();
        return code -> {
            LuaFunction<?, ?, ?, ?, ?> fn = loader.loadTextChunk(new Variable(env), "eval" + chunkIds.incrementAndGet(), code);
            Object[] results = executor.call(state, fn);
            return results.length == 0 ? null : results[0];
        };
    }

    private static CompilerChunkLoader newLoader() {
        return CompilerChunkLoader.of("luna_bench_" + LOADER_IDS.incrementAndGet() + "_");
    }

    private static Table stdlib(StateContext state, CompilerChunkLoader loader, OutputStream stdout) {
        RuntimeEnvironment env = RuntimeEnvironments.system(new ByteArrayInputStream(new byte[0]), stdout, OutputStream.nullOutputStream());
        return StandardLibrary.in(env).withLoader(loader).installInto(state);
    }
}
