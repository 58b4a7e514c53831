#!/usr/bin/env bash
# The contributor loop of CONTRIBUTING.md, shown on a throwaway copy of this checkout:
#   1. an editable install (pip install -e ".[test]"), as a contributor makes it;
#   2. an edit of a .py file is seen by the next run, with no reinstall;
#   3. with the rebuild option, an edit of a .pyx file is rebuilt at the next import.
# Usage: bash scripts/check_editable.sh   (about a minute; builds the core twice)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git -C "$here" worktree add --detach -q "$work/src" HEAD
trap 'git -C "$here" worktree remove --force "$work/src"; rm -rf "$work"' EXIT
cd "$work/src"
python3 -m venv "$work/venv"
. "$work/venv/bin/activate"
pip install -q --upgrade pip
# the build tools in the venv itself: an editable rebuild runs them at import time
pip install -q scikit-build-core "cython>=3.0.8" cmake ninja
pip install -q --no-build-isolation -Ceditable.rebuild=true -Ceditable.verbose=false -Cbuild-dir=build/editable -e ".[test]"

echo "== 1. installed editable:"
python -c "import flagcore, flagcore._puzzle as p; print(' ', flagcore.__file__); print(' ', p.__file__)"

echo "== 2. a .py edit shows without reinstalling:"
python - <<'PY'
import pathlib
p = pathlib.Path("python/flagcore/_version.py")
p.write_text(p.read_text().replace('__version__ = "', '__version__ = "9999+edited.'))
PY
got="$(python -c 'import flagcore; print(flagcore.__version__)')"
echo "  flagcore.__version__ is now $got"
[[ "$got" == 9999+edited.* ]]
git checkout -q python/flagcore/_version.py

echo "== 3. a .pyx edit is rebuilt at the next import:"
python - <<'PY'
import pathlib
p = pathlib.Path("src/flagcore/_rng.pyx")
p.write_text(p.read_text() + "\nEDITABLE_CHECK = 42\n")
PY
got="$(python -c 'from flagcore import _rng; print(_rng.EDITABLE_CHECK)' 2>/dev/null | tail -1)"
echo "  _rng.EDITABLE_CHECK is $got"
[[ "$got" == 42 ]]
git checkout -q src/flagcore/_rng.pyx
echo "OK: the edit loop needs no reinstall"
