#!/usr/bin/env bash
# The Spark benchmark (docs/SPARK.md, "Benchmark"): the fee rule as Lua through LuaSpark.rows, as
# a Java mapPartitions and as a Spark SQL expression, side by side on one core (local[1]), plus the
# per-row cost of a fresh sandbox. Extra arguments go to JMH (e.g. -f 1 -wi 1 -i 1 for a quick look).
# Results: spark/target/bench/results.csv and the log beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -o test-compile -pl spark -am
mvn -B -q -o dependency:build-classpath -pl spark -Dmdep.includeScope=test -Dmdep.outputFile=spark/target/bench.classpath >/dev/null
mkdir -p spark/target/bench
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)" | tee spark/target/bench/log.txt
java -cp "spark/target/test-classes:spark/target/classes:$(cat spark/target/bench.classpath)" org.openjdk.jmh.Main \
    'dev.luavm.spark.bench.FeeRuleBenchmark.*' -rf csv -rff spark/target/bench/results.csv "$@" | tee -a spark/target/bench/log.txt
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a spark/target/bench/log.txt
