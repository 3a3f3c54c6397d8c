"""The bot protocol (docs/bot-protocol.md): bots in any language, over JSON lines on their
standard input and output, as UCI is for chess engines.

This module holds what both sides share: the protocol's version, the messages the engine
sends (built here, each checked by a schema in ``schemas/bot-protocol/``), the events a seat
sees between its decisions (derived from its own observations only, :func:`seat_events`) and
the move notation (:func:`parse_move`). :mod:`engine.protocol.external` runs a bot program as
an :class:`engine.bots.Bot`; :mod:`engine.protocol.serve` serves a built-in bot over the
protocol; :mod:`engine.protocol.check` is ``truco bot check``.

>>> from engine import Match
>>> m = Match.new("paulista", seed=7)
>>> before = m.observation(0)
>>> _ = m.apply(m.legal_actions(m.turn)[0])
>>> seat_events(before, m.observation(0))
[{'event': 'play', 'round': 1, 'seat': 1, 'card': '2h', 'covered': False}]
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, cast

from engine.actions import Action
from engine.observation import Observation, to_json
from engine.rules import Rules
from engine.state import Phase

#: The protocol's version: a bot names the one it speaks in its ``id`` message.
VERSION = 1

Message = dict[str, Any]


def dumps(message: Mapping[str, Any]) -> bytes:
    """One message as one line of UTF-8 JSON (compact, keys in the order built, no NaN)."""
    return (json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
            + "\n").encode("utf-8")


def hello() -> Message:
    """The engine's first message: the protocol version it speaks."""
    return {"type": "hello", "protocol": VERSION, "engine": "truco"}


def rules_document(rules: Rules) -> dict[str, Any]:
    """The variant's resolved rules as ``truco variants show`` prints them (as JSON)."""
    from engine.variant import resolved_document

    return resolved_document(dict(rules.data))


def match_start(rules: Rules, seat: int, *, match: int, seed: int,
                time: Mapping[str, int | None]) -> Message:
    """A match begins: what the seat may know of it before the first deal."""
    return {"type": "match", "match": match, "seat": seat, "players": rules.players,
            "teams": list(rules.team_of), "variant_sha256": rules.fingerprint,
            "rules": rules_document(rules), "seed": seed, "time": dict(time)}


def decision(number: int, observation: Observation, legal: Sequence[Action],
             time: Mapping[str, int | None]) -> Message:
    """A decision: the seat's observation (``Match.observation(seat)`` as JSON data,
    :func:`engine.observation.to_json`), its legal moves in the log's notation, and the time
    it has."""
    return {"type": "decision", "id": number, "observation": to_json(observation),
            "legal": [str(a) for a in legal], "time": dict(time)}


def events(items: Sequence[Message]) -> Message:
    """What the seat saw happen since its last message (:func:`seat_events`)."""
    return {"type": "events", "events": list(items)}


def match_end(observation: Mapping[str, Any] | None) -> Message:
    """The match is over (``result``: the winning team and the games; ``None`` if the match
    was abandoned before its end)."""
    result = None
    if observation is not None and observation.get("phase") == Phase.MATCH_OVER:
        games = list(observation["games"])
        result = {"winner": games.index(max(games)), "games": games,
                  "score": list(observation["score"])}
    return {"type": "end", "result": result}


def quit_() -> Message:
    """The last message: the bot should exit."""
    return {"type": "quit"}


def _between(observation: Mapping[str, Any]) -> bool:
    """Whether no hand is in play: the last one is over and the next not dealt yet (a cut, a
    deal awaited)."""
    last = observation.get("last_hand")
    return last is not None and last["hand_number"] == observation["hand_number"]


def _ended(before: Mapping[str, Any], after: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The public record of the hand that ended between two observations (``hand_number``,
    ``played``, ``rounds``, ``shown``), or ``None``. The match's last hand stays in play: its
    end is told by the match's (a side bet may end the match in the middle of a hand)."""
    last, old = after.get("last_hand"), before.get("last_hand")
    if last is not None and (old is None or old["hand_number"] != last["hand_number"]):
        return cast(Mapping[str, Any], last)
    return None


def _progress(before: Mapping[str, Any] | None, after: Mapping[str, Any]) -> list[Message]:
    """The cards played, rounds won and cards shown in ``after`` beyond those of ``before``
    (the same hand seen earlier, or ``None``: all of them)."""
    played, rounds, shown = after["played"], after["rounds"], after["shown"]
    start = before or {"played": [], "rounds": [], "shown": []}
    return [*({"event": "play", **p} for p in played[len(start["played"]):]),
            *({"event": "round", "winner": w} for w in rounds[len(start["rounds"]):]),
            *({"event": "shown", **s} for s in shown[len(start["shown"]):])]


def seat_events(before: Mapping[str, Any] | None, after: Mapping[str, Any]) -> list[Message]:
    """What a seat saw happen between two of its observations, derived from them alone (so
    nothing it may not know can leak), each event once and in order: cards played as it saw
    them, round results, cards shown, a raise, the hand's new value, side bets that changed,
    the end of a hand (its score), of a game, and the phase. A hand's end is told as soon as
    it happens, also where the next hand waits (a cut, a deal awaited); the match's end is told
    by ``game`` and the phase ``match_over``."""
    if before is None:
        return []
    out: list[Message] = []
    ended = _ended(before, after)
    number = before["hand_number"]
    seen = before if not _between(before) else None
    if ended is not None:
        out += _progress(seen if number == ended["hand_number"] else None, ended)
        out.append({"event": "hand", "hand_number": ended["hand_number"],
                    "score": list(after["score"]), "games": list(after["games"])})
        if not _between(after):
            out += _progress(None, after)  # the next hand, dealt since
    else:
        out += _progress(seen if number == after["hand_number"] else None, after)
    same = ended is None and number == after["hand_number"]
    pending = after["pending_raise"]
    old = before["pending_raise"]
    if pending is not None and (old is None or (old["seat"], old["value"])
                                != (pending["seat"], pending["value"])):
        out.append({"event": "raise", "seat": pending["seat"], "value": pending["value"],
                    "name": pending["name"]})
    if same and after["value"] != before["value"]:
        out.append({"event": "value", "value": after["value"]})
    if same:
        old_bets = before.get("side_bets") or []
        for i, bet in enumerate(after.get("side_bets") or []):
            if i >= len(old_bets) or old_bets[i] != bet:
                out.append({"event": "side_bet", **bet})
    if after["games"] != before["games"]:
        out.append({"event": "game", "games": list(after["games"])})
    if after["phase"] != before["phase"] or after["special"] != before["special"]:
        out.append({"event": "phase", "phase": after["phase"], "special": after["special"]})
    return out


def parse_move(text: str) -> Action:
    """A move from its notation (``str(Action)``): ``play 1 2h``, ``play 1 #2 covered``,
    ``raise 0 3``, ``decide 2 play``, ``envido 1 real envido``, ``accept 3``, and a bot's
    view of a move (a blind hand's ``#N``, ``pass``): :meth:`Action.parse`. Raises
    ``ValueError`` for anything else.

    >>> parse_move("play 1 #2 covered")
    Action.play_at(1, 1, covered=True)
    >>> str(parse_move("envido 3 falta envido"))
    'envido 3 falta envido'
    """
    return Action.parse(text)
