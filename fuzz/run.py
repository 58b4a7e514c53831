"""Fuzz every compiled entry point of the installed flagcore (see fuzz/targets.py, docs/hardening.md).

    python fuzz/run.py --inputs 1000000                 # seeded random bytes, all targets
    python fuzz/run.py --inputs 200000 --engine atheris # coverage-guided (libFuzzer via atheris)
    python fuzz/run.py --inputs 5000 --targets hash,tiles --seed 3

The inputs are split evenly over the targets; each target runs in its own child process so a
crash in compiled code (a signal) is reported instead of ending the run. With the random engine
input i of a target is random.Random(seed * 2**32 + i) bytes, so any finding replays exactly:
`python fuzz/run.py --replay TARGET SEED INDEX`. A Python-level failure (FuzzFailure, or an
exception other than TypeError/ValueError) is recorded and the run goes on; the input is
written to fuzz/crashes/. Exit status 0 means no crash and no failure.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
CRASH_DIR = HERE / "crashes"
CHECKPOINT = 1000
MAX_LEN = 4096


def _input(seed: int, index: int) -> bytes:
    rnd = random.Random(seed * 2**32 + index)
    return rnd.randbytes(rnd.choice((8, 32, 128, 512, 2048, MAX_LEN)) if rnd.random() < 0.9 else rnd.randrange(MAX_LEN))


def _save(target: str, data: bytes, tag: str) -> Path:
    CRASH_DIR.mkdir(exist_ok=True)
    path = CRASH_DIR / f"{target}-{tag}"
    path.write_bytes(data)
    return path


def _child_random(target: str, seed: int, start: int, count: int, trace: bool) -> None:
    sys.path.insert(0, str(HERE))
    from targets import TARGETS, Data

    fn = TARGETS[target]
    failures = []
    for i in range(start, start + count):
        if trace:
            print(i, file=sys.stderr, flush=True)
        data = _input(seed, i)
        try:
            fn(Data(data))
        except Exception as exc:  # noqa: BLE001 - every unexpected exception is a finding
            path = _save(target, data, f"{seed}-{i}")
            failures.append(
                {
                    "index": i,
                    "error": f"{type(exc).__name__}: {exc}"[:300],
                    "input": str(path),
                    "traceback": traceback.format_exc()[-1500:],
                }
            )
        if (i - start + 1) % CHECKPOINT == 0:
            print(json.dumps({"checkpoint": i + 1}), flush=True)
    print(json.dumps({"done": count, "failures": failures}), flush=True)


def _child_atheris(target: str, seed: int, count: int) -> None:
    import atheris

    sys.path.insert(0, str(HERE))
    with atheris.instrument_imports(include=["flagcore", "targets"]):
        from targets import TARGETS, Data
    fn = TARGETS[target]

    def one(data: bytes) -> None:
        fn(Data(data))

    CRASH_DIR.mkdir(exist_ok=True)
    atheris.Setup(
        [
            sys.argv[0],
            f"-runs={count}",
            f"-seed={seed + 1}",
            f"-max_len={MAX_LEN}",
            f"-artifact_prefix={CRASH_DIR}/{target}-atheris-",
            "-print_final_stats=1",
        ],
        one,
    )
    atheris.Fuzz()


def _run_target(args: argparse.Namespace, target: str, count: int) -> dict:
    base = [sys.executable, __file__, "--child", target, "--seed", str(args.seed), "--engine", args.engine]
    start = time.perf_counter()
    if args.engine == "atheris":
        proc = subprocess.run(base + ["--count", str(count)], capture_output=True, text=True)
        tail = proc.stderr[-2500:]
        ok = proc.returncode == 0
        return {
            "target": target,
            "inputs": count,
            "seconds": round(time.perf_counter() - start, 1),
            "crashes": [] if ok else [{"returncode": proc.returncode, "log": tail}],
            "stats": [line for line in proc.stderr.splitlines() if line.startswith("stat::")],
        }
    proc = subprocess.run(base + ["--start", "0", "--count", str(count)], capture_output=True, text=True)
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    result = {"target": target, "inputs": count, "seconds": round(time.perf_counter() - start, 1), "crashes": []}
    if proc.returncode == 0 and lines and "done" in lines[-1]:
        result["crashes"] = lines[-1]["failures"]
        return result
    # The child died (a signal from compiled code): find the input in the last checkpoint window.
    done = max([line["checkpoint"] for line in lines if "checkpoint" in line], default=0)
    window = subprocess.run(
        base + ["--start", str(done), "--count", str(CHECKPOINT), "--trace"], capture_output=True, text=True
    )
    indices = [int(x) for x in window.stderr.split() if x.isdigit()]
    index = indices[-1] if indices else done
    path = _save(target, _input(args.seed, index), f"{args.seed}-{index}")
    result["crashes"].append(
        {"index": index, "returncode": proc.returncode, "input": str(path), "log": proc.stderr[-1500:]}
    )
    result["inputs"] = index + 1
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inputs", type=int, default=100_000, help="total inputs, split over the targets")
    parser.add_argument("--targets", default="", help="comma-separated subset (default: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--engine", choices=("random", "atheris"), default="random")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--trace", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--replay",
        nargs=3,
        metavar=("TARGET", "SEED", "INDEX"),
        help="run one random-engine input in this process, raising what it raises",
    )
    args = parser.parse_args()
    if args.replay:
        sys.path.insert(0, str(HERE))
        from targets import TARGETS, Data

        target, seed, index = args.replay
        TARGETS[target](Data(_input(int(seed), int(index))))
        print("no failure")
        return 0
    if args.child:
        if args.engine == "atheris":
            _child_atheris(args.child, args.seed, args.count)
        else:
            _child_random(args.child, args.seed, args.start, args.count, args.trace)
        return 0
    sys.path.insert(0, str(HERE))
    from targets import TARGETS

    names = [t for t in args.targets.split(",") if t] or list(TARGETS)
    unknown = set(names) - set(TARGETS)
    if unknown:
        parser.error(f"unknown targets {sorted(unknown)}; known: {list(TARGETS)}")
    per = [args.inputs // len(names) + (1 if i < args.inputs % len(names) else 0) for i in range(len(names))]
    results = []
    for name, count in zip(names, per):
        result = _run_target(args, name, count)
        results.append(result)
        print(
            f"{name:14s} {result['inputs']:>9,d} inputs {result['seconds']:>8.1f} s  "
            f"crashes/failures: {len(result['crashes'])}",
            flush=True,
        )
        for crash in result["crashes"][:5]:
            print("   ", json.dumps(crash)[:2000], flush=True)
    total = sum(r["inputs"] for r in results)
    bad = sum(len(r["crashes"]) for r in results)
    print(
        f"total {total:,d} inputs, {bad} crashes/failures "
        f"(engine {args.engine}, seed {args.seed}, flagcore from {os.environ.get('VIRTUAL_ENV', sys.prefix)})"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
