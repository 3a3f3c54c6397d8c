"""A websocket connection of ``truco serve``: its seat and language, the reading of its
messages (a token bucket of ``rate`` a second, sizes, JSON objects), and what it is told
when a message is refused (``{"type": "error", "code": C, "message": M}``)."""

from __future__ import annotations

import contextlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket

from engine import i18n
from engine.i18n import _
from engine.serve.guard import NOT_JSON, Limits, untrusted_json


@dataclass
class Conn:
    """A connection to a table: its seat, its allowance of messages, its language."""

    ws: WebSocket
    seat: int | None  # None: a spectator
    allowance: float = 0.0
    stamp: float = field(default_factory=time.monotonic)
    refused: int = 0  # refused messages in a row
    name: object = None  # the name the join message gave, if any
    told: bool = False  # the client was told it sends too fast (the next too_fast is not)
    #: The join message's ``entropy`` (mixed into a sealed table's seed before its deal).
    entropy: object = None
    #: The language of the words it is sent (its address's ``?lang=``: its page's).
    lang: str = i18n.ENGLISH


async def turn_away(ws: WebSocket, code: str, message: str, close: int) -> None:
    """Refuse the connection: ``code`` and ``message``, then closed with ``close`` (a client
    gone meanwhile is no fault of the server's: nothing is logged)."""
    with contextlib.suppress(Exception):
        await send_error(ws, code, message)
        await ws.close(close)


async def send_error(ws: WebSocket, code: str, message: str) -> None:
    await ws.send_text(json.dumps({"type": "error", "code": code, "message": message},
                                  ensure_ascii=False))


async def read(limits: Limits, ws: WebSocket, conn: Conn | None) -> dict[str, Any] | str:
    """The next message as a JSON object, or the refusal's code after telling the client
    (``"closed"``: the connection ended)."""
    msg = await ws.receive()
    if msg["type"] == "websocket.disconnect":
        return "closed"
    text = msg.get("text")
    if conn is not None:  # the token bucket: ``rate`` a second, ``burst`` at once
        now = time.monotonic()
        conn.allowance = min(limits.burst, conn.allowance + (now - conn.stamp) * limits.rate)
        conn.stamp = now
        if conn.allowance < 1:  # told once a run: the runs after it are not answered
            if not conn.told:
                conn.told = True
                await send_error(ws, "too_fast", _(
                    "at most {rate} messages a second: this one is not read, nor are the "
                    "next ones sent too fast (and they are not answered)").format(
                    rate=f"{limits.rate:g}"))
            return "too_fast"
        conn.allowance -= 1
        conn.told = False
    if text is None:
        await send_error(ws, "malformed", "messages are JSON text, not binary")
        return "malformed"
    if len(text) > limits.message:
        await send_error(ws, "too_large", f"a message is at most {limits.message} "
                                           "characters")
        return "too_large"
    try:
        data = untrusted_json(text)
    except ValueError as exc:
        await send_error(ws, "malformed", _("the message is not JSON") if str(exc) == NOT_JSON
                         else _("the message is refused: {problem}").format(problem=exc))
        return "malformed"
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        await send_error(ws, "malformed", 'a message is a JSON object with a "type"')
        return "malformed"
    return data
