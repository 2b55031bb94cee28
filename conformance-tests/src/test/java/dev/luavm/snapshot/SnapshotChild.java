package dev.luavm.snapshot;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;

/**
 * A fresh JVM for {@link CrossJvmSnapshotTest}: {@code save FILE} builds the rich state and
 * writes its snapshot; {@code restore FILE} restores it and goes on; {@code straight} does both
 * steps in one sandbox with no snapshot between. Prints one line: the output of the steps after
 * the build (Base64) and the gas of each.
 */
public final class SnapshotChild {
    private SnapshotChild() {}

    static final Instant T0 = Instant.parse("2025-03-01T09:00:00Z");

    static Sandbox.Builder builder(LuaVM vm) {
        return vm.sandbox().capabilities(Capabilities.standard()).limits(Limits.defaults()).virtualTime(T0);
    }

    public static void main(String[] args) throws Exception {
        LuaVM vm = LuaVM.create();
        Sandbox sb;
        switch (args[0]) {
            case "save" -> {
                sb = builder(vm).randomSeed(2024).build();
                sb.eval("build", CrossJvmSnapshotTest.BUILD);
                Files.write(Path.of(args[1]), sb.snapshot());
                System.out.println("saved");
                return;
            }
            case "restore" -> sb = builder(vm).restoreFrom(Files.readAllBytes(Path.of(args[1]))).build();
            default -> {
                sb = builder(vm).randomSeed(2024).build();
                sb.eval("build", CrossJvmSnapshotTest.BUILD);
            }
        }
        StringBuilder line = new StringBuilder();
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < CrossJvmSnapshotTest.CONTINUE.length; i++) {
            sb.eval("continue" + i, CrossJvmSnapshotTest.CONTINUE[i]);
            out.append(sb.output());
            line.append("gas").append(i).append('=').append(sb.usage().gas()).append(' ');
        }
        line.append("output=").append(Base64.getEncoder().encodeToString(out.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        System.out.println(line);
    }
}
