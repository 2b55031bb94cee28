/**
 * luavm on Apache Spark: an untrusted Lua script run once per row of a {@code Dataset<Row>}, each
 * row in a fresh sandbox under per-row limits, with results that depend only on the row, the
 * script and the job's parameters.
 *
 * <h2>Map</h2>
 * <ul>
 *   <li>{@link dev.luavm.spark.LuaSpark}: the entry; {@code rows(df)} starts a
 *       {@link dev.luavm.spark.LuaRows} builder ending in {@code map()}, and {@code register}
 *       adds the {@code lua(script, ...)} SQL function;</li>
 *   <li>{@link dev.luavm.spark.CapabilitiesFactory}: how host functions reach executors;</li>
 *   <li>{@link dev.luavm.spark.LuaRowException}: a bad row under {@code failFast(true)}.</li>
 * </ul>
 * Executors get plain data: the script's source, the limits, the schemas and the factory. Each
 * executor JVM compiles a script once and keeps it in a bounded cache keyed by the SHA-256 of its
 * source; bytecode never travels. docs/SPARK.md has the rules (types, determinism, errors).
 */
package dev.luavm.spark;
