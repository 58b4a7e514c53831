"""Signatures inside the puzzle: new_game with a flag code, and `flagcore stats puzzle`."""

import json

import pytest

from flagcore import puzzle, signatures
from flagcore.cli import main
from flagcore.cli.stats_puzzle import SPEC_CAP, enumeration_size, harmonic


def test_new_game_with_a_flag_code_uses_its_signatures():
    game = puzzle.new_game("FR", "easy", seed=1)
    sigs = signatures.piece_signatures("FR", 3, 2)
    assert list(game.signatures) == sigs
    assert not game.identity_mode
    assert sorted(game.tiles_by_slot) == list(range(6))
    assert not puzzle.is_visually_solved(game.tiles_by_slot, sigs)
    # Par counts look-alike tiles as interchangeable: never more than the distinct-tile count.
    assert 1 <= game.par <= puzzle.min_swaps_to_identity(game.tiles_by_slot)
    assert game.par == puzzle.min_swaps_to_visual_solve(game.tiles_by_slot, sigs)


def test_new_game_same_as_passing_the_signatures():
    for code, grid, (columns, rows) in [("NL", "hard", (5, 3)), ("JP", "medium", (4, 3))]:
        by_code = puzzle.new_game(code, grid, seed="daily:2026-11-29")
        by_sigs = puzzle.new_game(signatures.piece_signatures(code, columns, rows), grid, seed="daily:2026-11-29")
        assert by_code.tiles_by_slot == by_sigs.tiles_by_slot and by_code.par == by_sigs.par


def test_france_is_solved_by_swapping_look_alike_columns():
    # France at 3x2: slots 0 and 3 are both blue, so a board that only swaps them is solved.
    sigs = signatures.piece_signatures("FR", 3, 2)
    assert puzzle.is_visually_solved([3, 1, 2, 0, 4, 5], sigs)
    assert not puzzle.is_visually_solved([1, 0, 2, 3, 4, 5], sigs)


def test_enumeration_size():
    assert enumeration_size([1, 1, 2, 2, 2, 3]) == (3, 2 * 6 * 1)
    ch = signatures.piece_signatures("CH", 5, 3, method="spec")
    k, candidates = enumeration_size(ch)
    assert k >= 4 and candidates > SPEC_CAP  # Switzerland: a big red field (the spec's hash)
    # The visual signature tells the tiles touching the cross from plain red ones.
    k, candidates = enumeration_size(signatures.piece_signatures("CH", 5, 3))
    assert k == 7 and candidates < SPEC_CAP
    k, candidates = enumeration_size(signatures.piece_signatures("GB-ENG", 5, 3))
    assert k >= 4 and candidates > SPEC_CAP  # England: a big white field
    assert harmonic(6) == pytest.approx(2.45, abs=0.001)


def test_stats_puzzle_command(capsys):
    assert main(["stats", "puzzle", "--seeds", "4", "--grid", "hard", "--flags", "GB-ENG,FR,NL"]) == 0
    captured = capsys.readouterr()
    # England's white field is past the cap with the default (visual) signature.
    assert "GB-ENG" in captured.out and "identity-count fallback" in captured.out
    assert "\r" not in captured.err and "3/3" in captured.err.splitlines()[-1]  # plain progress lines
    assert (
        main(
            [
                "stats",
                "puzzle",
                "--seeds",
                "4",
                "--grid",
                "hard",
                "--grid",
                "easy",
                "--flags",
                "CH,FR,NL",
                "--json",
                "--signature",
                "spec",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["command"] == "stats puzzle" and data["seeds"] == 4  # as `stats connections --json`
    hard = next(g for g in data["grids"] if g["grid"] == "hard")
    assert hard["flags"] == 3 and hard["capped_flags"] == 1
    ch = next(f for f in data["flags"] if f["code"] == "CH" and f["grid"] == "hard")
    # The identity fallback overstates the par of every random Swiss board.
    assert ch["capped"] and ch["overstated_boards"] == 4 and ch["mean_overstatement"] > 0
    nl = next(f for f in data["flags"] if f["code"] == "NL" and f["grid"] == "hard")
    assert nl["k"] == 3 and not nl["capped"] and nl["overstated_boards"] == 0
    assert hard["spec_expected_par"] == pytest.approx(11.68, abs=0.01)


@pytest.mark.parametrize("argv", [["--seeds", "0"], ["--flags", "ZZ"]])
def test_stats_puzzle_bad_arguments(argv, capsys):
    assert main(["stats", "puzzle", *argv]) == 2
    assert "error" in capsys.readouterr().err


def test_stats_puzzle_audit(capsys):
    assert (
        main(
            [
                "stats",
                "puzzle",
                "--seeds",
                "3",
                "--grid",
                "easy",
                "--grid",
                "hard",
                "--flags",
                "JP,FR,CH,GR",
                "--audit",
                "--json",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["signature"] == "visual"
    audit = {(f["code"], f["grid"]): f for f in data["audit"]["flags"]}
    # The case: the spec's hash merges Japan's pieces 0 and 3 at easy, visibly different.
    assert audit["JP", "easy"]["spec"]["merged_visible"] == [[0, 3]]
    assert audit["CH", "hard"]["spec"]["merged_visible"]
    # Greece's tile rows that look the same: the spec splits them, the visual signature does not.
    assert audit["GR", "hard"]["spec"]["split_same"] and not audit["GR", "hard"]["visual"]["split_same"]
    for grid in data["audit"]["grids"]:
        assert grid["visual"]["flags_merging_visible"] == grid["visual"]["flags_splitting_same"] == 0
    hard = next(g for g in data["audit"]["grids"] if g["grid"] == "hard")
    assert hard["spec"]["flags_merging_visible"] == 1 and hard["spec"]["flags_splitting_same"] == 1
    assert main(["stats", "puzzle", "--seeds", "2", "--grid", "easy", "--flags", "JP", "--audit"]) == 0
    out = capsys.readouterr().out
    assert "JP easy [(0, 3)]" in out and "visual merges that visibly differ: none" in out
