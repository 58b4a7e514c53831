"""uvicorn's HTTP protocol (httptools) with each reply sent in one write to the socket.

uvicorn writes a reply's head at ``http.response.start`` and its body at ``http.response.body``:
two ``write`` calls, so two TCP segments, and two wake-ups of the client, for every JSON reply
of a few hundred bytes. Each ``write`` to a socket is a system call that runs the kernel's whole
TCP path (on loopback, the receiver's too): in a profile of the served guess (py-spy --native,
docs/performance.md) the two are a third of the worker's time. Here the connection's transport
holds what is written during one turn of the event loop and writes it at the start of the next
turn, in one call: the head and the body of a reply, which the app sends in one go, leave
together; nothing waits longer than the loop's turn. ``flagcore serve`` runs uvicorn with it
(flagcore.cli.serve.serve_app); the module needs the web extra (uvicorn).
"""

from __future__ import annotations

import asyncio
from typing import Any, cast

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class OneWritePerTurn:
    """A transport whose writes of one event-loop turn go to the socket in one ``write``, at the
    start of the next turn (or at ``close``, first). Every other call goes to ``transport``."""

    __slots__ = ("_transport", "_loop", "_held")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._held: list[bytes] | None = None

    def write(self, data: bytes) -> None:
        """Hold ``data`` for this turn's one write (the first write of a turn schedules it)."""
        held = self._held
        if held is None:
            self._held = [data]
            self._loop.call_soon(self.flush)
        else:
            held.append(data)

    def flush(self) -> None:
        """Write what is held, in one call (nothing to a transport already closing: its peer is gone)."""
        held, self._held = self._held, None
        if held and not self._transport.is_closing():
            self._transport.write(held[0] if len(held) == 1 else b"".join(held))

    def close(self) -> None:
        """Write what is held, then close (uvicorn closes after a reply without keep-alive)."""
        self.flush()
        self._transport.close()

    def is_closing(self) -> bool:
        """Whether the socket's transport is closing (or closed)."""
        return self._transport.is_closing()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class OneWriteHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol whose connections write through OneWritePerTurn (uvicorn's
    ``http`` option takes the class; a module's own, so that uvicorn's workers, started by spawn,
    find it by name)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """uvicorn's set-up of a new connection, then its writes through OneWritePerTurn."""
        super().connection_made(transport)
        # after uvicorn's own set-up, which reads the addresses and binds flow control (reading
        # paused and resumed) to the socket's own transport: only the writes go through
        self.transport = cast(asyncio.Transport, OneWritePerTurn(self.transport, self.loop))
