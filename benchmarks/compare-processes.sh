#!/usr/bin/env bash
# Runs each program of the shared benchmark directory as a whole process under lua5.3 and
# under ./luavm (the CLI launcher at the repository root), side by side, N times each,
# takes the median wall time of each, checks the outputs are identical, and prints a
# Markdown table: program, lua5.3 seconds, luavm seconds, ratio (luavm / lua5.3), and the
# geometric mean of the ratios. Times include process start-up (a JVM's, for luavm).
#
# usage: benchmarks/compare-processes.sh [-n RUNS] [-s SIZE] [-p prog,prog] [--tsv FILE] [--luavm PATH]
#   -n RUNS     runs per program and engine (default 3); the median is reported
#   -s SIZE     passed as arg[1] to every program (default: none, each program's default size)
#   -p LIST     only these programs (names without .lua)
#   --tsv FILE  also write "program<TAB>lua53_s<TAB>luavm_s<TAB>status" lines (run-all.sh uses it)
#   --luavm P   the launcher to use (default: <repo>/luavm)
# BENCH_DIR overrides where the programs are (see bench-dir.sh).
# Exits 1 if luavm ran and any output differed or a run failed.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/bench-dir.sh"

runs=3 size="" only="" tsv="" luavm="$repo/luavm"
while [ $# -gt 0 ]; do
  case "$1" in
    -n) runs="$2"; shift 2 ;;
    -s) size="$2"; shift 2 ;;
    -p) only="$2"; shift 2 ;;
    --tsv) tsv="$2"; shift 2 ;;
    --luavm) luavm="$2"; shift 2 ;;
    *) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
command -v lua5.3 >/dev/null || { echo "lua5.3 is not on the PATH" >&2; exit 1; }
have_luavm=1
if [ ! -x "$luavm" ]; then
  have_luavm=0
  echo "note: no luavm launcher at $luavm (not built yet?): only lua5.3 is timed" >&2
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

if [ $have_luavm -eq 1 ]; then
  # untimed: the launcher builds the CLI on first use, which must not land in a timing
  echo "warming up $luavm (builds the CLI if needed) ..." >&2
  : > "$tmp/empty.lua"
  "$luavm" "$tmp/empty.lua" > /dev/null 2>&1 || echo "note: $luavm failed on an empty script" >&2
fi

# run_median ENGINE_CMD SCRIPT OUTFILE: runs it $runs times; prints the median seconds, or
# "FAILED(exit N)" / "DIFFERS" (runs disagreed with each other). OUTFILE gets the first run's output.
run_median() {
  local cmd="$1" script="$2" out="$3" times=() i t0 t1 rc
  for ((i = 0; i < runs; i++)); do
    t0=$(date +%s%N)
    $cmd "$script" ${size:+"$size"} > "$tmp/run.out" 2> "$tmp/run.err"
    rc=$?
    t1=$(date +%s%N)
    if [ $rc -ne 0 ]; then
      echo "FAILED(exit $rc): $(head -c 200 "$tmp/run.err" | tr '\n' ' ')" >&2
      echo "FAILED(exit $rc)"; return
    fi
    if [ $i -eq 0 ]; then cp "$tmp/run.out" "$out"; elif ! cmp -s "$tmp/run.out" "$out"; then echo "DIFFERS"; return; fi
    times+=("$(( (t1 - t0) / 1000 ))")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.3f\n", m / 1e6}'
}

is_num() { [[ "$1" =~ ^[0-9]+(\.[0-9]+)?$ ]]; }

[ -n "$tsv" ] && : > "$tsv"
failed=0
rows=()
for f in "$bench_dir"/*.lua "$programs_dir"/*.lua; do
  p="$(basename "$f" .lua)"
  if [ -n "$only" ] && [[ ",$only," != *",$p,"* ]]; then continue; fi
  echo "running $p ..." >&2
  lt="$(run_median lua5.3 "$f" "$tmp/lua.out")"
  vt="-" ratio="-" status="lua5.3 only"
  if [ $have_luavm -eq 1 ]; then
    vt="$(run_median "$luavm" "$f" "$tmp/luavm.out")"
    if ! is_num "$vt"; then
      status="luavm $vt"; ratio="-"; failed=1
    elif ! cmp -s "$tmp/lua.out" "$tmp/luavm.out"; then
      status="OUTPUT DIFFERS"; ratio="-"; failed=1
      { echo "--- $p: lua5.3"; cat "$tmp/lua.out"; echo "--- $p: luavm"; head -c 2000 "$tmp/luavm.out"; } >&2
    else
      status="same output"
      is_num "$lt" && ratio="$(awk -v a="$vt" -v b="$lt" 'BEGIN { printf "%.2f", a / b }')"
    fi
  fi
  rows+=("$p|$lt|$vt|$ratio|$status")
  [ -n "$tsv" ] && printf '%s\t%s\t%s\t%s\n' "$p" "$lt" "$vt" "$status" >> "$tsv"
done

echo "| program | lua5.3 s | luavm s | ratio | outputs |"
echo "|---|---|---|---|---|"
for r in "${rows[@]}"; do
  IFS='|' read -r p lt vt ratio status <<< "$r"
  echo "| $p | $lt | $vt | $ratio | $status |"
done
printf '%s\n' "${rows[@]}" | awk -F'|' '$4 ~ /^[0-9.]+$/ && $4 > 0 { s += log($4); n++ }
  END { if (n) printf "| **geometric mean** | | | **%.2f** | %d programs |\n", exp(s / n), n;
        else print "| **geometric mean** | | | - | no luavm times |" }'
echo
echo "Median of $runs runs each, wall time of the whole process (start-up included)${size:+, size $size}."
exit $failed
