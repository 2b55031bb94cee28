package dev.luavm.conformance.difftest;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * How one run of a program ended: what it printed, and the uncaught error message (as lua.c
 * prints it, without traceback) or null. {@code limit} marks a run stopped by a resource limit
 * (the reference's instruction hook, luavm's gas or time): such runs are not compared.
 */
record Outcome(byte[] stdout, String error, boolean limit) {
    static Outcome limited(byte[] stdout) {
        return new Outcome(stdout, null, true);
    }

    boolean sameAs(Outcome o) {
        return Arrays.equals(stdout, o.stdout) && java.util.Objects.equals(error, o.error);
    }

    String stdoutText() {
        return new String(stdout, StandardCharsets.ISO_8859_1);
    }

    @Override
    public String toString() {
        return limit ? "<limit>" : stdoutText() + (error == null ? "" : "<error> " + error);
    }
}
