#!/usr/bin/env bash
# Differential testing of luavm against lua5.3 on COUNT generated programs, seeds SEED..SEED+COUNT-1.
# Usage: conformance-tests/difftest.sh COUNT [SEED]      (see DIFFTEST.md)
# Mismatches are shrunk into conformance-tests/target/difftest-mismatches/seed-N.lua.
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT="${1:?usage: difftest.sh COUNT [SEED]}"
SEED="${2:-1}"
command -v lua5.3 >/dev/null || { echo "difftest: lua5.3 is not on the PATH" >&2; exit 1; }
# -am builds the modules it needs from this tree (not whatever another checkout installed in ~/.m2)
exec mvn -q -pl conformance-tests -am test -Dtest=DifferentialTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Ddifftest.count="$COUNT" -Ddifftest.seed="$SEED"
