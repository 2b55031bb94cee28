package dev.luavm.meter;

/**
 * Where work is paid for before it is done: the sandbox's {@link GasMeter} inside the VM, a
 * library function's {@code CallContext::chargeGas} outside it. Lets one implementation of an
 * input-sized operation (a long string compare) serve both.
 */
@FunctionalInterface
public interface GasSink {
    /** Charges {@code units} of gas; ends the run (it throws) when the budget is gone. */
    void charge(long units);
}
