#!/usr/bin/env bash
# One command for all the benchmark tables: builds the benchmarks jar, times every program
# as a whole process under lua5.3 and ./luavm (compare-processes.sh), runs the JMH warm-run
# benchmarks on every engine built into the jar, the compile-speed and sandbox-latency
# benchmarks, the sandbox footprint, and writes benchmarks/RESULTS.md.
#
# usage: benchmarks/run-all.sh [--core] [--quick] [--no-build]
#   --core      the engines that matter for the compiled tier: luavm-metered, luavm,
#               luavm-compiled and luajc (ENGINES still overrides), and the pairs of
#               src/main/resources/slow.txt (luajc's coroutines: 75 s per run) not timed but
#               shown as n/a with their reason; about 25 minutes on an idle 2-core machine
#               (estimate, 2026-11-23: JMH's 2 x 8 runs of 53 pairs ~18 min, whole processes
#               ~1.5 min, compile/sandbox/footprint ~2 min, builds ~2-3 min; the full run,
#               every engine and pair: 2-3 hours)
#   --quick     1 fork, 1 warmup, 1 iteration, 1 process run unless set below: checks the
#               pipeline, measures nothing; writes target/results/RESULTS.md instead of
#               benchmarks/RESULTS.md (whose hand-written sections it still carries over)
#   --no-build  use benchmarks/target/benchmarks.jar as it is
# Settings (environment): FORKS (2), WARMUPS (3), ITERATIONS (5) for JMH; RUNS (3) process
# runs per program; ENGINES (every engine in the jar, comma-separated); PROGRAMS (all);
# SIZE (each program's default); BENCH_DIR (see bench-dir.sh); EMBEDDER_PROGRAMS (the programs
# the embedder's path is timed on, EmbedderBenchmark: fib,nbody,oop_methods,json_codec,sort_cmp);
# START_RUNS (21) runs of each start-up command; LUA_SUITE_DIR (the official suite's testes/,
# read at run time, added to the compiler's sources when set).
# Raw results (JMH CSV and logs) go to benchmarks/target/results/.
# Hand-written sections of the old RESULTS.md between `<!-- NAME: begin ... -->` and
# `<!-- NAME: end -->` marker lines are carried over unchanged, in their order, after the tables.
# Fails (exit 3, RESULTS.md left as it was) if any engine's output differs from lua5.3's, in a
# warm run (JMH: WrongOutputException) or a whole process (compare-processes.sh), or a
# ./luavm process fails: a run of record has no figure for a wrong answer.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/bench-dir.sh"

build=1 core=0
out="$here/RESULTS.md"
while [ $# -gt 0 ]; do
  case "$1" in
    --core) core=1; shift ;;
    --quick) FORKS="${FORKS:-1}" WARMUPS="${WARMUPS:-1}" ITERATIONS="${ITERATIONS:-1}" RUNS="${RUNS:-1}"; out="$here/target/results/RESULTS.md"; shift ;;
    --no-build) build=0; shift ;;
    *) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
FORKS="${FORKS:-2}" WARMUPS="${WARMUPS:-3}" ITERATIONS="${ITERATIONS:-5}" RUNS="${RUNS:-3}"

jar="$here/target/benchmarks.jar"
res="$here/target/results"
mkdir -p "$res"
rm -f "$res"/*.csv "$res"/*.log "$res"/*.tsv "$res"/*.md

luavm_note=""
started=$(date +%s)
load_start="$(cut -d' ' -f1-3 /proc/loadavg)"
say() { echo "== [$(date -u +%H:%M:%S)] $*" >&2; }
fail() { echo "run-all.sh: $*" >&2; echo "run-all.sh: $out not written" >&2; exit 3; }
if [ $build -eq 1 ]; then
  say "building the benchmarks jar (with the luavm adapter if luavm's API is there)"
  (cd "$repo" && mvn -q -B -pl benchmarks -am package -DskipTests) > "$res/build.log" 2>&1 \
    || { cat "$res/build.log" >&2; exit 1; }
fi
[ -f "$jar" ] || { echo "no $jar: run without --no-build" >&2; exit 1; }

java_props=(-Dbench.dir="$bench_dir" -Dbench.programs="$programs_dir")
[ -n "${SIZE:-}" ] && java_props+=(-Dbench.size="$SIZE")
if [ $core -eq 1 ]; then
  java_props+=(-Dbench.skipSlow=true)
  ENGINES="${ENGINES:-luavm-metered,luavm,luavm-compiled,luajc}"
fi
tool() { java "${java_props[@]}" -cp "$jar" "$@"; }
jmh() { java "${java_props[@]}" -jar "$jar" -f "$FORKS" -wi "$WARMUPS" -i "$ITERATIONS" "$@"; }

engines="${ENGINES:-$(tool dev.luavm.bench.Plan engines)}"
say "engines: $engines; programs from $bench_dir and $programs_dir"

say "whole processes: lua5.3 vs ./luavm ($RUNS runs each)"
compare_rc=0
"$here/compare-processes.sh" -n "$RUNS" ${SIZE:+-s "$SIZE"} ${PROGRAMS:+-p "$PROGRAMS"} --tsv "$res/processes.tsv" \
  > "$res/processes.md" || compare_rc=$?
[ $compare_rc -eq 0 ] || { cat "$res/processes.md" >&2; fail "whole processes: an output differed from lua5.3's or ./luavm failed (see above)"; }

report_args=(--lua53 "$res/processes.tsv" --engines "$engines")
IFS=',' read -r -a engine_list <<< "$engines"
declare -A plan
total=0
for e in "${engine_list[@]}"; do
  programs="$(tool dev.luavm.bench.Plan programs "$e")"
  if [ -n "${PROGRAMS:-}" ]; then
    programs="$(comm -12 <(tr ',' '\n' <<< "$programs" | sort) <(tr ',' '\n' <<< "$PROGRAMS" | sort) | paste -sd, -)"
  fi
  plan[$e]="$programs"
  if [ -n "$programs" ]; then total=$(( total + $(tr ',' '\n' <<< "$programs" | wc -l) )); fi
done
# Progress on stderr while JMH runs: one line per program and engine as its first fork starts
# (program, engine, pairs done/total, elapsed since the run began); the log keeps JMH's output.
done_pairs=0
jmh_progress() { # $1: log file; stdin: JMH's output
  local log="$1" line params="" n=$done_pairs
  : > "$log"
  while IFS= read -r line; do
    printf '%s\n' "$line" >> "$log"
    case "$line" in
      "# Parameters: "*) params="$line" ;;
      "# Fork: 1 of "*)
        n=$((n + 1))
        local engine="${params#*engine = }" program="${params#*program = }"
        engine="${engine%%[,)]*}" program="${program%%[,)]*}"
        printf '   [%d/%d] %s on %s, elapsed %s\n' "$n" "$total" "$program" "$engine" \
          "$(date -u -d "@$(( $(date +%s) - started ))" +%H:%M:%S)" >&2 ;;
    esac
  done
}
for e in "${engine_list[@]}"; do
  programs="${plan[$e]}"
  [ -n "$programs" ] || continue
  say "JMH warm runs: $e on $programs"
  jmh 'dev.luavm.bench.ProgramBenchmark' -p engine="$e" -p program="$programs" \
    -rf csv -rff "$res/programs-$e.csv" 2>&1 | jmh_progress "$res/programs-$e.log" \
    || echo "   JMH exited non-zero for $e: see $res/programs-$e.log" >&2
  done_pairs=$(( done_pairs + $(tr ',' '\n' <<< "$programs" | wc -l) ))
  grep -E "WrongOutputException|Exception:" "$res/programs-$e.log" | sort -u | head -20 >&2 || true
  if grep -q "WrongOutputException" "$res/programs-$e.log"; then
    grep -A 12 "WrongOutputException" "$res/programs-$e.log" | head -60 >&2
    fail "$e printed a wrong output in a warm run (see $res/programs-$e.log)"
  fi
  report_args+=(--programs "$res/programs-$e.csv")
done

has() { [[ ",$engines," == *",$1,"* ]]; }
compile_engines="" sandbox_engines=""
for e in luavm luna; do has "$e" && compile_engines="${compile_engines:+$compile_engines,}$e"; done
for e in luavm luaj luna; do has "$e" && sandbox_engines="${sandbox_engines:+$sandbox_engines,}$e"; done
if [ -n "$compile_engines" ]; then
  say "JMH compile speed: $compile_engines"
  jmh 'dev.luavm.bench.CompileBenchmark' -p engine="$compile_engines" -rf csv -rff "$res/compile.csv" \
    > "$res/compile.log" 2>&1 || echo "   JMH exited non-zero: see $res/compile.log" >&2
  report_args+=(--embedding "$res/compile.csv")
fi
if [ -n "$sandbox_engines" ]; then
  say "JMH sandbox latency: $sandbox_engines"
  jmh 'dev.luavm.bench.SandboxBenchmark' -p engine="$sandbox_engines" -rf csv -rff "$res/sandbox.csv" \
    > "$res/sandbox.log" 2>&1 || echo "   JMH exited non-zero: see $res/sandbox.log" >&2
  report_args+=(--embedding "$res/sandbox.csv")
  say "sandbox footprint: $sandbox_engines"
  java -Djdk.attach.allowAttachSelf=true -Xms2g -Xmx2g -cp "$jar" dev.luavm.bench.Footprint -e "$sandbox_engines" > "$res/footprint.md" 2> "$res/footprint.log" \
    || echo "   Footprint failed: see $res/footprint.log" >&2
fi

# The embedder's path (issue 26): the public API, a fresh sandbox per run, the same JMH settings
# as the warm runs above, against luavm-compiled's figure for the same programs.
goal_args=()
if has luavm-compiled && [ -z "${SIZE:-}" ]; then
  embedder_programs="${EMBEDDER_PROGRAMS:-fib,nbody,oop_methods,json_codec,sort_cmp}"
  say "JMH embedder's path: $embedder_programs"
  jmh 'dev.luavm.bench.EmbedderBenchmark.runCompiled' -p program="$embedder_programs" -rf csv -rff "$res/embedder.csv" \
    > "$res/embedder.log" 2>&1 || echo "   JMH exited non-zero: see $res/embedder.log" >&2
  if grep -q "WrongOutputException" "$res/embedder.log"; then
    fail "the embedder's path printed a wrong output (see $res/embedder.log)"
  fi
  goal_args+=(--embedder "$res/embedder.csv")
fi

# Start-up: the wall time of a process that runs nothing, and of hello.lua, median of START_RUNS.
say "start-up: ./luavm and lua5.3, -e '' and examples/hello.lua (${START_RUNS:-21} runs each)"
median_wall() { # command...: prints the median wall seconds of START_RUNS runs (output discarded)
  local t0 t1 i times=()
  for ((i = 0; i < ${START_RUNS:-21}; i++)); do
    t0=$(date +%s%N); "$@" > /dev/null 2>&1 || return 1; t1=$(date +%s%N)
    times+=("$(( t1 - t0 ))")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { printf "%.4f\n", a[int((NR + 1) / 2)] / 1e9 }'
}
{
  printf "luavm -e ''\t%s\n" "$(cd "$repo" && median_wall ./luavm -e '')"
  printf "lua5.3 -e ''\t%s\n" "$(median_wall lua5.3 -e '')"
  printf "luavm examples/hello.lua\t%s\n" "$(cd "$repo" && median_wall ./luavm examples/hello.lua)"
  printf "lua5.3 examples/hello.lua\t%s\n" "$(cd "$repo" && median_wall lua5.3 examples/hello.lua)"
} > "$res/startup.tsv" || fail "a start-up command failed"
awk -F'\t' 'BEGIN { print "| command | wall, median (ms) |"; print "|---|---|" } { printf "| `%s` | %.0f |\n", $1, $2 * 1000 }' \
  "$res/startup.tsv" > "$res/startup.md"
goal_args+=(--startup "$res/startup.tsv")

# The compiler against luac5.3 (issue 26): memory, speed, and the parse-heavy inputs in 64 MiB.
if command -v luac5.3 > /dev/null && [ -x /usr/bin/time ]; then
  suite="${LUA_SUITE_DIR:-}"
  say "the compiler against luac5.3: the programs, the generated inputs${suite:+ and $suite}"
  tool dev.luavm.bench.CompileVsLuac --reps 10 --warmup 10 --generated --summary "$res/compiler.tsv" \
    "$bench_dir" "$programs_dir" ${suite:+"$suite"} > "$res/compiler.md" 2> "$res/compiler.log" \
    || { cat "$res/compiler.log" >&2; fail "CompileVsLuac failed"; }
  goal_args+=(--compiler "$res/compiler.tsv")
fi

tool dev.luavm.bench.Report "${report_args[@]}" ${PROGRAMS:+--only "$PROGRAMS"} --chart "$res/ratios.svg" > "$res/jmh.md"
tool dev.luavm.bench.Report "${report_args[@]}" "${goal_args[@]}" ${PROGRAMS:+--only "$PROGRAMS"} --goals > "$res/goals.md"
if grep -q "no result" "$res/jmh.md"; then
  echo "WARNING: some pairs have no result (a benchmark failed other than by a wrong output): see the JMH logs in $res" >&2
fi

# hand-written sections (gas-fairness's, the start-up measurements, notes on earlier runs):
# every block from a `<!-- NAME: begin` line to its `<!-- NAME: end -->` line, carried over as is
kept="$res/kept-sections.md"
: > "$kept"
[ -f "$here/RESULTS.md" ] && awk '
  !name && match($0, /^<!-- [A-Za-z0-9_-]+: begin/) { name = substr($0, 6, RLENGTH - 12); print (n++ ? "\n" : "") $0; next }
  name { print; if ($0 ~ "^<!-- " name ": end -->") name = "" }' "$here/RESULTS.md" > "$kept"

new_out="$out.$$.tmp"
trap 'rm -f "$new_out"' EXIT
{
  echo "# Benchmark results"
  echo
  echo "Written by \`benchmarks/run-all.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC') at commit $(git -C "$repo" rev-parse --short HEAD)."
  echo "See benchmarks/README.md for what each column means."
  echo
  echo "## Machine"
  echo
  echo "- CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), nproc $(nproc)"
  echo "- memory: $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
  echo "- java: $(java -version 2>&1 | paste -sd';' - | sed 's/;/; /g')"
  echo "- lua5.3: $(lua5.3 -v 2>&1)"
  echo "- JMH: $FORKS forks, $WARMUPS warmup and $ITERATIONS measured iterations; processes: median of $RUNS runs"
  echo "- the whole run took $(( ($(date +%s) - started + 30) / 60 )) minutes; load average (1, 5, 15 min) at the start $load_start, at the end $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- programs: $bench_dir${SIZE:+, size $SIZE}; engines: $engines"
  [ $core -eq 1 ] && echo "- \`--core\`: the pairs of benchmarks/src/main/resources/slow.txt were not timed (n/a, reason under the table)"
  [ -n "$luavm_note" ] && { echo; echo "$luavm_note"; }
  echo
  echo "## Goals"
  echo
  cat "$res/goals.md"
  echo
  echo "## Warm runs in one JVM (JMH)"
  echo
  if [ -s "$res/ratios.svg" ]; then
    echo "![Each engine's warm-run time divided by lua5.3's, per program, on a log scale](results-ratios.svg)"
    echo
  fi
  cat "$res/jmh.md"
  if [ -s "$res/footprint.md" ]; then
    echo "### Retained bytes per sandbox"
    echo
    cat "$res/footprint.md"
    echo
  fi
  echo "## Whole processes: lua5.3 vs ./luavm (tier auto, the default)"
  echo
  cat "$res/processes.md"
  echo
  echo "### Start-up (wall, median of ${START_RUNS:-21} runs, launched from the repository root)"
  echo
  cat "$res/startup.md"
  if [ -s "$res/compiler.md" ]; then
    echo
    echo "## The compiler against luac5.3"
    echo
    echo "Memory: the sandbox memory meter's peak while \`load\` compiles the source against \`luac5.3 -p\`'s"
    echo "maximum resident set size. Time: a warm \`LuaVM.compile\` (every source compiled round after round"
    echo "for 10 s first, then the fastest of 10) against \`luac5.3 -p\` given the file K times in one process"
    echo "(about 4 MB of source), the start-up of an empty file taken off. Sources: the programs above,"
    echo "the generated parse-heavy inputs${LUA_SUITE_DIR:+ and the files of the official suite}. See CompileVsLuac."
    echo
    cat "$res/compiler.md"
  fi
  if [ -s "$kept" ]; then
    echo
    cat "$kept"
  fi
} > "$new_out"
# the chart beside RESULTS.md (committed with the run of record), replaced with it
[ -s "$res/ratios.svg" ] && cp "$res/ratios.svg" "$(dirname "$out")/results-ratios.svg"
mv -f "$new_out" "$out"
say "wrote $out ($(( ($(date +%s) - started + 30) / 60 )) minutes)"
