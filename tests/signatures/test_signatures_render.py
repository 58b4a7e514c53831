"""render_flag and piece_signatures on real, broken and hostile artwork."""

import gzip
import io
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import cairosvg
import numpy as np
import pytest
from PIL import Image

from flagcore import signatures
from flagcore._svg_render import MAX_SVG_BYTES, SvgRenderError

# Every file open and network call the interpreter makes while _RECORDING is set. Audit hooks
# cannot be removed, so this one stays installed and records only inside `no_io()`.
_RECORDING: list = []
_ACTIVE = threading.Event()
_WATCHED = (
    "open",
    "os.listdir",
    "os.scandir",
    "urllib.Request",
    "socket.connect",
    "socket.getaddrinfo",
    "subprocess.Popen",
    "os.system",
)


def _hook(event, args):
    if _ACTIVE.is_set() and event in _WATCHED:
        _RECORDING.append((event, args))


sys.addaudithook(_hook)


class no_io:
    def __enter__(self):
        _RECORDING.clear()
        _ACTIVE.set()
        return _RECORDING

    def __exit__(self, *exc):
        _ACTIVE.clear()


def test_france_3x2_three_columns_of_look_alike_tiles():
    sigs = signatures.piece_signatures("FR", 3, 2)
    assert sigs is not None and len(sigs) == 6
    top, bottom = sigs[:3], sigs[3:]
    assert top == bottom and len(set(top)) == 3


def test_netherlands_5x3_three_uniform_rows():
    sigs = signatures.piece_signatures("NL", 5, 3)
    rows = [sigs[0:5], sigs[5:10], sigs[10:15]]
    assert all(len(set(row)) == 1 for row in rows)
    assert len({row[0] for row in rows}) == 3


def test_rendering_matches_the_table_for_france_and_netherlands():
    # The same answers without the precomputed table: render, then cut.
    for code, (columns, rows) in [("FR", (3, 2)), ("NL", (5, 3))]:
        image = signatures.render_flag(code, columns)
        assert signatures.tile_signatures(image, columns, rows) == signatures.piece_signatures(
            code, columns, rows, method="spec"
        )
        board = signatures.render_flag(code, columns, rows)
        assert signatures.visual_signatures(board, columns, rows) == signatures.piece_signatures(code, columns, rows)


def test_render_size_and_aspect_ratio():
    fr = signatures.render_flag("FR", 3)  # viewBox 3:2
    assert fr.shape == (96, 144, 4) and fr.dtype == np.uint8
    assert signatures.render_flag("fr", 5).shape == (160, 240, 4)
    ch = signatures.render_flag("CH", 4)  # square
    assert ch.shape == (192, 192, 4)
    assert tuple(fr[48, 10]) == (0, 35, 149, 255)  # French blue, opaque


def test_unpremultiplied_like_png_readback():
    # Nepal is not rectangular: transparent and anti-aliased pixels must come out as cairo's
    # own PNG writer (and so Pillow) gives them.
    for code in ("NP", "US", "FR"):
        ours = signatures.render_flag(code, 5)
        png = cairosvg.svg2png(signatures.flag_svg(code), output_width=240)
        theirs = np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))
        assert ours.shape == theirs.shape and np.array_equal(ours, theirs), code
    nepal = signatures.render_flag("NP", 5)
    assert (nepal[..., 3] == 0).any() and ((nepal[..., 3] > 0) & (nepal[..., 3] < 255)).any()


def test_svg_text_and_bytes_are_accepted():
    svg = signatures.flag_svg("FR")
    expected = signatures.piece_signatures("FR", 3, 2)
    assert signatures.piece_signatures(svg, 3, 2) == expected
    assert signatures.piece_signatures(svg.decode(), 3, 2) == expected
    assert signatures.piece_signatures(bytearray(svg), 3, 2) == expected
    assert signatures.piece_signatures(memoryview(svg), 3, 2) == expected


def test_grid_outside_the_table_is_rendered_and_cached():
    signatures.clear_cache()
    first = signatures.piece_signatures("JP", 6, 4)
    assert first is not None and len(first) == 24
    first.append(0)  # callers get their own list
    assert signatures.piece_signatures("JP", 6, 4) == first[:-1]


def test_thread_safe_cache():
    signatures.clear_cache()
    svg = signatures.flag_svg("DE")
    expected = signatures.visual_signatures(signatures.render_flag(svg, 4, 3), 4, 3)

    def work(i):
        if i % 7 == 0:
            signatures.clear_cache()
        return signatures.piece_signatures(svg, 4, 3)

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(work, range(64)))
    assert all(r == expected for r in results)


def test_flag_too_thin_for_the_rows_gives_none():
    # 96 px of France cut into 20 rows leaves the spec's hash no interior: no signatures, not an
    # exception. The visual signature compares whole tiles (48 x 5 px): three stripes.
    assert signatures.piece_signatures("FR", 3, 20, method="spec") is None
    assert signatures.piece_signatures("FR", 3, 20) == [0, 1, 2] * 20


@pytest.mark.parametrize(
    "args,exc",
    [
        (("FR", "3", 2), TypeError),
        (("FR", 3, None), TypeError),
        (("FR", 0, 2), ValueError),
        (("FR", 3, 0), ValueError),
        (("FR", 65, 2), ValueError),
        (("FR", 3, 65), ValueError),
        (("ZZ", 3, 2), ValueError),
        (("F", 3, 2), ValueError),
        ((42, 3, 2), TypeError),
        ((None, 3, 2), TypeError),
        (("FR", True, 2), TypeError),
        (("../etc/passwd", 3, 2), ValueError),
    ],
)
def test_bad_arguments_raise(args, exc):
    with pytest.raises(exc):
        signatures.piece_signatures(*args)


def test_render_flag_bad_columns():
    with pytest.raises(ValueError, match="columns"):
        signatures.render_flag("FR", 1000)
    with pytest.raises(TypeError, match="columns"):
        signatures.render_flag("FR", 3.0)


@pytest.fixture()
def secrets(tmp_path, monkeypatch):
    """Files with unique content that a hostile SVG points at; the cwd is their folder."""
    token = f"flagcore-secret-{id(tmp_path)}"
    files = {}
    for name, body in [
        ("secret.txt", token),
        ("secret.css", "rect { fill: red }"),
        (
            "secret.svg",
            f'<svg xmlns="http://www.w3.org/2000/svg"><desc>{token}</desc><rect id="a" width="9" height="9"/></svg>',
        ),
        ("secret.dtd", '<!ENTITY x "boom">'),
    ]:
        path = tmp_path / name
        path.write_text(body)
        files[name] = path
    png = tmp_path / "secret.png"
    Image.new("RGB", (4, 4), (255, 0, 0)).save(png)
    files["secret.png"] = png
    monkeypatch.chdir(tmp_path)
    return files


HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 3 2">'


def hostile_svgs(f):
    uri = {name: path.as_uri() for name, path in f.items()}
    rect = '<rect width="3" height="2" fill="#00f"/>'
    return {
        "image file uri": f'{HEAD}{rect}<image href="{uri["secret.png"]}" width="3" height="2"/></svg>',
        "image xlink relative": f'{HEAD}{rect}<image xlink:href="secret.png" width="3" height="2"/></svg>',
        "image absolute path": f'{HEAD}{rect}<image href="{f["secret.png"]}" width="3" height="2"/></svg>',
        "image svg": f'{HEAD}{rect}<image href="{uri["secret.svg"]}" width="3" height="2"/></svg>',
        "image http": f'{HEAD}{rect}<image href="http://127.0.0.1:9/x.png" width="3" height="2"/></svg>',
        "image data uri": f'{HEAD}{rect}<image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/></svg>',
        "image xml:base": f'{HEAD}{rect}<g xml:base="{f["secret.png"].parent}/"><image href="secret.png" width="3" height="2"/></g></svg>',  # noqa: E501
        "use external": f'{HEAD}{rect}<use xlink:href="{uri["secret.svg"]}#a"/></svg>',
        "use relative": f'{HEAD}{rect}<use href="secret.svg#a"/></svg>',
        "css import": f'{HEAD}<style>@import url("{uri["secret.css"]}");</style>{rect}</svg>',
        "css import relative": f'{HEAD}<style>@import "secret.css";</style>{rect}</svg>',
        "tref": f'{HEAD}{rect}<text><tref xlink:href="{uri["secret.svg"]}#a"/></text></svg>',
        "xxe": f'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "{uri["secret.txt"]}">]>'
        f"{HEAD}<desc>&x;</desc>{rect}</svg>",
        "external dtd": f'<?xml version="1.0"?><!DOCTYPE svg SYSTEM "{uri["secret.dtd"]}">{HEAD}{rect}</svg>',
        "parameter entity": f'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY % p SYSTEM "{uri["secret.dtd"]}"> %p;]>'
        f"{HEAD}{rect}</svg>",
        "billion laughs": '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "lol">'
        + "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(9))
        + f"]>{HEAD}<desc>&j;</desc>{rect}</svg>",
        "plain doctype": f'<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">{HEAD}{rect}</svg>',
        "xml-stylesheet": f'<?xml-stylesheet href="{uri["secret.css"]}"?>{HEAD}{rect}</svg>',
    }


def _check_refused(svg, files):
    signatures.clear_cache()
    with no_io() as events:
        assert signatures.piece_signatures(svg, 3, 2) is None
        with pytest.raises(SvgRenderError):
            signatures.render_flag(svg, 3)
    assert events == [], events
    return events


def test_hostile_svgs_give_none_and_read_nothing(secrets):
    signatures.render_flag("FR", 3)  # warm up: every lazy import happens outside the check
    for name, svg in hostile_svgs(secrets).items():
        if name == "xml-stylesheet":
            continue  # harmless: no renderer reads it (checked below)
        try:
            _check_refused(svg, secrets)
        except AssertionError as exc:
            raise AssertionError(f"{name}: {exc}") from None


def test_xml_stylesheet_instruction_is_never_fetched(secrets):
    svg = hostile_svgs(secrets)["xml-stylesheet"]
    signatures.render_flag("FR", 3)
    with no_io() as events:
        image = signatures.render_flag(svg, 3)
    assert events == [] and tuple(image[48, 72]) == (0, 0, 255, 255)


def test_internal_references_still_render():
    svg = (
        f'{HEAD}<defs><rect id="r" width="1" height="2" fill="#0f0"/></defs>'
        '<rect width="3" height="2" fill="#f00"/><use href="#r" x="1"/></svg>'
    )
    signatures.render_flag("FR", 3)
    with no_io() as events:
        image = signatures.render_flag(svg, 3)
    assert events == []
    assert tuple(image[48, 72]) == (0, 255, 0, 255) and tuple(image[48, 10]) == (255, 0, 0, 255)


def test_secret_content_never_reaches_the_output(secrets):
    # Belt and braces beside the audit hook: no render reads the unique token.
    for name, svg in hostile_svgs(secrets).items():
        try:
            signatures.render_flag(svg, 3)
        except SvgRenderError as exc:
            assert "flagcore-secret" not in str(exc), name


@pytest.mark.parametrize(
    "svg",
    [
        b"",
        b"   ",
        b"not xml at all",
        b"<svg",
        b"<html xmlns='http://www.w3.org/1999/xhtml'/>",
        signatures.flag_svg("FR")[: len(signatures.flag_svg("FR")) // 2],
        signatures.flag_svg("US")[:-10],
        gzip.compress(signatures.flag_svg("FR"), mtime=0),  # mtime=0: the same bytes (and test id) in every process
        b"\xff\xfe" + "<svg/>".encode("utf-16-le"),
        f'{HEAD}<rect width="3" height="2"/>'.encode(),  # unclosed root
        b'<svg xmlns="http://www.w3.org/2000/svg"/>',  # no size at all
        b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 100000"/>',  # absurd height
        b'<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="1"/>',  # 0 px tall
        b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 nan 2"/>',
        b'<svg xmlns="http://www.w3.org/2000/svg" width="1e999" height="1"/>',
        HEAD.encode() + b"<g>" * 200 + b"</g>" * 200 + b"</svg>",  # nesting bomb
        HEAD.encode() + b"<rect/>" * 30000 + b"</svg>",  # element bomb
        HEAD.encode() + b"<desc>" + b"x" * MAX_SVG_BYTES + b"</desc></svg>",  # too many bytes
    ],
    ids=lambda s: repr(s[:24]),
)
def test_broken_svgs_give_none(svg):
    signatures.render_flag("FR", 3)
    with no_io() as events:
        assert signatures.piece_signatures(svg, 3, 2) is None
    assert events == []


def test_errors_are_value_errors():
    assert issubclass(SvgRenderError, ValueError)
    with pytest.raises(SvgRenderError, match="not acceptable XML"):
        signatures.render_flag(b"<svg", 3)


def test_fetcher_refuses_even_without_the_pre_check(secrets, monkeypatch):
    # Second line of defence: with the static reference check switched off, cairosvg itself
    # reaches only our refusing url_fetcher, so nothing is read and the render fails.
    from flagcore import _svg_render

    monkeypatch.setattr(_svg_render, "check_svg", lambda data: None)
    signatures.render_flag("FR", 3)
    must_fail = [
        "image file uri",
        "image xlink relative",
        "image absolute path",
        "image svg",
        "image http",
        "image data uri",
        "image xml:base",
        "use external",
        "use relative",
        "tref",
        "css import relative",
    ]
    svgs = hostile_svgs(secrets)
    for name in must_fail:
        with no_io() as events:
            with pytest.raises(SvgRenderError, match="external resource"):
                _svg_render.render_svg(svgs[name].encode(), 144)
        assert events == [], name
    for name in ("xxe", "parameter entity", "billion laughs"):
        with no_io() as events:
            with pytest.raises(SvgRenderError, match="Forbidden"):  # cairosvg's own defusedxml
                _svg_render.render_svg(svgs[name].encode(), 144)
        assert events == [], name
    with no_io() as events:  # expat never loads an external DTD subset
        _svg_render.render_svg(svgs["external dtd"].encode(), 144)
    assert events == []


def test_every_bundled_flag_passes_the_safety_check():
    from flagcore._svg_render import check_svg

    for code in signatures.bundled_codes():
        check_svg(signatures.flag_svg(code))
