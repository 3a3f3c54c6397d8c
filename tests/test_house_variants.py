"""The house variants (variants/house/*.yaml): each differs from its parent on a concrete deal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import (
    act,
    assert_illegal,
    deal,
    legal,
    match,
    observe_all,
    of,
    rounds,
    score_to,
    win_hand,
)

from engine import Action, IllegalMoveError, Match, find_variant
from engine.logformat import record_random
from engine.resources import shipped_variants

EVEN_P = "4c 5c 6c | 4d 5d 6d | 4h 5h 6h | 4s 5s 6s"  # Paulista, vira 7c: every round ties
EVEN_M = "5c 6c Kc | 5d 6d Kd | 5h 6h Kh | 5s 6s Ks"  # Mineiro: every round ties


def test_every_house_variant_is_tested_here() -> None:
    house = {n for n, p in shipped_variants().items() if p.parent.name == "house"}
    assert house == {
        "classic-mineiro", "paulista-mao-de-11-decision", "manilha-velha",
        "mineiro-mao-de-dez-wins-game", "covered-from-round-1", "no-covered-cards",
        "tie-leader-who-tied", "mineiro-best-of-5", "one-on-one",
        "special-hands-list", "single-decider", "no-raise-when-winning", "game-step",
        "concede", "next-seat-answers", "both-refuse", "no-raise-back",  # test_house_answers
        # ties and play constraints: tests/test_house_ties.py
        "tie-leader-lowest-seat", "tie-leader-mao", "all-tied-first-round", "five-cards",
        "leader-face-up", "no-cover-after-tie", "highest-after-tied-first", "raiser-must-beat",
        "paulista-38-cards", "capixaba-jokers", "manilhas-vira-suit",  # test_house_cards
        "three-players",  # tests/test_three_players.py
        # Gaudério's house options: tests/test_gauderio.py
        "gauderio-one-on-one", "gauderio-trios", "gauderio-all-tied-nobody", "gauderio-30",
        "gauderio-best-of-3", "gauderio-truco-any-time", "gauderio-covered",
        # Gaudério's envido house options: tests/test_envido_house.py
        "gauderio-envido-at-end", "gauderio-falta-trailer", "gauderio-truco-closes-envido",
        "gauderio-envido-pes", "gauderio-real-envido-twice", "gauderio-baralho-envido-open",
        "gauderio-envido-public",
        # Gaudério's flor house options (GH12-GH14): tests/test_flor.py
        "gauderio-sem-flor", "gauderio-flor-argentina", "gauderio-flor-round-1",
        "gauderio-carancho",  # side bets among three teams: tests/test_carancho.py
        # the catalogue's last house rules (issue 24): tests/test_house_catalogue.py
        "doze-e-queda", "raiser-must-kill", "truco-de-amostra",
        "cut",  # catalogue #36, the cutter's choices: tests/test_cut.py
        "redeal",  # a void hand thrown in: tests/test_redeal.py
        # issue 42, the table and the match: tests/test_house_table.py
        "later-games-11-11", "amostra-ace-of-ouros", "amostra-twelve-players",
        "partners-tie-lowest-seat", "no-cover-after-partner", "first-dealer-drawn",
        "blind-dealt-numbers",
        # seeing a partner's cards (issue 42): tests/test_house_seeing.py
        "partners-see-cards", "mao-de-11-cards-kept",
        "only-the-player-answers",  # a designated seat answers: tests/test_house_answerers.py
        "raise-limit-trailing-needs",  # CTruco's raise limit: tests/test_house_raise_limit.py
        "resign",  # leaving the table: tests/test_resign.py
        # giving up as a team, confirm.moves: tests/test_house_confirm.py
        "concede-partner-confirms", "mao-de-dez-fold-both-partners",
        "last-hand-hidden",  # the last hand's cards hidden: tests/test_house_last_hand.py
        "mineiro-highest-after-tie",  # a raise's named card obliged: test_house_obligations.py
        # the cut and the deal as data (issue 42): tests/test_dealing.py
        "vira-last-card", "dealt-one-at-a-time", "cut-not-in-special-hands",
        "cut-sobe-desce", "cut-take-two",  # the cutter's further choices: test_house_cut
        "cut-refusable-four",  # a refusable card at the cut: test_house_cut_refusable
        "pack-made-from-last-hand",  # the feitura do maço: test_house_pack_made
        }


def test_classic_mineiro_starts_at_2_and_climbs_4_6_8_10_12() -> None:
    assert Match.new("mineiro", seed=None).value == 1
    m = match("classic-mineiro", deal(0, EVEN_M))
    assert m.value == 2
    assert_illegal(m, "raise 1 3 5d", "next step, 4 (truco)")
    events = act(m, "raise 1 4 5d", "fold 2")
    assert events == [{"event": "hand", "winner": 1, "points": 2, "score": [0, 2]}]
    m.deal(deal(1, EVEN_M))
    act(m, "raise 2 4 5h", "raise 3 6 5s", "raise 0 8 5c", "raise 1 10 5d", "raise 2 12 5h")
    assert m.value == 10 and legal(m, 3) == ["accept 3", "fold 3"]  # 12 is the top
    act(m, "accept 1")
    assert m.value == 12
    # all tied (M7): the mão's team (seat 2, team 0) scores the 12 and the game
    events = []
    for r in "56K":
        events += act(m, f"play 2 {r}h", f"play 3 {r}s", f"play 0 {r}c", f"play 1 {r}d")
    assert of(events, "hand") == [{"event": "hand", "winner": 0, "points": 12,
                                   "score": [12, 2]}]
    assert of(events, "game")[0]["winner"] == 0


def test_paulista_mao_de_11_decision_the_team_at_11_decides() -> None:
    for variant, decides in (("paulista", False), ("paulista-mao-de-11-decision", True)):
        m = match(variant)
        score_to(m, (4, 11))
        m.deal(deal(m.dealer, EVEN_P, "7c"))
        assert (m.state == "decide") is decides, variant
        if decides:
            obs = observe_all(m)
            assert obs[1]["partner_hands"] == {1: ["4d", "5d", "6d"], 3: ["4s", "5s", "6s"]}
            assert obs[0]["partner_hands"] is None
            assert_illegal(m, "decide 0 play", "only team 1 decides")
            assert act(m, "decide 3 fold") == [
                {"event": "hand", "winner": 0, "points": 1, "score": [5, 11]}]
        else:
            assert_illegal(m, Action.decide(1, False), "no decision is awaited")


def test_manilha_velha_fixed_manilhas_with_paulista_rules() -> None:
    hands = "4c 5c 6c | 3d 5d 6d | 7h 5h 6h | 2s 5s Ks"
    paulista = match("paulista", deal(0, hands, "Qs"))  # the Js are manilhas: 3d wins
    assert rounds(act(paulista, "play 1 3d", "play 2 7h", "play 3 2s", "play 0 4c")) == [1]
    m = match("manilha-velha", deal(0, hands))  # the zap wins
    assert m.vira is None and m.observation(0)["manilhas"] == ["7d", "As", "7h", "4c"]
    assert rounds(act(m, "play 1 3d", "play 2 7h", "play 3 2s", "play 0 4c")) == [0]
    # the rest is Paulista: own-turn raises, no named card, covered cards from round 2
    assert legal(m, 0)[-1] == "raise 0 3" and legal(m, 1) == []
    with pytest.raises(IllegalMoveError, match="this variant has no vira"):
        Match.new("manilha-velha", seed=None).deal(deal(0, hands, "Qs"))


def test_mineiro_mao_de_dez_wins_game_the_hand_winner_takes_the_game() -> None:
    """The fold of the decision gives only its point (seed: "ganha apenas 01 ponto"): it is
    not winning the hand, or the decision would mean nothing."""
    for variant, game in (("mineiro", False), ("mineiro-mao-de-dez-wins-game", True)):
        m = match(variant)
        score_to(m, (10, 4))
        events = win_hand(m, 1)  # team 0 decides to play and loses: team 1 scores 3
        assert of(events, "hand")[0]["score"] == [10, 7]
        assert bool(of(events, "game")) is game, variant
        if game:
            assert of(events, "game")[0] == {"event": "game", "winner": 1, "score": [10, 7],
                                             "games": [0, 1]}
        m = match(variant)
        score_to(m, (10, 4))
        m.deal(deal(m.dealer, EVEN_M))
        assert of(act(m, "decide 0 fold"), "game") == []
        assert m.score == [10, 5]


def test_covered_from_round_1() -> None:
    m = match("paulista", deal(0, EVEN_P, "7c"))
    assert not [a for a in m.legal_actions() if a.covered]
    m = match("covered-from-round-1", deal(0, "4c 5c 6c | 3d 5d 6d | 4h 5h 6h | 4s 5s 6s", "7c"))
    assert "play 1 3d covered" in legal(m, 1)
    assert rounds(act(m, "play 1 3d covered", "play 2 4h", "play 3 4s", "play 0 4c")) == [None]


def test_no_covered_cards() -> None:
    hands = "4c 5c 6c | 4d 5d 6d | 4h 5h 6h | 4s 5s 6s"
    for variant, allowed in (("paulista", True), ("no-covered-cards", False)):
        m = match(variant, deal(0, hands, "7c"))
        act(m, "play 1 4d", "play 2 4h", "play 3 4s", "play 0 4c")
        assert ("play 1 5d covered" in legal(m, 1)) is allowed
        if not allowed:
            assert_illegal(m, "play 1 5d covered", "no covered cards (P7)")


def test_tie_leader_who_tied_leads_the_next_round() -> None:
    hands = "4c 5c 6c | 3d 5d 6d | 3h 5h 6h | 4s 5s 6s"
    for variant, leader in (("paulista", 1), ("tie-leader-who-tied", 2)):
        m = match(variant, deal(0, hands, "7c"))
        assert rounds(act(m, "play 1 3d", "play 2 3h", "play 3 4s", "play 0 4c")) == [None]
        assert m.turn == leader, variant


@pytest.mark.parametrize("how", ["same_leader", "first_tied_card", "last_tied_card"])
def test_P7_after_a_round_all_face_down_its_leader_leads_again(how: str, tmp_path: Path) -> None:
    """No card ties a round where every card is face down (P7): whatever the tied-round
    leader rule (C6), the round's leader leads the next one."""
    path = tmp_path / f"{how}.yaml"
    path.write_text(f"extends: paulista\nrounds:\n  tied_round_leader: {how}\n",
                    encoding="utf-8")
    hands = "4c 5c 6c | 3d 5d 6d | 3h 5h 6h | 4s 5s 6s"
    for variant in (path, "tie-leader-who-tied") if how == "last_tied_card" else (path,):
        m = match(variant, deal(0, hands, "7c"))
        assert rounds(act(m, "play 1 3d", "play 2 3h", "play 3 4s", "play 0 4c")) == [None]
        leader = m.turn
        seats = [(leader + k) % 4 for k in range(4)]
        events = act(m, *(f"play {s} {m.hands[s][0]} covered" for s in seats))
        assert rounds(events) == [None], (how, variant)
        assert m.turn == leader, (how, variant)
        assert m.observation(0)["turn"] == leader


def test_mineiro_best_of_5() -> None:
    for variant, games_to_win in (("mineiro", 2), ("mineiro-best-of-5", 3)):
        m = match(variant)
        for game in range(1, 4):
            win_hand(m, 0, raises=3)
            events = win_hand(m, 0, raises=1)
            assert of(events, "game")[0]["games"] == [game, 0]
            assert bool(of(events, "match")) is (game == games_to_win), (variant, game)
            if m.is_over:
                break
        assert m.is_over and m.games == [games_to_win, 0]


# -- one against one ---------------------------------------------------------------------------
def test_one_on_one_two_players_all_tied_to_the_mao() -> None:
    rules = find_variant("one-on-one")
    assert rules.players == 2
    m = Match.new("one-on-one", seed=None)
    with pytest.raises(IllegalMoveError, match="expected 2 hands, found 4"):
        m.deal(deal(0, EVEN_P, "7c"))
    m.deal(deal(0, "4c 5c 6c | 4d 5d 6d", "7c"))
    assert m.turn == 1 and [o["team"] for o in observe_all(m)] == [0, 1]
    events = []
    for r in "456":
        events += act(m, f"play 1 {r}d", f"play 0 {r}c")
    assert rounds(events) == [None] * 3
    assert of(events, "hand") == [{"event": "hand", "winner": 1, "points": 1, "score": [0, 1]}]


def test_C11_one_on_one_score_capped_at_12_points_are_what_the_score_rose_by() -> None:
    """The score stops at 12; the hand checkpoint's ``points`` is what the winner's score rose
    by (docs/log-format.md), 2 from 10 in a hand worth 3."""
    m = match("one-on-one")
    score_to(m, (10, 0))
    events = win_hand(m, 0, raises=1)
    assert of(events, "hand") == [{"event": "hand", "winner": 0, "points": 2, "score": [12, 0]}]
    assert of(events, "game")[0]["score"] == [12, 0]
    m = match("paulista")
    score_to(m, (10, 0))
    events = win_hand(m, 0, raises=1)
    assert of(events, "hand") == [{"event": "hand", "winner": 0, "points": 3, "score": [13, 0]}]


def test_C11_one_on_one_seed_3_capped_hand_scores_2() -> None:
    """The reported case: ``truco record --variant one-on-one --seed 3`` ends 10-4 to 12-4."""
    text = record_random("one-on-one", seed=3)
    hands = [json.loads(line) for line in text.splitlines() if '"event": "hand"' in line]
    assert hands[-1] == {"event": "hand", "winner": 0, "points": 2, "score": [12, 4]}
    score = [0, 0]
    for hand in hands:  # one game: every hand's points are what its winner's score rose by
        if hand["winner"] is not None:
            assert hand["points"] == hand["score"][hand["winner"]] - score[hand["winner"]]
        score = hand["score"]


def _capped(tmp_path: Path, extra: str) -> Path:
    path = tmp_path / "capped.yaml"
    path.write_text("extends: paulista\ngame:\n  cap_score: true\n" + extra, encoding="utf-8")
    return path


def test_C11_capped_fold_scores_what_the_score_rose_by() -> None:
    m = match("one-on-one")
    score_to(m, (10, 0))
    m.deal(deal(m.dealer, "4c 5c 6c | 4d 5d 6d", "7c"))
    seat, value = m.turn, 3
    act(m, f"raise {seat} {value}")
    while seat != 0:  # raises back until seat 0 raised last
        seat, value = 1 - seat, value + 3
        act(m, f"raise {seat} {value}")
    events = act(m, "fold 1")  # C9: seat 0 scores the value before its raise, 3 or 6
    assert of(events, "hand") == [{"event": "hand", "winner": 0, "points": 2, "score": [12, 0]}]


def test_C11_capped_mao_de_11_fold_and_penalised_raise_score_what_the_score_rose_by(
        tmp_path: Path) -> None:
    """P5 with a house cap: the fold points and a penalised raise's hand are capped too."""
    fold = _capped(tmp_path, "special_hands:\n  one_team:\n    decision: true\n"
                             "    fold_points: 3\n")
    m = match(fold)
    score_to(m, (10, 11))  # team 1 decides; team 0 takes the fold points
    m.deal(deal(m.dealer, EVEN_P, "7c"))
    events = act(m, "decide 1 fold")
    assert of(events, "hand") == [{"event": "hand", "winner": 0, "points": 2, "score": [12, 11]}]
    penalty = _capped(tmp_path, "special_hands:\n  one_team:\n    raise_penalty:\n"
                                "      team_at_score: lose_hand\n      other_team: lose_hand\n")
    m = match(penalty)
    score_to(m, (10, 11))
    m.deal(deal(m.dealer, EVEN_P, "7c"))
    seat = next(s for s in range(4) if s % 2 == 1)
    events = m.apply(Action.raise_to(seat, 3))  # a raise at 11: team 0 wins the hand's 3
    assert of(events, "hand") == [{"event": "hand", "winner": 0, "points": 2, "score": [12, 11]}]


def test_one_on_one_decision_at_11_and_raises_refused() -> None:
    m = match("one-on-one")
    score_to(m, (11, 4))
    m.deal(deal(m.dealer, "4c 5c 6c | 4d 5d 6d", "7c"))
    assert m.state == "decide" and legal(m) == ["decide 0 play", "decide 0 fold"]
    assert m.observation(0)["partner_hands"] == {0: ["4c", "5c", "6c"]}
    for move in ("raise 1 3", "raise 0 3"):
        assert_illegal(m, move, "no raise is allowed in the mão de onze")
    act(m, "decide 0 play")
    assert m.value == 3
    assert_illegal(m, Action.raise_to(m.turn, 3), "no raise is allowed")


def test_one_on_one_11_11_is_worth_3_with_no_decision_not_blind_raises_refused() -> None:
    m = match("one-on-one")
    score_to(m, (11, 11))
    m.deal(deal(m.dealer, "4c 5c 6c | 4d 5d 6d", "7c"))
    assert m.state == "play" and m.value == 3 and not m.blind
    assert m.observation(0)["hand"] == ["4c", "5c", "6c"]
    assert all(a.kind == "play" for a in m.legal_actions())
    assert_illegal(m, Action.raise_to(m.turn, 3), "no raise is allowed in the mão de ferro")
    paulista = match("paulista")
    score_to(paulista, (11, 11))
    paulista.deal(deal(paulista.dealer, EVEN_P, "7c"))
    assert paulista.blind


def test_C11_simulate_counts_the_points_scored_under_a_cap(tmp_path: Path) -> None:
    """``truco simulate``'s points are what the scores rose by: with one game a match, each
    team's points add up to its final scores."""
    from engine.simulate import run_simulation

    stats = run_simulation("one-on-one", games=12, seed=3, bots=["heuristic", "random"],
                           logs=tmp_path)
    finals = [0, 0]
    for log in sorted(tmp_path.glob("*.jsonl")):
        for line in log.read_text(encoding="utf-8").splitlines():
            event = json.loads(line)
            if event.get("event") == "game":
                finals = [a + b for a, b in zip(finals, event["score"], strict=True)]
    assert [t["points"] for t in stats["teams"]] == finals
