#!/usr/bin/env bash
# Build the extensions with AddressSanitizer + UndefinedBehaviorSanitizer into a separate venv
# and run the test suite under them (see README, "Hardening").
#   bash scripts/sanitize.sh [pytest args...]       e.g. bash scripts/sanitize.sh tests
#   bash scripts/sanitize.sh --fuzz N [run.py args]  the fuzz harness (fuzz/run.py) for N inputs
# CPython itself is not instrumented, so libasan is preloaded; leak detection covers the whole
# process (Python's own arenas included), so it is switched on separately by scripts/leaks.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${SANITIZE_VENV:-/tmp/flagcore-asan}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q cython scikit-build-core numpy pillow cairosvg defusedxml pytest pytest-benchmark hypothesis mypy
"$venv/bin/pip" install -q --no-build-isolation \
    -C cmake.define.FLAGCORE_SANITIZE="address;undefined" -C cmake.build-type=Debug \
    -C build-dir=build/asan .
asan=$(gcc -print-file-name=libasan.so)
ubsan=$(gcc -print-file-name=libubsan.so)
export LD_PRELOAD="$asan $ubsan"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export PYTHONMALLOC=malloc
if [ "${1:-}" = "--fuzz" ]; then
    shift
    exec "$venv/bin/python" fuzz/run.py --inputs "${1:-100000}" "${@:2}"
fi
"$venv/bin/python" -m pytest -q -p no:cacheprovider "$@"
