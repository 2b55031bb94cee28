package dev.luavm.contract;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A child process for {@link ApprovedStoreTest}: approves new versions in a loop, printing
 * {@code approved SHA} after each approval returns, until it is killed.
 */
public final class StoreWriterMain {
    private StoreWriterMain() {}

    public static void main(String[] args) {
        ApprovedStore store = ApprovedStore.open(Path.of(args[0]));
        String tag = args[1];
        // a long script makes each write take longer, so kills land mid-write more often
        String padding = "-- " + "x".repeat(20_000) + "\n";
        for (int i = 0; ; i++) {
            byte[] script = (padding + "return '" + tag + "-" + i + "'\n").getBytes(StandardCharsets.UTF_8);
            ApprovedVersion v = store.approve(script, tag + "-" + i + ".lua", "writer");
            if (i % 3 == 0) store.revoke(v.sha256(), "writer", "test");
            System.out.println("approved " + v.sha256() + (i % 3 == 0 ? " revoked" : ""));
            System.out.flush();
        }
    }
}
