"""A void hand thrown in (``redeal``, the house variant ``redeal``): what a void hand is, when
its holder may throw it in, what follows (a hand for nobody, the next deal), what the other
seats see, the log round trip, positions and bots playing it (docs/rules.md, "A void hand")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import WriteFile
from helpers import act, assert_illegal, deal, doctests, legal, match

import engine.moves.redeal
from engine import Match
from engine.actions import Action
from engine.bots.base import make_bot
from engine.logformat import record_random
from engine.replay import verify_file
from engine.simulate import play_match
from engine.transcript import transcript
from engine.variant import load

REDEAL = "redeal"
#: Dealer 0, vira 4d (the 5s are the manilhas): seat 1, the mão, holds three figures.
VOID_MAO = deal(0, "4c 6h 7d | Qc Jh Ks | 2c 3h Ad | 6c 7s 3d", vira="4d")
#: The same but seat 2 holds the figures: the mão, seat 1, does not.
VOID_SECOND = deal(0, "4c 6h 7d | 2c 3h Ad | Qc Jh Ks | 6c 7s 3d", vira="4d")


def _seeded_redeal(variant: str = REDEAL) -> tuple[int, Match, int]:
    """The first seed whose first hand offers a redeal to the mão: (seed, match, seat)."""
    for seed in range(500):
        m = Match.new(variant, seed=seed)
        offered = [a for a in m.legal_actions() if a.kind == "redeal"]
        if offered:
            return seed, m, offered[0].seat
    raise AssertionError("no seed offers a redeal")


def test_the_mao_throws_in_three_figures_and_the_hand_ends_for_nobody() -> None:
    m = match(REDEAL, VOID_MAO)
    assert legal(m)[-1] == "redeal 1"  # after the cards and the raise of the seat to play
    assert act(m, "redeal 1") == [{"event": "hand", "winner": None, "points": 0,
                                   "score": [0, 0]}]
    assert (m.awaiting_deal, m.dealer, m.hand_number) == (True, 1, 1)  # the next dealer deals


def test_a_figure_that_is_a_manilha_makes_no_void_hand() -> None:
    m = match(REDEAL, deal(0, "4c 6h 7d | Qc Jh Ks | 2c 3h Ad | 6c 7s 3d", vira="Jd"))
    assert "redeal 1" not in legal(m)  # vira J: the kings are the manilhas
    assert assert_illegal(m, "redeal 1", "not void").code == "hand_not_void"


def test_only_on_the_holders_turn_in_round_1_before_his_card_and_any_raise() -> None:
    m = match(REDEAL, VOID_SECOND)
    assert "redeal 1" not in legal(m)
    assert assert_illegal(m, "redeal 1").code == "hand_not_void"
    assert assert_illegal(m, "redeal 2", "own turn").code == "not_your_turn"
    act(m, "play 1 2c")
    assert legal(m)[-1] == "redeal 2"  # his first turn: cards already played do not matter
    raised = match(REDEAL, VOID_SECOND)
    act(raised, "raise 1 3", "accept 2", "play 1 2c")
    assert "redeal 2" not in legal(raised)
    assert assert_illegal(raised, "redeal 2", "before any raise").code == "redeal_too_late"
    later = match(REDEAL, VOID_SECOND)
    act(later, "play 1 2c", "play 2 Qc", "play 3 6c", "play 0 4c", "play 1 3h")
    assert later.round.number == 1 and later.turn == 2  # round 2
    assert assert_illegal(later, "redeal 2").code == "redeal_too_late"


def test_no_redeal_in_a_special_hand() -> None:
    m = match(REDEAL, VOID_MAO)
    position: dict[str, Any] = {**m.position(), "score": [11, 4], "value": 3, "special": {
        "entry": 1, "name": "mão de onze", "team": 0, "decider": None}}
    at_11 = Match.from_position(REDEAL, position)
    assert "redeal 1" not in legal(at_11)
    assert assert_illegal(at_11, "redeal 1", "mão de onze").code == "no_redeal_in_special_hand"


def test_the_void_ranks_are_the_variants(write: WriteFile) -> None:
    low = write("low.yaml", "name: low\nextends: redeal\nredeal:\n  void_ranks: ['4', '5', '6']\n")
    m = match(str(low), deal(0, "Qc Jh Ks | 4c 6h 5d | 2c 3h Ad | 6c 7s 3d", vira="2d"))
    assert legal(m)[-1] == "redeal 1"  # vira 2: the 3s are the manilhas, no 4-5-6 among them
    figures = match(str(low), VOID_MAO)
    assert assert_illegal(figures, "redeal 1").code == "hand_not_void"
    assert load(str(low)).block("redeal")["void_ranks"] == ["4", "5", "6"]


def test_no_redeal_without_the_house_rule() -> None:
    m = match("paulista", VOID_MAO)
    assert "redeal 1" not in legal(m)
    assert assert_illegal(m, "redeal 1").code == "not_in_variant"


def test_a_seeded_redeal_deals_the_seeds_next_hand_to_the_next_dealer() -> None:
    seed, m, seat = _seeded_redeal()
    act(m, f"redeal {seat}")
    plain = Match.new("paulista", seed=seed)  # the first hand played out, any way
    while plain.hand_number == 1:
        plain.apply(plain.legal_actions()[0])
    assert (m.state, m.hand_number, m.dealer) == ("play", 2, 1)
    assert (m.hand.dealt, m.hand.vira, m.dealer) == (plain.hand.dealt, plain.hand.vira,
                                                     plain.dealer)


def test_every_seat_sees_the_same_whatever_the_hidden_cards_but_the_holder() -> None:
    """The redeal's offer depends on the holder's cards only: the other seats' observations
    are the same whether his hand is void or not (his cards hidden), and his own is the same
    whatever the others hold."""
    void = match(REDEAL, VOID_MAO)
    plain = match(REDEAL, deal(0, "4c 6h 7d | Qc Jh 2s | 2c 3h Ad | 6c 7s 3d", vira="4d"))
    assert "redeal 1" in legal(void, 1) and "redeal 1" not in legal(plain, 1)
    for seat in (0, 2, 3):
        assert void.observation(seat) == plain.observation(seat)
    others = match(REDEAL, deal(0, "4s 6d 7c | Qc Jh Ks | 2h 3c Ah | 6s 7h 3s", vira="4d"))
    assert void.observation(1) == others.observation(1)


def test_the_listed_redeal_is_exactly_what_the_judge_accepts() -> None:
    for seed in range(40):
        m = Match.new(REDEAL, seed=seed)
        for _ in range(30):
            if m.is_over:
                break
            listed = {a.seat for a in m.legal_actions() if a.kind == "redeal"}
            assert listed == {s for s in range(4) if m.is_legal(Action("redeal", s))}
            m.apply(m.legal_actions()[(seed + 1) % len(m.legal_actions())])


def test_a_redeal_is_written_read_and_logged() -> None:
    a = Action("redeal", 1)
    assert (str(a), repr(a)) == ("redeal 1", "Action.of('redeal', 1)")
    assert Action.parse("redeal 1") == a == Action.from_event(a.to_event()) == Action.of(
        "redeal", 1)
    assert a.to_event() == {"event": "redeal", "seat": 1}
    with pytest.raises(ValueError):
        Action.parse("redeal 1 now")


@pytest.mark.parametrize("how", [{"deals": True}, {"unseeded": True}, {}])
def test_a_log_with_redeals_verifies_and_is_told(tmp_path: Path, how: dict[str, bool]) -> None:
    seed = next(s for s in range(200) if '"event": "redeal"' in record_random(REDEAL, s))
    log = record_random(REDEAL, seed, **how)
    lines = [json.loads(line) for line in log.splitlines()]
    assert lines[0]["truco_log"] == 2
    at = next(i for i, e in enumerate(lines) if e.get("event") == "redeal")
    assert lines[at + 1] == {**lines[at + 1], "event": "hand", "winner": None, "points": 0}
    path = tmp_path / "redeal.jsonl"
    path.write_text(log, encoding="utf-8")
    result = verify_file(path)
    assert not result.problems, result.problems
    assert "throws in a void hand" in transcript(log.encode(), str(path))


def test_a_log_with_a_redeal_of_a_hand_that_is_not_void_fails(tmp_path: Path) -> None:
    log = record_random(REDEAL, 3, deals=True).splitlines()
    first = next(i for i, line in enumerate(log) if json.loads(line).get("event") == "play")
    seat = json.loads(log[first])["seat"]
    log[first] = json.dumps({"event": "redeal", "seat": seat})
    path = tmp_path / "tampered.jsonl"
    path.write_text("\n".join(log) + "\n", encoding="utf-8")
    problems = verify_file(path).problems
    assert problems and "hand_not_void" in problems[0].message + str(problems[0].code)


def test_a_position_before_a_redeal_goes_on_as_the_match() -> None:
    _, m, seat = _seeded_redeal()
    again = Match.from_position(REDEAL, m.position())
    assert legal(again) == legal(m)
    act(m, f"redeal {seat}")
    act(again, f"redeal {seat}")
    assert again.position() == m.position()


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_bots_play_redeal_matches_to_the_end(bot: str) -> None:
    rules = load(REDEAL)
    for seed in range(3):
        m = Match(rules, seed=seed)
        play_match(m, [make_bot(bot, rules, seed + s) for s in range(4)])
        assert m.is_over and m.winner is not None


def test_the_modules_docstring_example_runs() -> None:
    result = doctests(engine.moves.redeal)
    assert result.attempted >= 1 and result.failed == 0
