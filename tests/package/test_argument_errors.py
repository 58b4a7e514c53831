"""Every bad argument raises ArgumentError (a ValueError) or ArgumentTypeError (a TypeError), with
the message it had before the family existed, on both twins.

The corpus (argument_corpus.py) was captured on main before the change: each case's exception type
and message on the compiled core and on the reference twin. A case that raised ValueError must
now raise ArgumentError, one that raised TypeError ArgumentTypeError, both with exactly the old
message; any other outcome (an IndexError, say) must be unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from argument_corpus import CASES, outcome

from flagcore import errors

RECORDED: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).with_name("argument_corpus.json")).read_text(encoding="utf-8")
)
NEW_CLASS = {
    "builtins.ValueError": "flagcore.errors.ArgumentError",
    "builtins.TypeError": "flagcore.errors.ArgumentTypeError",
}


def test_the_corpus_and_its_record_name_the_same_cases() -> None:
    assert [name for name, _ in CASES] == list(RECORDED)
    # every case was a bad input when captured, and both twins agreed on it
    assert all(r["compiled"] is not None and r["compiled"] == r["python"] for r in RECORDED.values())


@pytest.mark.parametrize(("name", "call"), CASES, ids=[name for name, _ in CASES])
def test_a_bad_input_raises_the_family_with_its_old_message(twin: str, name: str, call: Callable[[], Any]) -> None:
    old = RECORDED[name][twin]
    now = outcome(call)
    assert now == {"type": NEW_CLASS.get(old["type"], old["type"]), "message": old["message"]}


def test_the_family_is_still_caught_as_the_builtins() -> None:
    assert issubclass(errors.ArgumentError, ValueError) and issubclass(errors.ArgumentError, errors.FlagcoreError)
    assert issubclass(errors.ArgumentTypeError, TypeError)
    assert issubclass(errors.ArgumentTypeError, errors.FlagcoreError)
    assert not issubclass(errors.ArgumentError, TypeError) and not issubclass(errors.ArgumentTypeError, ValueError)


def test_errors_exports_every_class_it_defines() -> None:
    defined = {
        name
        for name, value in vars(errors).items()
        if isinstance(value, type) and issubclass(value, BaseException) and value.__module__ == errors.__name__
    }
    assert defined == set(errors.__all__)
