"""Catalogue #36, the cutter's choices before the deal (``cut``, ``cut``): who cuts,
what each choice does to the seeded deck, the choices refused, the log round trip, positions,
and bots playing it (docs/rules.md, "The cut")."""

from __future__ import annotations

import json

import pytest
from conftest import WriteFile
from helpers import act, assert_illegal, deal, legal

from engine import Match, Rules
from engine.actions import Action
from engine.bots.base import make_bot
from engine.bots.heuristic import HeuristicBot
from engine.bots.playout import try_move
from engine.cards import card_name
from engine.logformat import record_random
from engine.moves.cut import cut_deal, cutter
from engine.moves.flor import flor_index
from engine.payload import NotationError
from engine.position import build
from engine.replay import verify_file
from engine.shuffle import SplitMix64, shuffle
from engine.sidebets import is_flor
from engine.simulate import play_match
from engine.variant import load, load_variant

CUT = "cut"
CHOICES = ["seco", "burn", "bottom", "partner"]
#: An unseeded Paulista hand (dealer 0); seat 1, the mão, holds the zap.
HAND = deal(0, "4d 5d 6d | 4c 5h 6h | 7d Qd Jd | 7s Qs Js", vira="3s")


def names(hands: list[list[int]]) -> list[str]:
    return [" ".join(card_name(c) for c in h) for h in hands]


def test_every_hand_begins_with_the_cut_of_the_dealers_previous_seat() -> None:
    m = Match.new(CUT, seed=7)
    assert (m.state, m.hand_number, m.awaiting_deal) == ("cut", 0, False)
    assert legal(m) == [f"cut 3 {c}" for c in CHOICES]  # dealer 0: seat 3 cuts
    assert m.to_act() == [3]
    assert legal(Match.new(CUT, seed=7, dealer=2)) == [f"cut 1 {c}" for c in CHOICES]
    act(m, "cut 3 seco")
    while m.state != "cut":  # the next hand begins with the cut of the next dealer's previous
        m.apply(m.legal_actions()[0])
    assert m.hand_number == 1
    assert (m.state, m.dealer, legal(m)[0]) == ("cut", 1, "cut 0 seco")


@pytest.mark.parametrize("seed", range(12))
def test_seco_is_the_seeded_deal_and_no_choice_moves_the_generator(seed: int) -> None:
    plain = Match.new("paulista", seed=seed)
    for choice in CHOICES:
        m = Match.new(CUT, seed=seed)
        act(m, f"cut 3 {choice}")
        assert m.state == "play" and m.hand_number == 1
        assert m.rng is not None and plain.rng is not None
        assert m.rng.state == plain.rng.state  # the next hands' shuffles are the same
        if choice == "seco":
            assert (m.hand.hands, m.hand.vira) == (plain.hand.hands, plain.hand.vira)


@pytest.mark.parametrize("seed", range(12))
def test_each_choice_deals_from_the_whole_seeded_shuffle(seed: int) -> None:
    rules = load(CUT)
    deck = shuffle(rules.deck, SplitMix64(seed))  # top first; the mão is seat 1, the cutter 3
    dealt = {}
    for choice in CHOICES:
        m = Match.new(CUT, seed=seed)
        act(m, f"cut 3 {choice}")
        dealt[choice] = (m.hand.hands, m.hand.vira)
    assert dealt["burn"] == ([deck[10:13], deck[1:4], deck[4:7], deck[7:10]], deck[13])
    # the bottom card (the deck's last) to the cutter, seat 3, or his partner, seat 1 (the mão)
    assert dealt["bottom"] == ([deck[8:11], deck[0:3], deck[3:6], [deck[-1], *deck[6:8]]],
                               deck[11])
    assert dealt["partner"] == ([deck[8:11], [deck[-1], *deck[0:2]], deck[2:5], deck[5:8]],
                                deck[11])
    for hands, vira in dealt.values():  # a deal all the same: 12 different cards and a vira
        cards = [c for h in hands for c in h] + [vira]
        assert len(set(cards)) == 13 and all(len(h) == 3 for h in hands)


def test_the_burn_of_the_log_format_page() -> None:
    """docs/log-format.md, "Version 2: cut": seed 7, the first hand cut burn."""
    m = Match.new(CUT, seed=7)
    act(m, "cut 3 burn")
    assert names(m.hand.hands) == ["3c 6h Qc", "7h Jh 3h", "2s 4s Kh", "5d Jd Js"]
    assert card_name(m.hand.vira) == "3d"
    assert names(Match.new("paulista", seed=7).hand.hands)[1] == "2h 7h Jh"  # 2h is burnt


def test_cut_deal_slices_from_the_mao_round_to_the_dealer() -> None:
    cards = list(range(20))
    assert cut_deal(cards, 4, 3, 2, False, "seco") == (
        [[3, 4, 5], [6, 7, 8], [9, 10, 11], [0, 1, 2]], None)
    assert cut_deal(cards, 4, 3, 2, False, "partner", 3) == (
        [[2, 3, 4], [5, 6, 7], [8, 9, 10], [19, 0, 1]], None)


def test_a_cut_by_another_seat_or_at_another_time_is_refused() -> None:
    m = Match.new(CUT, seed=7)
    assert assert_illegal(m, "cut 1 seco", "seat 3 cuts this hand").code == "not_the_cutter"
    assert assert_illegal(m, "play 1 2h").code == "cut_pending"
    with pytest.raises(Exception, match="no deal is awaited|seeded"):
        m.deal(HAND)
    act(m, "cut 3 seco")
    assert assert_illegal(m, "cut 3 seco", "no cut is awaited").code == "not_now"


def test_a_choice_the_variant_leaves_out_is_refused(write: WriteFile) -> None:
    path = write("two-cuts.yaml", "name: two-cuts\nextends: cut\n"
                                  "cut:\n  choices: [burn, seco]\n")
    m = Match.new(str(path), seed=3)
    assert legal(m) == ["cut 3 burn", "cut 3 seco"]  # in the variant's order
    assert assert_illegal(m, "cut 3 bottom", "cut.choices: burn, seco").code == "cut_not_allowed"


def test_no_partner_no_partner_cut(write: WriteFile) -> None:
    path = write("duel-cut.yaml", "name: duel-cut\nextends: one-on-one\ncut:\n  allowed: true\n")
    m = Match.new(str(path), seed=3)
    assert legal(m) == ["cut 1 seco", "cut 1 burn", "cut 1 bottom"]  # two players: the mão
    assert assert_illegal(m, "cut 1 partner", "no partner").code == "no_partner"
    act(m, "cut 1 bottom")
    deck = shuffle(load(str(path)).deck, SplitMix64(3))
    assert m.hand.hands[1][0] == deck[-1]


def test_a_cut_is_written_read_and_logged() -> None:
    a = Action.cut(3, "burn")
    assert (str(a), repr(a)) == ("cut 3 burn", "Action.cut(3, 'burn')")
    assert Action.parse("cut 3 burn") == a == Action.from_event(a.to_event())
    assert a.to_event() == {"event": "cut", "seat": 3, "choice": "burn"}
    with pytest.raises(NotationError, match="seco, burn, bottom, partner"):
        Action.parse("cut 3 shuffle")
    with pytest.raises(ValueError, match="a cut"):
        Action("cut", 3, call="twice")
    with pytest.raises(ValueError):
        Action("cut", 3)


def test_no_cut_without_the_house_rule() -> None:
    m = Match.new("paulista", seed=7)
    assert m.state == "play"
    assert assert_illegal(m, "cut 0 seco").code == "not_in_variant"


@pytest.mark.parametrize("how", [{"deals": True}, {"unseeded": True}, {}])
def test_a_log_with_cuts_verifies(tmp_path: object, how: dict[str, bool]) -> None:
    log = record_random(CUT, 11, **how)
    lines = [json.loads(line) for line in log.splitlines()]
    assert lines[0]["truco_log"] == 2
    cuts = [i for i, e in enumerate(lines) if e.get("event") == "cut"]
    assert cuts and cuts[0] == 1
    if how:  # the deal line follows each cut
        assert all(lines[i + 1]["event"] == "deal" for i in cuts)
    path = tmp_path / "cut.jsonl"  # type: ignore[operator]
    path.write_text(log, encoding="utf-8")
    result = verify_file(path)
    assert not result.problems, result.problems


def test_a_log_whose_cut_is_changed_fails_against_its_seeded_deal(tmp_path: object) -> None:
    log = record_random(CUT, 11, deals=True).splitlines()
    first = json.loads(log[1])
    other = "seco" if first["choice"] != "seco" else "burn"
    log[1] = json.dumps({**first, "choice": other})
    path = tmp_path / "tampered.jsonl"  # type: ignore[operator]
    path.write_text("\n".join(log) + "\n", encoding="utf-8")
    problems = verify_file(path).problems
    assert problems and "deal mismatch" in problems[0].message


def test_without_a_seed_the_recorded_deal_follows_the_cut() -> None:
    m = Match.from_deals(CUT, [HAND])
    assert m.state == "cut"
    act(m, "cut 3 burn")  # recorded: the deal that follows is the recorded one
    assert m.state == "play" and names(m.hand.hands)[1] == "4c 5h 6h"
    bare = Match.new(CUT)
    act(bare, "cut 3 seco")
    assert bare.awaiting_deal
    bare.deal(HAND)
    assert bare.state == "play"
    skipped = Match.new(CUT)  # an explicit deal given while the cut is awaited leaves it out
    skipped.deal(HAND)
    assert skipped.state == "play"


def test_a_position_waiting_for_the_cut_goes_on_as_the_match() -> None:
    m = Match.new(CUT, seed=5)
    again = Match.from_position(CUT, m.position())
    assert (again.state, legal(again)) == ("cut", legal(m))
    act(m, "cut 3 partner")
    act(again, "cut 3 partner")
    assert again.position() == m.position()


def test_the_cut_comes_before_the_mao_de_onze_decision(write: WriteFile) -> None:
    path = write("cut-11.yaml", "name: cut-11\nextends: paulista-mao-de-11-decision\n"
                                "cut:\n  allowed: true\n")
    m = Match.new(str(path), seed=2)
    position = {**m.position(), "score": [11, 4]}
    at_11 = Match.from_position(str(path), position)
    act(at_11, "cut 3 seco")
    assert at_11.state == "decide"


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_bots_play_cut_matches_to_the_end(bot: str) -> None:
    rules = load(CUT)
    for seed in range(3):
        m = Match(rules, seed=seed)
        play_match(m, [make_bot(bot, rules, seed + s) for s in range(4)])
        assert m.is_over and m.winner is not None


def test_the_cutter_of_a_match_is_who_moves() -> None:
    m = Match.new(CUT, seed=1, dealer=1)
    assert cutter(m) == 0 and m.to_act() == [0]


def _gauderio_cut(write: WriteFile) -> Rules:
    """Gaudério's flor (G33-G41) with the cutter's choices."""
    return load_variant(write("gauderio-cut.yaml", "name: gauderio-cut\nextends: gauderio\n"
                              "cut:\n  allowed: true\n"))


def test_a_flor_dealt_by_the_cut_must_be_sung_as_after_a_plain_deal(write: WriteFile) -> None:
    """G35: the deal a cut makes goes to ``sing`` where the mão holds a flor, as a plain deal
    does (seco deals the cards of the variant without a cut)."""
    rules = _gauderio_cut(write)
    flor = rules.side_bets[flor_index(rules) or 0]
    sung = 0
    for seed in range(40):
        plain = Match.new("gauderio", seed=seed)
        m = Match.new(rules, seed=seed)
        act(m, f"cut {cutter(m)} seco")
        assert (m.hand.hands, m.hand.vira) == (plain.hand.hands, plain.hand.vira)
        assert (m.state, m.to_act(), legal(m)) == (plain.state, plain.to_act(), legal(plain))
        sung += plain.state == "sing"
        for choice in ("burn", "bottom", "partner"):  # every choice's deal: due where dealt
            other = Match.new(rules, seed=seed)
            act(other, f"cut {cutter(other)} {choice}")
            mao = (other.dealer + 1) % rules.players
            due = is_flor(flor, other.hand.hands[mao], other.hand.vira)
            assert other.state == ("sing" if due else "play")
    assert sung >= 2  # seeds 7, 26 and 30 deal the mão a flor


@pytest.mark.parametrize("seed", range(6))
def test_a_playout_stops_at_the_hands_end_before_the_next_cut(seed: int) -> None:
    """The search bot's and truco analyze's playouts play the hand out (engine.bots.playout):
    in a cut variant they stop where the next hand's cut is awaited, with the points of the
    same hand played out in Paulista (seco deals its cards)."""
    ends = []
    for variant in ("paulista", CUT):
        m = Match.new(variant, seed=seed)
        if m.state == "cut":
            act(m, f"cut {cutter(m)} seco")
        trial = build(m.rules, dict(m.position(), rng=None), trusted=True)
        policy = [HeuristicBot(m.rules, s) for s in range(4)]
        events = try_move(trial, m.legal_actions(1)[0], policy)
        assert events is not None and events[-1]["event"] in ("hand", "game", "match")
        ends.append((trial.hand_number, trial.score, trial.games, events))
    assert ends[0] == ends[1]
    assert trial.state == "cut" and trial.to_act() == [cutter(trial)]
