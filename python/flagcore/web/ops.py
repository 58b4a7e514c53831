"""Operations: health and readiness checks, Prometheus metrics, JSON logs with a request id, and a
shutdown that drains the store.

``Ops`` wraps the app (``create_app`` does it) and answers three paths itself, before any other:

- ``GET /healthz``: 200 while the process serves requests (liveness: it never asks the store);
- ``GET /readyz``: 200 if the store answers a ping within its timeout (none: always), else 503
  (readiness: take the server out of rotation while its store is down); also 503 after start-up
  until the daily's first plans, which the warm-up starts in the background, are computed;
- ``GET /metrics``: the Prometheus text format (``prometheus-client`` writes it): requests by
  route and status and their latency, the store's calls, errors and latency, games started,
  finished and won, boards dealt and their time.

Several workers: each worker counts in its own memory (a dict increment per request: the hot path
pays no lock, no file, no system call) and writes its figures to a file of its own in
``FLAGCORE_METRICS_DIR`` at most once a second and at shutdown; ``/metrics``, whichever worker
answers it, adds up every worker's file (its own figures live). This is per-worker aggregation,
not prometheus-client's multiprocess mode, whose memory-mapped values cost a lock and a file
write at every increment. A scrape may so lag the other workers by up to a second. ``flagcore
serve`` makes the folder for each run; without it (an app embedded in one process) the figures
are this process's.

Logs: ``configure_logging()`` (``flagcore serve`` calls it in each worker) sends flagcore's logs
to stderr as one JSON object a line, with the request id of the request being served: the
client's ``X-Request-Id`` when it sent a short plain one, else one made here when a line or an
error reply needs it. The id goes back in ``X-Request-Id`` when the client sent one and on every
error reply (4xx, 5xx); a success reply to a client that sent none carries none. A 5xx reply is
logged with its route and status (a store failure with the store's own words, which the reply
never shows), a crash with its traceback.

Shutdown (the ASGI lifespan's shutdown, which servers send on SIGTERM after the last request):
the store's pending batched calls are written, and the metrics file, before the process exits.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import gc
import itertools
import logging
import os
import queue
import sys
import threading
import time
from bisect import bisect_left
from collections.abc import Callable, Iterator
from pathlib import Path
from time import perf_counter
from typing import IO, Any

import orjson

from ..connections.daily import ahead
from ..errors import StoreUnavailable
from ..store import Store
from ..store import base as store_base
from .jsonapi import (
    REQUEST_ID_HEADER,
    JsonApi,
    Message,
    Receive,
    Reply,
    Scope,
    Send,
    current_request_id,
    request_id,
    send_reply,
)

METRICS_DIR_ENV = "FLAGCORE_METRICS_DIR"  # flagcore serve sets it: one folder per run, every worker's file in it
LOG_FORMAT_ENV = "FLAGCORE_LOG_FORMAT"  # "json" (flagcore serve's default) or "text"
FLUSH_SECONDS = 1.0  # a worker writes its figures at most this often
# latency buckets, seconds: 100 µs to 10 s (a board from the cache is ~100 µs; the store's timeout is seconds)
BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
MAX_REQUEST_ID = 64
# the collector's first threshold while serving (CPython's is 700): at 700, a young collection came
# every few turns of the loop and promoted the objects of the requests in flight (64 connections
# waiting for the store hold thousands), which then set off full collections over every board the
# worker keeps (about 25 ms each, a few a second); serving makes no cycles of its own (a probe with
# gc.DEBUG_SAVEALL over 39,000 stored guesses found none), so its objects die by reference count
# before this many are alive (docs/performance.md)
YOUNG_COLLECTION = 20_000
log = logging.getLogger("flagcore.web")
__all__ = ["Ops", "Metrics", "METRICS", "configure_logging", "current_request_id", "request_id"]

# name -> (type, help, label names): every metric this module exposes
FAMILIES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "http_requests": ("counter", "HTTP requests answered, by route and status", ("route", "status")),
    "http_request_duration_seconds": ("histogram", "time to answer a request, by route", ("route",)),
    "store_calls": ("counter", "store calls made on the event loop, by outcome (ok, unavailable)", ("outcome",)),
    "store_batch_duration_seconds": ("histogram", "time the store took for one turn's batch of calls", ()),
    "games_started": ("counter", "games started (a Connections first guess, a Puzzle deal)", ("game",)),
    "games_finished": ("counter", "games finished (a Connections game over, a Puzzle result verified)", ("game",)),
    "games_won": ("counter", "games won (Connections) or solved (Puzzle)", ("game",)),
    "boards_dealt": ("counter", "Connections boards dealt (not served from the cache), by mode", ("mode",)),
    "board_deal_duration_seconds": ("histogram", "time to deal a Connections board, by mode", ("mode",)),
    "log_lines_dropped": ("counter", "log lines dropped because stderr did not keep up (LogWriter)", ()),
}
# counter -> the histogram whose count it is, by the same labels: each event is observed once (a
# board dealt pays one dict update, not two) and the counter is read from the histogram (Metrics.figures)
COUNTED_BY = {"boards_dealt": "board_deal_duration_seconds"}
_COUNTERS_OF = {histogram: counter for counter, histogram in COUNTED_BY.items()}


class RouteFigures:
    """One route's requests: the count by status and the latency histogram's bins (as in
    Metrics.histograms). Made once per route label and kept (prometheus-client's bound label
    child, in a plain object): a request finds its route's with the one lookup of its path."""

    __slots__ = ("route", "statuses", "bins")

    def __init__(self, route: str) -> None:
        self.route = route
        self.statuses: dict[int, int] = {}
        self.bins = [0.0] * (len(BUCKETS) + 2)


class Metrics:
    """This process's figures, in plain dicts: ``count`` and ``observe`` cost a dict update each,
    ``answered`` (every request's status and time) a few.

    ``counts``: (name, *label values) -> total; ``histograms``: (name, *label values) -> the count
    of each bucket of BUCKETS then +Inf, then the sum of the values; the requests' figures are
    kept apart, one RouteFigures per route (``route``: the hot path builds no label tuple), and
    folded in by ``figures``."""

    def __init__(self, directory: str | os.PathLike[str] | None = None) -> None:
        self.directory = Path(directory) if directory else None
        self.counts: dict[tuple[str, ...], float] = {}
        self.histograms: dict[tuple[str, ...], list[float]] = {}
        self.routes: dict[str, RouteFigures] = {}  # route label -> its requests' figures
        self.due = 0.0  # perf_counter time from which the next request schedules a write of the file
        self._taken = self._written = 0  # the number of the last snapshot taken, and of the last written
        self._writing = threading.Lock()  # one write of the file at a time (the timer's thread, the shutdown)

    def count(self, name: str, *labels: str, amount: float = 1) -> None:
        """Add ``amount`` to the counter ``name`` with these label values."""
        key = (name, *labels)
        self.counts[key] = self.counts.get(key, 0) + amount

    def observe(self, name: str, seconds: float, *labels: str) -> None:
        """Record one duration of ``name`` (seconds) in its histogram with these label values."""
        key = (name, *labels)
        bins = self.histograms.get(key)
        if bins is None:
            bins = self.histograms[key] = [0.0] * (len(BUCKETS) + 2)
        bins[bisect_left(BUCKETS, seconds)] += 1  # le: a value on a bound counts in that bucket
        bins[-1] += seconds

    def route(self, route: str) -> RouteFigures:
        """The figures of requests to ``route`` (a label), made at its first use."""
        figures = self.routes.get(route)
        if figures is None:
            figures = self.routes[route] = RouteFigures(route)
        return figures

    def answered(self, figures: RouteFigures, status: int, seconds: float, now: float) -> None:
        """A request of ``figures``' route answered with ``status`` in ``seconds``; ``now`` is
        ``time.perf_counter()`` at its end. With a folder, the first request after a write
        schedules the next one, FLUSH_SECONDS later, on the running loop: a request pays a
        comparison, not a file."""
        statuses = figures.statuses
        statuses[status] = statuses.get(status, 0) + 1
        bins = figures.bins
        bins[bisect_left(BUCKETS, seconds)] += 1
        bins[-1] += seconds
        if now >= self.due and self.directory is not None:
            # a loop that ends before the write (a test's) leaves the next request to schedule it
            self.due = now + FLUSH_SECONDS
            asyncio.get_running_loop().call_later(FLUSH_SECONDS, self._flush_off_the_loop)

    def request(self, route: str, status: int, seconds: float, now: float) -> None:
        """``answered`` by route label."""
        self.answered(self.route(route), status, seconds, now)

    def figures(self) -> tuple[dict[tuple[str, ...], float], dict[tuple[str, ...], list[float]]]:
        """This process's counts and histograms, the requests' folded in under their families' names."""
        counts = dict(self.counts)
        histograms = {k: list(v) for k, v in self.histograms.items()}
        for key, bins in histograms.items():
            counter = _COUNTERS_OF.get(key[0])
            if counter is not None:
                counted = (counter, *key[1:])
                counts[counted] = counts.get(counted, 0) + sum(bins[:-1])
        for route, figures in list(self.routes.items()):
            for status, n in list(figures.statuses.items()):
                key = ("http_requests", route, str(status))
                counts[key] = counts.get(key, 0) + n
            if figures.statuses:
                have = histograms.setdefault(("http_request_duration_seconds", route), [0.0] * len(figures.bins))
                for i, b in enumerate(figures.bins):
                    have[i] += b
        return counts, histograms

    # ------------------------------------------------------------ several workers

    def _file(self) -> Path | None:
        return None if self.directory is None else self.directory / f"worker-{os.getpid()}.json"

    def flush(self) -> None:
        """Write this worker's figures to its file now (the shutdown does it; while serving, a
        timer does it within FLUSH_SECONDS of a request, off the loop: _flush_off_the_loop)."""
        if self.directory is not None:
            self._write(*self._snapshot())

    def _snapshot(self) -> tuple[int, bytes]:
        """(a number later than every earlier snapshot's, this worker's figures encoded)."""
        counts, histograms = self.figures()
        self._taken += 1
        return self._taken, orjson.dumps(
            {"c": [[*k, v] for k, v in counts.items()], "h": [[*k, v] for k, v in histograms.items()]}
        )

    def _flush_off_the_loop(self) -> None:
        """The timer's flush: the figures are read on the loop (the requests' own thread, so in one
        piece), the file is written by a thread of the loop's executor: its rename took 8 ms on a
        busy disk (py-spy, docs/performance.md), a stall of every request the worker held."""
        asyncio.get_running_loop().run_in_executor(None, self._write, *self._snapshot())

    def _write(self, taken: int, data: bytes) -> None:
        """Write snapshot number ``taken`` unless a later one is written already (the shutdown's
        flush may overtake a timer's write)."""
        path = self._file()
        assert path is not None
        with self._writing:
            if taken <= self._written:
                return
            temporary = path.with_suffix(".tmp")
            try:
                temporary.write_bytes(data)
                os.replace(temporary, path)  # a reader sees the old file or the new one, never half of one
                self._written = taken
            except OSError as exc:  # a full disk: the figures stay in memory, the next write tries again
                log.warning("metrics: cannot write %s: %s", path, exc)

    def merged(self) -> tuple[dict[tuple[str, ...], float], dict[tuple[str, ...], list[float]]]:
        """Every worker's figures added up: this one's live, the others' from their files."""
        counts, histograms = self.figures()
        mine = self._file()
        if self.directory is not None:
            for path in self.directory.glob("worker-*.json"):
                if path == mine:
                    continue
                try:
                    data = orjson.loads(path.read_bytes())
                except (OSError, orjson.JSONDecodeError):
                    continue  # a worker's file being replaced: its figures show at the next scrape
                for *key, value in data["c"]:
                    counts[tuple(key)] = counts.get(tuple(key), 0) + value
                for *key, bins in data["h"]:
                    have = histograms.setdefault(tuple(key), [0.0] * len(bins))
                    for i, b in enumerate(bins):
                        have[i] += b
        return counts, histograms

    def exposition(self) -> bytes:
        """The Prometheus text format of every worker's figures (written by prometheus-client)."""
        from prometheus_client import CollectorRegistry, generate_latest

        registry = CollectorRegistry(auto_describe=False)
        registry.register(_Collector(*self.merged()))
        return generate_latest(registry)


class _Collector:
    """prometheus-client's view of merged figures (a custom collector: collect() yields families)."""

    def __init__(self, counts: dict[tuple[str, ...], float], histograms: dict[tuple[str, ...], list[float]]) -> None:
        self.counts, self.histograms = counts, histograms

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily

        for name, (kind, doc, labels) in FAMILIES.items():
            full = f"flagcore_{name}"
            if kind == "counter":
                family: Any = CounterMetricFamily(full, doc, labels=labels)
                for key, value in sorted(self.counts.items()):
                    if key[0] == name:
                        family.add_metric(list(key[1:]), value)
            else:
                family = HistogramMetricFamily(full, doc, labels=labels)
                for key, bins in sorted(self.histograms.items()):
                    if key[0] == name:
                        cumulative = list(itertools.accumulate(bins[:-1]))
                        bounds = [*(repr(b) for b in BUCKETS), "+Inf"]
                        family.add_metric(list(key[1:]), list(zip(bounds, cumulative, strict=True)), bins[-1])
            yield family


METRICS = Metrics(os.environ.get(METRICS_DIR_ENV) or None)  # this process's; the handlers count into it


def _store_batch(seconds: float, ok: bool, calls: int) -> None:
    METRICS.count("store_calls", "ok" if ok else "unavailable", amount=calls)
    METRICS.observe("store_batch_duration_seconds", seconds)


store_base.batch_observers.append(_store_batch)


# ---------------------------------------------------------------- logs


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, the request id, and the traceback."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one JSON line (time, level, message, request id where there is one)."""
        entry: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        rid = current_request_id()
        if rid:
            entry["request_id"] = rid.decode("ascii")  # ASCII: checked (a client's) or made so (ours)
        for name in ("route", "status", "method"):
            if hasattr(record, name):
                entry[name] = getattr(record, name)
        if record.exc_info:
            entry["traceback"] = self.formatException(record.exc_info)
        return orjson.dumps(entry).decode()


LOG_QUEUE = 10_000  # log lines waiting for stderr; beyond it a line is dropped (and counted), never waited for


class LogWriter:
    """The one thread of a process that writes log lines to their streams.

    A handler formats a line in the thread that logs it (the request id is read there) and hands
    it over here without waiting: a stderr that does not keep up (a full pipe nobody reads, a
    stalled log shipper, a flood of failing requests) delays the lines, never the event loop. At
    most LOG_QUEUE lines wait; more are dropped and counted (``flagcore_log_lines_dropped_total``)."""

    def __init__(self, size: int = LOG_QUEUE) -> None:
        self._queue: queue.Queue[tuple[IO[str], str] | None] = queue.Queue(size)
        self._pid = 0  # the process whose thread runs (a forked child starts its own)
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()  # two threads logging the first line start one writer
        self.dropped = 0

    def put(self, stream: IO[str], line: str) -> None:
        """Queue ``line`` for ``stream``; dropped (and counted) when the queue is full."""
        if self._pid != os.getpid():
            with self._starting:
                if self._pid != os.getpid():
                    self._start()
        try:
            self._queue.put_nowait((stream, line))
        except queue.Full:
            self.dropped += 1
            METRICS.count("log_lines_dropped")

    def _start(self) -> None:
        self._pid = os.getpid()
        self._queue = queue.Queue(self._queue.maxsize)  # a parent's lines are the parent's to write
        self._thread = threading.Thread(target=self._write, name="flagcore-log", daemon=True)
        self._thread.start()
        atexit.unregister(self.close)
        atexit.register(self.close)  # the lines of a shutdown are written before the process exits

    def _write(self) -> None:
        while (item := self._queue.get()) is not None:
            stream, line = item
            try:
                stream.write(line)
                stream.flush()
            except (OSError, ValueError):  # a closed or broken stream: nowhere left to write
                pass

    def close(self, wait: float = 2.0) -> None:
        """Write the lines queued so far (waiting at most ``wait`` seconds for a slow stream) and
        stop (a later line starts the thread again)."""
        thread = self._thread
        if thread is None or self._pid != os.getpid():
            return
        self._thread, self._pid = None, 0
        with contextlib.suppress(queue.Full):
            self._queue.put(None, timeout=wait)
        thread.join(wait)


LOG_WRITER = LogWriter()


class QueuedHandler(logging.Handler):
    """``inner`` (a StreamHandler) with its writes made by LOG_WRITER: the line is formatted here,
    with ``inner``'s formatter, and written there."""

    def __init__(self, inner: logging.StreamHandler[Any], writer: LogWriter = LOG_WRITER) -> None:
        super().__init__(inner.level)
        self.inner, self.writer = inner, writer
        self.setFormatter(inner.formatter)
        self.filters = list(inner.filters)

    def emit(self, record: logging.LogRecord) -> None:
        """Format the record now (in the caller's context) and queue the line."""
        try:
            line = self.format(record) + self.inner.terminator
        except Exception:
            self.handleError(record)
            return
        self.writer.put(self.inner.stream, line)


# the HTTP servers' own loggers: uvicorn logs a line per malformed request, as many as an attacker sends
SERVER_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "granian", "granian.access", "_granian")


def configure_logging(fmt: str | None = None) -> None:
    """Send flagcore's logs (flagcore.web, flagcore.store) to stderr, as JSON lines unless ``fmt``
    (or FLAGCORE_LOG_FORMAT) is "text", and make every write to a stream of these and of the HTTP
    server's loggers go through LOG_WRITER's thread (never waited for on the event loop). Called
    once per process; a second call changes nothing."""
    logger = logging.getLogger("flagcore")
    if any(getattr(h, "_flagcore", False) for h in logger.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    fmt = fmt or os.environ.get(LOG_FORMAT_ENV, "json")
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter("%(levelname)s %(name)s %(message)s"))
    queued = QueuedHandler(handler)
    queued._flagcore = True  # type: ignore[attr-defined]
    logger.addHandler(queued)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    logging.Formatter.converter = time.gmtime  # the times are UTC (the "Z")
    for name in SERVER_LOGGERS:  # configured by the server before it loads the app
        server_logger = logging.getLogger(name)
        server_logger.handlers = [
            QueuedHandler(h) if type(h) is logging.StreamHandler else h for h in server_logger.handlers
        ]


# ---------------------------------------------------------------- the wrapper


_ID_CHARS = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:")
MAX_HEADER_BYTES = 16 * 1024  # every header name and value of a request, added up (browsers send ~1 kB)
MAX_HEADERS = 64  # header lines in a request
MAX_COOKIE_BYTES = 8 * 1024  # the Cookie headers, added up (flagcore's own cookie is ~70 bytes)


def _check_headers(headers: list[tuple[bytes, bytes]]) -> tuple[bytes, str | None]:
    """(the client's request id or b"", the refusal's code (_REFUSALS) or None): refuses what no
    client of the API sends: too many or too large headers, a large Cookie (parsing one costs),
    and Content-Length beside Transfer-Encoding (a request smuggling trick: two framings). Made
    of C-level passes (a dict, a sum of lengths) rather than a Python loop: every request pays it."""
    if len(headers) > MAX_HEADERS:
        return b"", "too_many_headers"
    named = dict(headers)  # the last value of each name: enough for the names looked up once
    rid = named.get(REQUEST_ID_HEADER)
    if rid is None:
        rid = b""
    elif not 0 < len(rid) <= MAX_REQUEST_ID or not _ID_CHARS.issuperset(rid):
        rid = b""  # the server's own is made when needed (current_request_id)
    if len(named) == len(headers):  # no name repeated (the rule): the dict holds every byte, summed without a chain
        size = sum(map(len, named)) + sum(map(len, named.values()))
    else:
        size = sum(map(len, itertools.chain.from_iterable(headers)))
    if size > MAX_COOKIE_BYTES:  # below it, the cookies cannot be over their bound: counted only here
        if size > MAX_HEADER_BYTES:
            return rid, "headers_too_large"
        if sum(len(value) for name, value in headers if name == b"cookie") > MAX_COOKIE_BYTES:
            return rid, "cookie_too_large"
    if b"transfer-encoding" in named and b"content-length" in named:
        return rid, "ambiguous_length"
    return rid, None


_NO_STORE = (b"cache-control", b"no-store")
_CLOSE = (b"connection", b"close")
_REFUSALS = {  # code -> the reply, which also closes the connection
    code: Reply(orjson.dumps({"error": {"code": code, "message": message}}), headers=(_NO_STORE, _CLOSE), status=status)
    for code, (status, message) in {
        "too_many_headers": (431, f"a request may have at most {MAX_HEADERS} headers"),
        "headers_too_large": (431, f"a request's headers may have at most {MAX_HEADER_BYTES} bytes"),
        "cookie_too_large": (431, f"a request's cookies may have at most {MAX_COOKIE_BYTES} bytes"),
        "ambiguous_length": (400, "give Content-Length or Transfer-Encoding, not both"),
    }.items()
}
_CUT_SHORT = Reply(
    orjson.dumps({"error": {"code": "bad_body", "message": "the request body was cut short or malformed"}}),
    headers=(_NO_STORE, _CLOSE),
    status=400,
)
_TEXT = b"text/plain; version=0.0.4; charset=utf-8"
_HEALTHY = Reply(b'{"status":"ok"}', headers=(_NO_STORE,))
_READY = Reply(b'{"status":"ready","store":true}', headers=(_NO_STORE,))
_READY_STATELESS = Reply(b'{"status":"ready"}', headers=(_NO_STORE,))
_UNREADY = Reply(b'{"status":"unavailable","store":false}', headers=(_NO_STORE,), status=503)
_PLANNING = Reply(b'{"status":"planning"}', headers=(_NO_STORE,), status=503)


class Ops:
    """The ASGI app ``inner`` (a JsonApi) with /healthz, /readyz and /metrics, a request id and
    metrics on every request, and the store drained at shutdown."""

    def __init__(
        self, inner: JsonApi, store: Store | None, metrics: Metrics = METRICS, warm: Callable[[], None] | None = None
    ) -> None:
        self.inner = inner
        self.store = store
        self.metrics = metrics
        self.warm = warm  # called at the lifespan's start-up, before the server takes a request
        self._planning: tuple[threading.Event, ...] = ()  # the first plans the warm-up started, until done
        self._thresholds: tuple[int, ...] = ()  # the collector's thresholds before start-up, until shutdown
        # each request's route label, an exact path, a pattern's shape, or "other" (a bounded set),
        # bound to its figures once: a request's path finds its figures and its handler in one lookup
        own = {"/healthz": self._healthz, "/readyz": self._readyz, "/metrics": self._metrics}
        self._paths = {path: (metrics.route(path), own.get(path)) for path in (*inner.endpoints, *own)}
        self._patterns = [(p, s, metrics.route(f"{p}{{}}{s}")) for p, s, _ in inner.patterns]
        self._other = metrics.route("other")
        self._refused = metrics.route("refused")

    def __getattr__(self, name: str) -> Any:
        """The inner app's attributes (``endpoints``, ``players``, ...), as create_app's caller knew them."""
        return getattr(self.__dict__["inner"], name)

    def _route(self, path: str) -> tuple[RouteFigures, Any]:
        """(figures, None) of a path that is no exact route: a pattern's, or "other"."""
        for prefix, suffix, figures in self._patterns:
            if path.startswith(prefix) and path.endswith(suffix):
                return figures, None
        return self._other, None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.inner(scope, self._lifespan(receive) if scope["type"] == "lifespan" else receive, send)
            return
        start = perf_counter()
        rid, refused = _check_headers(scope["headers"])
        request_id.set(rid)  # each request runs in a context of its own (the server's task)
        if refused is not None:
            refusal = await send_reply(send, _REFUSALS[refused], False, rid)
            end = perf_counter()
            self.metrics.answered(self._refused, refusal, end - start, end)
            return
        path = scope["path"]
        figures, own = self._paths.get(path) or self._route(path)
        status = 0
        try:
            if own is not None:
                status = await send_reply(send, await own(), False, rid)
            else:
                # the API sends its replies with the request id itself (JsonApi.handle): no wrapper of
                # send on its path (it costs a coroutine per message); the pages' (Starlette's) have one
                api = await self.inner.handle(scope, receive, send, rid)
                status = await self._page(scope, receive, send, rid) if api is None else api
                if not status:
                    # the app read a disconnect before the body's end: a client gone away, or a body
                    # the server could not parse (a malformed chunk): a 400, which a gone client never reads
                    status = 400
                    with contextlib.suppress(Exception):  # a connection already closed refuses it: nothing to say
                        await send_reply(send, _CUT_SHORT, False, rid)
        except Exception:
            status = status or 500
            log.exception("request failed", extra={"route": figures.route, "status": status, "method": scope["method"]})
            raise
        finally:
            end = perf_counter()
            status = status or 500
            self.metrics.answered(figures, status, end - start, end)
            if status >= 500 and status != 503:
                log.error("server error", extra={"route": figures.route, "status": status, "method": scope["method"]})

    async def _page(self, scope: Scope, receive: Receive, send: Send, rid: bytes) -> int:
        """A request the API does not serve, by the pages' app: its status, learnt from its send,
        which adds the request id as the API's replies have it."""
        status = 0

        async def sent(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                if rid or status >= 400:
                    message["headers"] = [*message.get("headers", ()), (REQUEST_ID_HEADER, current_request_id() or b"")]
            await send(message)

        await self.inner.fallback(scope, receive, sent)
        return status

    def _lifespan(self, receive: Receive) -> Receive:
        """``receive`` of the lifespan scope: at start-up, ``warm``; at shutdown, the store's batches
        and the metrics are written before the inner app hears of it."""

        async def received() -> Message:
            message = await receive()
            if message["type"] == "lifespan.startup":
                if self.warm is not None:
                    # the server answers no request until start-up is complete: no request pays this
                    self.warm()
                    self._planning = ahead.planning()
                # what start-up made (the library, its tables, the dailies) lives as long as the
                # worker: frozen out of the cyclic collector, so a full collection while serving walks
                # only what serving made (about 40 ms of CPU a collection with the start-up's objects
                # in it, a stall of every request the worker holds; docs/performance.md)
                gc.collect()
                gc.freeze()
                self._thresholds = gc.get_threshold()
                gc.set_threshold(max(YOUNG_COLLECTION, self._thresholds[0]), *self._thresholds[1:])
            if message["type"] == "lifespan.shutdown":
                gc.unfreeze()  # an app embedded in a longer process (a test's) leaves the collector as it was
                if self._thresholds:
                    gc.set_threshold(*self._thresholds)
                if self.store is not None:
                    await self.store.drain()
                self.metrics.flush()
            return message

        return received

    # ------------------------------------------------------------ the three paths

    async def _healthz(self) -> Reply:
        return _HEALTHY

    async def _readyz(self) -> Reply:
        if self._planning:
            if not all(done.is_set() for done in self._planning):
                return _PLANNING
            self._planning = ()
        if self.store is None:
            return _READY_STATELESS
        try:
            await self.store.aping()
        except StoreUnavailable:
            return _UNREADY
        return _READY

    async def _metrics(self) -> Reply:
        return Reply(self.metrics.exposition(), _TEXT, (_NO_STORE,))
