"""Every public member of the installed package explains itself, without pointing outside the repo.

Public: the modules whose names have no leading underscore (the command-line modules and the
reference twins aside), the names each exports (``__all__``, else what it defines), and the
methods and properties of its classes. A dataclass's generated "Name(field, ...)" text does not
count as a docstring. A data attribute of a compiled class (``Rng.state``) cannot carry one and
must be named in its class's docstring instead.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import pydoc
import re
from pathlib import Path

import flagcore

ROOT = Path(__file__).resolve().parents[2]
# the README and the docs site's pages
PAGES = "\n".join(p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))])
OUTSIDE = re.compile(r"spec(ification)?'?s? section|section \d|DESIGN\.md|\.\./shared", re.IGNORECASE)


def public_modules() -> list[str]:
    names = ["flagcore"]
    for info in pkgutil.walk_packages(flagcore.__path__, "flagcore."):
        parts = info.name.split(".")[1:]
        if not any(p.startswith("_") for p in parts) and parts[0] not in ("cli", "reference"):
            names.append(info.name)
    return names


def own_doc(obj: object) -> str:
    doc = obj.__dict__.get("__doc__") if inspect.isclass(obj) else getattr(obj, "__doc__", None)
    doc = (doc or "").strip()
    if inspect.isclass(obj) and doc.startswith(f"{obj.__name__}("):  # written by @dataclass
        return ""
    return doc


def public_members() -> dict[str, object]:
    found: dict[str, object] = {}
    for name in public_modules():
        module = importlib.import_module(name)
        found[name] = module
        exported = getattr(module, "__all__", None)
        for attr in exported or [n for n in vars(module) if not n.startswith("_")]:
            obj = getattr(module, attr)
            if not (inspect.isclass(obj) or inspect.isroutine(obj)):
                continue
            if not getattr(obj, "__module__", "").startswith("flagcore"):
                continue  # imported from elsewhere (numpy, typing, ...)
            if exported is None and obj.__module__ != name:
                continue  # imported from another flagcore module, which is checked there
            found[f"{name}.{attr}"] = obj
            if inspect.isclass(obj):
                for member, value in vars(obj).items():
                    if member.startswith("_"):
                        continue
                    if isinstance(value, (staticmethod, classmethod)):
                        value = value.__func__
                    if isinstance(value, property) or inspect.isroutine(value) or inspect.isdatadescriptor(value):
                        found[f"{name}.{attr}.{member}"] = value
    return found


def test_every_public_member_has_a_docstring():
    members = public_members()
    assert len(members) > 150
    missing = []
    for path, obj in members.items():
        if own_doc(obj):
            continue
        owner_path, _, member = path.rpartition(".")
        owner = members.get(owner_path)
        slot = inspect.isgetsetdescriptor(obj) or inspect.ismemberdescriptor(obj)
        if slot and inspect.isclass(owner) and f"``{member}``" in own_doc(owner):
            continue  # a compiled class's data attribute (or its twin's __slots__ one), described by its class
        missing.append(path)
    assert missing == []


def test_nothing_points_outside_the_repository():
    for path, obj in public_members().items():
        text = pydoc.render_doc(obj, renderer=pydoc.plaintext) if inspect.ismodule(obj) else own_doc(obj)
        assert not OUTSIDE.search(text), (path, OUTSIDE.search(text).group(0))
    assert not OUTSIDE.search(PAGES), OUTSIDE.search(PAGES).group(0)


def test_no_source_file_points_outside_the_repository():
    """Comments too: code, docs, scripts and CI files never cite a document the repository lacks."""
    root = Path(__file__).resolve().parents[2]
    design = re.compile(r"\bDESIGN\b")  # the original design notes, by name (upper case only)
    suffixes = {
        ".py",
        ".pyx",
        ".pxd",
        ".pxi",
        ".pyi",
        ".md",
        ".h",
        ".js",
        ".html",
        ".css",
        ".toml",
        ".txt",
        ".sh",
        ".yml",
        ".cfg",
    }
    checked = 0
    for folder in ("python", "src", "tests", "scripts", "benchmarks", "docs", "flags", ".ci", ".github"):
        for path in sorted((root / folder).rglob("*")):
            if (
                (path.suffix not in suffixes and folder != ".ci")
                or not path.is_file()
                or path == Path(__file__).resolve()
            ):
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            hit = OUTSIDE.search(text) or design.search(text)
            assert hit is None, (str(path.relative_to(root)), hit.group(0))
            checked += 1
    assert checked > 100
