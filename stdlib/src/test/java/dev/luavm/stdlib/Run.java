package dev.luavm.stdlib;

import dev.luavm.meter.GasMeter;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.stdlib.base.BaseLibrary;
import dev.luavm.stdlib.coroutine.CoroutineLibrary;
import dev.luavm.stdlib.debug.DebugLibrary;
import dev.luavm.value.LuaClosure;
import dev.luavm.vm.LuaError;
import dev.luavm.vm.LuaState;
import java.nio.file.Files;
import java.nio.file.Path;

/** Manual runner: {@code Run file.lua} with base, coroutine and debug, output to stdout. */
public final class Run {
    public static void main(String[] args) throws Exception {
        byte[] src = Files.readAllBytes(Path.of(args[0]));
        LuaState L = newState(new TestHost(true));
        try {
            L.globals().put(dev.luavm.value.LuaString.of("arg"), new dev.luavm.value.LuaTable(L.memory()));
            LuaClosure main = L.load(src, "@" + Path.of(args[0]).getFileName());
            long t0 = System.nanoTime();
            L.call(main);
            System.err.printf("[%.3f s, gas %d]%n", (System.nanoTime() - t0) / 1e9, L.gasUsed());
        } catch (LuaError e) {
            System.out.flush();
            System.err.println("lua: " + e.getMessage());
            if (e.luaTraceback() != null) System.err.println(e.luaTraceback());
        }
    }

    public static LuaState newState(TestHost host) {
        LuaState L = new LuaState(MemoryMeter.unlimited(), GasMeter.unlimited(), host, LuaState.Settings.defaults());
        L.install(new BaseLibrary());
        L.install(new CoroutineLibrary());
        L.install(new DebugLibrary());
        L.install(new dev.luavm.stdlib.string.StringLibrary());
        L.install(new dev.luavm.stdlib.table.TableLibrary());
        L.install(new dev.luavm.stdlib.math.MathLibrary());
        L.install(new dev.luavm.stdlib.os.SafeOsLibrary());
        L.install(new dev.luavm.stdlib.utf8.Utf8Library());
        return L;
    }
}
