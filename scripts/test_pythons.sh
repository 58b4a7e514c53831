#!/usr/bin/env bash
# Build flagcore and run the fast test subset (scripts/fast_tests.py) on every CPython 3.10-3.13
# this machine has in pyenv (~/.pyenv/versions/3.1x.y, or PYENV_ROOT), one fresh venv each:
#   pip wheel . (isolated build, that Python's own headers) -> pip install the wheel, pytest,
#   pytest-benchmark and hypothesis -> python scripts/fast_tests.py from a scratch folder.
# Prints one line per Python and exits non-zero if any failed or if none was found.
# Usage:  bash scripts/test_pythons.sh            (PYTHONS="3.11 3.12" to pick minor versions;
#         KEEP=1 keeps the scratch folder with each Python's log)
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
root=${PYENV_ROOT:-$HOME/.pyenv}/versions
work=$(mktemp -d "${TMPDIR:-/tmp}/flagcore-pythons.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
found=0 failed=0
summary=()
for minor in ${PYTHONS:-3.10 3.11 3.12 3.13}; do
  # the newest patch release of that minor version that pyenv holds
  dir=$(ls -d "$root/$minor".* 2>/dev/null | grep -E "/$minor\.[0-9]+$" | sort -V | tail -1)
  if [ -z "$dir" ] || [ ! -x "$dir/bin/python3" ]; then
    summary+=("CPython $minor: not found under $root (not tried)")
    continue
  fi
  found=$((found + 1))
  py=$dir/bin/python3
  version=$("$py" -c 'import platform; print(platform.python_version())')
  log=$work/$version.log
  start=$(date +%s)
  (
    set -e
    "$py" -m venv "$work/venv-$version"
    venv=$work/venv-$version/bin
    "$venv/python" -m pip install -q --upgrade pip
    "$venv/python" -m pip wheel -q --no-deps -w "$work/wheels-$version" "$repo"
    wheel=$(ls "$work/wheels-$version"/flagcore-*.whl)
    echo "built $(basename "$wheel")"
    # what the fast subset needs, as cibuildwheel's test-requires (the "test" extra adds the web
    # server's browser tests)
    "$venv/python" -m pip install -q "$wheel" "pytest>=8" "pytest-benchmark>=4" "hypothesis>=6.90"
    mkdir -p "$work/run-$version" && cd "$work/run-$version"
    "$venv/python" "$repo/scripts/fast_tests.py"
  ) > "$log" 2>&1
  status=$?
  took=$(( $(date +%s) - start ))
  tests=$(grep -Eo '[0-9]+ passed[^=]*' "$log" | tail -1)
  if [ $status -eq 0 ]; then
    summary+=("CPython $version: OK, $(grep -o 'flagcore-[^ ]*\.whl' "$log" | head -1), ${tests:-?} (${took}s)")
  else
    failed=$((failed + 1))
    summary+=("CPython $version: FAILED (${took}s); last lines of its log:")
    while IFS= read -r line; do summary+=("    $line"); done < <(tail -15 "$log")
  fi
done
printf '%s\n' "${summary[@]}"
if [ $found -eq 0 ]; then echo "no CPython 3.10-3.13 found under $root"; exit 1; fi
[ $failed -eq 0 ]
