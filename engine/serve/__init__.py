"""``truco serve``: live tables in the browser (docs/serve.md).

:mod:`engine.serve.table` is the authority around one match (seats, tokens, moves, what each
seat is sent), :mod:`engine.serve.store` keeps the tables' logs under the data folder and
reads them back, :mod:`engine.serve.app` is the Starlette application (pages, the API, the
websocket). :func:`serve` runs it on uvicorn.

>>> from engine.serve.table import Table
>>> Table.new("paulista", ["human"] * 4, seed=1).awaited()
[1]
"""

from __future__ import annotations

import dataclasses
import socket
import sys
from pathlib import Path

import uvicorn

from engine.serve.app import Server, build_app
from engine.serve.guard import Limits, guarded_protocol

#: The largest websocket frame uvicorn reads; past it the connection is closed (1009). The
#: application refuses, with an error message, anything over ``Limits.message`` below it.
WS_MAX_BYTES = 65_536
#: The largest request head (request line and headers, bytes) read: past it, 400.
H11_MAX_HEADER_BYTES = 16_384

__all__ = ["Limits", "Server", "build_app", "config", "serve"]


def config(data: Path, *, host: str = "127.0.0.1", port: int = 8000,
           limits: Limits | None = None, bot_commands: dict[str, str] | None = None
           ) -> uvicorn.Config:
    """The uvicorn configuration of a server of the tables under ``data`` (its connections
    at most :attr:`Limits.connections`, and fewer than the files it may open)."""
    limits = limits or Limits()
    files = _files()  # accepted at once up to the backlog, before any is turned away: keep
    # the connections and a few backlogs of them under the files the process may open
    limits = dataclasses.replace(limits, connections=min(limits.connections,
                                                         max(16, files // 2)))
    app = build_app(Server(data, limits, bot_commands))
    return uvicorn.Config(app, host=host, port=port, ws="websockets-sansio",
                          http=guarded_protocol(limits), ws_max_size=WS_MAX_BYTES,
                          h11_max_incomplete_event_size=H11_MAX_HEADER_BYTES,
                          timeout_keep_alive=5, limit_concurrency=limits.connections,
                          backlog=max(16, min(2048, files // 8)),
                          log_level="warning", access_log=False, lifespan="on")


def serve(data: Path, *, host: str = "127.0.0.1", port: int = 8000,
          limits: Limits | None = None, bot_commands: dict[str, str] | None = None) -> None:
    """Run the server until interrupted, telling where it listens; an address it cannot
    listen on is an :class:`OSError` (``truco: ...``, exit 1)."""
    _check_free(host, port)
    server = uvicorn.Server(config(data, host=host, port=port, limits=limits,
                                   bot_commands=bot_commands))
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    print(f"truco serve: tables in {data}; open http://{shown}:{port}/ (Ctrl-C stops)",
          file=sys.stderr)
    server.run()


def _files() -> int:
    """The files this process may open (its soft limit; a large number where it has none)."""
    try:
        import resource
    except ImportError:  # not a Unix
        return 1 << 20
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return soft if soft > 0 else 1 << 20


def _check_free(host: str, port: int) -> None:
    """Refuse, before starting, an address that is taken or not this machine's."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            s.bind((host, port))
        except OSError as exc:
            raise OSError(exc.errno, f"cannot listen on {host}:{port}: {exc.strerror}") from None
