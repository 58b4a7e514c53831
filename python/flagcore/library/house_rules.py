"""The house rules: how a player reads a category's label against a flag, written once.

Labels stay a few words ("Only red and white", "Three stripes") because these rules say, once for
every label, how colours, stripes, stars and shapes are counted and what "seen on a tile" means.
A label read with them is the whole rule. ``flagcore connections --help``, ``flagcore data sheet``,
the docs' Data page (docs/data.md; tests/package/test_house_rules.py keeps its copy equal) and the browser game's help
(the server fills help.html's house-rules section from here) all show this one text.
"""

from __future__ import annotations

import html
import textwrap
from dataclasses import dataclass


@dataclass(frozen=True)
class HouseRule:
    """One rule: its topic ("Colours") and its text, a sentence or two a player reads."""

    topic: str
    text: str


HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        "Tile size",
        "Flags are judged as you see them on a tile: the flag drawn 96 pixels wide. "
        "A detail too small to see there does not count, unless a label says so.",
    ),
    HouseRule(
        "Colours",
        "Seven colours: red, white, blue, green, yellow, black, orange (maroon counts as red, sky blue as "
        "blue, gold as yellow; two shades of one colour are one colour). Emblems and coats of arms count "
        "where a colour fills an area you can see on a tile; tiny details, outlines and shading do not, "
        'nor do brown, grey, silver or purple. "Only red and white" means those colours, each of '
        "them present, and no other.",
    ),
    HouseRule(
        "Stripes",
        "Stripes are the horizontal or vertical bands of the field (a diagonal band is not a stripe). A thin "
        "band between wider ones (under a twelfth of the flag's height) is an edging line, not a stripe; one "
        "between a twelfth and a sixth reads either way and never decides a group. A field of many equal "
        "stripes counts them all. Stripes beside a band or triangle at the hoist count as horizontal stripes;"
        " a field split down its length is vertical stripes. Bands inside a figure (the V of Antigua and"
        " Barbuda) are the figure's, not stripes.",
    ),
    HouseRule(
        "Stars",
        "Stars inside a coat of arms or seal are not counted. A six-pointed star (Israel's) is a star. A sun"
        " is not a star, and a star is not a sun.",
    ),
    HouseRule(
        "Shapes",
        "A disc is a filled circle: an oval, a ring, a wheel or a sun with rays is not one, and a disc split "
        "into two colours has nothing drawn on it. A canton is a rectangle of its own in the top corner at "
        "the hoist. A symbol is a star, disc, crescent, sun, arms, emblem or figure; triangles, crosses, "
        "cantons, bands and borders are shapes, not symbols.",
    ),
    HouseRule(
        "Figures",
        "Arms mean the national coat of arms, emblem or seal. Figures (animals, people, buildings, weapons, "
        "plants, writing, maps) count when they are large enough to see on a tile; small ones inside arms "
        "do not.",
    ),
    HouseRule(
        "Colour families",
        "Pan-African: green, yellow, red. Pan-Arab: red, white, black, green. Pan-Slavic: red, white, blue.",
    ),
    HouseRule(
        "Countries",
        "A country on two continents by the usual boundaries counts in both (Russia, Türkiye, Kazakhstan, "
        "Egypt); the Caucasus counts in Asia, Cyprus in Europe. North America includes Central America and "
        "the Caribbean; Australia is a continent, not an island nation. A country includes its overseas "
        "regions, not its dependent territories. Borders are land borders (a lake or sea border does not "
        "count); a sea includes its gulfs, an ocean the seas along its edge. A currency counts when it is "
        "legal tender, beside another or not; a language when it is official by law. Facts are as of late "
        "2026.",
    ),
    HouseRule(
        "Fairness",
        "A flag that fits a group only by another reading (a thin line read as a stripe, a small emblem's "
        "colour) is never put on a board where that reading would make a second answer.",
    ),
)


def house_rules() -> tuple[HouseRule, ...]:
    """The house rules in the order a player reads them."""
    return HOUSE_RULES


def house_rules_text(width: int = 79) -> str:
    """The house rules as plain text wrapped to ``width`` columns: one paragraph per rule."""
    return "\n".join(
        textwrap.fill(f"{rule.topic}: {rule.text}", width, subsequent_indent="  ") for rule in house_rules()
    )


def house_rules_markdown() -> str:
    """The house rules as a Markdown list (docs/data.md holds this text)."""
    return "\n".join(f"- **{rule.topic}.** {rule.text}" for rule in house_rules()) + "\n"


def house_rules_html() -> str:
    """The house rules as an HTML list (the browser game's help page shows it)."""
    items = "".join(f"<li><b>{html.escape(r.topic)}.</b> {html.escape(r.text)}</li>" for r in house_rules())
    return f"<ul>{items}</ul>"
