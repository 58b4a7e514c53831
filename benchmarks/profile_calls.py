"""Where the public calls spend their time: a loop for py-spy to sample, and the table of its samples.

    pip install py-spy
    py-spy record -r 250 -f raw -o generate.txt -- python benchmarks/profile_calls.py generate 8
    py-spy record -r 250 -f raw -o puzzle.txt -- python benchmarks/profile_calls.py puzzle 8
    python benchmarks/profile_calls.py --table generate.txt

``generate`` calls ``connections.generate(seed)`` and ``generate(seed, difficulty=None)`` in turn,
``puzzle`` calls ``puzzle.new_game("FR", "hard", seed)`` and ``puzzle.verify`` of a 13-swap log, for
the given seconds after one warm-up call of each (the library's tables are built then, outside the
sampled loop). ``--table`` reads py-spy's raw output (one line per stack and its sample count) and
prints, for the samples inside the loop, the share of each innermost Python line: a compiled
call's time shows on the line that calls it (its own frames carry no symbols).
"""

from __future__ import annotations

import argparse
import collections
import re
import time

FR_START = [4, 7, 12, 13, 11, 6, 14, 8, 9, 10, 5, 1, 2, 0, 3]  # new_game("FR", "hard", 0)
FR_LOG = [(0, 13), (1, 11), (2, 12), (3, 14), (4, 13), (5, 10), (6, 10), (7, 11), (8, 11), (9, 11)]
FR_LOG += [(10, 11), (11, 13), (13, 14)]
LOOP = "in_loop"  # the function whose frames are the sampled loop


def in_loop(what: str, seconds: float) -> int:
    """Calls made in ``seconds`` of the loop ``what`` names."""
    from flagcore import connections, puzzle

    signatures = puzzle.new_game("FR", "hard", 0).signatures
    calls, end = 0, time.perf_counter() + seconds
    while time.perf_counter() < end:
        for seed in range(calls, calls + 200):
            if what == "generate":
                connections.generate(seed)
                connections.generate(seed, difficulty=None)
            else:
                puzzle.new_game("FR", "hard", seed)
                puzzle.verify(FR_START, FR_LOG, signatures)
        calls += 200
    return calls


def table(path: str, rows: int) -> str:
    """The markdown table of the innermost lines of the loop's samples in py-spy's raw file."""
    shares: collections.Counter[str] = collections.Counter()
    for line in open(path, encoding="utf-8"):
        stack, count = line.rsplit(" ", 1)
        if f"{LOOP} (" in stack:
            frame = stack.split(";")[-1]
            shares[re.sub(r"\(\S*?/(flagcore/|benchmarks/)", r"(\1", frame)] += int(count)
    total = sum(shares.values())
    out = [f"{total} samples in the loop", "", "| share | innermost line |", "|---|---|"]
    out += [f"| {100 * n / total:.1f}% | `{frame}` |" for frame, n in shares.most_common(rows)]
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", nargs="?", choices=("generate", "puzzle"), default="generate")
    parser.add_argument("seconds", nargs="?", type=float, default=8.0)
    parser.add_argument("--table", metavar="RAW", help="print the table of a py-spy raw file instead")
    parser.add_argument("--rows", type=int, default=12)
    args = parser.parse_args()
    if args.table:
        print(table(args.table, args.rows))
        return
    from flagcore import connections, puzzle

    # warm-up outside the loop: the library's tables, the plans, the flag's signatures
    connections.generate(0), connections.generate(0, difficulty=None), puzzle.new_game("FR", "hard", 0)
    print(f"{args.what}: {in_loop(args.what, args.seconds)} calls of each in {args.seconds:g} s")


if __name__ == "__main__":
    main()
