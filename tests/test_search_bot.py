"""The ``search`` bot: it sees only its seat's observation, is deterministic for a seed, plays
only legal moves in every variant, and makes each kind of decision sensibly."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import act, deal, doctests, match, score_to

import engine.bots.search
from engine import Action, Match
from engine.bots import (
    HeuristicBot,
    SearchBot,
    bot_problem,
    choose_for,
    make_bot,
    next_actor,
    out_of_turn_raise,
)
from engine.bots.search import WinChance
from engine.bots.sound import SoundBot
from engine.resources import shipped_variants
from engine.shuffle import SplitMix64
from engine.variant import load_variant


def _obs(m: Match, seat: int) -> tuple[Any, list[Action]]:
    return m.observation(seat), m.legal_actions(seat)


def _choose(m: Match, seat: int, *, seed: int = 0, budget: int = 60) -> Action:
    return choose_for(SearchBot(m.rules, seed, budget=budget), m, seat)


# -- information hiding ---------------------------------------------------------------------
def test_search_same_observation_same_choice_whatever_the_hidden_cards() -> None:
    # Seat 1 (the mão) holds the same cards and sees the same vira; the other hands differ.
    deals = ["4c 5d 6h | Kd 2s 3h | 7c 7d 7h | Ac Ad Ah",
             "Ac Ad Ah | Kd 2s 3h | 4c 5d 6h | 7c 7d 7h",
             "Jc Jd Jh | Kd 2s 3h | 5c 5h 5s | 6c 6d 6s"]
    matches = [match("paulista", deal(0, d, vira="Qs")) for d in deals]
    observations = [m.observation(1) for m in matches]
    assert observations[0] == observations[1] == observations[2]
    for seed in range(4):
        choices = {_choose(m, 1, seed=seed, budget=24) for m in matches}
        assert len(choices) == 1


def test_search_a_raise_card_it_was_not_shown_changes_nothing() -> None:
    # Mineiro (M4): seat 1 raises naming a card; seat 2 answers without seeing it.
    choices = set()
    for card in ("3d", "2d", "Kd"):
        m = match("mineiro", deal(0, "4c 7h As | 3d 2d Kd | 5c 6c Qc | Jd Qd Ks"))
        act(m, f"raise 1 3 {card}")
        choices.add((str(_obs(m, 2)[0]), _choose(m, 2, seed=3, budget=24)))
    assert len(choices) == 1


def test_search_covered_cards_stay_hidden() -> None:
    # Paulista (P7): seat 1 covers a card in round 2; seat 2 does not see which.
    choices = set()
    for covered in ("5d", "6h"):
        other = "6h" if covered == "5d" else "5d"
        m = match("paulista", deal(0, f"Ac Ad Ah | Kd {covered} {other} | 7c 7d 7h | 4c 4d 4h",
                                   vira="Qs"))
        act(m, "play 1 Kd", "play 2 7c", "play 3 4c", "play 0 Ac")  # team 0 wins round 1
        act(m, "play 0 Ad", f"play 1 {covered} covered")
        choices.add((str(_obs(m, 2)[0]), _choose(m, 2, seed=5, budget=24)))
    assert len(choices) == 1


# -- determinism ----------------------------------------------------------------------------
def _play(variant: str, bots: list[str], seed: int) -> list[Action]:
    m = Match.new(variant, seed=seed)
    players = [make_bot(bots[s % len(bots)], m.rules, seed * 10 + s) for s in range(m.players)]
    moves = []
    while not m.is_over:
        action = out_of_turn_raise(m, players)
        if action is None:
            seat = next_actor(m)
            action = choose_for(players[seat], m, seat)
        moves.append(action)
        m.apply(action)
    return moves


def test_search_same_seed_same_match() -> None:
    for variant in ("paulista", "mineiro"):
        first = _play(variant, ["search:8", "heuristic"], 3)
        assert _play(variant, ["search:8", "heuristic"], 3) == first


def test_search_uses_its_own_generator_only() -> None:
    m = Match.new("paulista", seed=4)
    obs, legal = _obs(m, m.turn)
    bot = SearchBot(m.rules, 9, budget=30)
    state = bot.rng.state
    first = bot.choose(obs, legal)
    again = SearchBot(m.rules, 9, budget=30)
    SplitMix64(123).next()  # another generator's use changes nothing
    assert again.choose(obs, legal) == first and bot.rng.state != state


# -- legal moves in every variant -----------------------------------------------------------
@pytest.mark.parametrize("variant", sorted(shipped_variants()))
def test_search_legal_moves_over_random_positions(variant: str) -> None:
    """Random matches; at every move the seat to act (and every seat offered a raise out of
    turn, M3) asks a small search, whose move must be legal; the match goes on randomly."""
    asked = 0
    for seed in range(3):
        m = Match.new(variant, seed=seed)
        walk = SplitMix64(seed)
        bots = [SearchBot(m.rules, seed * 7 + s, budget=2) for s in range(m.players)]
        while not m.is_over:
            offered = out_of_turn_raise(m, bots)
            if offered is not None:
                assert offered in m.legal_actions(offered.seat)
            seat = next_actor(m)
            choice = choose_for(bots[seat], m, seat)
            assert choice in m.legal_actions(seat)
            asked += 1
            # a resignation ends the match at once: played last, so the states come by
            legal = ([a for a in m.legal_actions(seat) if a.kind != "resign"]
                     or m.legal_actions(seat))
            m.apply(legal[walk.bounded(len(legal))])
    assert asked > 30


# -- one test per kind of decision ----------------------------------------------------------
def test_search_play_wins_the_round_it_can_win() -> None:
    # Paulista, vira Qs (jacks are manilhas). Seat 0 plays last in round 1 and can win it.
    m = match("paulista", deal(0, "4c 2c Ac | Kd 5d 6d | 4h 5h 6h | 7s 4s 5s", vira="Qs"))
    act(m, "play 1 Kd", "play 2 4h", "play 3 4s")
    assert _choose(m, 0) in (Action.play(0, "2c"), Action.play(0, "Ac"))


def test_search_accept_a_raise_with_a_winning_hand() -> None:
    # Team 0 won round 1; seat 0 holds the two best manilhas; seat 1 raises in round 2.
    m = match("paulista", deal(0, "Jc 3d Jh | 4d 5d 6d | Ac 5h 6h | 7s 4s 5s", vira="Qs"))
    act(m, "play 1 4d", "play 2 Ac", "play 3 4s", "play 0 3d")  # seat 0 leads round 2
    act(m, "play 0 Jh", "raise 1 3")
    assert _choose(m, 0).kind in ("accept", "raise")


def test_search_fold_a_lost_hand() -> None:
    # Team 1 won round 1 with a manilha; seat 3 raises to lead round 2; team 0 holds 4s and 5s.
    m = match("paulista", deal(0, "4c 5c 6c | 7d Jh Kd | 4d 5d 6h | Jc 3s 2s", vira="Qs"))
    act(m, "play 1 7d", "play 2 6h", "play 3 Jc", "play 0 6c", "raise 3 3")
    assert _choose(m, 0) == Action.fold(0)


def test_search_decide_a_special_hand_by_the_team_cards() -> None:
    def decide(team_cards: str) -> Action:
        m = match("mineiro")
        score_to(m, [10, 6])
        a, b = team_cards.split("|")
        m.deal(deal(m.dealer, f"{a}|Qc Qd Qs|{b}|Jc Jd Js"))
        assert m.state == "decide"
        return _choose(m, next_actor(m))

    assert decide("4d 5d 6d | 4h 5h 6h").play_on is False
    assert decide("4c 7h As | 7d 3h 3s").play_on is True


def test_search_blind_hand_by_position() -> None:
    # Mão de ferro (P6): own cards hidden; the choice names a position and does not depend on
    # the cards.
    chosen = set()
    for hand in ("4c 7h As", "5d 6d 7d"):
        m = match("paulista")
        score_to(m, [11, 11])
        cards = [hand, "Kd Kh Ks", "Jc Jd Jh", "Qc Qd Qh"]
        first = m.mao
        m.deal(deal(m.dealer, " | ".join(cards[(s - first) % 4] for s in range(4)), vira="3s"))
        obs, legal = _obs(m, first)
        assert obs["blind"]
        bot = SearchBot(m.rules, 1, budget=12)
        from engine.bots import seat_view

        view = seat_view(m, first)[1]
        move = bot.choose(obs, view)
        assert move in view and move.position is not None
        chosen.add(move)
    assert len(chosen) == 1


def test_search_raise_names_a_held_card() -> None:
    # Mineiro (M4): the raise names one of the seat's cards; with zap, copas and espadilha
    # the search raises (or plays) legally.
    m = match("mineiro", deal(0, "4d 5d 6d | 4c 7h As | 4h 5h 6h | Qs Js Ks"))
    move = _choose(m, 1)
    assert move in m.legal_actions(1)
    if move.kind == "raise":
        assert move.card is not None and move.card in m.hand.hands[1]


def test_search_out_of_turn_offer_is_a_raise_or_the_pass() -> None:
    # Mineiro (M3): every other seat is offered a raise (or a pass) before each card.
    m = match("mineiro", deal(0, "4c 7h As | 4d 5d 6d | 4h 5h 6h | Qs Js Ks"))
    bots = {s: SearchBot(m.rules, s, budget=12) for s in range(4)}
    offered = out_of_turn_raise(m, bots, skip=m.turn)
    assert offered is None or offered in m.legal_actions(offered.seat)


def test_search_concede_only_when_it_loses_nothing() -> None:
    # House variant concede: with the best manilhas in round 1 it plays, never concedes.
    m = match("concede", deal(0, "Ac Ad Ah | Jc Jh 3c | 4h 5h 6h | 7s 4s 5s", vira="Qs"))
    assert Action.concede(1) in m.legal_actions(1)
    assert _choose(m, 1).kind != "concede"


# -- the registry, the value model ----------------------------------------------------------
def test_search_budget_in_the_name() -> None:
    rules = load_variant("paulista")
    bot = make_bot("search:400", rules, 1)
    assert isinstance(bot, SearchBot) and bot.budget == 400
    assert bot_problem("search:x") is not None and bot_problem("heuristic:3") is not None
    with pytest.raises(KeyError, match="known bots: heuristic, random, search"):
        make_bot("genius", rules)


def test_search_playout_policy_is_the_sound_player_unless_asked() -> None:
    """Issue 44: the sound player answers raises in the playouts; ``search:N:heuristic`` (kept
    for comparison, benchmarks/hard_policy.py) gives the heuristic that place instead."""
    rules = load_variant("paulista")
    default, heuristic = make_bot("search:8", rules, 1), make_bot("search:8:heuristic", rules, 1)
    assert isinstance(default, SearchBot) and isinstance(heuristic, SearchBot)
    assert (default.policy, heuristic.policy, heuristic.budget) == ("sound", "heuristic", 8)
    assert [type(p) for p in default._policy] == [SoundBot] * rules.players
    assert [type(p) for p in heuristic._policy] == [HeuristicBot] * rules.players
    today = _play("paulista", ["search:8"], 1)
    assert _play("paulista", ["search:8:sound"], 1) == today  # the default, spelled out
    assert _play("paulista", ["search:8:heuristic"], 1) != today
    assert bot_problem("search:8:heuristic") is None
    assert bot_problem("search:8:wild") == "bad option in 'search:8:wild': one of sound, heuristic"
    assert bot_problem("random:8:sound") == "bot 'random' takes no budget ('random:8:sound')"
    with pytest.raises(ValueError, match="unknown playout policy 'wild'; known: sound, heuristic"):
        SearchBot(rules, policy="wild")


def test_search_win_chance_is_a_probability_that_grows_with_the_score() -> None:
    for variant in ("paulista", "mineiro", "gauderio-trios"):
        w = WinChance(load_variant(variant))
        teams = w.rules.teams
        even = w.match([0] * teams, [0] * teams)
        assert sum(even) == pytest.approx(1.0)
        ahead = w.match([w.rules.target - 1] + [0] * (teams - 1), [0] * teams)
        assert ahead[0] > even[0]


def test_docstring_examples_run() -> None:
    result = doctests(engine.bots.search)
    assert result.attempted >= 1 and result.failed == 0


def test_search_guesses_after_a_flor_show_its_cards_as_the_engine_settles_them() -> None:
    """G41: the flor that scored is shown as the engine settles it (its three cards, best
    first); positions check that against the settlement, so the search bot's guesses must
    say the same or be refused (and drawn again) one time in two."""
    from engine.position import build

    m = match("gauderio", deal(3, "3d 2s Kd | Kc 5c 2c | 7h 6s Ah | 7s Qd Js"), dealer=3)
    act(m, "envido 0 envido", "flor 1 flor")  # G38: uncontested, seat 1's flor scores
    assert m.position()["side_bets"][1]["flores"] == [{"seat": 1, "cards": ["5c", "2c", "Kc"]}]
    for seat in (0, 2, 3):
        bot = SearchBot(m.rules, seat)
        obs = m.observation(seat)
        for _ in range(10):
            build(m.rules, bot.guess(obs), trusted=True)  # no PositionError
