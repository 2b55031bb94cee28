package dev.luavm.replay;

import dev.luavm.Capabilities;
import dev.luavm.LuaException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.audit.RunEnded;
import dev.luavm.audit.jsonl.JsonLinesAuditLog;
import dev.luavm.audit.jsonl.JsonLinesAuditSink;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * The child JVM of {@link CrossJvmReplayTest}: {@code record SCRIPT LOG} runs a script with the
 * real clocks, a seed from entropy and live (nondeterministic) host functions, writing the recording;
 * {@code replay LOG} replays it; {@code run SCRIPT SEED} runs it with a fixed seed and virtual
 * time. Each prints a report on stdout: the output (base64), then per run its outcome, error,
 * result digest and gas.
 */
public final class ReplayChild {
    private ReplayChild() {}

    static Capabilities caps() {
        return Capabilities.standard().toBuilder()
                .declare("host.price", "A price list").safe().param("item", "string", "the item").grant(c -> {
                    Map<String, Object> m = new HashMap<>();
                    m.put("item", c.stringArg(0));
                    m.put("amount", 100L + (System.nanoTime() & 0xff)); // differs on every live run
                    m.put("currency", "EUR");
                    return m;
                })
                .declare("host.fail", "Always fails").unsafe().grant(c -> {
                    throw new dev.luavm.host.HostFunctionException("backend down at " + System.nanoTime());
                })
                .build();
    }

    public static void main(String[] args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringBuilder report = new StringBuilder();
        switch (args[0]) {
            case "record" -> {
                LuaVM vm = LuaVM.builder().build();
                try (JsonLinesAuditSink log = new JsonLinesAuditSink(Files.newOutputStream(Path.of(args[2])));
                     Sandbox sb = vm.sandbox().capabilities(caps()).randomSeedFromEntropy().output(out::write).audit(log).record(true).build()) {
                    runScript(vm, sb, Path.of(args[1]));
                    report.append(end(sb));
                }
            }
            case "run" -> {
                LuaVM vm = LuaVM.builder().build();
                try (Sandbox sb = vm.sandbox().capabilities(Capabilities.standard()).output(out::write)
                        .randomSeed(Long.parseLong(args[2])).virtualTime(java.time.Instant.EPOCH).build()) {
                    runScript(vm, sb, Path.of(args[1]));
                    report.append("gas=").append(sb.usage().gas()).append('\n');
                }
            }
            default -> {
                ReplayResult r = Replayer.builder(LuaVM.builder().build(), JsonLinesAuditLog.recording(Path.of(args[1])))
                        .output(out::write).build().replay();
                report.append("replay=").append(r).append('\n');
                for (RunEnded e : r.ended()) report.append(end(e));
            }
        }
        System.out.print("output=" + Base64.getEncoder().encodeToString(out.toByteArray()) + "\n" + report);
        System.out.flush();
    }

    private static void runScript(LuaVM vm, Sandbox sb, Path script) throws java.io.IOException {
        try {
            sb.run(vm.compile("@" + script.getFileName(), Files.readAllBytes(script)));
        } catch (LuaException e) {
            // the report says how the run ended
        }
    }

    /** The recorded run's ending, read back from the sandbox's log by the parent; here the usage. */
    private static String end(Sandbox sb) {
        return "gas=" + sb.usage().gas() + " outputBytes=" + sb.usage().outputBytes() + "\n";
    }

    static String end(RunEnded e) {
        return "gas=" + e.usage().gas() + " outputBytes=" + e.usage().outputBytes() + "\n"
                + "outcome=" + e.outcome() + " error=" + e.error() + " result=" + e.resultDigest() + "\n";
    }

    static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
