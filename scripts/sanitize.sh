#!/usr/bin/env bash
# Build the compiled core with AddressSanitizer + UBSan and run the test suite
# against it; fail on any sanitizer report.
#
#   scripts/sanitize.sh [pytest args...]     (default: the whole suite, -q;
#                                             .ci/run gives -m kernel)
#
# The build happens in a temporary copy of the tree, so the in-place build of
# the working tree is left alone. setup.py honours ROUGEKIT_SANITIZE=1
# (-fsanitize=address,undefined -fno-sanitize-recover=undefined -O1 -g).
# CPython is not built with ASan, so libasan is LD_PRELOADed; leak detection
# is off (CPython leaks at exit by design). Every report goes to a log file
# (log_path), which also catches reports from subprocesses the tests start.
# The huge-input tests are skipped unless ROUGEKIT_SANITIZE_HUGE=1 (under ASan
# they take minutes and ASan's own memory overhead defeats their bound).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. scripts/_copy_tree.sh
PY=${PYTHON:-python3}
CC=${CC:-gcc}
START=$SECONDS

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

LIBASAN=$("$CC" -print-file-name=libasan.so)
[ -f "$LIBASAN" ] || { echo "sanitize: libasan.so not found ($CC -print-file-name=libasan.so)" >&2; exit 1; }

echo "=== copy the tree to $WORK/tree"
copy_tree "$ROOT" "$WORK/tree"

echo "=== build with ROUGEKIT_SANITIZE=1"
(cd "$WORK/tree" && ROUGEKIT_SANITIZE=1 CC="$CC" "$PY" setup.py build_ext --inplace -q \
    >"$WORK/build.log" 2>&1) || { cat "$WORK/build.log"; exit 1; }
SOS=$(find "$WORK/tree/src/rougekit" -name '*.so')
[ -n "$SOS" ] || { echo "sanitize: no extension was built" >&2; exit 1; }

# Prove the extensions are instrumented.
for so in $SOS; do
  # grep -c reads all of nm's output: grep -q would stop at the first match and
  # nm's SIGPIPE would fail the pipeline (pipefail) for a well-instrumented module.
  nm -D "$so" | grep -c __asan_ >/dev/null || { echo "sanitize: $so is not ASan-instrumented" >&2; exit 1; }
done

mkdir -p "$WORK/reports"
export LD_PRELOAD="$LIBASAN"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1:log_path=$WORK/reports/asan:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$WORK/reports/ubsan"
export PYTHONMALLOC=malloc          # every Python allocation through ASan's malloc
export PYTHONPATH="$WORK/tree/src"
export ROUGEKIT_REQUIRE_EXTENSIONS=1
# Tests over both kernels run the compiled one only (this build changes no pure twin).
export ROUGEKIT_COMPILED_ONLY=1
export ROUGEKIT_SANITIZED=1          # tests/_helpers.py: sweep(..., sanitized=)
export ROUGEKIT_SHARED="${ROUGEKIT_SHARED:-$(cd "$ROOT/.." && pwd)/shared}"
[ "${ROUGEKIT_SANITIZE_HUGE:-0}" != 0 ] || export ROUGEKIT_SKIP_HUGE=1

echo "=== tests under ASan + UBSan"
status=0
(cd "$WORK/tree" && "$PY" -m pytest -q -p no:cacheprovider "${@:-tests}") || status=$?

unset LD_PRELOAD
if ls "$WORK"/reports/* >/dev/null 2>&1; then
  echo "=== sanitizer reports" >&2
  cat "$WORK"/reports/* >&2
  status=1
fi
echo "=== sanitize: $( [ $status = 0 ] && echo clean || echo FAILED ) in $((SECONDS - START)) s"
exit $status
