#!/usr/bin/env bash
# Profiles warm runs of benchmark programs: where the CPU goes and what the JIT did with the
# dispatch loop. The evidence behind the "why" in RESULTS.md.
#
# usage: benchmarks/profile.sh [--no-build] PROGRAM[,PROGRAM...] [ENGINE]   (ENGINE: luavm-metered)
#
# For each program, one JMH fork (3 warmups, 3 measured single shots) with
#   - async-profiler's CPU sampler (tools.profiler:async-profiler:3.0 from Maven Central,
#     fetched into ~/.m2 by `mvn dependency:get` and unpacked under target/; a measuring tool,
#     never a dependency of any module), flat profile of the measured iterations;
#   - the JIT's compilation log (-Xlog:jit+compilation), from which it counts how often
#     Interpreter.execute was compiled and thrown away ("made not entrant": a deoptimization
#     cycle after a program phase change).
# Output: target/profile/<program>-<engine>/{summary-cpu.txt,jit.log,report.txt}; each
# report.txt is also printed. Needs perf events (or falls back to itimer sampling).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/bench-dir.sh"

build=1
if [ "${1:-}" = "--no-build" ]; then build=0; shift; fi
[ $# -ge 1 ] || { sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
programs="$1"
engine="${2:-luavm-metered}"

jar="$here/target/benchmarks.jar"
out="$here/target/profile"
mkdir -p "$out"
if [ $build -eq 1 ]; then
  echo "== building the benchmarks jar" >&2
  (cd "$repo" && mvn -q -B -pl benchmarks -am package -DskipTests) > "$out/build.log" 2>&1 \
    || { cat "$out/build.log" >&2; exit 1; }
fi

ap_version=3.0
ap_jar="$HOME/.m2/repository/tools/profiler/async-profiler/$ap_version/async-profiler-$ap_version.jar"
if [ ! -f "$ap_jar" ]; then
  echo "== fetching async-profiler $ap_version from Maven Central" >&2
  mvn -q -B dependency:get -Dartifact="tools.profiler:async-profiler:$ap_version" >&2
fi
case "$(uname -m)" in
  x86_64) ap_arch=linux-x64 ;;
  aarch64) ap_arch=linux-arm64 ;;
  *) echo "async-profiler has no library for $(uname -m)" >&2; exit 1 ;;
esac
ap_dir="$here/target/async-profiler-$ap_version"
ap_lib="$ap_dir/$ap_arch/libasyncProfiler.so"
[ -f "$ap_lib" ] || (mkdir -p "$ap_dir" && cd "$ap_dir" && unzip -q -o "$ap_jar" "$ap_arch/*")

# perf events when the kernel allows them, else the interval timer
event=cpu
if [ "$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 3)" -gt 2 ]; then event=itimer; fi

IFS=',' read -r -a list <<< "$programs"
for p in "${list[@]}"; do
  dir="$out/$p-$engine"
  rm -rf "$dir"
  mkdir -p "$dir"
  echo "== profiling $p on $engine" >&2
  java -Dbench.dir="$bench_dir" -jar "$jar" ProgramBenchmark -p program="$p" -p engine="$engine" \
    -f 1 -wi 3 -i 3 \
    -jvmArgsAppend "-Xlog:jit+compilation=debug:file=$dir/jit.log" \
    -prof "async:libPath=$ap_lib;output=text;event=$event;interval=1000000;dir=$dir/ap" \
    > "$dir/jmh.log" 2>&1 || { tail -20 "$dir/jmh.log" >&2; exit 1; }
  summary="$(find "$dir/ap" -name 'summary-*.txt' -print -quit)"
  [ -n "$summary" ] || { echo "no profile written for $p (see $dir/jmh.log)" >&2; exit 1; }
  cp "$summary" "$dir/summary-cpu.txt"
  {
    echo "# $p on $engine ($(date -u '+%Y-%m-%d %H:%M UTC'))"
    grep -E '^ProgramBenchmark.run ' "$dir/jmh.log" | sed 's/^/score: /'
    echo
    echo "## hottest methods (CPU samples over the measured iterations)"
    # awk stops by itself: a `| head` would kill it with SIGPIPE, fatal under pipefail
    awk '/ns  percent  samples  top/{on=1; next} on && /^ *-/{next} on && (NF==0 || ++n>25){exit} on' "$dir/summary-cpu.txt"
    echo
    echo "## JIT activity on the dispatch loop (Interpreter.execute)"
    awk '/dev\.luavm\.vm\.Interpreter::execute/ {
           if (/made not entrant/) dropped++; else { compiled++; if (/ % /) osr++ }
         }
         END { printf "compiled %d times (%d of them OSR), made not entrant %d times\n", compiled, osr, dropped }' "$dir/jit.log"
  } > "$dir/report.txt"
  cat "$dir/report.txt"
  echo
done
