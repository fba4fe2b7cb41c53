#!/usr/bin/env bash
# Build the compiled core with its portable C paths only and run tests
# against it:
#
#   scripts/portable.sh [pytest args...]     (default: -m "kernel or simd")
#
# RK_NO_SIMD leaves out the SSE2 text classification (classify.h) and the
# AVX2/AVX-512 bootstrap kernels (resample.h), so the code that CPUs without
# them run (arm64 wheels, say) is tested here too, on x86-64: every result
# must be the same. The build happens in a temporary copy of the tree, as in
# sanitize.sh; compiler warnings are errors.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. scripts/_copy_tree.sh
PY=${PYTHON:-python3}
START=$SECONDS

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

echo "=== copy the tree to $WORK/tree"
copy_tree "$ROOT" "$WORK/tree"

echo "=== build with -DRK_NO_SIMD"
(cd "$WORK/tree" && CFLAGS="${CFLAGS:-} -DRK_NO_SIMD" ROUGEKIT_WERROR=1 \
    "$PY" setup.py build_ext --inplace -q >"$WORK/build.log" 2>&1) || { cat "$WORK/build.log"; exit 1; }

echo "=== tests against the portable build"
cd "$WORK/tree"
export PYTHONPATH="$WORK/tree/src" ROUGEKIT_REQUIRE_EXTENSIONS=1
# Tests over both kernels run the compiled one only (this build changes no pure twin).
export ROUGEKIT_COMPILED_ONLY=1
export ROUGEKIT_SHARED="${ROUGEKIT_SHARED:-$(cd "$ROOT/.." && pwd)/shared}"
"$PY" -c 'import os
from rougekit._core import _rouge155_bootstrap
assert _rouge155_bootstrap.__file__.startswith(os.environ["PYTHONPATH"])
assert _rouge155_bootstrap._resample_lanes() == 2, "the wide bootstrap kernels were built in"'
TESTS=("$@")
[ ${#TESTS[@]} -gt 0 ] || TESTS=(-m "kernel or simd" tests)
"$PY" -m pytest -q -p no:cacheprovider "${TESTS[@]}"
echo "=== portable build: tests passed in $((SECONDS - START)) s"
