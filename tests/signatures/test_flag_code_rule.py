"""One flag-code rule (flagcore._args.common.as_flag_code) behind every caller that takes a code.

new_game's flag and the signatures' code (flag_svg, render_flag, piece_signatures) used to check codes
by two patterns with two messages; now both raise the rule's error, differing only in the argument's name.
"""

import pytest

from flagcore import puzzle, signatures
from flagcore._args.common import as_flag_code
from flagcore.cli import main

BAD_CODES = [
    "Ghana",
    "",
    "F",
    "F\0",
    "FR-",
    "GB-E",
    "GB-ENGL",
    "1A",
    "../../etc/passwd",
    "ſſ",  # long s: "ſ".upper() is "S", so upper-casing first would have read it as "SS"
    "ßß",  # "ß".upper() is "SS"
]
CODE_CALLERS = [
    lambda code: signatures.flag_svg(code),
    lambda code: signatures.render_flag(code, 3),
    lambda code: signatures.piece_signatures(code, 3, 2),
]


def _message(call, code):
    with pytest.raises(ValueError) as info:
        call(code)
    return str(info.value)


@pytest.mark.parametrize("code", BAD_CODES)
def test_new_game_and_signatures_refuse_a_bad_code_with_one_message(twin, code):
    from_game = _message(lambda c: puzzle.new_game(c, "easy", seed=1), code)
    assert from_game == f"flag must be a flag code like 'FR' or 'GB-ENG', got {code!r}"
    for call in CODE_CALLERS:
        from_signatures = _message(call, code)
        assert from_signatures == f"code must be a flag code like 'FR' or 'GB-ENG', got {code!r}"
        assert from_signatures.removeprefix("code ") == from_game.removeprefix("flag ")


def test_the_cli_refuses_a_bad_code_by_the_same_rule(capsys):
    assert main(["stats", "puzzle", "--seeds", "1", "--flags", "FR,Ghana"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "flagcore: error: --flags must be a flag code like 'FR' or 'GB-ENG', got 'Ghana'"
    assert main(["puzzle", "--flag", "Ghana"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "flagcore: error: flag must be a flag code like 'FR' or 'GB-ENG', got 'Ghana'"


@pytest.mark.parametrize("code", [5, None, b"FR", ["FR"]])
def test_a_code_that_is_no_str_is_a_type_error(code):
    with pytest.raises(TypeError, match=f"^code must be a str, not {type(code).__name__}$"):
        signatures.flag_svg(code)
    with pytest.raises(TypeError, match="^name must be a str"):
        as_flag_code(code, "name")


@pytest.mark.parametrize("code,upper", [("fr", "FR"), (" FR\n", "FR"), ("gb-Eng", "GB-ENG"), ("\tgb-sct ", "GB-SCT")])
def test_both_callers_read_a_good_code_alike(twin, code, upper):
    assert as_flag_code(code, "flag") == upper
    assert puzzle.new_game(code, "easy", seed=1).flag == upper
    assert signatures.flag_svg(code) == signatures.flag_svg(upper)
    assert signatures.piece_signatures(code, 3, 2) == signatures.piece_signatures(upper, 3, 2)


def test_a_well_formed_code_without_artwork_is_refused_by_the_caller():
    assert as_flag_code("ZZ", "code") == "ZZ"
    with pytest.raises(ValueError, match="no bundled flag artwork for code 'ZZ'"):
        signatures.flag_svg("ZZ")
