"""flagcore.web.one_write: a reply's head and body reach the socket in one write, and nothing is
lost or reordered (a transport that records its writes, and a real uvicorn server)."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import uvicorn

from flagcore.web.one_write import OneWriteHttpToolsProtocol, OneWritePerTurn


def run_loop(coroutine: Any) -> Any:
    """asyncio.run in a thread of its own (a test process may already run a loop in this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


class Recorded:
    """A transport that records what it is asked."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, bytes]] = []
        self.closing = False

    def write(self, data: bytes) -> None:
        self.calls.append(("write", data))

    def close(self) -> None:
        self.calls.append(("close", b""))
        self.closing = True

    def is_closing(self) -> bool:
        return self.closing

    def get_extra_info(self, name: str) -> Any:
        return f"extra {name}"


def test_the_writes_of_one_turn_leave_in_one_write_at_the_next_turn() -> None:
    async def run() -> list[tuple[str, bytes]]:
        inner = Recorded()
        transport = OneWritePerTurn(inner, asyncio.get_running_loop())  # type: ignore[arg-type]
        transport.write(b"HTTP/1.1 200 OK\r\n\r\n")
        transport.write(b'{"ok":true}')
        assert inner.calls == []  # held for this turn
        await asyncio.sleep(0)
        transport.write(b"second reply")
        await asyncio.sleep(0)
        assert transport.get_extra_info("peername") == "extra peername"  # the rest goes through
        return inner.calls

    assert run_loop(run()) == [("write", b'HTTP/1.1 200 OK\r\n\r\n{"ok":true}'), ("write", b"second reply")]


def test_close_writes_what_is_held_first_and_a_closing_transport_gets_nothing() -> None:
    async def run() -> tuple[list[tuple[str, bytes]], list[tuple[str, bytes]]]:
        loop = asyncio.get_running_loop()
        inner = Recorded()
        transport = OneWritePerTurn(inner, loop)  # type: ignore[arg-type]
        transport.write(b"head")
        transport.write(b"body")
        transport.close()
        await asyncio.sleep(0)  # the turn's scheduled write finds nothing left
        gone = Recorded()
        late = OneWritePerTurn(gone, loop)  # type: ignore[arg-type]
        late.write(b"to a client gone away")
        gone.closing = True
        await asyncio.sleep(0)
        return inner.calls, gone.calls

    closed, gone = run_loop(run())
    assert closed == [("write", b"headbody"), ("close", b"")]
    assert gone == []


async def _app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    body = b"x" * (int(scope["path"].strip("/") or "0"))
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"%d" % len(body))]})
    await send({"type": "http.response.body", "body": body})


def test_a_real_uvicorn_connection_writes_through_it_and_its_replies_arrive_whole_and_in_order() -> None:
    """Pipelined requests on one kept-alive connection, replies of 0 bytes to 200 kB (beyond the
    socket's buffer: flow control) come back whole and in order."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(
        _app, host="127.0.0.1", port=port, http=OneWriteHttpToolsProtocol, log_level="warning", lifespan="off"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        sizes = [0, 5, 200_000, 17, 0, 64_000]
        with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
            conn.sendall(b"".join(b"GET /%d HTTP/1.1\r\nHost: x\r\n\r\n" % n for n in sizes))
            data = b""
            want = sum(n for n in sizes)
            while data.count(b"HTTP/1.1 200 OK") < len(sizes) or len(data) < want:
                chunk = conn.recv(1 << 16)
                assert chunk, data[-200:]
                data += chunk
                if data.count(b"HTTP/1.1 200 OK") == len(sizes) and data.endswith(b"x" * sizes[-1]):
                    break
            connections = list(server.server_state.connections)
            assert connections and all(isinstance(c.transport, OneWritePerTurn) for c in connections)  # type: ignore[attr-defined]
        replies = data.split(b"HTTP/1.1 200 OK")[1:]
        assert [r.split(b"\r\n\r\n", 1)[1] for r in replies] == [b"x" * n for n in sizes]
    finally:
        server.should_exit = True
        thread.join(30)
