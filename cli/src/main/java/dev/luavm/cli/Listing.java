package dev.luavm.cli;

import dev.luavm.CompiledChunk;
import dev.luavm.LuaException;

import java.io.IOException;

/** {@code luavm -l script}: prints the chunk's bytecode as {@code luac -l} does, without running it. */
final class Listing {
    private Listing() {}

    static int print(Options o, Console console) {
        try {
            byte[] src = Runner.readScript(o.script, console);
            CompiledChunk chunk = StandardBundles.runtime().limits(Runner.limits(o)).build()
                    .compile(Runner.chunkName(o.script), dev.luavm.stdlib.pkg.FileText.strip(src));
            console.out.print(chunk.listing(o.listing > 1));
            console.out.flush();
            return 0;
        } catch (IOException e) {
            console.error("luavm", "cannot open " + o.script, null);
            return 1;
        } catch (LuaException e) {
            console.error("luavm", e.getMessage(), null);
            return Runner.statusOf(e);
        }
    }
}
