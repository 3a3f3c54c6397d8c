"""Bots: deterministic, always legal, playing from the observation only, and the heuristic
beats random."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import act, deal, doctests, match, score_to

from engine import Action, Match
from engine.bots import (
    HeuristicBot,
    RandomBot,
    bot_names,
    choose_for,
    derive_seed,
    make_bot,
    next_actor,
    out_of_turn_raise,
)
from engine.resources import shipped_variants
from engine.shuffle import SplitMix64
from engine.simulate import run_simulation, seat_bots


def _play(variant: str, bots: list[str], seed: int) -> list[Action]:
    """Play one match; check every choice is legal; return the moves."""
    m = Match.new(variant, seed=seed)
    players = [make_bot(b, m.rules, seed * 10 + s)
               for s, b in enumerate(seat_bots(bots, m.rules.players))]
    moves = []
    while not m.is_over:
        action = out_of_turn_raise(m, players)  # M3 variants: the other seats first
        if action is None:
            action = choose_for(players[next_actor(m)], m, next_actor(m))
        assert action in m.legal_actions(action.seat)
        moves.append(action)
        m.apply(action)
    return moves


@pytest.mark.parametrize("variant", sorted(shipped_variants()))
def test_bots_always_choose_a_legal_move(variant: str) -> None:
    for seed in (1, 2):
        assert _play(variant, ["heuristic", "random"], seed)
        assert _play(variant, ["random", "heuristic"], seed)


@pytest.mark.parametrize("bot", ["heuristic", "random"])
@pytest.mark.parametrize("variant", ["paulista", "mineiro", "one-on-one"])
def test_same_seed_same_choices(bot: str, variant: str) -> None:
    first = _play(variant, [bot, bot], 5)
    assert _play(variant, [bot, bot], 5) == first


def test_random_bot_depends_on_its_seed() -> None:
    assert _play("paulista", ["random"], 1) != _play("paulista", ["random"], 2)


def test_random_bot_is_uniform_enough() -> None:
    bot = RandomBot(Match.new("paulista", seed=1).rules, seed=9)
    legal = [Action.accept(1), Action.fold(1), Action.raise_to(1, 6)]
    counts = dict.fromkeys(legal, 0)
    for _ in range(3000):
        counts[bot.choose({}, legal)] += 1
    assert all(900 < c < 1100 for c in counts.values())


def test_make_bot_knows_its_names() -> None:
    assert bot_names() == ["heuristic", "random", "search"]
    with pytest.raises(KeyError, match="known bots: heuristic, random, search"):
        make_bot("genius", Match.new("paulista", seed=1).rules)


def test_derive_seed_is_the_stream_draw() -> None:
    rng = SplitMix64(42)
    assert [derive_seed(42, i) for i in range(4)] == [rng.next() for _ in range(4)]


def _obs(m: Match, seat: int) -> tuple[dict[str, Any], list[Action]]:
    return m.observation(seat), m.legal_actions(seat)


def test_heuristic_plays_the_lowest_winning_card_or_its_weakest() -> None:
    # Paulista, vira Qs: the jacks are manilhas. Seat 1 leads a king.
    m = match("paulista", deal(0, "4c 2c Ac | Kd 5d 6d | 4h 5h 6h | 7s 4s 5s", vira="Qs"))
    act(m, "play 1 Kd")
    bot = HeuristicBot(m.rules, seed=0, bluff=0.0)
    assert bot.choose(*_obs(m, 2)) == Action.play(2, "4h")  # cannot win: the weakest
    act(m, "play 2 4h")
    assert bot.choose(*_obs(m, 3)) == Action.play(3, "4s")  # cannot win either
    act(m, "play 3 4s")
    assert bot.choose(*_obs(m, 0)) == Action.play(0, "Ac")  # A and 2 win: the lowest


def test_heuristic_throws_its_weakest_when_the_partner_wins() -> None:
    m = match("paulista", deal(0, "Ac 2c 4c | Kd 5d 6d | 3h 5h 6h | 7s 4s 5s", vira="Qs"))
    act(m, "play 1 Kd", "play 2 3h", "play 3 7s")
    bot = HeuristicBot(m.rules, seed=0, bluff=0.0)
    assert bot.choose(*_obs(m, 0)) == Action.play(0, "4c")


def test_heuristic_raises_strong_and_folds_weak() -> None:
    m = match("paulista", deal(0, "4d 5d 6d | Jc Jh 3c | 4h 5h 6h | 7s 4s 5s", vira="Qs"))
    bot = HeuristicBot(m.rules, seed=0, bluff=0.0)
    assert bot.choose(*_obs(m, 1)) == Action.raise_to(1, 3)  # two top manilhas and a 3
    act(m, "raise 1 3")
    assert bot.choose(*_obs(m, 2)) == Action.fold(2)  # 4 5 6 of hearts


def test_heuristic_never_folds_when_folding_loses_the_game() -> None:
    def answer(scores: list[int]) -> Action:
        m = match("paulista")
        score_to(m, scores)
        raiser = m.mao
        weak = [raiser + 1, raiser + 2]  # a weak opponent, then the raiser's partner
        cards = {raiser: "Jc Jh 3c", weak[0] % 4: "4d 5d 6d", weak[1] % 4: "Js 4s 5s",
                 (raiser + 3) % 4: "4h 5h 6h"}
        m.deal(deal(m.dealer, " | ".join(cards[s] for s in range(4)), vira="Qd"))
        # truco, raised back to seis, raised again to nove: the hand stands at 6
        act(m, f"raise {raiser} 3", f"raise {weak[0] % 4} 6", f"raise {raiser} 9")
        return HeuristicBot(m.rules, seed=0).choose(*_obs(m, weak[0] % 4))

    assert answer([0, 0]).kind == "fold"  # a weak hand folds
    assert answer([9, 9]).kind == "accept"  # folding gives 6 points: the game


def test_heuristic_uses_the_partners_cards_in_a_mao_de_dez() -> None:
    def decide(team_cards: str, other: str, opponents: int) -> Action:
        m = match("mineiro")
        score_to(m, [10, opponents])
        # Team 0 holds team_cards (seat 0, seat 2), team 1 the other cards.
        a, b = team_cards.split("|")
        c, d = other.split("|")
        m.deal(deal(m.dealer, f"{a}|{c}|{b}|{d}"))
        assert m.state == "decide"
        bot = HeuristicBot(m.rules, seed=0)
        return bot.choose(*_obs(m, 0))

    weak = "4d 5d 6d | 4h 5h 6h"
    strong_partner = "4d 5d 6d | 4c 7h 3h"  # seat 0 is weak, its partner holds zap and copas
    other = "Qc Qd Qs | Jc Jd Js"
    assert decide(weak, other, 0) == Action.decide(0, False)
    assert decide(strong_partner, other, 0) == Action.decide(0, True)
    # A middling team hand plays when losing it costs little, folds when it could cost the
    # game (3 points to a team at 9).
    middling = "3d Kd Jh | 4s 5s 6s"
    assert decide(middling, other, 0) == Action.decide(0, True)
    assert decide(middling, other, 9) == Action.decide(0, False)


def test_heuristic_plays_a_blind_hand_by_position_only() -> None:
    # Mão de ferro (P6): the choice cannot depend on the hidden cards.
    chosen = []
    for hand in ("4c 7h As", "5d 6d 7d"):
        m = match("paulista")
        score_to(m, [11, 11])
        cards = [hand, "Kd Kh Ks", "Jc Jd Jh", "Qc Qd Qh"]
        first = m.mao
        hands = [cards[(s - first) % 4] for s in range(4)]
        m.deal(deal(m.dealer, " | ".join(hands), vira="3s"))
        obs, legal = _obs(m, first)
        assert obs["blind"] and obs["hand"] is None
        action = HeuristicBot(m.rules, seed=0).choose(obs, legal)
        chosen.append(str(obs["legal"][legal.index(action)]))
    assert chosen[0] == chosen[1] == f"play {chosen[0].split()[1]} #1"


def test_heuristic_names_its_card_in_a_mineiro_raise() -> None:
    m = match("mineiro", deal(0, "4d 5d 6d | 4c 7h 3c | 4h 5h 6h | Qs Js Ks"))
    bot = HeuristicBot(m.rules, seed=0, bluff=0.0)
    action = bot.choose(*_obs(m, 1))
    assert action.kind == "raise" and action.value == 3 and action.card is not None


def test_heuristic_beats_random() -> None:
    for variant, games in (("paulista", 150), ("mineiro", 60)):
        stats = run_simulation(variant, games=games, seed=11, bots=["heuristic", "random"])
        assert stats["teams"][0]["match_win_ci95"][0] > 0.5, (variant, stats["teams"])
        swapped = run_simulation(variant, games=games // 2, seed=12,
                                 bots=["random", "heuristic"])
        assert swapped["teams"][1]["match_win_ci95"][0] > 0.5, (variant, swapped["teams"])


@pytest.mark.parametrize("module", ["engine.bots", "engine.bots.base", "engine.bots.random",
                                    "engine.bots.heuristic", "engine.bots.winchance",
                                    "engine.bots.determinize", "engine.bots.playout",
                                    "engine.bots.exact",
                                    "engine.protocol", "engine.protocol.chunk"])
def test_docstring_examples_run(module: str) -> None:
    result = doctests(module)
    assert result.attempted >= 1 and result.failed == 0
