"""Impossible positions are refused: one test per refusal rule, each asserting the code and the
field (docs/positions.md, docs/error-codes.md "Positions")."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from engine import Deal, Match
from engine.cards import card_name
from engine.errors import PositionError, TrucoError
from engine.game import resolve_rules
from engine.resources import shipped_variants
from engine.shuffle import SplitMix64

Position = dict[str, Any]


def refused(variant: str, p: Position, code: str, path: str) -> PositionError:
    with pytest.raises(PositionError) as info:
        Match.from_position(variant, p)
    err = info.value
    assert (err.code, err.path) == (code, path), str(err)
    assert isinstance(err, TrucoError)
    return err


def example() -> Position:
    """Paulista, seed 7, round 2: seat 0 has led Js, seat 1 plays next; team 0 raised to 3."""
    m = Match.new("paulista", seed=7)
    for text in ("play 1 7h", "raise 2 3", "accept 3", "play 2 4s", "play 3 5d", "play 0 3c",
                 "play 0 Js"):
        m.apply(next(a for a in m.legal_actions() if str(a) == text))
    p = m.position()
    Match.from_position("paulista", p)  # valid as it is
    return p


def find(variant: str, want: Callable[[Match], bool]) -> Match:
    """The first state of seeded random matches of ``variant`` where ``want`` holds."""
    for seed in range(1, 200):
        choose = SplitMix64(seed)
        m = Match.new(variant, seed=seed)
        while not m.is_over:
            if want(m):
                return m
            legal = m.legal_actions()
            m.apply(legal[choose.bounded(len(legal))])
    raise AssertionError(f"no such state in {variant}")


def unused(variant: str, p: Position) -> str:
    """A card of the variant's deck that is nowhere in the position."""
    used = {p["vira"], *(c for h in p["dealt"] for c in h)}
    return next(card_name(c) for c in resolve_rules(variant).deck if card_name(c) not in used)


def test_the_example_is_a_valid_position() -> None:
    p = example()
    assert Match.from_position("paulista", copy.deepcopy(p)).position() == p


def test_position_refuses_a_schema_violation() -> None:
    p = example()
    p["value"] = "3"
    refused("paulista", p, "position_schema", "value")
    p = example()
    del p["vira"]
    refused("paulista", p, "position_schema", "vira")
    p = example()
    p["extra"] = 1
    refused("paulista", p, "position_schema", "")
    refused("paulista", [], "position_schema", "")  # type: ignore[arg-type]


def test_position_refuses_a_flor_shown_that_is_not_a_card() -> None:
    """The flores that scored (G41) are cards, as the schema says of every other card."""
    m = Match.from_deals("gauderio", [Deal.of(0, [h.split() for h in (
        "Kc 5d 3s", "5h 7h 6h", "7s 6s 3d", "4c 6d Ad")])])
    m.apply(next(a for a in m.legal_actions() if str(a) == "flor 1 flor"))
    p = m.position()
    assert p["side_bets"][1]["flores"][0]["cards"] == ["7h", "6h", "5h"]
    p["side_bets"][1]["flores"][0]["cards"][0] = "match_over"
    refused("gauderio", p, "position_schema", "side_bets[1].flores[0].cards[0]")


def test_position_refuses_a_state_the_variant_never_has() -> None:
    p = example()
    p["state"] = "decide"
    refused("paulista", p, "state_not_in_variant", "state")


def test_position_refuses_lists_of_the_wrong_length() -> None:
    p = example()
    p["hands"].pop()
    refused("paulista", p, "wrong_length", "hands")


def test_position_refuses_a_seat_not_at_the_table() -> None:
    p = example()
    p["round"]["turn"] = 4
    refused("paulista", p, "seat_out_of_range", "round.turn")


def test_position_refuses_a_team_that_does_not_exist() -> None:
    p = example()
    p["last_raise_team"] = 2
    refused("paulista", p, "team_out_of_range", "last_raise_team")


def test_position_refuses_a_card_twice() -> None:
    p = example()
    p["hands"][2][1] = "6h"  # seat 0 holds it
    err = refused("paulista", p, "card_twice", "hands[2][1]")
    assert "hands[0][0]" in err.why


def test_position_refuses_a_card_not_in_the_deck() -> None:
    p = example()
    p["hands"][3][1] = "8c"
    refused("paulista", p, "card_outside_deck", "hands[3][1]")


def test_position_refuses_a_missing_vira() -> None:
    p = example()
    p["vira"] = None
    refused("paulista", p, "missing_vira", "vira")


def test_position_refuses_a_vira_where_the_variant_has_none() -> None:
    p = Match.new("mineiro", seed=3).position()
    p["vira"] = unused("mineiro", p)
    refused("mineiro", p, "extra_vira", "vira")


def test_position_refuses_wrong_card_counts() -> None:
    p = example()
    p["hands"][3].pop()
    refused("paulista", p, "card_count", "hands[3]")


def test_position_refuses_cards_as_dealt_that_are_not_held_and_played() -> None:
    p = example()
    p["dealt"][1][0] = unused("paulista", p)
    refused("paulista", p, "dealt_mismatch", "dealt[1]")
    p = example()
    p["hands"][1].reverse()  # held out of the dealt order (a blind hand's order)
    refused("paulista", p, "dealt_mismatch", "hands[1]")


def test_position_refuses_a_live_hand_at_a_finished_score() -> None:
    p = example()
    p["score"] = [12, 0]
    refused("paulista", p, "finished_score", "score[0]")


def test_position_refuses_a_live_match_already_won() -> None:
    p = example()
    p["games"] = [0, 2]
    refused("paulista", p, "finished_games", "games[1]")
    p = example()
    p["winner"] = 1
    refused("paulista", p, "winner_of_live_match", "winner")


def test_position_refuses_a_match_over_without_a_winner() -> None:
    m = Match.new("paulista", seed=5)
    choose = SplitMix64(5)
    while not m.is_over:
        legal = m.legal_actions()
        m.apply(legal[choose.bounded(len(legal))])
    p = m.position()
    Match.from_position("paulista", p)
    p["winner"] = None
    refused("paulista", p, "match_over_without_winner", "winner")


def over(variant: str = "paulista", *, last_card: bool = True) -> Match:
    """A match played to its end by seeded random moves, ended by a round's last card (or
    not)."""
    for seed in range(1, 100):
        m = Match.new(variant, seed=seed)
        choose = SplitMix64(seed)
        while not m.is_over:
            legal = m.legal_actions()
            m.apply(legal[choose.bounded(len(legal))])
        if (m.round.number < len(m.hand.results)) == last_card:
            return m
    raise AssertionError("no such end")


def test_position_refuses_a_match_winner_without_the_games() -> None:
    p = over().position()
    p["winner"] = 1 - p["winner"]
    p["games"][p["winner"]] = 0
    refused("paulista", p, "match_winner", "winner")


def test_position_refuses_a_final_score_past_what_the_rules_allow() -> None:
    p = over().position()
    p["score"][p["winner"]] = 2**63  # was an OverflowError (issue 39)
    refused("paulista", p, "score_out_of_reach", f"score[{p['winner']}]")


def test_position_refuses_at_match_over_a_round_that_did_not_end_it() -> None:
    p = over().position()
    p["round"]["cards"].pop()
    refused("paulista", p, "match_over_round", "round.cards")
    p = over().position()
    p["round"]["turn"] = (p["round"]["turn"] + 1) % 4
    refused("paulista", p, "wrong_turn", "round.turn")
    p = over(last_card=False).position()
    p["round"]["turn"] = (p["round"]["turn"] + 1) % 4
    refused("paulista", p, "wrong_turn", "round.turn")


def test_position_refuses_a_first_raise_not_on_the_raisers_turn() -> None:
    p = Match.new("paulista", seed=7).position()  # seat 1's turn, no raise yet
    p["state"] = "answer"
    p["pending"] = {"seat": 3, "value": 3, "card": None}
    refused("paulista", p, "pending_not_on_turn", "pending.seat")
    p["pending"]["seat"] = 1
    Match.from_position("paulista", p)


def test_position_refuses_cards_in_state_deal() -> None:
    p = Match.new("paulista").position()
    assert p["state"] == "deal"
    Match.from_position("paulista", p)
    p["vira"] = "4c"
    refused("paulista", p, "dealt_before_deal", "vira")


def test_position_refuses_a_seeded_match_waiting_for_a_deal() -> None:
    p = Match.new("paulista").position()
    p["rng"] = 7
    refused("paulista", p, "deal_awaited_with_seed", "rng")


def test_position_refuses_a_hand_in_play_numbered_0() -> None:
    p = example()
    p["hand_number"] = 0
    refused("paulista", p, "hand_number", "hand_number")


def test_position_refuses_a_last_hand_not_just_before() -> None:
    m = find("paulista", lambda m: m.last_hand is not None and m.state == "play")
    p = m.position()
    p["last_hand"]["hand_number"] += 1
    refused("paulista", p, "last_hand_number", "last_hand.hand_number")


def test_position_refuses_a_special_hand_that_does_not_match_the_score() -> None:
    p = example()
    p["score"] = [11, 3]  # the mão de onze, not a normal hand
    err = refused("paulista", p, "special_mismatch", "special")
    assert "mão de onze" in err.why
    m = find("paulista", lambda m: m.special != 0 and m.state == "play")
    p = m.position()
    p["special"] = None
    refused("paulista", p, "special_mismatch", "special")


def test_position_refuses_a_decider_not_of_the_deciding_team() -> None:
    m = find("single-decider", lambda m: m.state == "decide")
    p = m.position()
    decider = p["special"]["decider"]
    p["special"]["decider"] = (decider + 1) % 4
    refused("single-decider", p, "special_mismatch", "special.decider")
    p = m.position()
    p["special"]["team"] = 1 - p["special"]["team"]
    refused("single-decider", p, "special_mismatch", "special.team")


def test_position_refuses_a_value_not_on_the_ladder() -> None:
    p = example()
    p["value"] = 5
    refused("paulista", p, "value_not_on_ladder", "value")


def test_position_refuses_a_special_hand_value_other_than_its_own() -> None:
    m = find("paulista", lambda m: m.special != 0 and m.state == "play")
    p = m.position()
    p["value"] = 6
    p["last_raise_team"] = 0
    refused("paulista", p, "special_value", "value")


def test_position_refuses_a_raised_value_with_no_raise_accepted() -> None:
    p = example()
    p["last_raise_team"] = None
    refused("paulista", p, "value_without_raise", "value")
    p = example()
    p["value"] = 1
    refused("paulista", p, "value_without_raise", "value")


def test_position_refuses_a_pending_raise_outside_answer() -> None:
    p = example()
    p["pending"] = {"seat": 1, "value": 6, "card": None}
    refused("paulista", p, "pending_state", "pending")
    p = example()
    p["state"] = "answer"
    refused("paulista", p, "pending_state", "pending")


def test_position_refuses_a_pending_raise_by_the_team_that_raised_last() -> None:
    p = example()
    p["state"] = "answer"
    p["pending"] = {"seat": 0, "value": 6, "card": None}
    refused("paulista", p, "raised_twice", "pending.seat")


def test_position_refuses_a_pending_raise_not_to_the_next_step() -> None:
    p = example()
    p["state"] = "answer"
    p["pending"] = {"seat": 1, "value": 9, "card": None}
    refused("paulista", p, "pending_not_next_step", "pending.value")


def test_position_refuses_a_pending_raise_in_a_special_hand_with_no_raise() -> None:
    """Issue 24: one-on-one at 11-8, a raise to 6 (the next step) waiting: refused because the
    mão de onze allows no raise (P5), not as a raise to the wrong step."""
    m = find("one-on-one", lambda m: m.special != 0 and m.state == "play"
             and m.position()["value"] == 3)
    p = m.position()
    p["state"] = "answer"
    p["pending"] = {"seat": p["round"]["turn"], "value": 6, "card": None}
    err = refused("one-on-one", p, "raise_in_special", "pending")
    assert "no raise is allowed in the" in err.why


def test_position_refuses_a_pending_raise_naming_a_card_where_none_is_named() -> None:
    p = example()
    p["state"] = "answer"
    p["pending"] = {"seat": 1, "value": 6, "card": "2h"}
    refused("paulista", p, "pending_card", "pending.card")


def test_position_refuses_refusals_without_a_raise() -> None:
    p = example()
    p["refused"] = [1]
    refused("paulista", p, "bad_refusal", "refused")


def test_position_refuses_a_card_shown_where_no_card_is_named() -> None:
    p = example()
    p["shown"] = [{"seat": 1, "card": "2h"}]
    refused("paulista", p, "bad_shown", "shown[0]")


def test_position_refuses_a_bound_card_not_shown() -> None:
    m = find("mineiro", lambda m: m.state == "play" and m.hand.played == [])
    p = m.position()
    turn = p["round"]["turn"]
    p["bound"][turn] = p["hands"][turn][0]
    refused("mineiro", p, "bad_bound", f"bound[{turn}]")


def test_position_refuses_a_decision_outside_a_decision_hand() -> None:
    p = Match.new("mineiro", seed=3).position()
    assert p["special"] is None
    p["state"] = "decide"
    refused("mineiro", p, "decision_outside_special", "state")


def test_position_refuses_a_decision_after_cards_were_played() -> None:
    m = find("mineiro", lambda m: m.special != 0 and m.hand.rule is not None
             and m.hand.rule.decision and m.state == "play" and len(m.round.cards) == 1)
    p = m.position()
    p["state"] = "decide"
    refused("mineiro", p, "decision_after_play", "round.cards")


def test_position_refuses_a_covered_card_where_the_variant_forbids_it() -> None:
    m = find("no-covered-cards", lambda m: m.state == "play" and len(m.round.cards) == 1)
    p = m.position()
    p["round"]["cards"][0]["covered"] = True
    refused("no-covered-cards", p, "covered_forbidden", "round.cards[0].covered")
    p = example()  # Paulista: covered cards only from round 2
    p["rounds"][0]["cards"][0]["covered"] = True
    refused("paulista", p, "covered_forbidden", "rounds[0].cards[0].covered")


def test_position_refuses_round_1_led_by_anyone_but_the_mao() -> None:
    p = Match.new("paulista", seed=7).position()
    p["round"]["leader"] = p["round"]["turn"] = 2  # the mão is seat 1
    refused("paulista", p, "round_one_leader", "round.leader")


def test_position_refuses_a_later_round_not_led_by_the_last_rounds_winner() -> None:
    p = example()
    p["round"] = {"number": 2, "leader": 1, "turn": 2,
                  "cards": [{"seat": 1, "card": "2h", "covered": False}]}
    p["hands"][0] = ["Js", "6h"]
    p["hands"][1] = ["Jh"]
    refused("paulista", p, "round_leader", "round.leader")


def test_position_refuses_a_turn_that_is_not_the_next_seat() -> None:
    p = example()
    p["round"]["turn"] = 2
    refused("paulista", p, "wrong_turn", "round.turn")
    p = Match.new("paulista", seed=7).position()
    p["round"]["turn"] = 2  # an empty round: the leader's turn
    refused("paulista", p, "wrong_turn", "round.turn")


def test_position_refuses_cards_out_of_order() -> None:
    p = example()
    cards = p["rounds"][0]["cards"]
    cards[1], cards[2] = cards[2], cards[1]
    refused("paulista", p, "wrong_play_order", "rounds[0].cards[1].seat")


def test_position_refuses_a_completed_round_missing_cards() -> None:
    p = example()
    gone = p["rounds"][0]["cards"].pop()
    p["hands"][gone["seat"]].insert(0, gone["card"])
    refused("paulista", p, "incomplete_round", "rounds[0].cards")


def test_position_refuses_round_winners_the_cards_do_not_give() -> None:
    p = example()
    p["rounds"][0]["winner"] = 1
    refused("paulista", p, "round_winner", "rounds[0].winner")
    p = example()
    p["rounds"][0]["winner"] = None
    refused("paulista", p, "round_winner", "rounds[0].winner")


def test_position_refuses_a_hand_already_decided_by_its_rounds() -> None:
    # round 2 about to end with team 0 winning it: team 0 won round 1 too
    m = Match.new("paulista", seed=7)
    for text in ("play 1 7h", "play 2 4s", "play 3 5d", "play 0 3c"):
        m.apply(next(a for a in m.legal_actions() if str(a) == text))
    choose = SplitMix64(1)
    while True:
        trial = m.clone()
        for _ in range(4):
            legal = [a for a in trial.legal_actions() if a.kind == "play" and not a.covered]
            events = trial.apply(legal[choose.bounded(len(legal))])
        if events and events[0] == {"event": "round", "winner": 0}:
            break
    p = m.position()
    last = trial.last_hand
    assert last is not None
    number, played, _, results, _ = last
    p["rounds"].append({"cards": [{"seat": s, "card": card_name(c), "covered": False}
                                  for r, s, c, _ in played if r == 1], "winner": 0})
    for e in p["rounds"][1]["cards"]:
        p["hands"][e["seat"]].remove(e["card"])
    p["round"] = {"number": 3, "leader": 0, "turn": 0, "cards": []}
    refused("paulista", p, "hand_already_decided", "rounds[1].winner")


def test_position_refuses_a_round_number_that_does_not_follow_the_rounds() -> None:
    p = example()
    p["round"]["number"] = 3
    refused("paulista", p, "round_number", "round.number")


def test_position_refuses_a_full_round_in_play() -> None:
    m = Match.new("paulista", seed=7)
    for text in ("play 1 7h", "play 2 4s", "play 3 5d"):
        m.apply(next(a for a in m.legal_actions() if str(a) == text))
    p = m.position()
    p["hands"][0].remove("3c")
    p["round"]["cards"].append({"seat": 0, "card": "3c", "covered": False})
    p["round"]["turn"] = 1
    refused("paulista", p, "round_full", "round.cards")


def test_every_position_code_has_a_refusal_test() -> None:
    import ast
    import re
    from pathlib import Path

    here = Path(__file__).read_text(encoding="utf-8")
    engine = Path(__file__).parent.parent / "engine"
    source = "".join(path.read_text(encoding="utf-8")
                     for path in sorted((engine / "matchpos").glob("*.py")))
    for path in sorted((engine / "moves").glob("*.py")):  # the kinds' checks of their bets
        text = path.read_text(encoding="utf-8")
        source += "".join(ast.get_source_segment(text, node) or "" for node in ast.walk(
            ast.parse(text)) if isinstance(node, ast.FunctionDef)
            and node.name.startswith("_position"))
    codes = set(re.findall(r'Why\(\s*"([a-z_]+)"', source))
    tested = set(re.findall(r'"([a-z_]+)", f?"[^"]*"\)', here))
    assert codes <= tested, codes - tested


@pytest.mark.parametrize("variant", sorted(shipped_variants()))
def test_a_mutated_position_is_refused_or_plays_on(variant: str) -> None:
    """Any change of one value of a real position gives a PositionError, or a match that plays
    on by the rules (never another error)."""
    choose = SplitMix64(5)
    m = Match.new(variant, seed=9)
    positions = []
    while not m.is_over:
        positions.append(m.position())
        legal = m.legal_actions()
        m.apply(legal[choose.bounded(len(legal))])
    positions.append(m.position())
    pick = SplitMix64(len(variant))
    words: list[object] = ["4c", "7h", "As", "Kd", "X1", "8c", "play", "answer", "decide",
                           "deal", "match_over", None, 0, 1]
    for p in positions[::4]:
        leaves = list(_leaves(p, ()))
        for _ in range(12):
            q = copy.deepcopy(p)
            path, value = leaves[pick.bounded(len(leaves))]
            if isinstance(value, bool):
                new: object = not value
            elif isinstance(value, int):
                new = value + (-2, -1, 1, 2, 5)[pick.bounded(5)]
            else:
                new = words[pick.bounded(len(words))]
            target = q
            for k in path[:-1]:
                target = target[k]
            target[path[-1]] = new
            try:
                r = Match.from_position(variant, q)
            except PositionError:
                continue
            play = SplitMix64(3)
            for _ in range(40):
                if r.is_over:
                    break
                legal = r.legal_actions()
                assert legal, (path, new)
                r.apply(legal[play.bounded(len(legal))])


def _leaves(node: Any, path: tuple[Any, ...]) -> Any:
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(node, list):
        for k, v in enumerate(node):
            yield from _leaves(v, (*path, k))
    elif path:
        yield path, node


# -- side bets (G24-G32) ----------------------------------------------------------------------
ENVIDO = "gauderio"


def envido_position(*moves: str) -> Position:
    """Gaudério's seed-3 match after ``moves``; hand 1: dealer 0, mão 1."""
    m = Match.new(ENVIDO, seed=3)
    for text in moves:
        m.apply(next(a for a in m.legal_actions() if str(a) == text))
    p = m.position()
    Match.from_position(ENVIDO, p)  # valid as it is
    return p


def test_position_refuses_side_bets_in_a_variant_without_them() -> None:
    p = example()
    p["side_bets"] = []
    refused("paulista", p, "side_bets_not_in_variant", "side_bets")


def test_position_refuses_a_variant_with_side_bets_without_them() -> None:
    p = envido_position()
    del p["side_bets"]
    refused(ENVIDO, p, "side_bets_missing", "side_bets")


def test_position_refuses_a_side_bet_of_another_name() -> None:
    p = envido_position()
    p["side_bets"][0]["bet"] = "flor"
    refused(ENVIDO, p, "side_bet_mismatch", "side_bets[0].bet")


def test_position_refuses_a_pending_call_outside_bet_answer() -> None:
    p = envido_position("envido 1 envido")
    p["state"] = "play"
    refused(ENVIDO, p, "bet_pending_state", "side_bets[0].pending")


def test_position_refuses_a_chain_the_bet_does_not_have() -> None:
    p = envido_position("envido 1 real envido")
    p["side_bets"][0]["calls"] = ["real envido", "envido"]
    refused(ENVIDO, p, "bet_chain", "side_bets[0].calls")


def test_position_refuses_a_call_without_its_caller() -> None:
    p = envido_position("envido 1 envido")
    p["side_bets"][0]["caller"] = None
    refused(ENVIDO, p, "bet_caller", "side_bets[0].caller")


def test_position_refuses_a_called_bet_neither_pending_nor_settled() -> None:
    p = envido_position("envido 1 envido")
    p["side_bets"][0]["pending"] = False
    p["state"] = "play"
    refused(ENVIDO, p, "bet_settled", "side_bets[0].settled")


def test_position_refuses_a_pending_call_after_round_1() -> None:
    p = envido_position("envido 1 envido")
    p["last_raise_team"] = 0
    p["value"] = 2
    refused(ENVIDO, p, "bet_window", "side_bets[0].pending")


def test_position_refuses_a_refusal_that_pays_another_value() -> None:
    p = envido_position("envido 1 envido", "nao_quero 2")
    p["side_bets"][0]["points"] = 2
    refused(ENVIDO, p, "bet_result", "side_bets[0].points")


def test_position_refuses_points_owed_where_they_are_credited_at_once() -> None:
    p = envido_position("envido 1 envido", "nao_quero 2")
    p["side_bets"][0]["owed"] = True
    refused(ENVIDO, p, "bet_owed", "side_bets[0].owed")


def test_position_refuses_cards_shown_of_a_refused_bet() -> None:
    p = envido_position("envido 1 envido", "nao_quero 2")
    p["side_bets"][0]["shown"] = {"seat": 1, "cards": [p["dealt"][1][0]]}
    refused(ENVIDO, p, "bet_shown", "side_bets[0].shown")


def test_a_side_bets_entry_mutated_is_refused_or_plays_on() -> None:
    """The mutation check of the shipped variants, on the side bets' entries."""
    choose = SplitMix64(5)
    m = Match.new(ENVIDO, seed=9)
    positions = []
    while not m.is_over:
        positions.append(m.position())
        legal = m.legal_actions()
        m.apply(legal[choose.bounded(len(legal))])
    for p in positions[::3]:
        for k, b in enumerate(p["side_bets"]):
            for key, value in b.items():
                q = copy.deepcopy(p)
                q["side_bets"][k][key] = (not value if isinstance(value, bool)
                                          else None if value is not None else 1)
                try:
                    twin = Match.from_position(ENVIDO, q)
                except PositionError:
                    continue
                while not twin.is_over:
                    twin.apply(twin.legal_actions()[0])


# -- flor (G35, G36, G41) -----------------------------------------------------------------------
def flor_position(*moves: str) -> Position:
    """Gaudério, dealer 3: seat 1 (B) and seat 2 (A) hold flores; after ``moves``."""
    from helpers import act, deal, match

    m = match(ENVIDO, deal(3, "3d 2s Kd | Kc 5c 2c | 7h 6h Ah | Ks Qd Js"), dealer=3)
    act(m, *moves)
    p = m.position()
    Match.from_position(ENVIDO, p)  # valid as it is
    return p


def test_position_refuses_flores_sung_out_of_order() -> None:
    p = flor_position("envido 0 envido", "flor 1 flor")
    p["side_bets"][1]["sung"] = [2]
    refused(ENVIDO, p, "flor_sung", "side_bets[1].sung")


def test_position_refuses_a_holder_left_to_sing_outside_sing() -> None:
    p = flor_position("envido 0 envido", "flor 1 flor")
    p["state"] = "play"
    refused(ENVIDO, p, "flor_state", "side_bets[1].sung")


def test_position_refuses_flores_shown_of_the_losing_team() -> None:
    p = flor_position("envido 0 envido", "flor 1 flor", "flor 2 com flor me achico")
    p["side_bets"][1]["flores"] = [{"seat": 2, "cards": ["7h"]}]
    refused(ENVIDO, p, "bet_shown", "side_bets[1].flores")


def test_position_refuses_a_raiser_bound_to_kill_who_cannot_be() -> None:
    """``must_kill`` (``play.raiser_must_kill``, catalogue #31): exactly in a variant with the
    rule, each seat one that has not played his card of the round, facing an opponent's card."""
    m = Match.from_deals("raiser-must-kill", [Deal.of(0, [["2c", "6c", "5s"], ["4d", "3d", "Jd"],
                                                          ["4h", "3s", "Kh"], ["5c", "6d", "Jc"]],
                                                      "7c")])
    for text in ("play 1 4d", "raise 2 3", "accept 3"):
        m.apply(next(a for a in m.legal_actions() if str(a) == text))
    p = m.position()
    assert p["must_kill"] == [2]
    refused("raiser-must-kill", {**p, "must_kill": [1]}, "bad_must_kill", "must_kill[0]")
    refused("raiser-must-kill", {**p, "must_kill": [2, 2]}, "position_schema", "must_kill")
    refused("raiser-must-kill", {k: v for k, v in p.items() if k != "must_kill"},
            "bad_must_kill", "must_kill")
    # seat 3's partner's 4d is the only card on the table: nothing of another team to beat
    refused("raiser-must-kill", {**p, "must_kill": [3]}, "bad_must_kill", "must_kill[0]")


def test_position_refuses_a_flor_chain_its_songs_did_not_make() -> None:
    """G38, G39: a choice before the chooser sang, a choice by another seat, a raise before
    every holder sang."""
    from helpers import act, deal, match

    m = match(ENVIDO, deal(0, "7s 6s Ks | 5h Kd 4c | 4d 3d Jd | 6c Qc 2c"))
    act(m, "play 1 5h", "flor 2 flor")
    p = m.position()
    p["side_bets"][1].update(calls=["contra-flor"], caller=3)
    refused(ENVIDO, p, "bet_chain", "side_bets[1].calls")
    act(m, "flor 3 contra-flor")
    p = m.position()
    p["side_bets"][1]["caller"] = 1
    refused(ENVIDO, p, "bet_caller", "side_bets[1].caller")
    p = m.position()
    p["side_bets"][1]["calls"] = ["contra-flor", "contra-flor ao resto"]
    p["side_bets"][1]["caller"] = 2
    refused(ENVIDO, p, "bet_chain", "side_bets[1].calls")


# -- side bets' results follow from the cards, the chain and the score (issue 26) ---------------
def accepted_envido(variant: str = ENVIDO, call: str = "envido") -> Position:
    """Seed 3, hand 1 (dealer 0): seat 1 calls, seat 2 accepts; seat 1's 25 (4s As) beat
    seat 3's 20 (Jh Js): team 1 scores at once (G31)."""
    m = Match.new(variant, seed=3)
    for text in (f"envido 1 {call}", "quero 2"):
        m.apply(next(a for a in m.legal_actions() if str(a) == text))
    p = m.position()
    Match.from_position(variant, p)  # valid as it is
    return p


def test_position_refuses_an_owed_falta_worth_more_than_the_falta() -> None:
    p = accepted_envido("gauderio-envido-at-end", "falta envido")
    assert p["side_bets"][0]["owed"] and p["side_bets"][0]["points"] == 24
    p["side_bets"][0]["points"] = 1000
    err = refused("gauderio-envido-at-end", p, "bet_result", "side_bets[0].points")
    assert "pays 24" in err.why


def test_position_refuses_an_accepted_envido_won_by_the_team_with_fewer_points() -> None:
    p = accepted_envido()
    assert p["side_bets"][0]["winner"] == 1 and p["score"] == [0, 2]
    p["side_bets"][0]["winner"] = 0
    p["side_bets"][0]["shown"] = {"seat": 0, "cards": ["Kd"]}
    p["score"] = [2, 0]
    refused(ENVIDO, p, "bet_result", "side_bets[0].winner")


def test_position_refuses_an_envido_chain_paying_other_points() -> None:
    p = accepted_envido()
    p["side_bets"][0]["points"] = 23
    p["score"] = [0, 23]
    refused(ENVIDO, p, "bet_result", "side_bets[0].points")
    p["side_bets"][0]["points"] = 99  # credited at once, the score not even raised
    p["score"] = [0, 2]
    refused(ENVIDO, p, "bet_result", "side_bets[0].points")


def figures_envido() -> Position:
    """Dealer 0; seat 1's 26 (6h Kh) win the envido he calls and seat 2 accepts."""
    from helpers import act, deal, match

    m = match(ENVIDO, deal(0, "4c 5d Jc | 6h Kh 3c | 7c 2d Ah | Qd 5s Js"))
    act(m, "envido 1 envido", "quero 2")
    p = m.position()
    assert p["side_bets"][0]["shown"] == {"seat": 1, "cards": ["6h", "Kh"]}
    return p


def test_position_refuses_shown_cards_that_are_not_the_winning_points() -> None:
    p = figures_envido()
    p["side_bets"][0]["shown"]["cards"] = ["6h", "Kh", "Kh"]  # a figure adds 0 (G22)
    refused(ENVIDO, p, "bet_shown", "side_bets[0].shown")
    p["side_bets"][0]["shown"]["cards"] = ["Kh", "6h"]
    refused(ENVIDO, p, "bet_shown", "side_bets[0].shown")


def test_position_refuses_a_bet_killed_with_no_flor_sung() -> None:
    p = envido_position()
    p["side_bets"][0]["killed"] = True
    err = refused(ENVIDO, p, "bet_killed", "side_bets[0].killed")
    assert "no flor that kills envido was sung" in err.why
    p = flor_position("envido 0 envido", "flor 1 flor")  # G37: the flor sung killed it
    p["side_bets"][0]["killed"] = False
    refused(ENVIDO, p, "bet_killed", "side_bets[0].killed")


def test_position_refuses_a_score_below_the_side_bets_credited_this_hand() -> None:
    p = accepted_envido()
    p["score"] = [0, 1]
    err = refused(ENVIDO, p, "bet_credit", "score[1]")
    assert "less than the 2 its side bets were credited" in err.why


def test_a_log_on_an_impossible_side_bet_record_does_not_verify() -> None:
    """Issue 26: the shown cards with Kh twice once verified, and the engine wrote them."""
    import json

    from engine.replay import verify_bytes

    p = figures_envido()
    p["side_bets"][0]["shown"]["cards"] = ["6h", "Kh", "Kh"]
    header = {"truco_log": 2, "variant": ENVIDO, "position": p}
    result = verify_bytes((json.dumps(header) + "\n").encode(), "pos.jsonl")
    assert [(x.line, x.code) for x in result.problems] == [(1, "bet_shown")]


# -- the last hand's record (issue 24) ------------------------------------------------------
def last_hand_position() -> Position:
    """Paulista, hand 2 in play; hand 1 ended after two complete rounds (team 1 won both)."""
    m = find("paulista", lambda m: m.hand_number == 2 and m.state == "play"
             and m.last_hand is not None and len(m.last_hand[1]) >= 6)
    p = m.position()
    assert [e["round"] for e in p["last_hand"]["played"]] == [1, 1, 1, 1, 2, 2, 2, 2]
    return p


def test_position_refuses_a_last_hand_playing_a_card_twice() -> None:
    p = last_hand_position()
    played = p["last_hand"]["played"]
    played[5]["card"] = played[0]["card"]
    err = refused("paulista", p, "card_twice", "last_hand.played[5].card")
    assert "also at last_hand.played[0]" in err.why


def test_position_refuses_a_last_hand_record_no_hand_leaves() -> None:
    p = last_hand_position()
    p["last_hand"]["played"][2]["round"] = 2  # round 1 left with two cards
    refused("paulista", p, "last_hand_record", "last_hand.played[2].round")
    p = last_hand_position()
    p["last_hand"]["rounds"] = [1]  # round 2 complete, without its result
    refused("paulista", p, "last_hand_record", "last_hand.rounds")
    p = last_hand_position()
    card = p["last_hand"]["played"][0]["card"]  # seat 1's card shown by seat 2
    p["last_hand"]["shown"] = [{"seat": 2, "card": card}]
    refused("paulista", p, "last_hand_record", "last_hand.shown[0].seat")
    p = last_hand_position()
    played = p["last_hand"]["played"]
    played[5]["seat"], played[6]["seat"] = played[6]["seat"], played[5]["seat"]
    refused("paulista", p, "wrong_play_order", "last_hand.played[5].seat")
