"""Invariants over thousands of random matches of every shipped variant.

Deals come from each match's seed; moves are chosen among the legal ones by a SplitMix64
stream of their own, so every failure names a (variant, seed) that reproduces it.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import Action, IllegalMoveError, Match
from engine.cards import card_name
from engine.shuffle import SplitMix64

VARIANTS = ("paulista", "mineiro", "mineiro-12")
GAMES = 2000  # random matches per variant
MAX_MOVES = 5000  # far more than any match needs: a match always ends
CARD_NAMES = {card_name(c) for c in range(52)}


def moves_of(m: Match, seed: int) -> Iterator[tuple[list[Action], Action]]:
    """The legal moves and a random move, until the match is over (the stream is seeded
    apart from the deals): one of the legal moves, or now and then a penalised raise."""
    rng = SplitMix64(seed ^ 0x5DEECE66D)
    while not m.is_over:
        legal = m.legal_actions()
        if m.special and m.state in ("play", "decide") and rng.bounded(30) == 0:
            # now and then a forbidden raise (P5, P6, M5, M6): a move a recorded game can hold
            yield legal, Action.raise_to(rng.bounded(m.players), m.value)
        else:
            yield legal, legal[rng.bounded(len(legal))]


def transcript(variant: str, seed: int) -> list[Any]:
    """Every move and checkpoint of a random match, as plain data."""
    m = Match.new(variant, seed=seed, dealer=seed % 4)
    out: list[Any] = []
    for _, action in moves_of(m, seed):
        out.append(str(action))
        out.extend(m.apply(action))
    return out


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)


def check_observations(m: Match) -> None:
    """No seat's observation holds a card another seat holds unseen."""
    r = m.rules
    public = {c for _, c in m.shown}
    for seat in range(m.players):
        obs = m.observation(seat)
        seen_partners = (obs["phase"] == "decide" and r.one_team.show_partner_cards
                         and seat % 2 == m.special_team)
        hidden = {c for s in range(m.players) if s != seat
                  and not (seen_partners and s % 2 == seat % 2) for c in m.hands[s]} - public
        if m.blind:
            hidden |= set(m.hands[seat])
            assert obs["hand"] is None
        for p in obs["played"]:
            if p["covered"] and p["seat"] != seat:
                assert p["card"] is None
            if p["card"] is not None:
                hidden.discard(p["card"])  # a card on the table is no secret
        now = {k: v for k, v in obs.items() if k not in ("manilhas", "vira", "last_hand")}
        leaked = {s for s in _strings(now) for w in s.split() if w in hidden}
        assert not leaked, (seat, leaked, obs)
        for p in (obs["last_hand"] or {}).get("played", []):
            assert p["card"] is not None or p["covered"]
            if p["covered"] and p["seat"] != seat:
                assert p["card"] is None


def play_checked(variant: str, seed: int, observe: bool, clone_at: int | None) -> list[Any]:
    """A random match with the invariants checked at every move (every observation when
    ``observe``; a clone taken before move ``clone_at`` replays the rest); returns its
    transcript."""
    m = Match.new(variant, seed=seed, dealer=seed % 4)
    out: list[Any] = []
    played: set[str] = set()
    hand = m.hand_number
    clone: Match | None = None
    clone_moves: list[Action] = []
    for n, (legal, action) in enumerate(moves_of(m, seed)):
        assert n < MAX_MOVES, (variant, seed)
        if m.special:  # P5, P6, M5, M6: a penalised raise is never offered
            assert not any(a.kind == "raise" for a in legal), (variant, seed)
        if m.pending is not None:  # the raise is answered before play goes on
            assert {a.kind for a in legal} <= {"accept", "fold", "raise"}
            assert {a.seat % 2 for a in legal} == {m.challenged_team}
            if n % 7 == 0:
                with pytest.raises(IllegalMoveError):
                    m.apply(Action.play(m.turn, m.hands[m.turn][0]) if m.hands[m.turn]
                            else Action.accept(1 - m.challenged_team))  # type: ignore[operator]
                assert m.legal_actions() == legal
        if observe:
            check_observations(m)
        if n == clone_at:
            clone = m.clone()
        if clone is not None:
            clone_moves.append(action)
        if m.hand_number != hand:
            hand, played = m.hand_number, set()
        if action.kind == "play":  # every card dealt is played at most once
            name = card_name(action.card)  # type: ignore[arg-type]
            assert name not in played and name in m.dealt[action.seat]
            played.add(name)
        score, games = m.score[:], m.games[:]
        events = m.apply(action)
        if not any(e["event"] == "game" for e in events):  # scores never fall within a game
            assert m.score[0] >= score[0] and m.score[1] >= score[1], (variant, seed)
            assert m.games == games
        out.append(str(action))
        out.extend(events)
    assert m.winner is not None and m.games[m.winner] == m.rules.games_to_win
    if clone is not None:
        tail: list[Any] = []
        for action in clone_moves:
            tail.append(str(action))
            tail.extend(clone.apply(action))
        assert tail == out[len(out) - len(tail):], (variant, seed)
        assert [clone.observation(s) for s in range(4)] == [m.observation(s) for s in range(4)]
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_matches_keep_every_invariant(variant: str) -> None:
    lengths = []
    for seed in range(GAMES):
        lengths.append(len(play_checked(variant, seed, observe=seed % 25 == 0,
                                        clone_at=seed % 40 if seed % 5 == 0 else None)))
    assert min(lengths) > 0


def _digest(variant: str, seeds: range) -> str:
    text = json.dumps([transcript(variant, s) for s in seeds], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def test_same_seed_and_moves_give_the_same_checkpoints_in_a_new_process() -> None:
    seeds = range(40)
    here = {v: _digest(v, seeds) for v in VARIANTS}
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]); "
            "from test_invariants import _digest, VARIANTS; "
            f"print(json.dumps({{v: _digest(v, range({seeds.stop})) for v in VARIANTS}}))")
    tests = Path(__file__).resolve().parent
    for hashseed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed,
               "PYTHONPATH": os.pathsep.join([str(tests.parent), os.environ.get("PYTHONPATH", "")])}
        out = subprocess.run([sys.executable, "-c", code, str(tests)], env=env, check=True,
                             capture_output=True, text=True, cwd=tests.parent).stdout
        assert json.loads(out) == here


def test_a_clone_sets_every_slot_of_the_match_and_of_its_hand() -> None:
    """Match.clone, HandState.copy, RoundState.copy and BetState.copy name their slots one by
    one: a slot added to one and forgotten there would be unset in the copy (for a match with
    side bets too: the copy's records are its own)."""
    from engine.sidebets import BetState
    from engine.slots import slot_names
    from engine.state import HandState, RoundState

    match_slots, hand_slots = slot_names(Match), slot_names(HandState)
    for variant in ("paulista", "gauderio"):
        m = Match.new(variant, seed=4)
        m.apply(m.legal_actions()[0])
        other = m.clone()
        assert [name for name in match_slots if not hasattr(other, name)] == []
        assert [name for name in hand_slots if not hasattr(other.hand, name)] == []
        assert [getattr(other.hand, n) == getattr(m.hand, n) for n in hand_slots
                if n != "side"] == [True] * (len(hand_slots) - 1)
        round_slots = slot_names(RoundState)
        assert [getattr(other.round, n) == getattr(m.round, n)
                for n in round_slots] == [True] * len(round_slots)
        if m.hand.side is not None:
            assert other.hand.side is not None and other.hand.side is not m.hand.side
            for mine, copied in zip(m.hand.side, other.hand.side, strict=True):
                assert copied is not mine
                assert [n for n in slot_names(BetState)
                        if getattr(copied, n) != getattr(mine, n)] == []
