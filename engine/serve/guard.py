"""What ``truco serve`` takes from a client, and how long it waits for it (docs/serve.md,
Faults and limits): the limits, the connection guard (how many connections, from whom, and
the seconds to send a request's headers), the bounded reading of a request's body and the
API's request objects (their keys, a variant or an upload, players' names), and the checks
every JSON text from a client passes (nesting, lone surrogates).

>>> untrusted_json('{"type": "join", "token": "abc"}')
{'type': 'join', 'token': 'abc'}
>>> untrusted_json('{"token": "\\\\ud800"}')
Traceback (most recent call last):
...
ValueError: a string holds a lone surrogate (\\ud800): not Unicode text
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse
from uvicorn.protocols.http.h11_impl import H11Protocol

from engine.i18n import _

#: How deep a client's JSON may nest (the protocol's messages nest three levels).
MAX_DEPTH = 32
#: The longest player's name (characters).
MAX_NAME = 24


@dataclass
class Limits:
    """What the server takes (docs/serve.md, Faults and limits)."""

    #: The longest websocket message read (characters); a longer one is refused.
    message: int = 2048
    #: Messages a connection may send a second, on average, and in one burst.
    rate: float = 10.0
    burst: int = 20
    #: Refused messages in a row (too fast, malformed, illegal...) before the connection is
    #: closed (1008); only the first of a run of ``too_fast`` is answered.
    refused: int = 100
    #: Seconds a person's seat, once joined, may stay without a connection while the game
    #: waits for it before the stand-in bot plays it (``None``: the table waits).
    seat_timeout: float | None = 120.0
    #: The most tables in play at once, and the largest request body (bytes).
    tables: int = 1000
    body: int = 300_000
    #: The most tables in play one client address may have created, and the most it may
    #: create in ``window`` seconds (a table of bots only is over at once: it counts here).
    client_tables: int = 20
    client_creations: int = 60
    window: float = 3600.0
    #: Seconds a table in play may go without any person joining it; then it is removed.
    unjoined: float = 900.0
    #: The most connections open at once on one link (a seat's, or the spectators').
    link: int = 4
    #: The most connections open at once, and from one client address.
    connections: int = 800
    client_connections: int = 200
    #: Seconds a new connection has to send its request's headers, and a request its body.
    header: float = 10.0
    body_time: float = 10.0
    #: Seconds a new websocket connection has to send its join message.
    join: float = 10.0
    #: Seconds a finished table stays in memory after its match ended (``0``: within a
    #: second); then it closes: its connections are told (``closed``) and closed (4410), its
    #: page, log and replay are given from the data folder.
    linger: float = 300.0
    #: Whether a table with a person seat may be given a fixed ``seed`` (tests: its deals are
    #: known to whoever chose it). A table of bots only may always be.
    fixed_seeds: bool = False


#: What :func:`untrusted_json` says of a text that is not JSON at all.
NOT_JSON = "not JSON"


def untrusted_json(text: str | bytes) -> Any:
    """A client's JSON text, parsed: a :class:`ValueError` (for people) if it is not JSON,
    nests deeper than :data:`MAX_DEPTH`, or holds a string that is not Unicode text."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise ValueError(_("JSON nested deeper than {n} levels").format(n=MAX_DEPTH)) from None
    except (ValueError, UnicodeDecodeError):
        raise ValueError(NOT_JSON) from None
    todo = [(data, 0)]
    while todo:
        item, depth = todo.pop()
        if depth > MAX_DEPTH:
            raise ValueError(_("JSON nested deeper than {n} levels").format(n=MAX_DEPTH))
        if isinstance(item, dict):
            todo += [(k, depth + 1) for k in item] + [(v, depth + 1) for v in item.values()]
        elif isinstance(item, list):
            todo += [(v, depth + 1) for v in item]
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise ValueError(_("a string holds a lone surrogate ({char}): not Unicode "
                                   "text").format(char=f"\\u{ord(item[exc.start]):04x}")
                                 ) from None
    return data


def player_names(value: object, seats: int) -> list[str | None] | None | str:
    """The players' names of a table request (``None``, or a name or ``null`` a seat: at
    most :data:`MAX_NAME` printable characters, spaces trimmed), or the refusal's words.

    >>> player_names(["Ana", None, " Bia ", ""], 4)
    ['Ana', None, 'Bia', None]
    >>> player_names(["a\\nb"], 1)
    'names: a name is at most 24 printable characters (seat 0)'
    """
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != seats:
        return _("names: a list of {n}, a name or null a seat").format(n=seats)
    names: list[str | None] = []
    for seat, name in enumerate(value):
        if name is not None and not isinstance(name, str):
            return _("names: a name is a string or null (seat {seat})").format(seat=seat)
        name = (name or "").strip()
        if len(name) > MAX_NAME or not name.isprintable():
            return _("names: a name is at most {n} printable characters (seat {seat})"
                     ).format(n=MAX_NAME, seat=seat)
        names.append(name or None)
    return names


class BodyRefused(Exception):
    """A request body not read: ``status``, ``code`` and words for people."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


async def read_body(request: Request, limits: Limits) -> bytes:
    """The request's body, at most ``limits.body`` bytes, in at most ``limits.body_time``
    seconds; else :class:`BodyRefused` (a client gone meanwhile too: nothing is logged)."""
    too_large = BodyRefused(413, "too_large", _("a request is at most {n} bytes").format(
        n=limits.body))
    declared = request.headers.get("content-length", "0")
    if not declared.isdigit():
        raise BodyRefused(400, "malformed", _("Content-Length: not a number"))
    if int(declared) > limits.body:
        raise too_large
    chunks: list[bytes] = []

    async def read() -> None:
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limits.body:
                raise too_large
            chunks.append(chunk)

    try:
        await asyncio.wait_for(read(), limits.body_time)
    except TimeoutError:
        raise BodyRefused(408, "too_slow", _("a request's body is sent within {n} seconds")
                          .format(n=f"{limits.body_time:g}")) from None
    except ClientDisconnect:
        raise BodyRefused(400, "gone", _("the client went away")) from None
    return b"".join(chunks)


def refusal(status: int, code: str, message: str | list[str]) -> JSONResponse:
    """An API refusal: ``{"error": code, "message": first line, "problems": lines}``."""
    lines = message if isinstance(message, list) else [message]
    return JSONResponse({"error": code, "message": lines[0], "problems": lines}, status)


#: The keys of the API's requests (anything else is refused, not ignored).
CHECK_KEYS = {"variant", "upload"}
CREATE_KEYS = {"variant", "upload", "seats", "seed", "names"}


async def request_object(request: Request, limits: Limits, keys: set[str], *,
                         source: bool = True) -> dict[str, Any] | JSONResponse:
    """The request's JSON object (bounded in size, time and depth; its keys among ``keys``;
    with ``source``, ``variant`` or ``upload``, not both), or the refusal to answer with."""
    try:
        data = await read_body(request, limits)
    except BodyRefused as exc:
        return refusal(exc.status, exc.code, exc.message)
    try:
        body = untrusted_json(data)
    except ValueError as exc:
        return refusal(400, "malformed", _("the request is not JSON") if str(exc) == NOT_JSON
                       else _("the request is refused: {problem}").format(problem=exc))
    if not isinstance(body, dict):
        return refusal(400, "malformed", _("the request is not a JSON object"))
    unknown = sorted(set(body) - keys)
    if unknown:
        return refusal(400, "unknown_key", _("{key} is not a key here: {keys}").format(
            key=repr(unknown[0][:40]), keys=", ".join(sorted(keys))))
    if source and ("variant" in body) == ("upload" in body):
        return refusal(400, "variant", _("give a shipped variant's name (variant) or a house "
                                         "variant (upload), one of the two"))
    upload = body.get("upload")
    if "upload" in body and not (isinstance(upload, dict) and set(upload) <= {"name", "text"}
                                 and isinstance(upload.get("text"), str)
                                 and isinstance(upload.get("name", ""), str)):
        return refusal(400, "upload", _('upload: an object with "name" (the file\'s name) and '
                                        '"text" (its text), both strings'))
    return body


def house_of(body: dict[str, Any]) -> tuple[str, str] | None:
    """The uploaded file's name (made safe to show: no folder, printable) and text."""
    upload = body.get("upload")
    if isinstance(upload, dict) and isinstance(upload.get("text"), str):
        name = upload.get("name")
        name = name if isinstance(name, str) and name.strip() else "house.yaml"
        return "".join(c if c.isprintable() and c not in "/\\" else "_"
                       for c in name)[:80], upload["text"]
    return None


Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class OneRequestAConnection:
    """ASGI middleware answering every HTTP request with ``Connection: close``: a connection
    carries one request, so the header deadline of :func:`guarded_protocol` covers each."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def closing(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", []), (b"connection", b"close")]
                message = {**message, "headers": headers}
            await send(message)

        return await self.app(scope, receive, closing)


def guarded_protocol(limits: Limits) -> type[H11Protocol]:
    """uvicorn's h11 protocol with a door: past ``limits.connections`` open connections, or
    ``limits.client_connections`` from one address, a new one is closed at once; a
    connection that has not sent its request's headers within ``limits.header`` seconds is
    closed (a slow or half-open request holds no file descriptor for long)."""
    live: dict[str, set[asyncio.BaseTransport]] = {}

    class Guarded(H11Protocol):
        _timer: asyncio.TimerHandle | None = None
        _tail = b""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            for host in list(live):  # forget the connections that closed (websockets too)
                live[host] = {t for t in live[host] if not t.is_closing()}
                if not live[host]:
                    del live[host]
            peer = transport.get_extra_info("peername")
            host = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
            mine = live.setdefault(host, set())
            if sum(map(len, live.values())) >= limits.connections or \
                    len(mine) >= limits.client_connections:
                transport.close()
                return
            mine.add(transport)
            self._timer = asyncio.get_running_loop().call_later(
                limits.header, transport.close)

        def data_received(self, data: bytes) -> None:
            if self._timer is not None:
                seen = self._tail + data
                if b"\r\n\r\n" in seen or b"\n\n" in seen:  # the headers are in
                    self._timer.cancel()
                    self._timer = None
                self._tail = seen[-3:]
            super().data_received(data)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._timer is not None:
                self._timer.cancel()
            super().connection_lost(exc)

    return Guarded


__all__ = ["CHECK_KEYS", "CREATE_KEYS", "MAX_DEPTH", "MAX_NAME", "BodyRefused", "Limits",
           "OneRequestAConnection", "guarded_protocol", "house_of", "player_names", "read_body",
           "refusal", "request_object", "untrusted_json"]
