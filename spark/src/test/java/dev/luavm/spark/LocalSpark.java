package dev.luavm.spark;

import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One local SparkSession for the whole test run (starting one costs seconds): a test class asks
 * for its master ({@code local[2]}, or {@code local[2,3]} where retries are tested, since plain
 * local mode never retries a task) and gets the running session when the master matches, else the
 * old one is stopped and a new one started. Registered as an extension, it stops the session when
 * the run ends, so no Spark thread outlives the tests.
 */
public final class LocalSpark implements BeforeAllCallback {
    private static SparkSession session;
    private static String master;

    /** The session on {@code wanted}; small settings for small test data, no UI. */
    public static synchronized SparkSession session(String wanted) {
        if (session != null && wanted.equals(master)) return session;
        stop();
        session = SparkSession.builder()
                .master(wanted)
                .appName("luavm-spark-tests")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "4")
                .config("spark.default.parallelism", "4")
                .config("spark.sql.adaptive.enabled", "false") // partition counts as the tests ask
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .getOrCreate();
        master = wanted;
        return session;
    }

    static synchronized void stop() {
        if (session != null) {
            session.stop();
            session = null;
            master = null;
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(LocalSpark.class, k -> (ExtensionContext.Store.CloseableResource) LocalSpark::stop);
    }
}
