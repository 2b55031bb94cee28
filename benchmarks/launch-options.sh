#!/usr/bin/env bash
# Compares JVM option sets for the ./luavm launcher, whole process: each program of the shared
# benchmark directory (or `-e ''` for start-up) is run under every configuration in turn
# (A B C A B C ...: on a shared machine load drifts, so alternating keeps the comparison fair),
# and the median of each configuration's runs is reported, as CPU (user + system of the
# process, from /usr/bin/time, all threads: JIT compilers and GC included) and as wall time,
# with the geometric mean over the programs. Outputs are checked against lua5.3's.
#
# usage: benchmarks/launch-options.sh [-n RUNS] [-p prog,prog | --startup] [--jar JAR] NAME='OPTIONS' ...
#   -n RUNS     runs per program and configuration (default 3)
#   -p LIST     only these programs (names without .lua)
#   --startup   time `-e ''` only (the row "startup"): start-up
#   --jar JAR   the CLI jar (default: <repo>/cli/target/luavm.jar)
#   NAME='OPTIONS'  a configuration: JVM options put before `-jar JAR`; the word @cds stands for
#               the launcher's class-data sharing options (-XX:SharedArchiveFile=<jar>.jsa ...),
#               with the archive beside the jar (cli/target/luavm.jsa; made by running ./luavm once);
#               @jar=PATH runs that jar instead of --jar's (e.g. builds with other tiering thresholds);
#               @tier=T passes `--tier T` to the CLI (interp, auto, compile-all)
# Example (the launcher's choice against tiered C2, both with the archive):
#   benchmarks/launch-options.sh c1='-XX:TieredStopAtLevel=1 @cds' c2='@cds'
# Every configuration also gets the launcher's fixed options, -Xss8m -XX:-UsePerfData, and
# -XX:+UseSerialGC (the launcher's collector) unless it names one itself (-XX:+Use...GC).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/bench-dir.sh"

runs=3 only="" startup=0 jar="$repo/cli/target/luavm.jar"
names=() opts=()
while [ $# -gt 0 ]; do
  case "$1" in
    -n) runs="$2"; shift 2 ;;
    -p) only="$2"; shift 2 ;;
    --startup) startup=1; shift ;;
    --jar) jar="$2"; shift 2 ;;
    *=*) names+=("${1%%=*}"); opts+=("${1#*=}"); shift ;;
    *) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
[ ${#names[@]} -gt 0 ] || { echo "no configuration given (NAME='OPTIONS')" >&2; exit 2; }
[ -f "$jar" ] || { echo "no $jar (run ./luavm once to build it)" >&2; exit 1; }
jsa="${jar%.jar}.jsa"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

progs=()
if [ $startup -eq 1 ]; then
  progs=(startup)
else
  for f in "$bench_dir"/*.lua "$programs_dir"/*.lua; do
    p="$(basename "$f" .lua)"
    if [ -n "$only" ] && [[ ",$only," != *",$p,"* ]]; then continue; fi
    progs+=("$p")
  done
fi

# one run: prints "wall_s cpu_s", or FAILED
run_one() { # config-index program
  local o="${opts[$1]}" args=() j="$jar" gc=-XX:+UseSerialGC
  if [[ "$o" =~ @jar=([^ ]+) ]]; then j="${BASH_REMATCH[1]}"; o="${o//@jar=$j/}"; fi
  if [[ "$o" =~ @tier=([^ ]+) ]]; then args=(--tier "${BASH_REMATCH[1]}"); o="${o//@tier=${BASH_REMATCH[1]}/}"; fi
  [[ "$o" =~ -XX:\+Use[A-Za-z0-9]*GC ]] && gc=""
  o="${o//@cds/-XX:SharedArchiveFile=${j%.jar}.jsa -Xlog:cds*=off}"
  if [ $startup -eq 1 ]; then args+=(-e ''); else args+=("$bench_dir/$2.lua"); fi
  # shellcheck disable=SC2086
  if ! /usr/bin/time -f '%e %U %S' -o "$tmp/time" java $gc -Xss8m -XX:-UsePerfData $o \
       -jar "$j" "${args[@]}" > "$tmp/out" 2> "$tmp/err"; then
    echo FAILED; head -c 300 "$tmp/err" >&2; return
  fi
  if [ $startup -eq 0 ] && ! cmp -s "$tmp/out" "$tmp/expect-$2"; then echo FAILED; echo "$2: output differs" >&2; return; fi
  awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$tmp/time"
}

median() { sort -n | awk '{a[NR]=$1} END {if (!NR) {print "-"; exit} m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.3f\n", m}'; }

for p in "${progs[@]}"; do
  [ $startup -eq 1 ] || lua5.3 "$bench_dir/$p.lua" > "$tmp/expect-$p"
  echo "running $p ..." >&2
  for ((r = 0; r < runs; r++)); do
    for i in "${!names[@]}"; do
      res="$(run_one "$i" "$p")"
      [ "$res" = FAILED ] && continue
      echo "$res" | awk -v p="$p" -v c="$i" '{ print p, c, $1, $2 }' >> "$tmp/all"
    done
  done
done

{
  printf '| program |'; for n in "${names[@]}"; do printf ' %s CPU s | %s wall s |' "$n" "$n"; done; echo
  printf '|---|'; for _ in "${names[@]}"; do printf -- '---|---|'; done; echo
  for p in "${progs[@]}"; do
    printf '| %s |' "$p"
    for i in "${!names[@]}"; do
      c="$(awk -v p="$p" -v c="$i" '$1 == p && $2 == c { print $4 }' "$tmp/all" | median)"
      w="$(awk -v p="$p" -v c="$i" '$1 == p && $2 == c { print $3 }' "$tmp/all" | median)"
      printf ' %s | %s |' "$c" "$w"
      echo "$p $i $c $w" >> "$tmp/medians"
    done
    echo
  done
  printf '| **geometric mean** |'
  for i in "${!names[@]}"; do
    awk -v c="$i" '$2 == c && $3 > 0 && $4 > 0 { sc += log($3); sw += log($4); n++ }
      END { if (n) printf " **%.3f** | **%.3f** |", exp(sc / n), exp(sw / n); else printf " - | - |" }' "$tmp/medians"
  done
  echo
  echo
  echo "Median of $runs runs per cell, configurations alternated; CPU = user + system of the whole JVM process."
  for i in "${!names[@]}"; do echo "- ${names[$i]}: \`${opts[$i]}\`"; done
}
