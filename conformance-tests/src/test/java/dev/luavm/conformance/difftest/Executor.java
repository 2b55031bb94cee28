package dev.luavm.conformance.difftest;

import java.util.ArrayList;
import java.util.List;

/** Runs Lua programs under one chunk name; one side of the differential comparison. */
interface Executor {
    /** The outcome of each program, in order. */
    List<Outcome> runAll(List<String> programs, String chunkName);

    default Outcome run(String program, String chunkName) {
        return runAll(new ArrayList<>(List.of(program)), chunkName).get(0);
    }
}
