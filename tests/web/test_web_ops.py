"""Operations (flagcore.web.ops): /healthz, /readyz, /metrics in the Prometheus format (read back
by prometheus-client's own parser), a request id on every reply and in the JSON logs, the figures
of several workers added up, and the store drained at shutdown."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import signal
import threading
from concurrent.futures import ThreadPoolExecutor

from prometheus_client.parser import text_string_to_metric_families
from redis_server import RedisServer
from web_helpers import SECRET

from flagcore.store import RedisStore, SQLiteStore
from flagcore.web import ops
from flagcore.web.app import create_app


def run_loop(coroutine):
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


async def request(app, path: str, query: bytes = b"", headers=(), method: str = "GET"):
    """One HTTP request through the ASGI app: (status, headers, body)."""
    sent = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "query_string": query,
        "headers": [(b"host", b"127.0.0.1"), *headers],
        "root_path": "",
    }
    await app(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], dict(start["headers"]), body


def families(text: str) -> dict:
    return {f.name: f for f in text_string_to_metric_families(text)}


def counter(fams: dict, name: str, **labels) -> float:
    """A counter's value over the samples with ``labels``."""
    return sum(
        s.value
        for s in fams[name].samples
        if s.name == name + "_total" and all(s.labels.get(k) == v for k, v in labels.items())
    )


def fresh_app(tmp_path, store=None):
    """An app of its own metrics (a folder for its worker file); the process's figures stay apart."""
    (tmp_path / "metrics").mkdir(exist_ok=True)
    metrics = ops.Metrics(tmp_path / "metrics")
    return ops.Ops(create_app(SECRET, store=store).inner, store, metrics), metrics


def test_health_readiness_and_metrics_of_a_server_with_a_store(tmp_path):
    store = SQLiteStore(tmp_path / "games.db")
    app = create_app(SECRET, store=store)  # the process's own figures (the handlers count into them)

    async def scenario():
        out = {"before": await request(app, "/metrics")}
        out["health"] = await request(app, "/healthz")
        out["ready"] = await request(app, "/readyz")
        for _ in range(3):
            await request(app, "/api/flags")
        await request(app, "/api/connections/board", b"seed=4")
        await request(app, "/flags/JP.svg")
        await request(app, "/flags/nope.svg")
        await request(app, "/no/such/path")
        out["metrics"] = await request(app, "/metrics")
        return out

    out = run_loop(scenario())
    assert out["health"][:1] == (200,) and json.loads(out["health"][2]) == {"status": "ok"}
    assert out["ready"][0] == 200 and json.loads(out["ready"][2])["status"] == "ready"
    status, headers, body = out["metrics"]
    assert status == 200 and headers[b"content-type"].startswith(b"text/plain")
    before, after = families(out["before"][2].decode()), families(body.decode())

    def grew(name, **labels):
        return counter(after, name, **labels) - counter(before, name, **labels)

    assert grew("flagcore_http_requests", route="/api/flags", status="200") == 3
    assert grew("flagcore_http_requests", route="/api/connections/board", status="200") == 1
    assert grew("flagcore_http_requests", route="/flags/{}.svg", status="200") == 1
    assert grew("flagcore_http_requests", route="/flags/{}.svg", status="404") == 1
    assert grew("flagcore_http_requests", route="other", status="404") == 1  # no label per unknown path
    assert grew("flagcore_http_requests", route="/metrics", status="200") == 1  # the first scrape
    latency = {
        s.labels["le"]: s.value
        for s in after["flagcore_http_request_duration_seconds"].samples
        if s.name.endswith("_bucket") and s.labels["route"] == "/healthz"
    }
    assert latency["+Inf"] >= 1 and list(latency.values()) == sorted(latency.values())  # cumulative
    assert grew("flagcore_boards_dealt", mode="flags") == 1
    assert grew("flagcore_store_calls", outcome="ok") >= 1  # the readiness ping (a cookieless board asks nothing)
    store.close()


def test_readiness_fails_fast_while_redis_hangs_and_health_does_not_ask_it(tmp_path):
    server = RedisServer()
    server.start()
    store = RedisStore(server.url, timeout=0.5)
    app, _ = fresh_app(tmp_path, store)

    async def scenario():
        before = await request(app, "/readyz")
        os.kill(server.process.pid, signal.SIGSTOP)
        try:
            hung = await asyncio.gather(request(app, "/readyz"), request(app, "/healthz"))
        finally:
            os.kill(server.process.pid, signal.SIGCONT)
        after = await request(app, "/readyz")
        return before, hung, after

    try:
        before, (ready, health), after = run_loop(scenario())
    finally:
        server.stop()
    assert before[0] == 200 and after[0] == 200
    assert ready[0] == 503 and json.loads(ready[2])["status"] == "unavailable"
    assert b"127.0.0.1" not in ready[2]
    assert health[0] == 200


def test_every_reply_carries_a_request_id_and_the_json_log_names_it(tmp_path):
    store = SQLiteStore(tmp_path / "games.db")
    app, _ = fresh_app(tmp_path, store)
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(ops.JsonFormatter())
    logger = logging.getLogger("flagcore")
    logger.addHandler(handler)
    old_level = logger.level
    logger.setLevel(logging.INFO)

    async def scenario():
        mine = await request(app, "/api/flags", headers=[(b"x-request-id", b"abc-123")])
        junk = await request(app, "/api/flags", headers=[(b"x-request-id", b"<script>" * 20)])
        missing = await request(app, "/api/nothing-here")
        path = store.path
        path.unlink()  # the store's file deleted under the server: a 503, and a log line with the id
        gone = await request(app, "/api/stats", headers=[(b"x-request-id", b"gone-1")])
        return mine, junk, missing, gone

    try:
        mine, junk, missing, gone = run_loop(scenario())
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)
        store.close()
    assert mine[1][b"x-request-id"] == b"abc-123"
    assert b"x-request-id" not in junk[1]  # a junk id is not echoed, and a success needs none of the server's
    assert len(missing[1][b"x-request-id"]) <= ops.MAX_REQUEST_ID  # an error reply always carries one
    assert gone[0] == 503
    body = json.loads(gone[2])
    assert str(tmp_path) not in gone[2].decode() and "games.db" not in gone[2].decode()  # no path in the reply
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    logged = [e for e in lines if e.get("request_id") == "gone-1"]
    assert logged and any("deleted or replaced" in e["message"] for e in logged)
    assert all(e["level"] == "error" for e in logged)
    assert body["error"]["code"] == "store_unavailable"


def test_the_figures_of_several_workers_add_up(tmp_path):
    directory = tmp_path / "metrics"
    directory.mkdir()
    other = ops.Metrics(directory)
    other.count("http_requests", "/api/flags", "200", amount=5)
    other.observe("http_request_duration_seconds", 0.002, "/api/flags")
    data = {"c": [[*k, v] for k, v in other.counts.items()], "h": [[*k, v] for k, v in other.histograms.items()]}
    (directory / "worker-999999.json").write_text(json.dumps(data))  # a second worker's file
    mine = ops.Metrics(directory)
    mine.count("http_requests", "/api/flags", "200", amount=2)
    mine.observe("http_request_duration_seconds", 0.5, "/api/flags")
    fams = families(mine.exposition().decode())
    assert counter(fams, "flagcore_http_requests", route="/api/flags", status="200") == 7
    buckets = {
        s.labels["le"]: s.value
        for s in fams["flagcore_http_request_duration_seconds"].samples
        if s.name.endswith("_bucket")
    }
    assert buckets["0.0025"] == 1 and buckets["0.5"] == 2 and buckets["+Inf"] == 2


def test_a_log_stream_that_does_not_keep_up_never_blocks_the_logger_and_the_lines_dropped_are_counted():
    read_fd, write_fd = os.pipe()  # a pipe whose reader is asleep: full after 64 KiB
    stream = os.fdopen(write_fd, "w")
    writer = ops.LogWriter(size=4)
    line = "x" * 999 + "\n"
    before = ops.METRICS.counts.get(("log_lines_dropped",), 0)
    for _ in range(200):  # 200 kB: every put returns at once, the lines beyond the queue dropped
        writer.put(stream, line)
    assert writer.dropped > 0
    assert ops.METRICS.counts[("log_lines_dropped",)] - before == writer.dropped
    got = []
    reader = threading.Thread(target=lambda: got.append(b"".join(iter(lambda: os.read(read_fd, 65536), b""))))
    reader.start()  # the reader wakes: every line not dropped arrives, whole and in order
    writer.close(wait=30)
    stream.close()
    reader.join()
    os.close(read_fd)
    assert got[0] == line.encode() * (200 - writer.dropped)


def test_configure_logging_queues_flagcore_and_the_http_server_loggers():
    server_logger = logging.getLogger("uvicorn.error")
    kept, server_logger.handlers = server_logger.handlers, [logging.StreamHandler(io.StringIO())]
    flagcore_logger = logging.getLogger("flagcore")
    state = (list(flagcore_logger.handlers), flagcore_logger.level, flagcore_logger.propagate)
    # an app built earlier in this process (app.py calls configure_logging) leaves the logger
    # configured, and a second call changes nothing by design: start from an unconfigured one
    flagcore_logger.handlers = []
    try:
        ops.configure_logging("json")
        assert [type(h) for h in server_logger.handlers] == [ops.QueuedHandler]
        assert any(isinstance(h, ops.QueuedHandler) for h in flagcore_logger.handlers)
        stream = server_logger.handlers[0].inner.stream  # type: ignore[attr-defined]
        server_logger.warning("Invalid HTTP request received.")
        ops.LOG_WRITER.close()  # written by the writer's thread, not by the caller
        assert stream.getvalue() == "Invalid HTTP request received.\n"
    finally:
        server_logger.handlers = kept
        flagcore_logger.handlers, flagcore_logger.level, flagcore_logger.propagate = state


def test_the_timer_writes_a_worker_file_off_the_event_loop(tmp_path, monkeypatch):
    """While serving, the figures are read on the loop and the file written by another thread (a
    rename on a busy disk would stall every request the worker holds)."""
    metrics = ops.Metrics(tmp_path)
    writers = []
    write = metrics._write

    def recorded(*args):
        writers.append(threading.current_thread())
        write(*args)

    monkeypatch.setattr(metrics, "_write", recorded)
    monkeypatch.setattr(ops, "FLUSH_SECONDS", 0.01)

    async def serve():
        metrics.request("/api/flags", 200, 0.001, 0.0)  # schedules the timer's write
        path = tmp_path / f"worker-{os.getpid()}.json"
        for _ in range(1000):
            if path.exists():
                return threading.current_thread(), json.loads(path.read_text())
            await asyncio.sleep(0.01)
        raise AssertionError("no file written")

    loop_thread, data = run_loop(serve())
    assert writers and all(w is not loop_thread for w in writers)
    assert ["http_requests", "/api/flags", "200", 1] in data["c"]


def test_an_earlier_snapshot_never_overwrites_a_later_one(tmp_path):
    """The shutdown's flush may overtake a timer's write still in its thread: the later figures stay."""
    metrics = ops.Metrics(tmp_path)
    metrics.count("games_started", "connections")
    earlier = metrics._snapshot()
    metrics.count("games_started", "connections")
    metrics.flush()  # the later figures, written first
    metrics._write(*earlier)  # the timer's write arriving late
    data = json.loads((tmp_path / f"worker-{os.getpid()}.json").read_text())
    assert ["games_started", "connections", 2] in data["c"]
