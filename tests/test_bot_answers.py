"""Who answers for a team of bots, as a table decides: where several partners may answer a
raise or a side bet's call, or decide a special hand, the driver lets the one whose bot judges
its own hand stronger do it (``engine.bots.next_actor`` given the bots, ``stronger_seat``);
ties, and bots that do not judge, leave the seat after the raiser (the first from the mão for
a decision). Each bot judges from its own observation only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import WriteFile
from helpers import act, deal, match, score_to

from engine import Action, Match
from engine.bots import HeuristicBot, make_bot, movers, next_actor
from engine.bots.base import Observation
from engine.game import resolve_rules
from engine.logread import MOVES
from engine.simulate import run_simulation

#: Dealer 0, so seat 1 is the mão and raises first; seat 2 (after it) is weak, its partner
#: seat 0 holds two manilhas and a 3 (vira Qs: the jacks are manilhas).
STRONG_PARTNER = "Jc Jh 3c | Kd 5d 6d | 4h 5h 6h | 7s 4s 5s"


class Spy(HeuristicBot):
    """A heuristic that records what it was given to judge and what it said."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.judged: list[tuple[Observation, float]] = []

    def judge(self, observation: Observation) -> float:
        value = super().judge(observation)
        self.judged.append((observation, value))
        return value


def _bots(m: Match, kind: str = "heuristic") -> list[Any]:
    return [make_bot(kind, m.rules, seed=s) for s in range(m.players)]


def _raised(variant: str, hands: str) -> Match:
    m = match(variant, deal(0, hands, vira="Qs"))
    act(m, "raise 1 3")
    return m


def test_the_stronger_partner_answers_a_raise() -> None:
    m = _raised("paulista", STRONG_PARTNER)
    assert movers(m) == [2, 0]
    assert next_actor(m) == 2  # without the bots: the seat after the raiser
    assert next_actor(m, bots=_bots(m)) == 0  # the partner with the manilhas
    assert next_actor(m, prefer=2, bots=_bots(m)) == 2  # a person at the table answers


def test_the_next_seat_answers_whatever_its_partner_holds() -> None:
    m = _raised("next-seat-answers", STRONG_PARTNER)
    assert movers(m) == [2]
    assert next_actor(m, bots=_bots(m)) == 2


def test_a_tie_leaves_the_seat_after_the_raiser() -> None:
    m = _raised("paulista", "4d 5d 6d | Kd 5s 6s | 4h 5h 6h | 7s 4s 5c")
    bots = _bots(m)
    assert bots[0].judge(m.observation(0)) == bots[2].judge(m.observation(2))
    assert next_actor(m, bots=bots) == 2


def test_bots_that_do_not_judge_leave_the_seat_after_the_raiser() -> None:
    m = _raised("paulista", STRONG_PARTNER)
    assert not hasattr(_bots(m, "random")[0], "judge")
    assert next_actor(m, bots=_bots(m, "random")) == 2
    mixed = _bots(m, "random")
    mixed[2] = make_bot("heuristic", m.rules, seed=2)  # only seat 2 judges: it answers
    assert next_actor(m, bots=mixed) == 2


def test_only_a_partner_of_the_first_answerer_is_judged(write: WriteFile) -> None:
    # Three players, each his own team, where either other player may answer: seat 0 is
    # stronger than seat 2, but no partner of seat 2's: the seat after the raiser answers.
    path = write("three.yaml", "extends: three-players\nbetting: {answered_by: challenged_team}\n")
    m = match(path, deal(0, "Jc Jh 3c | Kd 5d 6d | 4h 5h 6h", vira="Qs"))
    act(m, "raise 1 3")
    assert movers(m) == [2, 0]
    assert next_actor(m, bots=_bots(m)) == 2


def test_each_bot_judges_from_its_own_observation_and_the_other_team_changes_nothing() -> None:
    said = []
    for raisers in ("Kd 5d 6d | 7s 4s 5s", "Ac As 2d | Kc 3h 3s"):  # seats 1 and 3
        one, three = raisers.split("|")
        m = _raised("paulista", f"Jc Jh 3c | {one} | 4h 5h 6h | {three}")
        spies = [Spy(m.rules, seed=s) for s in range(4)]
        assert next_actor(m, bots=spies) == 0
        for s, spy in enumerate(spies):
            assert all(obs == m.observation(s) for obs, _ in spy.judged)  # its own only
        assert not spies[1].judged and not spies[3].judged  # the raisers are not asked
        said.append([(s, obs, v) for s, spy in enumerate(spies) for obs, v in spy.judged])
    assert said[0] == said[1]  # same observations, same values: the raisers' cards unseen


def test_the_stronger_partner_answers_a_side_bet_call() -> None:
    # Gaudério, dealer 0: seat 1 (the mão) calls envido; seat 2 has 21 points, seat 0 33.
    m = match("gauderio", deal(0, "7c 6c Kd | 3s 4d 5h | Ah Kh 3d | Js Qd 2s"))
    act(m, "envido 1 envido")
    assert movers(m) == [2, 0]
    assert next_actor(m, bots=_bots(m)) == 0


def _at_eleven(variant: str, team0: str, team1: str) -> Match:
    """Team 0 at 11 with ``team0`` (its first seat from the mão, then the other), team 1
    with ``team1``; the decision waits."""
    m = match(variant)
    score_to(m, [11, 0])
    first, second = (s for s in ((m.mao + k) % 4 for k in range(4)) if s % 2 == 0)
    a, b = team0.split("|")
    c, d = team1.split("|")
    hands = {first: a, second: b, (first + 1) % 4: c, (second + 1) % 4: d}
    m.deal(deal(m.dealer, " | ".join(hands[s] for s in range(4)), vira="Qs"))
    assert m.state == "decide"
    return m


def test_the_stronger_partner_decides_a_mao_de_onze() -> None:
    m = _at_eleven("paulista-mao-de-11-decision", "4d 5d 6d | Jc Jh 3c", "Kd 5h 6h | 7s 4s 5s")
    first, second = movers(m)
    assert next_actor(m) == first
    assert next_actor(m, bots=_bots(m)) == second  # the one holding the manilhas


def test_the_single_decider_decides_whatever_its_partner_holds() -> None:
    m = _at_eleven("single-decider", "4d 5d 6d | Jc Jh 3c", "Kd 5h 6h | 7s 4s 5s")
    assert len(movers(m)) == 1
    assert next_actor(m, bots=_bots(m)) == movers(m)[0]


def _stats(variant: str) -> dict[str, Any]:
    stats = run_simulation(variant, games=30, seed=3, bots=["heuristic"])
    return {k: v for k, v in stats.items() if k not in ("variant", "variant_sha256")}


def test_simulate_tells_next_seat_answers_from_paulista() -> None:
    # Before, the seat after the raiser answered in both, and the statistics were the same.
    assert _stats("next-seat-answers") != _stats("paulista")


def _deciders(variant: str, logs: Path) -> list[bool]:
    """Of every decision of a seeded run's logs (replayed to know the mão): whether the
    team's first seat from the mão made it."""
    rules = resolve_rules(variant)
    run_simulation(variant, games=40, seed=3, bots=["heuristic"], logs=logs)
    firsts = []
    for path in sorted(logs.glob("*.jsonl")):
        header, *events = (json.loads(line) for line in path.read_text("utf-8").splitlines())
        m = Match(rules, seed=header["seed"], dealer=header["dealer"])
        for ev in events:
            if ev["event"] not in MOVES:
                continue  # a checkpoint
            action = Action.from_event(ev)
            if action.kind == "decide":
                team = [s for s in ((m.mao + k) % 4 for k in range(4))
                        if rules.team_of[s] == m.special_team]
                firsts.append(action.seat == team[0])
            m.apply(action)
    return firsts


def test_simulate_logs_tell_single_decider_from_its_parent(tmp_path: Path) -> None:
    parent = _deciders("paulista-mao-de-11-decision", tmp_path / "parent")
    single = _deciders("single-decider", tmp_path / "single")
    assert parent and single and all(single)
    assert not all(parent)  # the partner with the stronger hand decided some of them
