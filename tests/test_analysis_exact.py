"""``truco analyze --hindsight`` is the truth of the cards (issue 44): knowing every card, its
best move is the perfect-information best move, checked against values this file computes on
its own (a plain minimax of the rest of the hand: no pruning, no table), on every decision of
rounds 2 and 3 of heuristic matches in several variants; and a perfect-play-optimal move is
never marked."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator

import pytest

from engine import Match
from engine.actions import Action
from engine.analysis import Decision, decision_at, hindsight_values, judge
from engine.bots import make_bot
from engine.bots.base import choose_for, movers, next_actor, out_of_turn_raise
from engine.bots.playout import hand_over, real_move
from engine.bots.winchance import win_chance
from engine.moves.raising import raises_any_time
from engine.position import build
from engine.state import PLAY

#: Variants (four seats; raises out of turn and a special hand in Mineiro, side bets in
#: Gaudério; one on one), and how many decisions of each are checked: the first of a hand's
#: second round costs the plain minimax seconds where a hand can be raised four times.
VARIANTS = [("paulista", 12), ("mineiro", 60), ("gauderio", 60), ("one-on-one", 36)]


def brute(m: Match, offer: int = 1) -> tuple[float, ...]:
    """Each team's chance to win the match with perfect play to the hand's end: every move
    tried, a raise out of turn offered before every card to the seats after the one to play
    (M3), the team to move taking its best (each position once: remembered by its JSON)."""
    key = json.dumps([m.rules.name, offer, m.position()])
    if key not in SEEN:
        SEEN[key] = _brute(m, offer)
    return SEEN[key]


#: The positions :func:`brute` has valued, by variant (every card known: a position's value is
#: the same wherever it is met).
SEEN: dict[str, tuple[float, ...]] = {}


def _brute(m: Match, offer: int) -> tuple[float, ...]:
    rules = m.rules
    team_of = rules.team_of
    if hand_over(m):
        if m.winner is not None:
            return tuple(float(t == m.winner) for t in range(rules.teams))
        return win_chance(rules).match(m.score, m.games)
    options: list[tuple[Match, int]] = []
    if m.state == PLAY and raises_any_time(m) and not m.special:
        for k in range(offer, rules.players):
            seat = (m.turn + k) % rules.players
            raises = [] if team_of[seat] == m.last_raise_team else m.legal_actions(seat)
            if raises:
                options = [(_after(m, a), 1) for a in raises] + [(m, k + 1)]
                return max((brute(c, o) for c, o in options), key=lambda v: v[team_of[seat]])
    team = team_of[m.turn if m.state == PLAY else movers(m)[0]]
    legal = m.legal_actions(m.turn) if m.state == PLAY else m.legal_actions()
    values = [brute(_after(m, a)) for a in legal if team_of[a.seat] == team]
    return max(values, key=lambda v: v[team])


def _after(m: Match, move: Action) -> Match:
    trial = m.clone()
    trial.apply(move)
    return trial


def exact_values(d: Decision, rules_name: str) -> list[float]:
    """Each of the decision's moves' value for its seat's team, by :func:`brute`."""
    m = build(Match.new(rules_name).rules, dict(d.position, rng=None), trusted=True)
    team = m.rules.team_of[d.seat]
    out = []
    for move in d.moves:
        trial = m.clone()
        real = real_move(trial, move)
        if real is None:  # the pass of a raise out of turn: the later seats are still asked
            out.append(brute(trial, (d.seat - trial.turn) % m.players + 1)[team])
        else:
            trial.apply(real)
            out.append(brute(trial)[team])
    return out


def late_decisions(variant: str, seeds: range) -> Iterator[Decision]:
    """Every decision of rounds 2 and 3 of heuristic matches (raises out of turn offered as a
    driver offers them)."""
    for seed in seeds:
        m = Match.new(variant, seed=seed)
        bots = [make_bot("heuristic", m.rules, seed=s) for s in range(m.players)]
        while not m.is_over:
            if m.awaiting_deal:
                m.deal_next()
                continue
            raised = out_of_turn_raise(m, bots)
            seat = next_actor(m, bots=bots) if raised is None else raised.seat
            move = raised or choose_for(bots[seat], m, seat)
            if m.state not in ("cut", "deal") and m.round.number >= 1:
                found = decision_at(m, move, 1)
                if found is not None:
                    yield found
            m.apply(move)


@pytest.mark.parametrize(("variant", "count"), VARIANTS)
def test_hindsight_is_the_perfect_information_value(variant: str, count: int) -> None:
    rules = Match.new(variant).rules
    checked = optimal_played = 0
    for d in itertools.islice(late_decisions(variant, range(2)), count):
        truth = exact_values(d, variant)
        table = hindsight_values(rules, d.position, d.seat, d.moves, seed=0, playouts=4)
        assert table.exact, (variant, d.position)
        got = [row[0] for row in table.rows[0]]
        assert got == pytest.approx(truth, abs=1e-12), (variant, d.position, d.moves)
        summary = judge(table, d.played, len(d.moves))
        best = max(truth)
        assert truth[summary["best"]] == pytest.approx(best, abs=1e-12)
        if truth[d.played] >= best - 1e-12:
            optimal_played += 1
            assert summary["mark"] is None and summary["loss"] == 0.0, (variant, d.position)
        else:
            assert summary["loss"] == pytest.approx(best - truth[d.played], abs=1e-4)
        checked += 1
    assert checked == count and optimal_played > count // 3, (checked, optimal_played)
