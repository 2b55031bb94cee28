#!/usr/bin/env bash
# The Spark benchmark (docs/SPARK.md, "Benchmark"): the fee rule as Lua through LuaSpark.rows, as
# a Java mapPartitions and as a Spark SQL expression, side by side on one core (local[1]), plus the
# per-row cost of a fresh sandbox. Extra arguments go to JMH (e.g. -f 1 -wi 1 -i 1 for a quick look).
# Results: spark/target/bench/results.csv and the log beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -o test-compile -pl spark -am
# the spark module's test classpath, less the dev.luavm jars of the local repository (shared, maybe
# someone else's build): this tree's own classes take their place
mvn -B -q -o dependency:build-classpath -pl spark -am -Dmdep.includeScope=test \
    -Dmdep.outputFile="$PWD/spark/target/bench.classpath" >/dev/null
own="spark/target/test-classes:spark/target/classes"
for m in interpreter grammar stdlib jit audit-jsonl; do own="$own:$m/target/classes"; done
deps="$(tr ':' '\n' < spark/target/bench.classpath | grep -v '/dev/luavm/' | paste -sd: -)"
mkdir -p spark/target/bench
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)" | tee spark/target/bench/log.txt
java -cp "$own:$deps" org.openjdk.jmh.Main \
    'dev.luavm.spark.bench.FeeRuleBenchmark.*' -rf csv -rff spark/target/bench/results.csv "$@" | tee -a spark/target/bench/log.txt
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a spark/target/bench/log.txt
# The figures docs/SPARK.md and benchmarks/RESULTS.md quote: rows/s/core for the three ways, the
# ratios to the Java map, and the per-row overhead of a fresh sandbox (fresh minus reused).
awk -F, -v rows=200000 '
  NR > 1 { gsub(/"/, ""); n = split($1, p, "."); score[p[n]] = $5; err[p[n]] = $6 }
  END {
    printf "| the fee rule, local[1] | ms per 200,000 rows | rows/s/core | time / Java map |\n|---|---|---|---|\n"
    split("luaRows javaMapPartitions sqlExpression", ways, " ")
    for (i = 1; i <= 3; i++) { w = ways[i]
      printf "| %s | %.0f ± %.0f | %.0f | %.2fx |\n", w, score[w], err[w], rows / (score[w] / 1000), score[w] / score["javaMapPartitions"] }
    printf "\n| per row, without Spark | fresh sandbox ns | reused sandbox ns | overhead of a fresh sandbox ns |\n|---|---|---|---|\n"
    printf "| the fee rule | %.0f ± %.0f | %.0f ± %.0f | %.0f |\n", score["feeInFreshSandbox"], err["feeInFreshSandbox"], score["feeInReusedSandbox"], err["feeInReusedSandbox"], score["feeInFreshSandbox"] - score["feeInReusedSandbox"]
    printf "| return {} | %.0f ± %.0f | %.0f ± %.0f | %.0f |\n", score["emptyInFreshSandbox"], err["emptyInFreshSandbox"], score["emptyInReusedSandbox"], err["emptyInReusedSandbox"], score["emptyInFreshSandbox"] - score["emptyInReusedSandbox"]
  }' spark/target/bench/results.csv | tee spark/target/bench/summary.md
