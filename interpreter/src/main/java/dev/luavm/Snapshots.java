package dev.luavm;

import dev.luavm.lib.Library;
import dev.luavm.lib.Unpersister;
import dev.luavm.meter.GasMeter;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.snapshot.Permanents;
import dev.luavm.snapshot.SnapshotProblem;
import dev.luavm.snapshot.StateReader;
import dev.luavm.snapshot.StateWriter;
import dev.luavm.value.Builtin;
import dev.luavm.vm.LuaError;
import dev.luavm.vm.LuaTermination;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The API's side of snapshots: {@link Sandbox} and {@link LuaVM} call here, and here the
 * format's reader and writer ({@code dev.luavm.snapshot}) meet a sandbox, and their failures
 * become the API's exceptions ({@link LuaSnapshotException}, {@link LuaLimitException}).
 */
final class Snapshots {
    private Snapshots() {}

    /** The seed a snapshot carries (for the environment of the sandbox being built from it). */
    static long seedOf(byte[] snapshot) {
        try {
            return StateReader.seedOf(snapshot);
        } catch (SnapshotProblem p) {
            throw new LuaSnapshotException(p.getMessage());
        } catch (RuntimeException e) {
            throw unexpected(e);
        }
    }

    /** The snapshot of {@code sb}, between runs ({@code paused} null) or of a paused run. */
    static byte[] write(Sandbox sb, StateWriter.Paused paused) {
        MemoryMeter meter = sb.meter();
        // a bound well above the 2x the format keeps to, so a writer bug cannot fill the host's heap
        long max = Math.min(Integer.MAX_VALUE - 8L, 4 * meter.current() + (1 << 20));
        try {
            return StateWriter.write(new StateWriter.Source(sb.engine().state(), meter, sb.environment().randomSeed(),
                    sb.grantNames(), paused, max, sb.runtime().snapshotKey()));
        } catch (SnapshotProblem p) {
            throw new LuaSnapshotException(p.getMessage());
        }
    }

    /**
     * Reads {@code snapshot} into {@code sb}, which has just installed its bundles. The work is
     * bounded like a run's (its gas and time limits, on a meter of its own: the sandbox's usage
     * starts at zero); the memory is the sandbox's.
     */
    static void restore(Sandbox sb, LuaVM vm, byte[] snapshot) {
        if (read(sb, vm, snapshot) != null) {
            throw new LuaSnapshotException("the snapshot holds a paused run: LuaVM.resume continues it");
        }
    }

    /** Reads the snapshot of a paused run into {@code sb} (see {@link #read}); the paused run, for the caller to continue. */
    static StateReader.Paused readPaused(Sandbox sb, LuaVM vm, byte[] snapshot) {
        StateReader.Paused paused = read(sb, vm, snapshot);
        if (paused == null) throw new LuaSnapshotException("the snapshot holds no paused run: restoreFrom restores it");
        Builtin call = sb.grantsByName().get(paused.callName());
        if (call == null || !sb.engine().pausedCallIs(call)) {
            throw new LuaSnapshotException("malformed snapshot: the paused call is not host function '" + paused.callName() + "'");
        }
        return paused;
    }

    static StateReader.Paused read(Sandbox sb, LuaVM vm, byte[] snapshot) {
        Limits limits = sb.limits();
        MemoryMeter meter = sb.meter();
        GasMeter gas = new GasMeter(Math.min(limits.gas(), limits.runGas()));
        long start = System.nanoTime();
        gas.setClock(() -> System.nanoTime() - start);
        Duration timeout = limits.timeout();
        if (timeout.compareTo(Duration.ofDays(365)) < 0) gas.setDeadline(timeout.toNanos());
        List<Builtin> internal = new ArrayList<>();
        Map<String, Unpersister> codecs = new HashMap<>();
        for (String name : sb.capabilities().bundles()) {
            Library lib = vm.bundle(name);
            internal.addAll(lib.internalBuiltins());
            for (Unpersister u : lib.unpersisters()) codecs.putIfAbsent(u.kind(), u);
        }
        MemoryMeter.LiveSizer sizer = meter.liveSizer();
        long held = meter.heldOutsideHeap();
        // the installed bundles' tables are replaced by the snapshot's: the heap is counted anew,
        // as it is rebuilt, with no walk until it is whole
        meter.setLiveSizer(null);
        meter.restoreFigures(0, 0);
        try {
            Permanents perms = Permanents.of(sb.engine().state(), sb.grantsByName(), internal);
            StateReader.Result r = StateReader.read(snapshot, new StateReader.Target(sb.engine().state(), meter, gas, perms, codecs,
                    (module, chunkName, text) -> vouches(sb.environment(), module, chunkName, text), vm.snapshotKey()));
            long rebuilt = meter.current() - held;
            long original = r.memoryLive() + r.memorySinceWalk();
            if (original >= rebuilt && original + held <= meter.cap()) {
                meter.restoreFigures(r.memoryLive(), r.memorySinceWalk()); // the original's: it walks when they would
            } else {
                meter.restoreFigures(rebuilt, 0);
            }
            return r.paused();
        } catch (SnapshotProblem p) {
            throw new LuaSnapshotException(p.getMessage());
        } catch (StateReader.DepthExceeded d) {
            throw new LuaLimitException(LuaLimitException.Limit.DEPTH);
        } catch (LuaError e) {
            if (MemoryMeter.isOutOfMemory(e)) throw new LuaLimitException(LuaLimitException.Limit.MEMORY);
            throw new LuaSnapshotException("malformed snapshot: " + e.getMessage());
        } catch (LuaTermination t) {
            throw new LuaLimitException(t.reason() == LuaTermination.Reason.TIME ? LuaLimitException.Limit.TIME
                    : LuaLimitException.Limit.GAS);
        } catch (LuaException e) {
            throw e;
        } catch (RuntimeException e) {
            throw unexpected(e);
        } finally {
            meter.setLiveSizer(sizer);
        }
    }

    /**
     * Whether the host gives {@code text} as module {@code module} now, by the route the chunk
     * name says it came: the host resolver ({@code @module}) or a file of the module directories
     * ({@code @file} whose place names the module).
     */
    private static boolean vouches(SandboxEnvironment env, String module, String chunkName, byte[] text) {
        if (!chunkName.startsWith("@")) return false;
        String name = chunkName.substring(1);
        if (name.equals(module)) {
            byte[] src = env.moduleSource(module);
            if (src != null && java.util.Arrays.equals(src, text)) return true;
        }
        dev.luavm.host.ModuleFiles files = env.moduleFiles();
        if (files == null || !module.equals(files.moduleName(name))) return false;
        long size = files.size(name);
        if (size < 0 || size > text.length + 1024L) return false;
        byte[] src = files.read(name, size);
        return src != null && java.util.Arrays.equals(dev.luavm.host.ModuleFiles.loadText(src), text);
    }

    /** A failure the reader did not foresee: still the snapshot's fault, reported as such (the cause kept for a bug report). */
    private static LuaSnapshotException unexpected(RuntimeException e) {
        return new LuaSnapshotException("malformed snapshot (" + e.getClass().getSimpleName() + ")", e);
    }
}
