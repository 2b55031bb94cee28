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

    /** A grant a policy pauses at ({@code pause}) or that answers straight away ({@code straight-paused}). */
    static Capabilities approvals(Object answer) {
        return Capabilities.standard().toBuilder().declare("approve", "asks a human").unsafe().grant(call -> answer).build();
    }

    public static void main(String[] args) throws Exception {
        if (args[0].endsWith("paused") || args[0].equals("pause")) {
            paused(args);
            return;
        }
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

    /**
     * {@code pause FILE}: runs {@link CrossJvmSnapshotTest#PAUSING} until the policy pauses it,
     * writes the snapshot; {@code resume-paused FILE}: resumes it with "granted";
     * {@code straight-paused}: the run with the call answered at once. Prints the output from
     * the pause on (all of it for straight), the run's gas and its result.
     */
    private static void paused(String[] args) throws Exception {
        switch (args[0]) {
            case "pause" -> {
                LuaVM vm = LuaVM.builder().policy(r -> dev.luavm.host.HostCallPolicy.Decision.suspend("later")).build();
                Sandbox sb = builder(vm).capabilities(approvals(null)).randomSeed(77).build();
                try {
                    sb.eval("job", CrossJvmSnapshotTest.PAUSING);
                    System.out.println("did not pause");
                } catch (dev.luavm.LuaSuspendedException e) {
                    Files.write(Path.of(args[1]), e.snapshot());
                    System.out.println("paused at " + e.callName() + " " + e.arguments() + " output="
                            + Base64.getEncoder().encodeToString(sb.output().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
                }
            }
            case "resume-paused" -> {
                Sandbox sb = builder(LuaVM.create()).capabilities(approvals("granted"))
                        .resumeFrom(Files.readAllBytes(Path.of(args[1])), "granted").build();
                System.out.println("gas=" + sb.usage().gas() + " result=" + sb.resumedResults().first() + " output="
                        + Base64.getEncoder().encodeToString(sb.output().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            }
            default -> {
                Sandbox sb = builder(LuaVM.create()).capabilities(approvals("granted")).randomSeed(77).build();
                Object r = sb.eval("job", CrossJvmSnapshotTest.PAUSING);
                System.out.println("gas=" + sb.usage().gas() + " result=" + r + " output="
                        + Base64.getEncoder().encodeToString(sb.output().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            }
        }
    }
}
