package dev.luavm.snapshot;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaSnapshotException;
import dev.luavm.LuaSuspendedException;
import dev.luavm.LuaVM;
import dev.luavm.ResumeLedger;
import dev.luavm.Sandbox;
import dev.luavm.host.HostCallPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 25 item 1's interface, clause by clause, where the round-trip, corruption and size tests
 * do not already hold it: another format version is refused; Java handles and a run in progress
 * refuse {@code snapshot()}; a missing grant is named; a state too large for the new memory limit
 * is {@code LuaLimitException(MEMORY)}; a restored sandbox's usage starts at zero; states deeper
 * than any Java stack go through; and each paused snapshot resumes once per token, also when
 * resumes race, when a resume fails before the run goes on, and across runtimes sharing a ledger.
 */
@Timeout(120)
class SnapshotContractTest {
    static final LuaVM VM = LuaVM.create();
    static final Limits LIMITS = Limits.defaults().withMemory(64L << 20).withTimeout(Duration.ofSeconds(60));

    static Capabilities approving(Object answer) {
        return Capabilities.builder().standard().declare("approve", "asks a human").unsafe().grant(call -> answer).build();
    }

    /** A host object (not a record, collection or string, which convert to Lua values): a userdata in Lua. */
    static final class Connection {
        final String url;

        Connection(String url) {
            this.url = url;
        }
    }

    static final HostCallPolicy PAUSE = request -> HostCallPolicy.Decision.suspend("needs a human");

    static byte[] withVersion(byte[] snap, int version) {
        byte[] b = snap.clone();
        b[8] = (byte) (version >>> 8);
        b[9] = (byte) version;
        return CorruptedSnapshotTest.reseal(b);
    }

    static byte[] pausedSnapshot(LuaVM vm) {
        Sandbox sb = vm.sandbox().capabilities(approving(null)).build();
        return assertThrows(LuaSuspendedException.class, () -> sb.eval("job", "print('asked') print('got', approve(1))"))
                .snapshot();
    }

    @Test
    void anotherFormatVersionIsRefusedEvenWhenWellSealed() {
        Sandbox sb = VM.sandbox(Capabilities.standard(), LIMITS);
        sb.eval("x = 42");
        byte[] good = sb.snapshot();
        assertEquals(42L, VM.sandbox().capabilities(Capabilities.standard()).restoreFrom(withVersion(good, 1)).build()
                .eval("return x"), "version 1 is this runtime's: the re-sealed copy restores");
        byte[] paused = pausedSnapshot(LuaVM.builder().policy(PAUSE).build());
        for (int v : new int[] {0, 2, 0x100, 0xFFFF}) {
            LuaSnapshotException e = assertThrows(LuaSnapshotException.class,
                    () -> LuaVM.restore(withVersion(good, v), Capabilities.standard(), LIMITS));
            assertEquals("snapshot format version " + v + " cannot be read: this runtime reads version 1", e.getMessage());
            e = assertThrows(LuaSnapshotException.class, () -> LuaVM.resume(withVersion(paused, v), approving(null), LIMITS, "yes"));
            assertTrue(e.getMessage().startsWith("snapshot format version " + v + " "), e.getMessage());
            e = assertThrows(LuaSnapshotException.class, () -> LuaVM.fork(withVersion(paused, v)));
            assertTrue(e.getMessage().startsWith("snapshot format version " + v + " "), e.getMessage());
        }
    }

    @Test
    void aJavaHandleRefusesTheSnapshotAndSaysWhere() {
        Sandbox sb = VM.sandbox(Capabilities.standard(), LIMITS);
        sb.setGlobal("conn", new Connection("db://orders")); // no conversion: userdata, a Java handle
        LuaSnapshotException e = assertThrows(LuaSnapshotException.class, sb::snapshot);
        assertTrue(e.getMessage().contains("conn"), e.getMessage());
        // the sandbox is unchanged and snapshots once the handle is gone
        sb.setGlobal("conn", null);
        sb.eval("y = 7");
        assertEquals(7L, LuaVM.restore(sb.snapshot(), Capabilities.standard(), LIMITS).eval("return y"));
    }

    @Test
    void aRunInProgressRefusesTheSnapshotFromAHostFunctionAndFromAnotherThread() throws Exception {
        AtomicReference<Sandbox> self = new AtomicReference<>();
        AtomicReference<Throwable> fromInside = new AtomicReference<>();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch tried = new CountDownLatch(1);
        Capabilities caps = Capabilities.builder().standard()
                .grant("inside", "snapshots its own sandbox", c -> {
                    try {
                        self.get().snapshot();
                    } catch (Throwable t) {
                        fromInside.set(t);
                    }
                    return null;
                })
                .grant("hold", "waits for the other thread's try", c -> {
                    running.countDown();
                    try {
                        tried.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                    }
                    return null;
                })
                .build();
        Sandbox sb = VM.sandbox(caps, LIMITS);
        self.set(sb);
        sb.eval("inside()");
        assertTrue(fromInside.get() instanceof LuaSnapshotException, String.valueOf(fromInside.get()));
        assertEquals("cannot snapshot the sandbox while a run is in progress", fromInside.get().getMessage());

        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            Future<Object> run = other.submit(() -> sb.eval("hold() return 1"));
            assertTrue(running.await(30, TimeUnit.SECONDS));
            LuaSnapshotException e = assertThrows(LuaSnapshotException.class, sb::snapshot);
            assertEquals("cannot snapshot the sandbox while a run is in progress", e.getMessage());
            tried.countDown();
            assertEquals(1L, run.get(30, TimeUnit.SECONDS));
        } finally {
            tried.countDown();
            other.shutdownNow();
        }
        sb.snapshot(); // between runs it works again
    }

    @Test
    void aMissingGrantIsNamedAndATooLargeStateIsAMemoryLimit() {
        Capabilities caps = Capabilities.builder().standard().grant("lookup", "a host lookup", c -> "found").build();
        Sandbox sb = VM.sandbox(caps, LIMITS);
        sb.eval("finder = { go = lookup } big = string.rep('x', 3 << 20)");
        byte[] snap = sb.snapshot();
        LuaSnapshotException e = assertThrows(LuaSnapshotException.class,
                () -> LuaVM.restore(snap, Capabilities.standard(), LIMITS));
        assertTrue(e.getMessage().contains("'lookup'"), e.getMessage());
        LuaLimitException tooBig = assertThrows(LuaLimitException.class,
                () -> LuaVM.restore(snap, caps, LIMITS.withMemory(2L << 20)));
        assertEquals(LuaLimitException.Limit.MEMORY, tooBig.limit());
        Sandbox back = LuaVM.restore(snap, caps, LIMITS);
        assertEquals(List.of("found", 3L << 20), back.evalAll("use", "return finder.go(), #big"));
    }

    @Test
    void aRestoredSandboxsUsageStartsAtZeroUnderTheNewLimits() {
        String loop = "for i = 1, 100000 do x = i end";
        Sandbox probe = VM.sandbox(Capabilities.standard(), LIMITS);
        probe.eval(loop);
        long once = probe.usage().gas();
        Limits budget = LIMITS.withGas(once * 3 / 2); // one loop fits a sandbox's budget, two do not
        Sandbox sb = VM.sandbox(Capabilities.standard(), budget);
        sb.eval(loop);
        byte[] snap = sb.snapshot();
        assertEquals(LuaLimitException.Limit.GAS, assertThrows(LuaLimitException.class, () -> sb.eval(loop)).limit());
        Sandbox back = LuaVM.restore(snap, Capabilities.standard(), budget);
        assertEquals(0, back.usage().gas());
        assertEquals(0, back.usage().outputBytes());
        back.eval(loop); // the whole budget is the restored sandbox's
        assertEquals(once, back.usage().gas());
        assertEquals(100000L, back.eval("return x"));
    }

    @Test
    void statesDeeperThanAnyJavaStackGoThrough() {
        Sandbox sb = VM.sandbox(Capabilities.standard(), LIMITS);
        sb.eval(String.join("\n",
                "chain = nil for i = 1, 100000 do chain = {next = chain, i = i} end",       // a 100,000-long list
                "local f = function() return 0 end",
                "for i = 1, 30000 do local g = f f = function() return g() end end fn = f",  // closures through upvalues
                "mt = {} local m = mt for i = 1, 30000 do local n = {} setmetatable(m, n) m = n end",
                "nest = {} local t = nest for i = 1, 100000 do t[1] = {} t = t[1] end"));
        Sandbox back = LuaVM.restore(sb.snapshot(), Capabilities.standard(), LIMITS.withCallDepth(100_000));
        String probe = "local n, c = 0, chain while c do n = n + 1 c = c.next end "
                + "local d, t = 0, nest while t[1] do d = d + 1 t = t[1] end "
                + "local k, m = 0, mt while getmetatable(m) do k = k + 1 m = getmetatable(m) end return n, d, k";
        assertEquals(List.of(100000L, 100000L, 30000L), back.evalAll("probe", probe));
        assertEquals(List.of(0L), back.evalAll("call", "return fn()"), "30,000 closures, each calling the one it captured");
        assertEquals(sb.evalAll("probe", probe), back.evalAll("probe", probe));
        back.snapshot(); // and back again
    }

    @Test
    void racingResumesOfOneSnapshotRunItOnce() throws Exception {
        byte[] paused = pausedSnapshot(LuaVM.builder().policy(PAUSE).build());
        LuaVM resumer = LuaVM.create();
        int n = 4;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<String>> tries = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                tries.add(pool.submit(() -> {
                    go.await();
                    try {
                        return resumer.sandbox().capabilities(approving(null)).resumeFrom(paused, "yes").build().output();
                    } catch (LuaSnapshotException e) {
                        return "refused: " + e.getMessage();
                    }
                }));
            }
            go.countDown();
            int ran = 0;
            for (Future<String> f : tries) {
                String r = f.get(60, TimeUnit.SECONDS);
                if (r.equals("got\tyes\n")) ran++;
                else assertTrue(r.startsWith("refused: this paused run was resumed already"), r);
            }
            assertEquals(1, ran, "exactly one of " + n + " racing resumes ran the rest of the script");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aResumeRefusedBeforeTheRunGoesOnLeavesTheTokenUnused() {
        Sandbox sb = LuaVM.builder().policy(PAUSE).build().sandbox().capabilities(approving(null)).build();
        byte[] paused = assertThrows(LuaSuspendedException.class, () -> sb.eval("job",
                "local big = string.rep('x', 1 << 20) print('asked') print('got', approve(1), #big)")).snapshot();
        LuaVM resumer = LuaVM.create();
        // without the grant, and under a memory limit the state does not fit: refused, the token untouched
        LuaSnapshotException e = assertThrows(LuaSnapshotException.class,
                () -> resumer.sandbox().capabilities(Capabilities.standard()).resumeFrom(paused, "yes").build());
        assertTrue(e.getMessage().contains("'approve'"), e.getMessage());
        LuaLimitException tooBig = assertThrows(LuaLimitException.class, () -> resumer.sandbox().capabilities(approving(null))
                .limits(Limits.defaults().withMemory(512 << 10)).resumeFrom(paused, "yes").build());
        assertEquals(LuaLimitException.Limit.MEMORY, tooBig.limit());
        assertEquals("got\tyes\t1048576\n",
                resumer.sandbox().capabilities(approving(null)).resumeFrom(paused, "yes").build().output());
        assertThrows(LuaSnapshotException.class,
                () -> resumer.sandbox().capabilities(approving(null)).resumeFrom(paused, "yes").build());
    }

    @Test
    void runtimesSharingALedgerResumeEachTokenOnceBetweenThem() {
        Set<String> table = new HashSet<>(); // the host's database
        ResumeLedger shared = token -> {
            synchronized (table) {
                return table.add(HexFormat.of().formatHex(token));
            }
        };
        byte[] paused = pausedSnapshot(LuaVM.builder().policy(PAUSE).build());
        LuaVM first = LuaVM.builder().resumeLedger(shared).build();
        LuaVM second = LuaVM.builder().resumeLedger(shared).build();
        assertEquals("got\tyes\n", first.sandbox().capabilities(approving(null)).resumeFrom(paused, "yes").build().output());
        LuaSnapshotException e = assertThrows(LuaSnapshotException.class,
                () -> second.sandbox().capabilities(approving(null)).resumeFrom(paused, "no").build());
        assertTrue(e.getMessage().contains("resumed already"), e.getMessage());
        // a fork has a token of its own; a restore of a plain snapshot twice is a fork by nature (no token)
        byte[] copy = LuaVM.fork(paused);
        assertEquals("got\tagain\n", second.sandbox().capabilities(approving(null)).resumeFrom(copy, "again").build().output());
        assertEquals(2, table.size(), "two tokens claimed: the original's and the fork's");
    }
}
