"""Each flag's declared colours against its rendered pixels (every flag is rendered)."""

from __future__ import annotations

import pytest

from flagcore.library import Library, load_library
from flagcore.review.colour_check import LARGE, PRESENT, check_colours
from flagcore.review.library_check import artwork_path

LIB: Library = load_library()


@pytest.mark.parametrize("code", LIB.codes)
def test_declared_colours_match_the_pixels(code: str) -> None:
    declared = LIB.facts(code)["colours"]
    report = check_colours(artwork_path(code).read_bytes(), declared)
    assert report.missing == (), f"{code}: declared but not visible: {report.missing} {report.shares}"
    assert report.undeclared == (), f"{code}: covers >= {LARGE:.0%} but not declared: {report.undeclared}"


def test_the_check_catches_wrong_declarations() -> None:
    svg = artwork_path("JP").read_bytes()
    assert check_colours(svg, {"red", "white"}).ok
    wrong = check_colours(svg, {"red", "white", "blue"})
    assert wrong.missing == ("blue",)
    forgot = check_colours(svg, {"white"})
    assert forgot.undeclared == ("red",)
    assert forgot.shares["red"] > PRESENT


def test_unknown_colour_is_rejected() -> None:
    with pytest.raises(ValueError, match="declared"):
        check_colours(artwork_path("JP").read_bytes(), {"purple"})
