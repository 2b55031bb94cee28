package dev.luavm.threats;

import dev.luavm.Capabilities;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Run by {@link T19MeterBlindSpotsTest} in a child JVM with {@code -Xmx512m}: the memory attacks
 * of {@link T19MeterBlindSpotsTest#ATTACKS}, three at a time, each in its own sandbox capped at
 * 64 MiB, beside four well-behaved neighbour sandboxes that run a steady workload over and over.
 * Prints how each attacker ended and whether every neighbour run succeeded; exits non-zero on
 * any failure, and on an OutOfMemoryError anywhere.
 */
public final class NeighbourHarness {
    private static final String NEIGHBOUR = String.join("\n",
            "local t = {}",
            "for i = 1, 20000 do t[i] = string.format('%05d', (i * 7919) % 20011) end",
            "table.sort(t)",
            "local words = {} for w in table.concat(t, ' ', 1, 2000):gmatch('%d+') do words[#words + 1] = w end",
            "return #t + #words");

    /** 64 MiB held; time generous, as the machine running the suite may be loaded. */
    private static final dev.luavm.Limits LIMITS = T19MeterBlindSpotsTest.CAP64.withTimeout(java.time.Duration.ofMinutes(5));

    private NeighbourHarness() {}

    public static void main(String[] args) throws Exception {
        LuaVM vm = LuaVM.create();
        ExecutorService attackers = Executors.newFixedThreadPool(3);
        ExecutorService neighbours = Executors.newFixedThreadPool(4);
        AtomicInteger failures = new AtomicInteger();
        AtomicInteger neighbourRuns = new AtomicInteger();
        AtomicInteger neighbourFailures = new AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean attacking = new java.util.concurrent.atomic.AtomicBoolean(true);
        try {
            List<Future<?>> ns = new ArrayList<>();
            for (int k = 0; k < 4; k++) {
                ns.add(neighbours.submit(() -> {
                    try (Sandbox sb = vm.sandbox(Capabilities.standard(), LIMITS)) {
                        do {
                            try {
                                Object r = sb.eval("neighbour", NEIGHBOUR);
                                if (!Long.valueOf(22000).equals(r)) throw new AssertionError("neighbour got " + r);
                                neighbourRuns.incrementAndGet();
                            } catch (Throwable t) {
                                failures.incrementAndGet();
                                neighbourFailures.incrementAndGet();
                                System.out.println("neighbour failed: " + t
                                        + (t.getCause() instanceof OutOfMemoryError ? " (OutOfMemoryError)" : ""));
                            }
                        } while (attacking.get());
                    }
                    return null;
                }));
            }
            List<Future<String>> as = new ArrayList<>();
            for (String[] a : T19MeterBlindSpotsTest.ATTACKS) {
                as.add(attackers.submit(() -> {
                    try (Sandbox sb = vm.sandbox(Capabilities.standard(), LIMITS)) {
                        sb.eval(a[0], a[2]);
                        return "attacker " + a[0] + ": finished";
                    } catch (LuaLimitException e) {
                        // a JVM OutOfMemoryError inside a run surfaces as MEMORY: tell them apart
                        if (e.getCause() instanceof OutOfMemoryError) return "attacker " + a[0] + ": OutOfMemoryError";
                        return "attacker " + a[0] + ": " + e.limit();
                    } catch (Throwable t) {
                        return "attacker " + a[0] + ": " + t;
                    }
                }));
            }
            for (int i = 0; i < as.size(); i++) {
                String line = as.get(i).get(10, TimeUnit.MINUTES);
                System.out.println(line);
                if (!line.equals("attacker " + T19MeterBlindSpotsTest.ATTACKS.get(i)[0] + ": "
                        + T19MeterBlindSpotsTest.ATTACKS.get(i)[1])) {
                    failures.incrementAndGet();
                }
            }
            attacking.set(false);
            for (Future<?> f : ns) f.get(1, TimeUnit.MINUTES);
        } catch (Throwable t) {
            System.out.println("harness failed: " + t);
            failures.incrementAndGet();
        } finally {
            attackers.shutdownNow();
            neighbours.shutdownNow();
        }
        System.out.println("neighbour runs: " + neighbourRuns.get());
        if (neighbourFailures.get() == 0 && neighbourRuns.get() > 0) System.out.println("neighbours: all succeeded");
        System.out.flush();
        System.exit(failures.get() == 0 ? 0 : 1);
    }
}
