#!/usr/bin/env bash
# Regenerates src/main/resources/expected/<program>.txt: what lua5.3 prints for each
# program in the shared benchmark directory and in benchmarks/programs at its default size. Every engine's output is
# compared with these files; rebuild the jar afterwards.
#
# usage: benchmarks/regen-expected.sh [SIZE...]
#   With SIZEs, also writes expected/<program>@<SIZE>.txt for runs with -Dbench.size=SIZE.
#   BENCH_DIR overrides the program directory (see bench-dir.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/bench-dir.sh"
out="$here/src/main/resources/expected"
command -v lua5.3 >/dev/null || { echo "lua5.3 is not on the PATH" >&2; exit 1; }
mkdir -p "$out"
for f in "$bench_dir"/*.lua "$programs_dir"/*.lua; do
  p="$(basename "$f" .lua)"
  lua5.3 "$f" > "$out/$p.txt"
  echo "$p: $(tr '\n' ' ' < "$out/$p.txt")"
  for size in "$@"; do
    lua5.3 "$f" "$size" > "$out/$p@$size.txt"
    echo "$p@$size: $(tr '\n' ' ' < "$out/$p@$size.txt")"
  done
done
