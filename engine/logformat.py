"""The game log's lines (docs/log-format.md, versions 1 and 2): canonical serialisation and a
recorder that writes a match's log while it is played. The version a log needs is decided in
:mod:`engine.logversion`.

Lines are byte-stable: keys in the format's order, ``json.dumps`` default separators
(``", "`` and ``": "``) as in the spec's examples, UTF-8 (``ensure_ascii=False``).

>>> dumps_event({"event": "play", "seat": 1, "card": "5h"})
'{"event": "play", "seat": 1, "card": "5h"}'
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Mapping, Sequence
from operator import attrgetter
from pathlib import Path
from typing import Any, TextIO

from engine.actions import Action, Deal
from engine.game import Checkpoint, Match, resolve_rules
from engine.logversion import POSITION_VERSION, rules_need
from engine.moves.deal import seeded as seeded_deal
from engine.moves.draw import draw_first_dealer, draw_names, drawn
from engine.shuffle import SplitMix64
from engine.sidebets import BetState
from engine.slots import slot_names
from engine.state import HandState, RoundState
from engine.variant import looks_like_path

#: The version a log is written in unless it needs a newer one (engine.logversion).
LOG_VERSION = 1
HEADER_ORDER = ("truco_log", "variant", "seed", "dealer", "draw", "position", "players",
                "variant_sha256", "meta")


def header_variant(variant: str | os.PathLike[str], log_dir: str | os.PathLike[str]) -> str:
    """What the header of a log written into the folder ``log_dir`` calls ``variant``: a
    shipped name as it is; a variant file by its path relative to the log's own folder
    (``/``-separated, with ``..`` as needed), so that the log verifies from any working folder.
    Symbolic links in the folders are resolved first, as the reader's ``..`` are. Only where no
    relative path exists (another drive, on Windows) is the path absolute. Every command that
    writes a log names its variant through this function.

    >>> header_variant("paulista", "logs")
    'paulista'
    >>> header_variant("house/mine.yaml", "logs")
    '../house/mine.yaml'
    >>> header_variant("house/mine.yaml", "house")
    'mine.yaml'
    """
    text = os.fspath(variant)
    if not looks_like_path(text):
        return text
    full = os.path.abspath(text)
    full = os.path.join(os.path.realpath(os.path.dirname(full)), os.path.basename(full))
    try:
        rel = os.path.relpath(full, os.path.realpath(os.path.abspath(log_dir)))
    except ValueError:  # no relative path between two drives
        return Path(full).as_posix()
    return Path(rel).as_posix()


#: ``json.dumps(event, ensure_ascii=False)``'s encoder, made once: ``json.dumps`` builds a new
#: ``JSONEncoder`` for every call that passes an option (it shares one only with none).
_encode = json.JSONEncoder(ensure_ascii=False).encode


def dumps_event(event: Mapping[str, Any]) -> str:
    """One log line (no newline), keys as given (events are built in the format's order)."""
    return _encode(event)


#: Lines made by :func:`move_line` and :func:`checkpoint_line`, kept while there are fewer than
#: :data:`KEPT_LINES` of each (then the memo starts again: a variant's moves are few, and the
#: checkpoints that recur, a round's end above all, fewer).
KEPT_LINES = 4096
#: :func:`move_line`'s memo, by the move's ``id`` with the move itself: the entry holds the
#: move, so its ``id`` names no other object while it is there (a dataclass's ``__hash__``,
#: which ``functools.lru_cache`` would call, is Python code that hashes its eight fields).
_MOVE_LINES: dict[int, tuple[Action, str]] = {}
#: :func:`checkpoint_line`'s memo, by the checkpoint's ``repr``.
_CHECKPOINT_LINES: dict[str, str] = {}


def move_line(action: Action) -> str:
    """The log line of a move, with its newline: ``dumps_event(action.to_event())``, made once
    per move (a variant's moves are few, and :meth:`Match.legal_actions` hands out the same
    values again and again). ``ValueError`` for a bot's view of a move.

    >>> move_line(Action.play(1, "5h"))
    '{"event": "play", "seat": 1, "card": "5h"}\\n'
    """
    kept = _MOVE_LINES.get(id(action))
    if kept is not None and kept[0] is action:
        return kept[1]
    line = _encode(action.to_event()) + "\n"
    if len(_MOVE_LINES) >= KEPT_LINES:
        _MOVE_LINES.clear()
    _MOVE_LINES[id(action)] = (action, line)
    return line


def checkpoint_line(checkpoint: Mapping[str, Any]) -> str:
    """The log line of a checkpoint (:meth:`Match.apply`'s), with its newline:
    ``dumps_event(checkpoint)``, made once for each checkpoint that recurs. A checkpoint is
    plain JSON data (str, int, bool, ``None``, lists and dicts of them), whose ``repr`` is
    one-to-one with its content in order, and so with its line: the memo is keyed by it (a
    ``repr`` costs a third of the encoding; ``json`` builds an encoder for every call).

    >>> checkpoint_line({"event": "round", "winner": None})
    '{"event": "round", "winner": null}\\n'
    """
    key = repr(checkpoint)
    line = _CHECKPOINT_LINES.get(key)
    if line is None:
        line = _encode(checkpoint) + "\n"
        if len(_CHECKPOINT_LINES) >= KEPT_LINES:
            _CHECKPOINT_LINES.clear()
        _CHECKPOINT_LINES[key] = line
    return line


def make_header(variant: str, *, seed: int | None = None, dealer: int = 0,
                players: Sequence[str] | None = None, variant_sha256: str | None = None,
                meta: dict[str, Any] | None = None, version: int = LOG_VERSION,
                position: dict[str, Any] | None = None,
                seed_commitment: str | None = None,
                draw: list[list[str | None]] | None = None) -> dict[str, Any]:
    """A header in the format's key order; absent optional fields are left out. ``version``
    is the format version the log needs (:mod:`engine.logversion`); ``draw``, the cards of
    a drawn first dealer (:mod:`engine.moves.draw`). With a ``position``
    (docs/positions.md: the match starts there) the header has neither ``seed`` nor
    ``dealer``: the position holds the dealer and the generator's state."""
    header: dict[str, Any] = {"truco_log": version, "variant": variant}
    if position is not None:
        header["position"] = position
    else:
        if seed is not None:
            header["seed"] = seed
        if seed_commitment is not None:  # docs/log-format.md, Committed seeds
            header["seed_commitment"] = seed_commitment
        header["dealer"] = dealer
        if draw is not None:  # the seeded draw of the first dealer
            header["draw"] = draw
    if players is not None:
        header["players"] = list(players)
    if variant_sha256 is not None:
        header["variant_sha256"] = variant_sha256
    if meta is not None:
        header["meta"] = meta
    return header


def starts_fresh(match: Match) -> bool:
    """Whether ``match`` is where a new match of its rules, seed and dealer starts (a header's
    ``seed`` and ``dealer`` describe it, without a position)."""
    fresh = Match(match.rules, seed=match.seed, dealer=match.dealer)
    if _same_state(fresh, match):
        return True  # slot for slot the same state, so the same position (two exports less)
    return fresh.position() == match.position()


#: Slots of a :class:`Match` that :func:`_same_state` compares otherwise (the generator by its
#: state, the hand and round slot by slot) or not at all (what every match of the variant
#: shares, and the queue of recorded deals, which no position holds).
_NOT_COMPARED = frozenset(("rules", "machine", "move_table", "_events", "_deals", "rng", "hand",
                           "round"))
#: The values of the slots compared, as one tuple each (``attrgetter``: read in C).
_match_slots = attrgetter(*(s for s in slot_names(Match) if s not in _NOT_COMPARED))
_hand_slots = attrgetter(*(s for s in slot_names(HandState) if s != "side"))
_bet_slots = attrgetter(*slot_names(BetState))  # a hand's side bets (no __eq__ of their own)
_round_slots = attrgetter(*slot_names(RoundState))


def _same_state(a: Match, b: Match) -> bool:
    """Whether two matches of one variant hold equal values in every slot that their positions
    are made from (then the positions are equal; where this says no, they may still be)."""
    ra, rb = a.rng, b.rng
    return (a.rules is b.rules and type(a.hand) is type(b.hand) is HandState
            and type(a.round) is type(b.round) is RoundState
            and (ra.state == rb.state if ra is not None and rb is not None else ra is rb)
            and _match_slots(a) == _match_slots(b) and _hand_slots(a.hand) == _hand_slots(b.hand)
            and _round_slots(a.round) == _round_slots(b.round) and _same_bets(a.hand, b.hand))


def _same_bets(a: HandState, b: HandState) -> bool:
    """Whether two hands' side bets hold equal values, slot for slot."""
    if a.side is None or b.side is None:
        return a.side is b.side
    return len(a.side) == len(b.side) and all(
        type(x) is type(y) is BetState and _bet_slots(x) == _bet_slots(y)
        for x, y in zip(a.side, b.side, strict=True))


def _draw_of(match: Match) -> list[list[str | None]] | None:
    """The header's ``draw`` of a seeded match that draws its first dealer, or ``None``."""
    if match.seed is None or not drawn(match.rules):
        return None
    return draw_names(draw_first_dealer(match.rules, SplitMix64(match.seed))[0])


class Recorder:
    """Plays a match through :meth:`apply` and writes its log as it goes, flushing after every
    move so an interrupted game loses nothing.

    ``variant`` is what the header names (a shipped name or a path). Deals are written as
    ``deal`` events when the match has no seed, or when ``deals=True``. The header is written
    first, so its version is the one the variant's logs may need
    (:func:`engine.logversion.rules_need`: 2 for a deck with extra cards, else 1).

    A match that is not where a new match of its seed and dealer starts (one built with
    :meth:`Match.from_position`, or one already played on) is written from its position: the
    header holds ``position`` (version 2, no ``seed`` or ``dealer``) and the log goes on from
    there (``position=True`` or ``False`` forces the choice; without ``write_header``, the log
    goes on as it was started). Such a position's hand is not
    dealt again in the log: it is in the position.

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
                 write_header: bool = True, position: bool | None = None,
                 seed_commitment: str | None = None) -> None:
        self.match = match
        self.out = out
        # a StringIO's flush does nothing but check that it is open (its write did already)
        self._flush = None if type(out) is io.StringIO else out.flush
        self.deals = deals or match.rng is None
        self._hand = match.hand_number
        if position is None:  # a log resumed (no header) goes on as it was written
            position = write_header and not starts_fresh(match)
        if write_header:
            self._write(make_header(
                variant, seed=match.seed, dealer=match.dealer, players=players,
                variant_sha256=match.rules.fingerprint if fingerprint else None, meta=meta,
                version=max(rules_need(match.rules), POSITION_VERSION if position else 1,
                            2 if seed_commitment else 1),
                position=match.position() if position else None,
                seed_commitment=seed_commitment, draw=_draw_of(match)))
        if self.deals and match.hand_number and not position:
            self._write_deal()
        self.out.flush()

    def apply(self, action: Action) -> list[Checkpoint]:
        """Apply a move to the match and log it with its checkpoints (and the next deal)."""
        checkpoints = self.match.apply(action)
        kept = _MOVE_LINES.get(id(action))  # move_line's memo, read here: a call less a move
        line = kept[1] if kept is not None and kept[0] is action else move_line(action)
        if checkpoints:
            for cp in checkpoints:
                line += checkpoint_line(cp)
        out = self.out
        out.write(line)  # the move and its checkpoints at once
        hand = self.match.hand_number  # _after_move, written out: a call less a move
        if hand != self._hand:
            self._hand = hand
            if self.deals:
                self._write_deal()
        flush = self._flush
        if flush is not None:
            flush()
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

    def reveal(self, seed: int, nonce: str, entropy: Sequence[str]) -> None:
        """Write the reveal of the header's ``seed_commitment``, the log's last line (once
        the match is over: docs/log-format.md, Committed seeds)."""
        self._write({"event": "reveal", "seed": seed, "nonce": nonce, "entropy": list(entropy)})
        self.out.flush()

    def _write_deal(self) -> None:
        m = self.match
        self._write(Deal(m.dealer, m.hand.dealt, m.hand.vira).to_event())

    def _write(self, event: Mapping[str, Any]) -> None:
        self.out.write(_encode(event) + "\n")


#: Mixed into a recording's seed to seed its move chooser (the deals use the seed itself).
CHOOSER_SALT = 0x7275636F5245434F
#: A recorded match longer than this is stopped (it cannot happen with real rules).
MAX_RECORDED_MOVES = 100_000


def record_random(variant: str | os.PathLike[str], seed: int, *, dealer: int = 0,
                  deals: bool = False, unseeded: bool = False,
                  players: Sequence[str] | None = None,
                  log_dir: str | os.PathLike[str] | None = None) -> str:
    """The log of a match played with uniformly random legal moves: the deals come from
    ``seed`` (docs/log-format.md), each move is drawn from :meth:`Match.legal_actions` by a
    SplitMix64 seeded with ``seed ^ CHOOSER_SALT``. With ``deals`` every hand's ``deal`` event
    is written; with ``unseeded`` the header carries no seed and every hand has its deal event
    (the same cards the seed deals). A variant file is named in the header relative to
    ``log_dir``, the folder the log is written to (the current folder by default; see
    :func:`header_variant`). The same arguments give the same bytes.

    >>> log = record_random("paulista", 7)
    >>> log.splitlines()[0][:60]
    '{"truco_log": 1, "variant": "paulista", "seed": 7, "dealer":'
    >>> log == record_random("paulista", 7)
    True
    """
    rules = resolve_rules(variant)
    name = header_variant(variant, "." if log_dir is None else log_dir)
    chooser = SplitMix64(seed ^ CHOOSER_SALT)
    out = io.StringIO()
    if unseeded:
        dealer_rng = SplitMix64(seed)
        match = Match(rules, seed=None, dealer=dealer)
        rec = Recorder(match, out, variant=name, players=players)

        def deal_if_awaited() -> None:
            if match.awaiting_deal and not match.is_over:
                hands, vira = seeded_deal(rules, dealer_rng, match.dealer, match.last_hand)
                rec.deal(Deal(match.dealer, tuple(tuple(h) for h in hands), vira))
    else:
        match = Match(rules, seed=seed, dealer=dealer)
        rec = Recorder(match, out, variant=name, players=players, deals=deals)

        def deal_if_awaited() -> None:
            pass
    deal_if_awaited()
    for _ in range(MAX_RECORDED_MOVES):
        if match.is_over:
            return out.getvalue()
        legal = match.legal_actions()
        rec.apply(legal[chooser.bounded(len(legal))])
        deal_if_awaited()
    raise RuntimeError(f"the match did not end in {MAX_RECORDED_MOVES} moves")
