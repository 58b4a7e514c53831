"""Hostile SVG, run where a regression cannot take pytest down with it.

Every case is rendered in a child process with an address-space limit (RLIMIT_AS), a CPU-time
limit and a wall-clock timeout, so a renderer that starts allocating without bound or looping
fails this test instead of killing or hanging the run. Inside the child, after a warm-up render
(lazy imports open files legitimately), an audit hook records every "open", directory listing,
socket and subprocess event, and socket.socket.connect is replaced by a guard that records and
refuses. For each case the child checks that piece_signatures returns None and render_flag
raises SvgRenderError (a ValueError), and reports what it saw as JSON; the parent asserts no
file outside the given bytes was opened, no socket was touched and every case finished.

test_signatures_render.py already covers the basic reference and entity cases in-process; this
suite adds the ones that cost time or memory (reference bombs, markers, patterns, huge sizes,
deep nesting, huge text, random garbage, truncations of every bundled flag) and the process
limits.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 3 2">'
RECT = '<rect width="3" height="2" fill="#00f"/>'
MEMORY_LIMIT = 1 << 31  # 2 GiB of address space: a flag render needs well under 300 MB
CPU_LIMIT = 300  # seconds of CPU for the whole child (a hang guard, not a benchmark)
WALL_TIMEOUT = 600


def _bomb(tag_open: str, ref: str, levels: int, fanout: int) -> str:
    parts = ['<defs><rect id="u0" width="0.1" height="0.1" fill="#f00"/>']
    for i in range(1, levels + 1):
        parts.append(f'<g id="u{i}">' + (tag_open.format(ref=f"u{i - 1}")) * fanout + "</g>")
    return HEAD + "".join(parts) + f'</defs><use href="#u{levels}"/></svg>'


def hostile_cases(secret: Path) -> dict[str, bytes]:
    uri = secret.as_uri()
    cases: dict[str, str | bytes] = {
        # references that expand exponentially (a "billion laughs" made of <use>/url(#id))
        "use bomb": _bomb('<use href="#{ref}"/>', "", 9, 10),
        "use bomb xlink": _bomb('<use xlink:href="#{ref}"/>', "", 6, 12),
        "use chain": HEAD
        + '<rect id="c0" width="1" height="1"/>'
        + "".join(f'<use id="c{i}" href="#c{i - 1}"/>' for i in range(1, 5000))
        + "</svg>",
        "use cycle": HEAD + '<g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g></svg>',
        "use self": HEAD + '<use id="s" href="#s"/></svg>',
        "pattern bomb": HEAD
        + '<defs><pattern id="p0" width="1" height="1"><rect width="1" height="1"/></pattern>'
        + "".join(
            f'<pattern id="p{i}" width="1" height="1">'
            + f'<rect width="1" height="1" fill="url(#p{i - 1})"/>' * 10
            + "</pattern>"
            for i in range(1, 9)
        )
        + '</defs><rect width="3" height="2" fill="url(#p8)"/></svg>',
        "pattern self": HEAD + '<pattern id="p" width="1" height="1"><rect width="1" height="1" '
        'fill="url(#p)"/></pattern><rect width="3" height="2" fill="url(#p)"/></svg>',
        "marker bomb": HEAD
        + '<defs><marker id="m0"><path d="M0 0L1 1"/></marker>'
        + "".join(
            f'<marker id="m{i}"><path d="' + "M0 0" + " L1 1" * 200 + f'" marker-mid="url(#m{i - 1})"/></marker>'
            for i in range(1, 5)
        )
        + '</defs><path d="M0 0'
        + " L1 1" * 200
        + '" marker-mid="url(#m4)"/></svg>',
        "clip bomb": HEAD
        + '<defs><clipPath id="k0"><rect width="1" height="1"/></clipPath>'
        + "".join(
            f'<clipPath id="k{i}">' + f'<rect width="1" height="1" clip-path="url(#k{i - 1})"/>' * 10 + "</clipPath>"
            for i in range(1, 8)
        )
        + '</defs><rect width="3" height="2" clip-path="url(#k7)"/></svg>',
        "style sheet url bomb": HEAD
        + "<style>rect { fill: url(#g) }</style>"
        + '<pattern id="g" width="1" height="1">'
        + "<rect/>" * 50
        + "</pattern>"
        + "<rect/>" * 500
        + "</svg>",
        # external resources by every road
        "fill url file": f'{HEAD}<rect width="3" height="2" fill="url({uri}#x)"/></svg>',
        "style attribute url": f'{HEAD}<rect width="3" height="2" style="fill:url(\'{uri}\')"/></svg>',
        "css url in sheet": f"{HEAD}<style>rect {{ fill: url({uri}) }}</style>{RECT}</svg>",
        "css font-face": f"{HEAD}<style>@font-face {{ font-family: x; src: url({uri}) }}</style>{RECT}</svg>",
        "feImage": f'{HEAD}<filter id="f"><feImage href="{uri}"/></filter>'
        f'<rect width="3" height="2" filter="url(#f)"/></svg>',
        "image data svg pointing at file": f'{HEAD}<image width="3" height="2" href="data:image/svg+xml,'
        + f"%3Csvg xmlns='http://www.w3.org/2000/svg'%3E%3Cimage href='{uri}'/%3E%3C/svg%3E\"/></svg>",
        "image http": f'{HEAD}{RECT}<image href="http://127.0.0.1:9/a.png" width="3" height="2"/></svg>',
        "use http": f'{HEAD}{RECT}<use href="http://127.0.0.1:9/a.svg#x"/></svg>',
        "xinclude": f'{HEAD}<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="{uri}" parse="text"/>{RECT}</svg>',  # noqa: E501
        "xxe": f'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "{uri}">]>{HEAD}<desc>&x;</desc>{RECT}</svg>',
        "billion laughs": '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "lol">'
        + "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(9))
        + f"]>{HEAD}<desc>&j;</desc>{RECT}</svg>",
        "quadratic blowup": '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "'
        + "x" * 50000
        + '">]>'
        + HEAD
        + "<desc>"
        + "&a;" * 10000
        + "</desc>"
        + RECT
        + "</svg>",
        # sizes
        "gigantic width/height": '<svg xmlns="http://www.w3.org/2000/svg" width="1e9" height="1e9">' + RECT + "</svg>",
        "gigantic aspect": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1e9">' + RECT + "</svg>",
        "negative size": '<svg xmlns="http://www.w3.org/2000/svg" width="-3" height="-2">' + RECT + "</svg>",
        "zero viewBox": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 0 0">' + RECT + "</svg>",
        "infinite viewBox": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 inf 2">' + RECT + "</svg>",
        "nested svg gigantic": HEAD + '<svg width="1e12" height="1e12"><rect width="1e12" height="1e12"/></svg></svg>',
        # structure
        "deep nesting 100k": HEAD + "<g>" * 100_000 + "</g>" * 100_000 + "</svg>",
        "wide 100k elements": HEAD + "<g/>" * 100_000 + "</svg>",
        "many attributes": HEAD + "<rect " + " ".join(f"a{i}='1'" for i in range(50_000)) + "/></svg>",
        "script": f'{HEAD}<script>fetch("{uri}")</script>{RECT}</svg>',
        "gzip bomb": __import__("gzip").compress(b"<svg>" + b" " * (50 << 20) + b"</svg>"),
        "not svg root": '<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>',
        "empty": b"",
        "nul bytes": b"\0" * 4096,
        "utf-16 svg": ("\ufeff" + HEAD + RECT + "</svg>").encode("utf-16-le"),
        "lone surrogate text": (HEAD + "<text>\ud800</text>" + RECT + "</svg>").encode("utf-8", "surrogatepass"),
        "over the byte cap": HEAD + "<desc>" + "x" * (1 << 21) + "</desc></svg>",
    }
    rnd = random.Random(7)
    for i in range(20):
        cases[f"random bytes {i}"] = bytes(rnd.getrandbits(8) for _ in range(rnd.randint(1, 3000)))
    return {name: (v if isinstance(v, bytes) else v.encode("utf-8", "surrogatepass")) for name, v in cases.items()}


def truncated_flags() -> dict[str, bytes]:
    """Every bundled flag cut short at three points: malformed XML every time."""
    from flagcore import signatures

    out = {}
    for code in signatures.bundled_codes():
        data = signatures.flag_svg(code)
        for frac in (0.1, 0.5, 0.97):
            out[f"truncated {code} {frac}"] = data[: int(len(data) * frac)]
    return out


# --------------------------------------------------------------------------------- the child


def _child(case_dir: str) -> None:
    import resource
    import socket
    import time

    if "libasan" not in os.environ.get("LD_PRELOAD", ""):  # ASan reserves terabytes of shadow
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT, CPU_LIMIT))

    from flagcore import signatures
    from flagcore._svg_render import SvgRenderError

    signatures.render_flag("FR", 3)  # every lazy import happens here, before watching
    signatures.piece_signatures("FR", 7, 5)  # and the table/cache paths too

    events: list[list[str]] = []
    watching = [False]
    watched = (
        "open",
        "os.listdir",
        "os.scandir",
        "os.open",
        "socket.connect",
        "socket.bind",
        "socket.getaddrinfo",
        "socket.__new__",
        "urllib.Request",
        "subprocess.Popen",
        "os.system",
        "os.exec",
        "os.posix_spawn",
        "ctypes.dlopen",
    )

    def hook(event: str, args: tuple) -> None:
        if watching[0] and event in watched:
            events.append([event, repr(args)[:200]])

    sys.addaudithook(hook)

    def refuse(self: socket.socket, address: object) -> None:
        events.append(["socket guard", repr(address)])
        raise OSError("network is off in the hostile SVG suite")

    socket.socket.connect = refuse  # type: ignore[method-assign]
    socket.socket.connect_ex = refuse  # type: ignore[method-assign,assignment]

    report = {}
    for path in sorted(Path(case_dir).iterdir()):
        data = path.read_bytes()
        signatures.clear_cache()
        events.clear()
        start = time.process_time()
        watching[0] = True
        try:
            sigs = signatures.piece_signatures(data, 3, 2)
            try:
                signatures.render_flag(data, 3)
                rendered = "rendered"
            except SvgRenderError as exc:
                rendered = f"SvgRenderError: {str(exc)[:80]}"
            except Exception as exc:  # noqa: BLE001 - reported, the parent fails on it
                rendered = f"{type(exc).__name__}: {exc}"[:120]
        finally:
            watching[0] = False
        report[path.name] = {
            "none": sigs is None,
            "render": rendered,
            "events": list(events),
            "cpu": time.process_time() - start,
        }
    print(json.dumps(report))


# --------------------------------------------------------------------------------- the tests


def _run(cases: dict[str, bytes], tmp_path: Path) -> dict[str, dict]:
    case_dir = tmp_path / "cases"
    case_dir.mkdir()
    names = {}
    for i, (name, data) in enumerate(cases.items()):
        (case_dir / f"{i:04d}").write_bytes(data)
        names[f"{i:04d}"] = name
    proc = subprocess.run(
        [sys.executable, __file__, "--child", str(case_dir)],
        capture_output=True,
        text=True,
        timeout=WALL_TIMEOUT,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, f"child died ({proc.returncode}): {proc.stderr[-3000:]}"
    return {names[k]: v for k, v in json.loads(proc.stdout.splitlines()[-1]).items()}


@pytest.fixture()
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "secret.svg"
    path.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="3" height="2">'
        '<rect id="x" width="3" height="2" fill="#f00"/></svg>'
    )
    return path


# Odd but harmless: the canvas size is the caller's, scripts and unknown attributes are ignored,
# UTF-16 is well-formed XML. They may render; they must read nothing and finish like the rest.
HARMLESS = {"gigantic width/height", "negative size", "nested svg gigantic", "many attributes", "script", "utf-16 svg"}


@pytest.mark.slow
def test_hostile_svgs_fail_safely_in_bounded_time_and_memory(tmp_path, secret):
    cases = hostile_cases(secret)
    report = _run(cases, tmp_path)
    assert set(report) == set(cases)  # every case finished inside the limits
    bad = {
        name: r
        for name, r in report.items()
        if r["events"] or (name not in HARMLESS and (not r["none"] or not r["render"].startswith("SvgRenderError")))
    }
    assert not bad, json.dumps(bad, indent=1)[:4000]
    assert all(r["render"] == "rendered" or r["render"].startswith("SvgRenderError") for r in report.values())


def test_truncated_bundled_flags_fail_safely(tmp_path):
    report = _run(truncated_flags(), tmp_path)
    bad = {
        name: r
        for name, r in report.items()
        if not r["none"] or not r["render"].startswith("SvgRenderError") or r["events"]
    }
    assert not bad, json.dumps(bad, indent=1)[:4000]


def test_the_child_really_watches(tmp_path, secret):
    # The guard itself is tested: a render that is allowed to read a file is seen reading it.
    code = (
        "import sys; sys.argv[1:] = []; import json, runpy; "
        "from flagcore import _svg_render; "
        "_svg_render.check_svg = lambda data: None; "
        "_svg_render._refusing_fetcher = lambda attempts: (lambda url, kind: open(url[7:], 'rb').read()); "
        f"m = runpy.run_path({__file__!r}, run_name='child'); m['_child']({str(tmp_path / 'cases')!r})"
    )
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "0000").write_text(f'{HEAD}{RECT}<use href="{secret.as_uri()}#x"/></svg>')
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=WALL_TIMEOUT, cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads(proc.stdout.splitlines()[-1])["0000"]["events"]
    assert any(event == "open" and "secret.svg" in args for event, args in seen), seen


if __name__ == "__main__" and sys.argv[1:2] == ["--child"]:
    _child(sys.argv[2])
