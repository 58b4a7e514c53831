#!/usr/bin/env bash
# Leak check of the compiled modules under valgrind (see docs/hardening.md, "Leaks").
#   bash scripts/leaks.sh [ROUNDS]        (default 200; the second run does 10x ROUNDS)
# Runs scripts/leak_driver.py (every compiled entry point, success and error paths) twice under
# `valgrind --leak-check=full` with PYTHONMALLOC=malloc, once with ROUNDS and once with 10x ROUNDS.
# CPython and numpy keep some allocations alive until exit (interned strings, type caches), so the
# raw "definitely lost" figure is not zero; what matters is:
#   1. no definitely/indirectly lost record whose stack passes through a flagcore .so, and
#   2. the definite loss does not grow with the number of rounds (a per-call leak would grow 10x).
# Uses the python on PATH (or $PYTHON) with flagcore installed.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-200}
python=${PYTHON:-python}
out=${LEAKS_DIR:-/tmp/flagcore-leaks}
mkdir -p "$out"
run() {
    PYTHONMALLOC=malloc valgrind --leak-check=full --show-leak-kinds=definite,indirect \
        --num-callers=40 --error-exitcode=0 --log-file="$out/valgrind-$1.log" \
        "$python" scripts/leak_driver.py "$1" > "$out/driver-$1.log"
}
lost() {  # "bytes blocks" definitely lost
    sed -n 's/.*definitely lost: \([0-9,]*\) bytes in \([0-9,]*\) blocks.*/\1 \2/p' "$1" | tr -d ,
}
ours() {  # loss records with a flagcore extension module in their stack
    awk '/are (definitely|indirectly) lost in loss record/ {rec=$0; hit=0; next}
         rec && /flagcore\/_[a-z_]*\.cpython/ {hit=1}
         rec && /^==[0-9]+== $/ {if (hit) print rec; rec=""}' "$1"
}
run "$rounds"
run "$((rounds * 10))"
read -r b1 k1 <<< "$(lost "$out/valgrind-$rounds.log")"
read -r b10 k10 <<< "$(lost "$out/valgrind-$((rounds * 10)).log")"
echo "definitely lost, $rounds rounds:    ${b1:-0} bytes in ${k1:-0} blocks"
echo "definitely lost, $((rounds * 10)) rounds: ${b10:-0} bytes in ${k10:-0} blocks"
flagcore_records=$(ours "$out/valgrind-$((rounds * 10)).log"; ours "$out/valgrind-$rounds.log")
if [ -n "$flagcore_records" ]; then
    echo "FAIL: loss records in flagcore's compiled modules:"; echo "$flagcore_records"; exit 1
fi
if [ "${b10:-0}" -gt "$(( ${b1:-0} + 4096 ))" ]; then
    echo "FAIL: definite loss grows with the number of rounds"; exit 1
fi
echo "OK: no loss record in flagcore's .so files; definite loss does not grow with rounds (logs in $out)"
