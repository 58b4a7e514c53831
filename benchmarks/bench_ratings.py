"""The cost of ratings (docs/ratings.md, "Cost"): fitting, and generate with ratings vs without.

    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_ratings.py fit [--records 1000000]
    python benchmarks/bench_ratings.py generate
    python benchmarks/bench_ratings.py finish [--games 300]

fit: synthetic records (a hidden difficulty per category, Plackett-Luce draws) fitted on one
core: the median of 3 runs of ``fit_arrays`` over N records, and ``fit`` (PlayRecord objects to
arrays, the board and colour tables included) over N/10 records scaled to per-record cost.
generate: the median over 15 rounds of the mean ``generate(seed)`` call, with and without ratings
(a ratings file fitted from synthetic records: as a fit writes it, steering 2, and the same ratings
steering 1, as a file from before the key), in microseconds of CPU time; each round runs them all on
the same 1,000 fresh seeds, one after the other (the order alternating), so all see the same load.
``pytest benchmarks/bench_ratings.py --benchmark-enable --benchmark-only`` runs the same
side by side (trivia) under pytest-benchmark, the figures in its extra_info.
finish: the guess that ends a game (POST /api/connections/guess in process, a SQLite store),
median over games, with the play record and the day's aggregate and without (the same app with
its recorder switched off), games alternating between the two.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "ratings"))
from synth import games, hidden  # noqa: E402

from flagcore import connections  # noqa: E402
from flagcore.ratings import Ratings, fit  # noqa: E402
from flagcore.ratings.fit import fit_arrays  # noqa: E402


def bench_fit(n: int) -> None:
    rng = np.random.default_rng(0)
    k = 228
    truth = rng.normal(0, 1, k)
    cats = (
        np.argsort(rng.random((n, k)), axis=1)[:, :4]
        if n <= 50_000
        else np.stack([rng.choice(k, 4, replace=False) for _ in range(n)])
    )
    order = np.argsort(truth[cats] - rng.gumbel(size=(n, 4)), axis=1)
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(1, 5)[None, :].repeat(n, 0), axis=1)
    ranks[rng.random(n) < 0.15, :] *= 0  # some games lost with nothing found
    times = []
    for _ in range(3):
        t = time.perf_counter()
        fit_arrays(cats, ranks, k)
        times.append(time.perf_counter() - t)
    print(f"fit_arrays: {n} records, {k} categories: median {statistics.median(times):.2f} s")
    m = max(n // 10, 1000)
    recs = games("trivia", m, hidden("trivia"))
    t = time.perf_counter()
    fit(recs, "trivia")
    dt = time.perf_counter() - t
    print(f"fit: {m} PlayRecords: {dt:.2f} s, {dt / m * 1e6:.1f} us a record")


def side_by_side(fns: list, calls: int = 1000, rounds: int = 15) -> list[float]:
    """The median over rounds of each function's mean call on a round's seeds, in microseconds of
    this process's CPU time (a shared machine's other work does not count; the calls are single
    threaded): every round runs each function in turn on the same fresh seeds (interleaved, so
    all see the same caches and load), the order alternating from round to round."""
    for fn in fns:
        fn(0)
    times: list[list[float]] = [[] for _ in fns]
    for r in range(rounds):
        seeds = range(1 + r * calls, 1 + (r + 1) * calls)
        order = list(range(len(fns))) if r % 2 == 0 else list(reversed(range(len(fns))))
        for i in order:
            fn = fns[i]
            t = time.process_time()
            for s in seeds:
                fn(s)
            times[i].append((time.process_time() - t) / calls * 1e6)
    return [statistics.median(t) for t in times]


def generate_pair(mode: str) -> list:
    """generate(seed, mode) without and with ratings (fitted from synthetic records: steering 2)."""
    ratings = fit(games(mode, 20_000, hidden(mode)), mode)
    return [lambda s: connections.generate(s, mode), lambda s: connections.generate(s, mode, ratings=ratings)]


def bench_generate() -> None:
    for mode in ("flags", "trivia"):
        fns = generate_pair(mode)
        two = fit(games(mode, 20_000, hidden(mode)), mode)
        one = Ratings(prior_sd=two.prior_sd, categories=two.categories, model=two.model, steering=1)
        plain, rated, old = side_by_side([*fns, lambda s: connections.generate(s, mode, ratings=one)])
        print(
            f"generate {mode}: {plain:.1f} us without ratings, {rated:.1f} us with ({rated / plain:.2f}x), "
            f"{old:.1f} us with the same ratings steering 1 ({old / plain:.2f}x)"
        )


def test_generate_with_ratings_side_by_side(benchmark, mode="trivia"):
    """generate with and without ratings interleaved (extra_info: both medians and the ratio;
    the test run, benchmarks disabled, makes one small round)."""
    fns = generate_pair(mode)
    got: list[list[float]] = []
    benchmark.pedantic(lambda: got.append(side_by_side(fns, calls=100, rounds=3)), rounds=5, warmup_rounds=0)
    plain = statistics.median(g[0] for g in got)
    rated = statistics.median(g[1] for g in got)
    benchmark.extra_info.update(us_without=round(plain, 1), us_with=round(rated, 1), ratio=round(rated / plain, 3))


def bench_finish(games: int) -> None:
    import tempfile  # noqa: PLC0415

    from starlette.testclient import TestClient  # noqa: PLC0415

    from flagcore.web import create_app  # noqa: PLC0415
    from flagcore.web.boards import KeyedBoards  # noqa: PLC0415
    from flagcore.web.tokens import Signer  # noqa: PLC0415

    secret = "Xq3v9ZtKe_Lw0pRj7HcUy2mNfA8sDgB4"
    keyed = KeyedBoards(Signer(secret.encode()))
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(secret, store=f"sqlite:///{tmp}/games.db")
        conn_api = _connections_api(app)
        recorder = conn_api.plays
        client = TestClient(app)
        times: dict[bool, list[float]] = {True: [], False: []}
        for g in range(games):
            board = client.get("/api/connections/board", params={"seed": str(5000 + g)}).json()
            groups = [list(x.codes) for x in keyed.board(*keyed.parse_id(board["board_id"])).groups]
            token = board["token"]
            for codes in groups[:3]:
                token = client.post("/api/connections/guess", json={"token": token, "codes": codes}).json()["token"]
            recording = g % 2 == 0
            conn_api.plays = recorder if recording else None
            t = time.perf_counter()
            end = client.post("/api/connections/guess", json={"token": token, "codes": groups[3]}).json()
            times[recording].append(time.perf_counter() - t)
            assert end["over"] and (("today" in end) == recording)
    with_, without = statistics.median(times[True]) * 1e6, statistics.median(times[False]) * 1e6
    print(f"finishing guess: {without:.0f} us without the play record, {with_:.0f} us with ({with_ / without:.2f}x)")


def _connections_api(app: object) -> object:
    """The app's Connections API object (the recorder lives on it), found through its endpoints."""
    for endpoint in getattr(app, "endpoints", {}).values():
        owner = getattr(endpoint.handler, "__self__", None)  # a bound method of the API objects
        if owner is not None and hasattr(owner, "plays"):
            return owner
    raise RuntimeError("no Connections API in the app")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("fit", "generate", "finish"))
    ap.add_argument("--records", type=int, default=1_000_000)
    ap.add_argument("--games", type=int, default=300)
    a = ap.parse_args()
    if a.what == "fit":
        bench_fit(a.records)
    elif a.what == "finish":
        bench_finish(a.games)
    else:
        bench_generate()


if __name__ == "__main__":
    main()
