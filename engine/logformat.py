"""The game log's lines (LOG-FORMAT.md, version 1): canonical serialisation and a recorder
that writes a match's log while it is played.

Lines are byte-stable: keys in the format's order, ``json.dumps`` default separators
(``", "`` and ``": "``) as in the spec's examples, UTF-8 (``ensure_ascii=False``).

>>> dumps_event({"event": "play", "seat": 1, "card": "5h"})
'{"event": "play", "seat": 1, "card": "5h"}'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, TextIO

from engine.actions import Action, Deal
from engine.game import Checkpoint, Match

LOG_VERSION = 1
HEADER_ORDER = ("truco_log", "variant", "seed", "dealer", "players", "variant_sha256", "meta")


def dumps_event(event: dict[str, Any]) -> str:
    """One log line (no newline), keys as given (events are built in the format's order)."""
    return json.dumps(event, ensure_ascii=False)


def make_header(variant: str, *, seed: int | None = None, dealer: int = 0,
                players: Sequence[str] | None = None, variant_sha256: str | None = None,
                meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """A header in the format's key order; absent optional fields are left out."""
    header: dict[str, Any] = {"truco_log": LOG_VERSION, "variant": variant}
    if seed is not None:
        header["seed"] = seed
    header["dealer"] = dealer
    if players is not None:
        header["players"] = list(players)
    if variant_sha256 is not None:
        header["variant_sha256"] = variant_sha256
    if meta is not None:
        header["meta"] = meta
    return header


class Recorder:
    """Plays a match through :meth:`apply` and writes its log as it goes, flushing after every
    move so an interrupted game loses nothing.

    ``variant`` is what the header names (a shipped name or a path). Deals are written as
    ``deal`` events when the match has no seed, or when ``deals=True``.

    >>> import io
    >>> out = io.StringIO()
    >>> m = Match.new("paulista", seed=7)
    >>> rec = Recorder(m, out, variant="paulista")
    >>> _ = rec.apply(m.legal_actions()[0])
    >>> out.getvalue().splitlines()[1]
    '{"event": "play", "seat": 1, "card": "2h"}'
    """

    def __init__(self, match: Match, out: TextIO, *, variant: str,
                 players: Sequence[str] | None = None, deals: bool = False,
                 fingerprint: bool = True, meta: dict[str, Any] | None = None,
                 write_header: bool = True) -> None:
        self.match = match
        self.out = out
        self.deals = deals or match.seed is None
        self._hand = match.hand_number
        if write_header:
            self._write(make_header(
                variant, seed=match.seed, dealer=match.dealer, players=players,
                variant_sha256=match.rules.fingerprint if fingerprint else None, meta=meta))
        if self.deals and match.hand_number:
            self._write_deal()
        self.out.flush()

    def apply(self, action: Action) -> list[Checkpoint]:
        """Apply a move to the match and log it with its checkpoints (and the next deal)."""
        checkpoints = self.match.apply(action)
        self._write(action.to_event())
        for cp in checkpoints:
            self._write(cp)
        self._after_move()
        return checkpoints

    def deal(self, deal: Deal) -> None:
        """Start the awaited hand of an unseeded match with recorded cards, and log it."""
        self.match.deal(deal)
        self._after_move()

    def _after_move(self) -> None:
        m = self.match
        if m.hand_number != self._hand:
            self._hand = m.hand_number
            if self.deals:
                self._write_deal()
        self.out.flush()

    def _write_deal(self) -> None:
        m = self.match
        self._write(Deal(m.dealer, m.dealt, m.vira).to_event())

    def _write(self, event: dict[str, Any]) -> None:
        self.out.write(dumps_event(event) + "\n")
