# Sourced by the benchmark scripts: sets $repo (the repository root), $programs_dir (the
# user-shaped programs this repository keeps, benchmarks/programs) and $bench_dir (the shared
# benchmark programs), which is, in order:
#   $BENCH_DIR; <repo>/../shared/bench; for a git worktree, ../shared/bench beside the
#   main checkout (the directory holding the common .git).
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ -n "${BENCH_DIR:-}" ]; then
  bench_dir="$BENCH_DIR"
elif [ -d "$repo/../shared/bench" ]; then
  bench_dir="$repo/../shared/bench"
else
  common="$(git -C "$repo" rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)"
  bench_dir="${common:+$(dirname "$common")/../shared/bench}"
fi
if [ -z "$bench_dir" ] || [ ! -d "$bench_dir" ]; then
  echo "cannot find the benchmark programs (tried \$BENCH_DIR, $repo/../shared/bench); set BENCH_DIR" >&2
  exit 1
fi
bench_dir="$(cd "$bench_dir" && pwd)"
programs_dir="$repo/benchmarks/programs"
