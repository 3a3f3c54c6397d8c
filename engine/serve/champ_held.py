"""What the server holds of a championship (docs/championship.md, "At the live table"): its
keys' hashes and its tables' (:class:`Hosted`, ``serve.json`` checked by :func:`read_keys`), the
seat tokens derived from a team's key (:func:`seat_token`), and what a championship needs of the
server (:class:`Host`). :mod:`engine.serve.championship` runs the championships on them.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import re
import secrets
import threading
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.championship import Championship
from engine.serve.guard import Limits
from engine.serve.store import Store
from engine.serve.table import Table, token_hash

#: Where the championships are kept, under the data folder.
FOLDER = "championships"
ARCHIVE = "archive"
KEYS_FILE = "serve.json"
ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_HASH = re.compile(r"^[0-9a-f]{64}$")


class Host(Protocol):
    """What a championship needs of the server (:class:`engine.serve.app.Server`)."""

    limits: Limits
    store: Store
    tables: dict[str, Table]
    unjoined: dict[str, float]

    def add(self, table: Table, joined: set[int] | None = None, creator: str = "") -> None:
        ...

    async def retire(self, table: Table, ended: str | None = None) -> None:
        ...

    def lock(self, table_id: str) -> asyncio.Lock:
        ...

    def forget(self, table: Table) -> list[Any]:
        ...


def seat_token(team_key: str, k: int) -> str:
    """The token of a team's ``k``-th seat at each of its tables: HMAC-SHA256 of the team
    key, so that a seat's link does not give the team key away."""
    mac = hmac.new(team_key.encode("utf-8"), f"seat {k}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode("ascii").rstrip("=")


def matches(key: object, digest: str) -> bool:
    return isinstance(key, str) and 0 < len(key) <= 100 and \
        secrets.compare_digest(token_hash(key), digest)


@dataclass
class Hosted:
    """A championship the server holds: the championship, its key hashes (the organiser's,
    the registration's, each team's and its seats', by team key) and the server table and
    spectator token of each championship table."""

    id: str
    champ: Championship
    organiser: str
    registration: str
    teams: dict[str, dict[str, Any]] = field(default_factory=dict)
    tables: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: The results not taken (a log that did not verify), each once.
    problems: list[str] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: The last view shown, by language: what the standings answer, without waiting, while
    #: another request holds the lock.
    shown: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: The task making the tables to play now in the background, while it runs
    #: (:meth:`engine.serve.championship.Championships.kick`); :attr:`ready` is set when it
    #: has none left to make (a test waits on it).
    maker: asyncio.Task[None] | None = None
    ready: threading.Event = field(default_factory=lambda: _set(threading.Event()))

    def keys_data(self) -> dict[str, Any]:
        return {"id": self.id, "organiser": self.organiser,
                "registration": self.registration, "teams": self.teams,
                "tables": self.tables}

    def team_of(self, key: object) -> str | None:
        """The team key (its name case-folded) whose team key ``key`` is, or ``None``."""
        for name, data in self.teams.items():
            if matches(key, data["hash"]):
                return name
        return None


def _set(event: threading.Event) -> threading.Event:
    event.set()
    return event


def read_keys(data: Any, seats: int) -> dict[str, Any]:
    """``serve.json`` checked: what the API could have written, else :class:`ValueError`."""
    if not isinstance(data, dict) or not all(
            isinstance(data.get(k), str) and _HASH.match(data[k])
            for k in ("organiser", "registration")):
        raise ValueError(f"{KEYS_FILE}: organiser and registration: a SHA-256 each")
    teams, tables = data.get("teams"), data.get("tables")
    if not isinstance(teams, dict) or not all(
            isinstance(t, dict) and isinstance(t.get("hash"), str) and _HASH.match(t["hash"])
            and isinstance(t.get("seats"), list) and len(t["seats"]) == seats
            and all(isinstance(s, str) and _HASH.match(s) for s in t["seats"])
            for t in teams.values()):
        raise ValueError(f"{KEYS_FILE}: teams: a hash and {seats} seat hashes a team")
    if not isinstance(tables, dict) or not all(
            isinstance(t, dict) and isinstance(t.get("server"), str) and
            ID.match(t["server"]) and isinstance(t.get("watch"), str)
            and type(t.get("late", False)) is bool
            and type(t.get("made", 0.0)) in (int, float)
            and type(t.get("listed", 0.0)) in (int, float) for t in tables.values()):
        raise ValueError(f"{KEYS_FILE}: tables: a server table and a spectator token each")
    return data
