"""Ties and hand resolution (C6, C7, P8, M7) and play constraints (P7, C7, C8 house rules):
the house variants of variants/house/ that set them, each against its parent on explicit deals,
hand_result against C7's table, and the checks of keys that make no sense together."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from conftest import WriteFile
from helpers import act, assert_illegal, deal, legal, match, of, rounds

from engine import Action, Deal, IllegalMoveError, Match, VariantError, find_variant, load_variant
from engine.moves.outcome import hand_result
from engine.shuffle import SplitMix64

EVEN_P = "4c 5c 6c | 4d 5d 6d | 4h 5h 6h | 4s 5s 6s"  # Paulista, vira 7c: Qs are manilhas


def play_round(m: Match, cards: dict[int, str], covered: tuple[int, ...] = ()) -> list[dict]:
    """Play one round from whoever's turn it is: each seat plays its card of ``cards``."""
    events: list[dict] = []
    for _ in range(m.players):
        s = m.turn
        events += act(m, f"play {s} {cards[s]}" + (" covered" if s in covered else ""))
    return events


# -- C6: who leads after a tied round ----------------------------------------------------------
def test_tie_leader_lowest_seat_the_lowest_seat_of_the_tied_cards_leads() -> None:
    """Dealer 2: seat 3 leads round 1; seats 3, 0 and 2 tie with kings (both teams). The pinned
    rule and first_tied_card give seat 3, last_tied_card seat 2, lowest_seat seat 0."""
    hands = "Kd 5c 6c | 4h 5d 6d | Kh 5h 6h | Kc 5s 6s"
    for variant, leader in (("paulista", 3), ("tie-leader-who-tied", 2),
                            ("tie-leader-lowest-seat", 0)):
        m = match(variant, deal(2, hands, "7c"), dealer=2)
        assert m.turn == 3
        assert rounds(act(m, "play 3 Kc", "play 0 Kd", "play 1 4h", "play 2 Kh")) == [None]
        assert m.turn == leader, variant
        assert legal(m, leader)[0].startswith(f"play {leader} ")


def test_tie_leader_lowest_seat_a_round_all_face_down_is_led_by_its_leader() -> None:
    """P7: no card tied a round all face down: its leader leads again (C6 pinned)."""
    m = match("tie-leader-lowest-seat", deal(2, "Kd 5c 6c | 4h 5d 6d | Kh 5h 6h | Kc 5s 6s",
                                             "7c"), dealer=2)
    act(m, "play 3 Kc", "play 0 Kd", "play 1 4h", "play 2 Kh")  # tied: seat 0 leads
    events = play_round(m, {0: "5c", 1: "5d", 2: "5h", 3: "5s"}, covered=(0, 1, 2, 3))
    assert rounds(events) == [None] and m.turn == 0


FIVE = "3c 5c 6c Jc Ac | 4d 3d 6d Jd Kd | 4h 5h 3h Jh Ah | 4s 5s 6s 3s As"


def test_tie_leader_mao_after_a_tied_round_the_mao_leads() -> None:
    """Five cards (with three the mão leads after any tie anyway): round 1 to seat 0, round 2
    led by seat 0 tied by seats 2 and 3 with aces; round 3 is led by the mão (seat 1), where
    five-cards (the pinned rule) has seat 0 lead again."""
    for variant, leader in (("five-cards", 0), ("tie-leader-mao", 1)):
        m = match(variant, deal(0, FIVE, "7c"))
        assert rounds(play_round(m, {1: "4d", 2: "4h", 3: "4s", 0: "3c"})) == [0]
        assert m.turn == 0
        assert rounds(play_round(m, {0: "5c", 1: "6d", 2: "Ah", 3: "As"})) == [None]
        assert m.turn == leader, variant


def test_tie_leader_mao_a_round_all_face_down_is_led_by_the_mao() -> None:
    """The mão rule looks at no card: after a round all face down the mão leads too."""
    m = match("tie-leader-mao", deal(0, FIVE, "7c"))
    play_round(m, {1: "4d", 2: "4h", 3: "4s", 0: "3c"})  # seat 0 wins, leads round 2
    events = play_round(m, {0: "5c", 1: "6d", 2: "Ah", 3: "As"}, covered=(0, 1, 2, 3))
    assert rounds(events) == [None] and m.turn == 1


# -- P8, M7: every round tied ------------------------------------------------------------------
@pytest.mark.parametrize(("round1", "team"), [
    # seat 1 (team 1) plays the first 4: the others only match it
    ({1: "4d", 2: "4h", 3: "4s", 0: "4c"}, 1),
    # seat 2 (team 0) plays the first 5, seat 3 (team 1) matches it
    ({1: "4d", 2: "5h", 3: "5s", 0: "4c"}, 0),
])
def test_all_tied_first_round_first_card_takes_the_hand(round1: dict[int, str],
                                                         team: int) -> None:
    left = {s: [c for c in h.split() if c != round1[s]] for s, h in enumerate(EVEN_P.split("|"))}
    for variant, winner in (("paulista", None), ("all-tied-first-round", team)):
        m = match(variant, deal(0, EVEN_P, "7c"))
        events = play_round(m, round1)
        # the sixes tie, then what is left ties (4s and 5s across both teams)
        events += play_round(m, {s: c[1] for s, c in left.items()})
        events += play_round(m, {s: c[0] for s, c in left.items()})
        assert rounds(events) == [None, None, None], variant
        points = 0 if winner is None else 1
        score = [0, 0]
        if winner is not None:
            score[winner] = 1
        assert of(events, "hand") == [{"event": "hand", "winner": winner, "points": points,
                                       "score": score}], variant


def test_all_tied_first_round_first_card_round_1_all_face_down_goes_to_the_mao(
        write: WriteFile) -> None:
    """Round 1 all face down (covered cards from round 1): no card was first; the mão's
    team (team 1, dealer 0) takes the all-tied hand."""
    path = write("all-tied-covered.yaml", "extends: all-tied-first-round\n"
                 "covered_cards:\n  from_round: 1\n")
    m = match(path, deal(0, EVEN_P, "7c"))
    events = play_round(m, {1: "4d", 2: "4h", 3: "4s", 0: "4c"}, covered=(0, 1, 2, 3))
    events += play_round(m, {1: "5d", 2: "5h", 3: "5s", 0: "5c"})
    events += play_round(m, {1: "6d", 2: "6h", 3: "6s", 0: "6c"})
    assert of(events, "hand")[0]["winner"] == 1


# -- C3, C7: five cards, three round wins ------------------------------------------------------
def test_five_cards_three_round_wins_take_the_hand() -> None:
    """Two round wins do not end a five-card hand; a majority, three, does, with rounds left."""
    m = match("five-cards", deal(0, FIVE, "7c"))
    assert [len(m.hands[s]) for s in range(4)] == [5] * 4
    events = play_round(m, {1: "3d", 2: "4h", 3: "4s", 0: "5c"})  # team 1
    events += play_round(m, {1: "Kd", 2: "5h", 3: "3s", 0: "6c"})  # team 1: 2 wins, goes on
    assert rounds(events) == [1, 1] and not of(events, "hand")
    events += play_round(m, {3: "As", 0: "Jc", 1: "6d", 2: "Jh"})  # team 1 again: 3 of 5
    assert of(events, "hand") == [{"event": "hand", "winner": 1, "points": 1, "score": [0, 1]}]
    assert m.awaiting_deal  # the hand is over, two cards each never played


def test_five_cards_split_rounds_and_a_tie_go_to_the_first_round_won() -> None:
    """2-2 and a tie: the team that won a round first (C7's "quem fez a primeira")."""
    m = match("five-cards", deal(0, FIVE, "7c"))
    events = play_round(m, {1: "4d", 2: "4h", 3: "4s", 0: "3c"})  # team 0
    events += play_round(m, {0: "5c", 1: "3d", 2: "5h", 3: "5s"})  # team 1
    events += play_round(m, {1: "6d", 2: "3h", 3: "6s", 0: "6c"})  # team 0
    events += play_round(m, {2: "Jh", 3: "3s", 0: "Jc", 1: "Jd"})  # team 1
    assert not of(events, "hand")
    events += play_round(m, {3: "As", 0: "Ac", 1: "Kd", 2: "Ah"})  # tied
    assert rounds(events) == [0, 1, 0, 1, None]
    assert of(events, "hand") == [{"event": "hand", "winner": 0, "points": 1, "score": [1, 0]}]


def test_five_cards_a_won_round_and_a_tie_do_not_decide_the_hand() -> None:
    """With three cards a win and a tie decide (C7); with five, three rounds are left."""
    m = match("five-cards", deal(0, FIVE, "7c"))
    events = play_round(m, {1: "4d", 2: "4h", 3: "4s", 0: "3c"})  # team 0
    events += play_round(m, {0: "5c", 1: "6d", 2: "Ah", 3: "As"})  # tied
    assert rounds(events) == [0, None] and not of(events, "hand") and m.state == "play"


class _Hand:
    strength: tuple[int, ...] = ()
    played: list[tuple[int, int, int, bool]] = []


class _M:
    """What hand_result reads of a match."""

    def __init__(self, variant: str, dealer: int = 0) -> None:
        self.rules = find_variant(variant)
        self.dealer = dealer
        self.mao = (dealer + 1) % self.rules.players
        self.hand = _Hand()


def _c7_as_before(results: list[int | None], n: int, all_tied: str, mao: int,
                  dealer: int) -> tuple[bool, int | None]:
    """hand_result as it was for two teams and three cards (C7)."""
    wins0, wins1 = results.count(0), results.count(1)
    if wins0 >= 2:
        return True, 0
    if wins1 >= 2:
        return True, 1
    if None in results and (wins0 or wins1):
        return True, next(w for w in results if w is not None)
    if len(results) < n:
        return False, None
    if all_tied == "nobody":
        return True, None
    return True, (mao % 2 if all_tied == "mao_team" else dealer % 2)


@pytest.mark.parametrize("variant", ["paulista", "mineiro", "one-on-one"])
def test_five_cards_hand_result_is_C7_unchanged_with_three_cards(variant: str) -> None:
    """Every sequence of round results a three-card hand can have: the general rule (a
    majority of cards_per_player, ties to the first round won) says what C7 said."""
    m = _M(variant, dealer=1)
    checked = 0
    for length in range(1, 4):
        for results in itertools.product((0, 1, None), repeat=length):
            prefix_decided = any(
                _c7_as_before(list(results[:k]), 3, m.rules.all_tied, m.mao, m.dealer)[0]
                for k in range(1, length))
            if prefix_decided:
                continue  # the hand ended before: never asked
            got = hand_result(m, list(results))  # type: ignore[arg-type]
            assert got == _c7_as_before(list(results), 3, m.rules.all_tied, m.mao,
                                        m.dealer), results
            checked += 1
    assert checked >= 20


def _final(results: tuple[int | None, ...]) -> int | None:
    """Who takes a hand whose rounds are all played: the most round wins, equal wins to the
    team that won a round first; nobody when no round was won (all_tied: nobody)."""
    wins = {t: results.count(t) for t in results if t is not None}
    if not wins:
        return None
    best = max(wins.values())
    return next(t for t in results if t is not None and wins[t] == best)


@pytest.mark.parametrize("teams", [2, 3])
@pytest.mark.parametrize("cards", [3, 4, 5])
def test_five_cards_hand_result_decides_when_no_round_left_could_change_it(
        teams: int, cards: int) -> None:
    """Against every way the rounds left could go: decided exactly when they all give the same
    winner, and for that winner (any number of teams, any number of cards)."""
    rules = SimpleNamespace(cards_per_player=cards, teams=teams, all_tied="nobody",
                            team_of=tuple(s % teams for s in range(teams)))
    m = SimpleNamespace(rules=rules, mao=1, dealer=0, hand=_Hand())
    outcomes: list[int | None] = [*range(teams), None]
    for played in range(1, cards + 1):
        for results in itertools.product(outcomes, repeat=played):
            ends = {_final(results + rest)
                    for rest in itertools.product(outcomes, repeat=cards - played)}
            want = (True, ends.pop()) if len(ends) == 1 else (False, None)
            assert hand_result(m, list(results)) == want, results  # type: ignore[arg-type]


# -- P7 (house): covered-card constraints ------------------------------------------------------
ROUND1_TEAM0 = "4c 5c 6c | 4d 5d 6d | 3h 5h 6h | 4s 5s 6s"  # seat 2's 3h wins round 1


def test_leader_face_up_the_rounds_leader_cannot_cover() -> None:
    for variant, may in (("paulista", True), ("leader-face-up", False)):
        m = match(variant, deal(0, ROUND1_TEAM0, "7c"))
        assert rounds(act(m, "play 1 4d", "play 2 3h", "play 3 4s", "play 0 4c")) == [0]
        assert m.turn == 2
        assert ("play 2 5h covered" in legal(m, 2)) is may, variant
        if not may:
            assert_illegal(m, "play 2 5h covered", "leader plays face up")
            act(m, "play 2 5h")
            assert "play 3 5s covered" in legal(m, 3)  # the others may still cover
            act(m, "play 3 5s covered")


def test_no_cover_after_tie_no_covered_card_once_a_round_tied() -> None:
    for variant, may in (("paulista", True), ("no-cover-after-tie", False)):
        m = match(variant, deal(0, EVEN_P, "7c"))
        assert rounds(act(m, "play 1 4d", "play 2 4h", "play 3 4s", "play 0 4c")) == [None]
        for seat in (1, 2):
            assert (f"play {seat} 5{'dh'[seat - 1]} covered" in legal(m, seat)) is may
            if not may:
                assert not [a for a in m.legal_actions() if a.covered]
                assert_illegal(m, f"play {seat} 6{'dh'[seat - 1]} covered",
                               "no covered card after a tied round")
            act(m, f"play {seat} 5{'dh'[seat - 1]}")
    m = match("no-cover-after-tie", deal(0, ROUND1_TEAM0, "7c"))  # no tie: covers as P7
    act(m, "play 1 4d", "play 2 3h", "play 3 4s", "play 0 4c")
    assert "play 2 5h covered" in legal(m, 2)


# -- C7 (house): the highest card after a tied first round -------------------------------------
def test_highest_after_tied_first_each_plays_his_highest_card() -> None:
    hands = "4c 5c Kc | 4d 2d 6d | 4h 5h 6h | 4s As 6s"
    for variant, forced in (("paulista", False), ("highest-after-tied-first", True)):
        m = match(variant, deal(0, hands, "7c"))
        assert rounds(act(m, "play 1 4d", "play 2 4h", "play 3 4s", "play 0 4c")) == [None]
        if not forced:
            assert legal(m, 1) == ["play 1 2d", "play 1 6d", "play 1 2d covered",
                                   "play 1 6d covered", "raise 1 3"]
            continue
        assert legal(m, 1) == ["play 1 2d", "raise 1 3"]
        assert_illegal(m, "play 1 6d", "plays his highest card")
        assert_illegal(m, "play 1 2d covered", "face up")
        act(m, "play 1 2d")
        assert [str(a) for a in m.legal_actions(2) if a.kind == "play"] == ["play 2 6h"]
        act(m, "play 2 6h")
        assert legal(m, 3)[0] == "play 3 As" and "play 3 6s" not in legal(m, 3)


def test_highest_after_tied_first_equal_highest_cards_either_may_be_played() -> None:
    m = match("highest-after-tied-first", deal(0, "4c 5c Kc | 4d Kd Kh | 4h 5h 6h | 4s As 6s",
                                               "7c"))
    act(m, "play 1 4d", "play 2 4h", "play 3 4s", "play 0 4c")
    assert [str(a) for a in m.legal_actions(1) if a.kind == "play"] == ["play 1 Kd",
                                                                         "play 1 Kh"]


def test_highest_after_tied_first_a_card_bound_by_a_raise_comes_first(write: WriteFile) -> None:
    """M4: a card named with an accepted raise is played next, even if it is not the highest."""
    path = write("mineiro-highest.yaml",
                 "extends: mineiro\nplay:\n  highest_after_tied_first: true\n")
    m = match(path, deal(0, "5c 6c Kc | 5d 3d 6d | 5h 6h Kh | 5s 6s Ks"))
    act(m, "play 1 5d", "play 2 5h", "play 3 5s", "play 0 5c")  # tied
    assert [str(a) for a in m.legal_actions(1) if a.kind == "play"] == ["play 1 3d"]
    act(m, "raise 1 3 6d", "accept 2")
    assert legal(m, 1) == ["play 1 6d"]
    act(m, "play 1 6d")


# -- C8 (house): a raiser must beat the table --------------------------------------------------
def test_raiser_must_beat_the_card_on_the_table() -> None:
    hands = "4c 5c 6c | 3d 5d 6d | 4h 5h 6h | 2s 5s 6s"
    for variant, beats in (("paulista", False), ("raiser-must-beat", True)):
        m = match(variant, deal(0, hands, "7c"))
        assert "raise 1 3" in legal(m, 1)  # the leader: nothing to beat
        act(m, "play 1 3d")
        # seat 2's best card, a 6, does not beat the 3 on the table
        assert ("raise 2 3" in legal(m, 2)) is not beats, variant
        if beats:
            assert_illegal(m, "raise 2 3", "must beat the card on the table")
        act(m, "play 2 4h")
        # seat 3's 2 does not beat the 3 either (a tie is no beat)
        assert ("raise 3 3" in legal(m, 3)) is not beats
        act(m, "play 3 5s")
        assert ("raise 0 3" in legal(m, 0)) is not beats


def test_raiser_must_beat_a_raise_back_too(write: WriteFile) -> None:
    """A raise back is a raise: only by a challenged player whose best card beats the
    table. Mineiro raises at any time (M3) naming a card: his best card is what counts."""
    path = write("mineiro-beat.yaml", "extends: mineiro\nplay:\n  raiser_must_beat: true\n")
    m = match(path, deal(0, "5c 6c Kc | 5d 3d 6d | 5h 6h 7h | 5s 6s 4c"))
    assert {a.seat for a in m.legal_actions() if a.kind == "raise"} == {0, 1, 2, 3}
    act(m, "play 1 3d")  # only the manilhas 7h (seat 2) and 4c (seat 3) beat it
    assert {a.seat for a in m.legal_actions() if a.kind == "raise"} == {2, 3}
    assert_illegal(m, "raise 0 3 Kc", "must beat the card on the table")
    act(m, "raise 2 3 5h")
    assert legal(m, 1) == ["accept 1", "fold 1"]
    assert legal(m, 3) == ["accept 3", "fold 3", "raise 3 6 5s", "raise 3 6 6s", "raise 3 6 4c"]
    assert_illegal(m, "raise 1 6 5d", "must beat the card on the table")


# -- seeded games: the listers offer exactly what the judges accept ----------------------------
def test_the_constraints_are_met_in_seeded_games(write: WriteFile) -> None:
    """Every constraint at once, with covered cards from round 1 and Mineiro-like raises at
    any time: the moves offered are those accepted, and the constraints held."""
    path = write("all-constraints.yaml", "extends: covered-from-round-1\n"
                 "play:\n  leader_face_up: true\n  no_cover_after_tie: true\n"
                 "  highest_after_tied_first: true\n  raiser_must_beat: true\n")
    rules = load_variant(path)
    seen = {"tied_first": 0, "raise_refused": 0}
    for seed in range(12):
        m = Match.new(rules, seed=seed)
        choose = SplitMix64(seed)
        while not m.is_over:
            offered = m.legal_actions()
            if m.state == "play":
                rnd, hand = m.round, m.hand
                for a in offered:
                    if a.kind == "play" and a.covered:
                        assert rnd.cards and None not in hand.results
                    if a.kind == "play" and rnd.number and hand.results[0] is None:
                        strength = hand.strength
                        assert strength[a.card] == max(strength[c] for c in hand.hands[a.seat])
                        assert not a.covered
                        seen["tied_first"] += 1
                step = m.rules.next_step(m.value)
                if m.special == 0 and rnd.cards and step is not None and \
                        not any(a.kind == "raise" for a in offered) and \
                        m.turn % 2 != hand.last_raise_team:
                    seen["raise_refused"] += 1
                    twin = m.clone()
                    with pytest.raises(IllegalMoveError, match="must beat"):
                        twin.apply(Action.raise_to(m.turn, step.value))
            m.apply(offered[choose.bounded(len(offered))])
    assert seen["tied_first"] and seen["raise_refused"]


COMBINED = {
    "paulista": "extends: covered-from-round-1\nplay:\n  leader_face_up: true\n"
                "  no_cover_after_tie: true\n  highest_after_tied_first: true\n"
                "  raiser_must_beat: true\nrounds:\n  tied_round_leader: lowest_seat\n"
                "  all_tied: first_round_first_card\n",
    "mineiro": "extends: mineiro\nplay:\n  highest_after_tied_first: true\n"
               "  raiser_must_beat: true\n",
    "five": "extends: tie-leader-mao\ncovered_cards:\n  from_round: 1\nplay:\n"
            "  leader_face_up: true\n  no_cover_after_tie: true\n"
            "  highest_after_tied_first: true\n  raiser_must_beat: true\n"
            "rounds:\n  all_tied: first_round_first_card\n",
}


@pytest.mark.parametrize("base", sorted(COMBINED))
def test_the_legal_moves_are_what_the_judges_accept_with_every_rule_at_once(
        write: WriteFile, base: str) -> None:
    """As test_machine's check, on variants with every tie rule and constraint at once: every
    move of the move table, tried on a clone, is accepted exactly when it is offered."""
    from test_machine import _accepted, _every_move

    rules = load_variant(write(f"{base}-all.yaml", COMBINED[base]))
    checked = 0
    for seed in range(3):
        m = Match.new(rules, seed=seed)
        everything = _every_move(m)
        choose = SplitMix64(seed + 50)
        n = 0
        while not m.is_over:
            offered = set(m.legal_actions())
            if n % 4 == 0:
                for action in everything:
                    ok = _accepted(m, action)
                    penalised = action.kind == "raise" and m.special != 0
                    assert ok == (action in offered) or (ok and penalised), (
                        base, seed, n, str(action), m.state)
                checked += 1
            legal_now = m.legal_actions()
            m.apply(legal_now[choose.bounded(len(legal_now))])
            n += 1
    assert checked > 10


# -- cross-key checks --------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "path", "words"), [
    ("extends: no-covered-cards\nplay:\n  no_cover_after_tie: true\n",
     "play.no_cover_after_tie", "expected covered_cards.allowed: true, found false"),
    ("extends: mineiro\nplay:\n  leader_face_up: true\n",
     "play.leader_face_up", "expected covered_cards.allowed: true, found false"),
    ("extends: paulista\nbetting:\n  ladder: []\nplay:\n  raiser_must_beat: true\n",
     "play.raiser_must_beat", "expected a betting.ladder with a step"),
    ("extends: paulista\nrounds:\n  tied_round_leader: mao\n",
     "rounds.tied_round_leader", "expected cards_per_player of at least 4"),
    ("extends: paulista\ncards_per_player: 2\ncovered_cards:\n  from_round: 2\n"
     "play:\n  highest_after_tied_first: true\n",
     "play.highest_after_tied_first", "expected cards_per_player of at least 3, found 2"),
    ("extends: paulista\ncards_per_player: 11\n", "cards_per_player", "at most 10"),
    ("extends: five-cards\ncovered_cards:\n  from_round: 6\n", "covered_cards.from_round",
     "there is no such round"),
    ("extends: paulista\nplay:\n  leader_face_up: yes please\n", "play.leader_face_up",
     "a boolean"),
])
def test_keys_that_make_no_sense_together_are_refused(write: WriteFile, text: str, path: str,
                                                      words: str) -> None:
    file = write("bad.yaml", text)
    with pytest.raises(VariantError) as info:
        load_variant(file)
    err = info.value
    assert err.path == path and words in str(err) and str(file) in str(err), str(err)
    from engine.cli import main

    result = CliRunner().invoke(main, ["variants", "check", str(file)])
    assert result.exit_code == 1 and words in result.output
    assert "Traceback" not in result.output


def test_five_cards_deck_is_big_enough_and_a_seeded_deal_gives_five() -> None:
    rules = find_variant("five-cards")
    assert rules.players * rules.cards_per_player + 1 <= len(rules.deck)
    m = Match.new("five-cards", seed=7)
    assert [len(m.hands[s]) for s in range(4)] == [5] * 4
    with pytest.raises(IllegalMoveError, match="expected 5"):
        Match.new("five-cards", seed=None).deal(Deal.of(0, [h.split() for h in
                                                            EVEN_P.split("|")], "7c"))


def test_five_cards_covered_cards_from_round_5(write: WriteFile) -> None:
    rules = load_variant(write("late.yaml", "extends: five-cards\ncovered_cards:\n"
                               "  from_round: 5\n"))
    assert rules.covered_from_round == 5


#: The keys of ties and play constraints (C3, C6, C7, C8, P7, P8), written at their defaults.
NEW_KEYS_AT_DEFAULTS = """\
extends: paulista
cards_per_player: 3
rounds:
  tied_round_leader: same_leader
  all_tied: nobody
play:
  leader_face_up: false
  no_cover_after_tie: false
  highest_after_tied_first: false
  raiser_must_beat: false
"""


def test_new_keys_left_out_change_no_fingerprint(write: WriteFile) -> None:
    """Left out, the new keys are filled in nowhere (docs/log-format.md, variant_sha256:
    nothing but what a file states is hashed): a bare child has its parent's fingerprint."""
    rules = load_variant(write("same.yaml", "extends: paulista\n"))
    assert "play" not in rules.data
    assert rules.fingerprint == find_variant("paulista").fingerprint


def test_new_keys_at_their_defaults_mean_what_leaving_them_out_means(write: WriteFile) -> None:
    """A variant that writes the new keys at their defaults plays as its parent: the same
    rules read, and seeded matches move for move and checkpoint for checkpoint. (Its
    fingerprint is its own: it states keys the parent does not, and those are hashed.)"""
    from engine.logformat import record_random

    path = write("defaults.yaml", NEW_KEYS_AT_DEFAULTS)
    rules, parent = load_variant(path), find_variant("paulista")
    assert rules.data["play"] == {"leader_face_up": False, "no_cover_after_tie": False,
                                  "highest_after_tied_first": False, "raiser_must_beat": False}
    for key in ("cards_per_player", "tied_round_leader", "all_tied", "leader_face_up",
                "no_cover_after_tie", "highest_after_tied_first", "raiser_must_beat"):
        assert getattr(rules, key) == getattr(parent, key), key
    for seed in (1, 2, 3):
        ours = record_random(path, seed, log_dir=path.parent).splitlines()
        theirs = record_random("paulista", seed).splitlines()
        assert len(ours) > 20 and ours[1:] == theirs[1:], seed  # all but the header
    assert rules.fingerprint != parent.fingerprint
