"""The house rules are one text: the docs' copy (docs/data.md), the CLI's help and the contact sheets show it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from flagcore.cli import main
from flagcore.library import HouseRule, house_rules, house_rules_markdown, house_rules_text

DATA_PAGE = (Path(__file__).resolve().parents[2] / "docs" / "data.md").read_text(encoding="utf-8")


def test_the_docs_hold_the_house_rules_as_the_package_writes_them() -> None:
    found = re.search(r"<!-- house-rules -->\n(.*?)<!-- /house-rules -->", DATA_PAGE, re.S)
    assert found, "docs/data.md has no <!-- house-rules --> block"
    assert found.group(1) == house_rules_markdown(), (
        "docs/data.md's house rules differ from flagcore.library.house_rules(): paste "
        "python -c 'from flagcore.library import house_rules_markdown as m; print(m(), end=\"\")'"
    )


def test_the_connections_help_ends_with_the_house_rules(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["connections", "--help"])
    text = capsys.readouterr().out
    assert text.rstrip().endswith(house_rules_text().rstrip())
    assert all(rule.topic in text for rule in house_rules())


def test_every_rule_has_a_topic_and_a_sentence() -> None:
    rules = house_rules()
    assert rules and all(isinstance(r, HouseRule) for r in rules)
    assert len({r.topic for r in rules}) == len(rules)
    assert all(r.topic and r.text.endswith(".") for r in rules)
