package dev.luavm.host;

import dev.luavm.LuaConversionException;
import dev.luavm.audit.AuditTrail;
import dev.luavm.audit.AuditValues;
import dev.luavm.audit.HostCallEvent;
import dev.luavm.audit.HostCallEvent.Outcome;
import dev.luavm.audit.HostCallEvent.Verdict;
import dev.luavm.lib.CallContext;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaNumbers;
import dev.luavm.value.LuaValues;
import dev.luavm.vm.LuaError;
import dev.luavm.vm.LuaTermination;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * The one door from Lua into host code. Every granted {@link HostFunction} is installed as a
 * {@link Builtin} made by {@link #wrap}, so every call passes through {@link #invoke}, which in
 * order:
 * <ol>
 *   <li>charges gas ({@link #CALL_GAS}); for a grant bound to one module, refuses a call
 *       that is not made by that module's code ({@link CallContext#callerModule()},
 *       {@link CallContext#calledImplicitly()}), before looking at anything else;</li>
 *   <li>converts the arguments to Java, charging the
 *       conversion before its work: 1 per value and 1 per 8 bytes of every string
 *       ({@link ValueConverter});</li>
 *   <li>refuses a {@link Safety#FORBIDDEN} grant, before anything else is consulted;</li>
 *   <li>checks the declared parameter types, then their {@link ArgConstraint constraints};</li>
 *   <li>for an {@link Safety#UNSAFE} grant, asks the {@link HostCallPolicy}, and on
 *       {@code ask} waits for the {@link Operator} (polling the deadline and cancellation);</li>
 *   <li>runs the function on a host-call thread ({@link HostThreads}), waiting for it while
 *       polling nothing: the deadline and {@link #cancel()} wake the wait, interrupt the function
 *       and, if it has not returned {@link #GRACE_MILLIS} ms later, abandon it (its result is
 *       dropped, the run ends with the limit), so a function that ignores interrupts holds the
 *       run at most that long past its end; a grant declared {@code onSandboxThread} runs on the
 *       sandbox's thread instead, interrupted but never abandoned;</li>
 *   <li>checks for cancellation and the deadline, and converts the results back, charged like
 *       the arguments;</li>
 *   <li>writes the call's {@link HostCallEvent} to the audit log, exactly once, however the
 *       call ended (a {@code finally}): refused, failed, or cut short by a limit.</li>
 * </ol>
 *
 * <p>Errors: a refusal is the Lua error {@code permission denied: name: reason}; a bad argument
 * type {@code bad argument #i to 'name' (T expected, got U)}. A {@link HostFunctionException}
 * becomes a Lua error with its message; a Lua error or the VM's run-ending signals pass through
 * untouched; any other exception becomes the Lua error {@code host function 'name' failed},
 * naming no Java class, while the exception is kept here ({@link #causeOf}) so the host can find
 * it again on the {@code LuaScriptException}. A failing audit sink ends the run with
 * {@code LuaAuditException}, which Lua cannot catch.
 *
 * <p>One gateway per sandbox. {@link #cancel()} may be called from any thread.
 */
public final class HostGateway {
    /** Gas for entering a host function, on top of the conversions' work either way. */
    public static final long CALL_GAS = 20;
    /** How many host exceptions are remembered for {@link #causeOf}. */
    private static final int REMEMBERED_CAUSES = 16;
    /** How often a wait for an operator polls the deadline and cancellation. */
    private static final long ASK_POLL_MILLIS = 20;
    /**
     * How long a host function may still run after the deadline's (or a cancel's) interrupt
     * before its call is abandoned: the run then ends at most this long after its end, plus the
     * time to unwind (documented as 100 ms in all).
     */
    public static final long GRACE_MILLIS = 50;
    private static final long GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(GRACE_MILLIS);
    /**
     * Calls of one sandbox abandoned and still running beyond which its host calls are refused
     * (each holds a host-call thread until its function returns).
     */
    public static final int MAX_ABANDONED = 4;
    /**
     * Host calls of one sandbox that may be in progress at once, each inside a Lua callback of
     * the one before (each holds a host-call thread); a deeper one is refused as a C stack
     * overflow.
     */
    public static final int MAX_NESTED = 32;
    /** How long the sandbox's thread spins for a quick function's result before it parks (0 on one processor). */
    private static final long SPIN_NANOS = Runtime.getRuntime().availableProcessors() > 1 ? 20_000 : 0;

    private final String sandboxName;
    private final HostCallPolicy policy;
    private final ValueConverter converter;
    private final Runnable safepoint;
    private final AuditTrail audit;
    private final LongSupplier gasUsed;

    private final Object lock = new Object();
    /** the thread running a host function or waiting for an operator right now, or null (guarded by lock) */
    private Thread hostThread;
    private volatile boolean cancelled;
    /** set when the run's deadline interrupted a host function (guarded by lock) */
    private volatile boolean timedOut;
    private long deadlineNanos;
    private boolean hasDeadline;
    /** the pending interrupt at the deadline for the host function running now (guarded by lock) */
    private java.util.concurrent.ScheduledFuture<?> watchdog;
    private final ArrayDeque<Map.Entry<Object, Throwable>> causes = new ArrayDeque<>(0); // grows with use
    /** calls of this sandbox abandoned whose functions have not returned yet */
    private final AtomicInteger abandonedRunning = new AtomicInteger();
    /** the sandbox's thread, once it waited for a host-call thread (cancel wakes it) */
    private volatile Thread waiter;
    /** host calls of this sandbox in progress on host-call threads, nested through callbacks (sandbox thread only) */
    private int nested;

    /**
     * @param safepoint polls the VM's cancellation flag, clock and gas after each host function
     *                  returns and while an operator is asked (it throws the VM's termination
     *                  when the run must end)
     * @param audit     the sandbox's run bookkeeping and audit log
     * @param gasUsed   the run's gas so far (for the log)
     */
    public HostGateway(String sandboxName, HostCallPolicy policy, ValueConverter converter, Runnable safepoint,
                       AuditTrail audit, LongSupplier gasUsed) {
        this.sandboxName = sandboxName;
        this.policy = policy;
        this.converter = converter;
        this.safepoint = safepoint;
        this.audit = audit;
        this.gasUsed = gasUsed;
        converter.setGateway(this);
    }

    /** A gateway with no audit log (tests, tools). */
    public HostGateway(String sandboxName, HostCallPolicy policy, ValueConverter converter, Runnable safepoint) {
        this(sandboxName, policy, converter, safepoint, new AuditTrail(sandboxName, null), () -> 0);
    }

    /** each grant's call counter, by grant name (sandbox thread only) */
    private final Map<String, Counter> counters = new java.util.HashMap<>();

    /**
     * Per grant name, the calls that ran in this sandbox and in the run in progress: what a
     * snapshot of a paused run carries, so quotas go on counting in the resumed run.
     */
    public Map<String, long[]> callCounts() {
        Map<String, long[]> out = new java.util.TreeMap<>();
        for (Map.Entry<String, Counter> e : counters.entrySet()) {
            Counter c = e.getValue();
            long inRun = c.run == audit.run() ? c.runCalls : 0;
            if (c.sandboxCalls != 0 || inRun != 0) out.put(e.getKey(), new long[] {c.sandboxCalls, inRun});
        }
        return out;
    }

    /**
     * At the start of a resumed run: the counts a paused run's snapshot carried, with the paused
     * call {@code pausedCall} counted as one that ran (it returns the host's answer now).
     */
    public void restoreCallCounts(Map<String, long[]> counts, String pausedCall) {
        for (Map.Entry<String, long[]> e : counts.entrySet()) {
            Counter c = counters.get(e.getKey());
            if (c == null) continue;
            c.sandboxCalls = e.getValue()[0];
            c.runCalls = e.getValue()[1];
            c.run = audit.run();
        }
        Counter c = counters.get(pausedCall);
        if (c != null) {
            if (c.run != audit.run()) {
                c.run = audit.run();
                c.runCalls = 0;
            }
            c.runCalls++;
            c.sandboxCalls++;
        }
    }

    /** A Lua function that calls {@code grant} through this gateway. */
    public Builtin wrap(HostGrant grant) {
        Counter counter = new Counter(grant);
        counters.put(grant.path(), counter);
        return Builtin.of(grant.path(), c -> invoke(grant, counter, c));
    }

    /** A Lua function that calls {@code fn}, granted plainly under {@code name}, through this gateway. */
    public Builtin wrap(String name, HostFunction fn) {
        return wrap(DeclaredGrant.plain(name, "", fn));
    }

    /** Calls of one grant that ran, in this sandbox and in its latest run (sandbox thread only). */
    private static final class Counter {
        /** the declared parameter names, for the redactor */
        final List<String> names;
        long run;
        long runCalls;
        long sandboxCalls;

        Counter(HostGrant g) {
            List<String> n = new ArrayList<>(g.params().size());
            for (Param p : g.params()) n.add(p.name());
            names = List.copyOf(n);
        }
    }

    /** What the log will say about one call; filled in as the call proceeds. */
    private static final class Record {
        Verdict verdict = Verdict.UNDECIDED;
        String reason;
        Outcome outcome = Outcome.RUN_ENDED;
        /** the call was given up at the run's end while its function still ran */
        boolean abandoned;
        List<Object> args = List.of();
        List<?> results = List.of();
        String error;
    }

    private int invoke(HostGrant g, Counter counter, CallContext c) {
        long seq = audit.nextCall();
        long elapsed = audit.enabled() ? audit.elapsedNanos() : -1; // else read only if a policy asks
        long gasAt = audit.enabled() ? gasUsed.getAsLong() : 0;
        Record rec = new Record();
        try {
            return call(g, counter, c, seq, elapsed, rec);
        } catch (LuaTermination t) {
            rec.outcome = Outcome.RUN_ENDED;
            rec.error = rec.abandoned ? t.getMessage() + " (the host function was abandoned: it had not returned "
                    + GRACE_MILLIS + " ms after its interrupt)" : t.getMessage();
            throw t;
        } finally {
            if (audit.enabled()) log(g, counter.names, seq, gasAt, elapsed, rec);
        }
    }

    private int call(HostGrant g, Counter counter, CallContext c, long seq, long elapsed, Record rec) {
        String name = g.path();
        int n = c.nargs();
        c.chargeGas(CALL_GAS);
        Object[] raw = new Object[n];
        for (int i = 0; i < n; i++) raw[i] = c.arg(i + 1);
        if (g.module() != null) checkModule(g, c, raw, rec); // before anything of the call is looked at
        List<Object> args;
        try {
            args = converter.toJavaAll(raw, 0, n, c::chargeGas);
        } catch (LuaConversionException e) {
            throw refuse(rec, Verdict.INVALID, e.getMessage(), c.error("bad argument to '" + name + "' (" + e.getMessage() + ")"));
        }
        rec.args = args;
        if (g.safety() == Safety.FORBIDDEN) {
            throw refuse(rec, Verdict.FORBIDDEN, "forbidden", c.error("permission denied: " + name + ": forbidden"));
        }
        checkArguments(g, raw, args, c, rec);

        if (counter.run != audit.run()) {
            counter.run = audit.run();
            counter.runCalls = 0;
        }
        HostCall call = new HostCall(sandboxName, g, args, c, this, seq, counter.runCalls, counter.sandboxCalls, elapsed,
                audit);
        if (g.safety() == Safety.UNSAFE) {
            HostCallPolicy.Decision d;
            try {
                d = decide(call);
                if (d.kind() == HostCallPolicy.Decision.Kind.ASK) d = askOperator(d.operator(), call);
            } catch (RuntimeException | Error e) {
                call.finish();
                throw e;
            }
            if (d.kind() == HostCallPolicy.Decision.Kind.SUSPEND) {
                call.finish();
                if (!c.canPause()) {
                    String why = "cannot pause at " + name + " here (called from a library function, a metamethod or a finalizer)";
                    throw refuse(rec, Verdict.DENIED, why, c.error(why));
                }
                rec.verdict = Verdict.PAUSED;
                rec.reason = d.reason();
                rec.outcome = Outcome.PAUSED;
                throw c.pause(name, args);
            }
            if (!d.allowed()) {
                call.finish(); // a policy that kept the request cannot use it later
                throw refuse(rec, Verdict.DENIED, d.reason(), c.error("permission denied: " + name + ": " + d.reason()));
            }
            rec.reason = d.reason();
        } else {
            rec.reason = "safe";
        }
        rec.verdict = Verdict.ALLOWED;
        counter.runCalls++;
        counter.sandboxCalls++;

        Object result;
        boolean here = g.onSandboxThread();
        if (here) enter();
        try {
            result = here ? g.function().call(call) : runOffThread(g, call, c, rec);
            rec.results = result instanceof Results r ? r.values() : Collections.singletonList(result);
        } catch (HostFunctionException e) {
            String msg = e.getMessage() == null ? "host function '" + name + "' failed" : e.getMessage();
            throw raised(rec, remember(c.error(msg), e));
        } catch (LuaError e) {
            throw raised(rec, e);
        } catch (InterruptedException e) {
            result = null;
            if (!interruptedByUs()) throw raised(rec, remember(c.error("host function '" + name + "' failed"), e));
        } catch (Exception e) {
            if (isRunSignal(e)) throw (RuntimeException) e;
            if (interruptedByUs()) safepoint.run(); // an interrupt surfaced as another exception: the run ends
            throw raised(rec, remember(c.error("host function '" + name + "' failed"), e));
        } finally {
            call.finish();
            if (here) exit();
        }
        List<?> values = result instanceof Results r ? r.values() : Collections.singletonList(result);
        safepoint.run(); // a cancel or the deadline during the host call ends the run here

        Object[] lua;
        int mark = converter.pinMark(); // what is converted counts, even before the script reaches it
        try {
            try {
                lua = converter.toLuaAll(values, c::chargeGas);
            } catch (LuaConversionException e) {
                throw raised(rec, c.error("host function '" + name + "' returned an unconvertible value (" + e.getMessage() + ")"));
            } catch (LuaError e) {
                throw raised(rec, e); // not enough memory: refused before it was built
            }
            rec.outcome = Outcome.RETURNED;
            return c.retArray(lua, lua.length);
        } finally {
            converter.unpin(mark);
        }
    }

    /**
     * Runs host work a library does for the script that is not a host function (a
     * {@code VfsBackend} call of {@code io}) on this thread, as a grant declared {@code onSandboxThread} runs: {@link #cancel()} and the
     * run's deadline interrupt it, and the run then ends at the safepoint after it.
     */
    public <T> T hostWork(java.util.concurrent.Callable<T> work) throws Exception {
        enter();
        try {
            return work.call();
        } finally {
            exit();
            if (interruptedByUs()) safepoint.run();
        }
    }

    /**
     * Runs the function on a host-call thread and waits for its outcome (returned, or thrown
     * here as the function threw it). At the deadline or a cancel the function is interrupted;
     * if it has not returned {@link #GRACE_MILLIS} ms later, the call is abandoned and the run
     * ends with the limit. Lua code the function calls back runs here, on this thread. A call
     * with no thread to run on (this sandbox's abandoned calls, or the JVM's host-call threads,
     * at their bound) is refused with a Lua error.
     */
    private Object runOffThread(HostGrant g, HostCall call, CallContext c, Record rec) throws Exception {
        if (nested >= MAX_NESTED) {
            // each level holds a host-call thread waiting for its Lua callback: as deep as C code may nest, no deeper
            String msg = "C stack overflow (host calls nested " + MAX_NESTED + " deep)";
            throw remember(c.error(msg), new java.util.concurrent.RejectedExecutionException(msg));
        }
        int stuck = abandonedRunning.get();
        HostThreads.Worker w = stuck >= MAX_ABANDONED ? null : HostThreads.take();
        if (w == null) {
            String why = stuck >= MAX_ABANDONED
                    ? stuck + " calls of this sandbox abandoned at a deadline are still running"
                    : "all " + HostThreads.MAX_THREADS + " host-call threads are in use";
            String msg = "host function '" + g.path() + "' not run: " + why;
            throw remember(c.error(msg), new java.util.concurrent.RejectedExecutionException(msg));
        }
        OffThreadCall x = new OffThreadCall(this, g.function(), call, abandonedRunning::decrementAndGet);
        call.handOff(x);
        waiter = Thread.currentThread();
        nested++;
        try {
            w.hand(x);
            await(x, rec);
        } finally {
            nested--;
        }
        return x.outcome();
    }

    /** Waits for an off-thread call to be done, serving its callbacks; abandons it past the grace. */
    private void await(OffThreadCall x, Record rec) {
        long spinUntil = System.nanoTime() + SPIN_NANOS;
        boolean stopping = false;
        long giveUpAt = 0;
        while (true) {
            int s = x.state();
            if (s == OffThreadCall.DONE) return;
            if (s == OffThreadCall.CALLBACK) {
                if (x.serve() && !stopping) { // the Lua code called back ended the run: the function has its grace to return
                    stopping = true;
                    giveUpAt = System.nanoTime() + GRACE_NANOS;
                }
                continue;
            }
            long now = System.nanoTime();
            if (!stopping && (cancelled || hasDeadline && now - deadlineNanos >= 0)) {
                stopping = true;
                if (!cancelled) timedOut = true;
                x.interrupt();
                giveUpAt = now + GRACE_NANOS;
            }
            if (stopping && now - giveUpAt >= 0) {
                abandonedRunning.incrementAndGet(); // before: the function may return at once and count itself out
                if (x.abandon()) {
                    rec.abandoned = true;
                    safepoint.run(); // the deadline or cancel passed on the VM's clock too: throws the run's end
                    throw new LuaTermination(cancelled ? LuaTermination.Reason.CANCELLED : LuaTermination.Reason.TIME);
                }
                abandonedRunning.decrementAndGet(); // done, or busy in the VM for a moment: look again
                Thread.onSpinWait();
                continue;
            }
            if (now - spinUntil < 0) {
                HostThreads.pause(now - spinUntil + SPIN_NANOS);
                continue;
            }
            if (stopping) LockSupport.parkNanos(this, giveUpAt - now);
            else if (hasDeadline) LockSupport.parkNanos(this, deadlineNanos - now);
            else LockSupport.park(this);
            // the host interrupted this thread: the function gets the interrupt, as it would here
            if (Thread.interrupted()) x.interrupt();
        }
    }

    /** True when {@code t} is a host-call thread running a function of this gateway's sandbox. */
    public boolean runsHostFunctionOn(Thread t) {
        return t instanceof HostThreads.Worker w && w.current != null && w.current.gateway() == this;
    }

    /** Host-call threads alive in this JVM (idle, running or abandoned): for monitoring and tests. */
    public static int hostCallThreads() {
        return HostThreads.live();
    }

    /** Calls of this sandbox abandoned at a deadline whose functions have not returned yet. */
    public int abandonedCalls() {
        return abandonedRunning.get();
    }

    /** The policy's decision; a policy that throws or answers nothing denies (the gateway fails closed). */
    private HostCallPolicy.Decision decide(HostCall call) {
        HostCallPolicy.Decision d;
        try {
            d = policy.check(call);
        } catch (LuaTermination | LuaError e) {
            throw e;
        } catch (RuntimeException e) {
            return HostCallPolicy.Decision.deny("the policy failed");
        }
        return d != null ? d : HostCallPolicy.Decision.deny("the policy gave no decision");
    }

    /**
     * A grant bound to one module runs only when code of that module calls it: the nearest Lua
     * function on the running coroutine's stack belongs to the module, and the call is a call
     * (not a metamethod, message handler or finalizer run on an event).
     */
    private void checkModule(HostGrant g, CallContext c, Object[] raw, Record rec) {
        boolean implicit = c.calledImplicitly();
        String caller = implicit ? null : c.callerModule();
        if (g.module().equals(caller)) return;
        try {
            rec.args = converter.toJavaAll(raw, 0, raw.length, c::chargeGas); // for the log, as far as they convert
        } catch (LuaConversionException e) {
            rec.args = List.of();
        }
        String why = implicit ? "called on an event (a metamethod, message handler or finalizer)"
                : caller == null ? "called by code of no module" : "called by module '" + caller + "'";
        String granted = "granted to module '" + g.module() + "'";
        throw refuse(rec, Verdict.DENIED, granted + ", " + why,
                c.error("permission denied: " + g.path() + " (" + granted + ")"));
    }

    /** Declared types, then constraints, parameter by parameter (a refusal names the first that fails). */
    private static void checkArguments(HostGrant g, Object[] raw, List<Object> args, CallContext c, Record rec) {
        List<Param> params = g.params();
        for (int i = 0; i < params.size(); i++) {
            Param p = params.get(i);
            Object v = i < raw.length ? raw[i] : null;
            if (v == null) {
                if (p.optional()) continue;
                String got = i < raw.length ? "nil" : "no value";
                String msg = "bad argument #" + (i + 1) + " to '" + g.path() + "' (" + luaTypeWord(p) + " expected, got " + got + ")";
                throw refuse(rec, Verdict.INVALID, msg, c.error(msg));
            }
            String problem = typeProblem(p.baseType(), v);
            if (problem != null) {
                String msg = "bad argument #" + (i + 1) + " to '" + g.path() + "' (" + problem + ")";
                throw refuse(rec, Verdict.INVALID, msg, c.error(msg));
            }
            for (ArgConstraint k : p.constraints()) {
                String why = k.check(p.name(), args.get(i), c);
                if (why != null) throw refuse(rec, Verdict.DENIED, why, c.error("permission denied: " + g.path() + ": " + why));
            }
        }
    }

    private static String luaTypeWord(Param p) {
        return p.baseType().equals("integer") ? "number" : p.baseType();
    }

    /** Null when {@code v} (a Lua value) has the declared type, else the lauxlib-style problem. */
    private static String typeProblem(String type, Object v) {
        String actual = LuaValues.typeName(v);
        switch (type) {
            case "any":
                return null;
            case "integer":
                if (v instanceof Long) return null;
                if (v instanceof Double d) return LuaNumbers.floatToInteger(d) != null ? null : "number has no integer representation";
                return "number expected, got " + actual;
            default:
                return type.equals(actual) ? null : type + " expected, got " + actual;
        }
    }

    /**
     * Hands the call to the operator and waits for the answer, polling the safepoint every
     * {@value #ASK_POLL_MILLIS} ms so the deadline, gas and cancel still end the run; cancel
     * also interrupts the wait.
     */
    private HostCallPolicy.Decision askOperator(Operator operator, HostCall call) {
        CallRequest request = call.snapshot();
        CompletableFuture<HostCallPolicy.Decision> answer = null;
        enter();
        try {
            try {
                java.util.concurrent.CompletionStage<HostCallPolicy.Decision> stage = operator.ask(request);
                if (stage == null) return HostCallPolicy.Decision.deny("the operator gave no answer");
                answer = stage.toCompletableFuture();
            } catch (LuaTermination | LuaError e) {
                throw e;
            } catch (RuntimeException e) {
                return HostCallPolicy.Decision.deny("the operator failed"); // fail closed
            }
            while (true) {
                try {
                    HostCallPolicy.Decision d = answer.get(ASK_POLL_MILLIS, TimeUnit.MILLISECONDS);
                    if (d == null || d.kind() == HostCallPolicy.Decision.Kind.ASK) {
                        return HostCallPolicy.Decision.deny("the operator gave no answer");
                    }
                    return d.allowed() ? HostCallPolicy.Decision.allow("operator: " + d.reason()) : d; // deny or suspend
                } catch (TimeoutException e) {
                    safepoint.run();
                } catch (InterruptedException e) {
                    if (!interruptedByUs()) return HostCallPolicy.Decision.deny("interrupted while asking the operator");
                    Thread.interrupted();
                    safepoint.run();
                } catch (ExecutionException e) {
                    return HostCallPolicy.Decision.deny("the operator failed");
                }
            }
        } catch (RuntimeException e) {
            if (answer != null) answer.cancel(true); // nobody waits for it any more
            throw e;
        } finally {
            exit();
        }
    }

    private static LuaError refuse(Record rec, Verdict verdict, String reason, LuaError error) {
        rec.verdict = verdict;
        rec.reason = reason;
        rec.outcome = Outcome.REFUSED;
        rec.error = error.getMessage();
        return error;
    }

    private static LuaError raised(Record rec, LuaError error) {
        rec.outcome = Outcome.RAISED;
        rec.error = error.getMessage();
        return error;
    }

    private void log(HostGrant g, List<String> names, long seq, long gasAt, long elapsed, Record rec) {
        AuditValues.Bounded args = AuditValues.of(rec.args, g.redactor(), names, "#");
        AuditValues.Bounded results = AuditValues.of(rec.results, g.redactor(), List.of(), "return#");
        audit.hostCall(new HostCallEvent(sandboxName, audit.run(), seq, g.path(), g.safety(), args.values(), rec.verdict,
                rec.reason, rec.outcome, rec.outcome == Outcome.RETURNED || rec.outcome == Outcome.RUN_ENDED
                        ? results.values() : List.of(), rec.error, gasAt, elapsed,
                args.complete() && results.complete()));
        if (audit.recording()) recordFull(g, seq, rec);
    }

    /** The recording's full-value channel: the results after the redactor but unbounded, or the error. */
    private void recordFull(HostGrant g, long seq, Record rec) {
        boolean failed = rec.outcome == Outcome.REFUSED || rec.outcome == Outcome.RAISED;
        List<Object> full = new ArrayList<>(rec.results.size());
        boolean redacted = false;
        for (int i = 0; i < rec.results.size() && !failed; i++) {
            Object v = rec.results.get(i);
            Object r = g.redactor().redact("return#" + (i + 1), v);
            redacted |= r != v;
            full.add(r);
        }
        audit.recordHostCall(seq, full, redacted, failed ? String.valueOf(rec.error) : null);
    }

    /**
     * True for the VM's run-ending signal (gas, time, cancellation, output), which must cross
     * host code untouched.
     */
    private static boolean isRunSignal(Exception e) {
        return e instanceof LuaTermination;
    }

    private LuaError remember(LuaError error, Throwable cause) {
        synchronized (causes) {
            if (causes.size() == REMEMBERED_CAUSES) causes.removeFirst();
            causes.addLast(Map.entry(error.value(), cause));
        }
        return error;
    }

    /**
     * The host exception behind a Lua error value raised by this gateway, or null. Found by the
     * identity of the error value, so it survives a script catching and re-raising the error.
     */
    public Throwable causeOf(Object errorValue) {
        if (errorValue == null) return null;
        synchronized (causes) {
            for (Map.Entry<Object, Throwable> e : causes) {
                if (e.getKey() == errorValue) return e.getValue();
            }
        }
        return null;
    }

    /**
     * {@link HostCall#callLua}: while the Lua function runs, the thread is not inside a host
     * function (a cancel ends the Lua code at its next safepoint instead of interrupting it).
     */
    List<Object> callBack(CallContext c, dev.luavm.LuaHandle function, Object[] args, boolean onSandboxThread) {
        Object fn = converter.toLua(function);
        Object[] lua = converter.toLuaAll(java.util.Arrays.asList(args), c::chargeGas);
        Object[] results;
        if (onSandboxThread) exit();
        try {
            results = c.call(fn, lua);
        } finally {
            if (onSandboxThread) enter();
        }
        return converter.toJavaAll(results, 0, results.length, c::chargeGas);
    }

    private void enter() {
        synchronized (lock) {
            hostThread = Thread.currentThread();
            long left = deadlineNanos - System.nanoTime();
            if (hasDeadline) {
                // the run's deadline interrupts a host function blocked in I/O or waiting, as cancel does
                if (left <= 0) {
                    timedOut = true;
                    hostThread.interrupt();
                } else {
                    watchdog = Watchdog.schedule(this::timeUp, left);
                }
            }
        }
    }

    private void exit() {
        synchronized (lock) {
            hostThread = null;
            if (watchdog != null) {
                watchdog.cancel(false);
                watchdog = null;
            }
            // an interrupt meant for the host function must not outlive it
            if (cancelled || timedOut) Thread.interrupted();
        }
    }

    /** The watchdog's call at the run's deadline: interrupts the host function still running. */
    private void timeUp() {
        synchronized (lock) {
            if (hostThread != null) {
                timedOut = true;
                hostThread.interrupt();
            }
        }
    }

    /** True when cancel or the deadline interrupted the host function (the safepoint then ends the run). */
    private boolean interruptedByUs() {
        return cancelled || timedOut;
    }

    /** Marks the sandbox cancelled and interrupts a host function that is running. Any thread. */
    public void cancel() {
        synchronized (lock) {
            cancelled = true;
            if (hostThread != null) hostThread.interrupt();
        }
        Thread w = waiter;
        if (w != null) LockSupport.unpark(w); // a wait for a host-call thread interrupts the function itself
    }

    /** Clears the cancelled mark before a new run. */
    public void reset() {
        cancelled = false;
        timedOut = false;
        hasDeadline = false;
    }

    /**
     * Clears the cancelled mark before a new run whose deadline is {@code timeout} from now: a
     * host function still running at the deadline is interrupted, and the run ends with TIME at
     * the safepoint after it. Call it after the gas meter's deadline is set, on the same clock:
     * the safepoint ends the run only once the meter's deadline has passed too.
     */
    public void reset(java.time.Duration timeout) {
        reset();
        long now = System.nanoTime();
        long nanos = timeout.compareTo(java.time.Duration.ofNanos(Long.MAX_VALUE - now)) >= 0 ? -1 : timeout.toNanos();
        if (nanos >= 0) {
            deadlineNanos = now + nanos;
            hasDeadline = true;
        }
    }

    public boolean isCancelled() {
        return cancelled;
    }
}
