"""A position's checks, block by block (:func:`check`): the score, the last hand's record,
the state between hands, the cards, the special hand, the bet, the cards shown and bound, a
decision, the rounds; the side bets' are :mod:`engine.matchpos.bets`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.cards import Card, card_name
from engine.errors import Why
from engine.matchpos.bets import check_bet_results, check_bets
from engine.matchpos.exporting import export
from engine.matchpos.schema import Position, between_hands, refuse
from engine.moves import kind_states
from engine.moves.deal import decider_seat, special_for
from engine.moves.outcome import hand_result
from engine.moves.play import round_outcome
from engine.moves.scoring import new_hand
from engine.sidebets import FALTA, FLORES
from engine.state import DEAL, DECIDE, NORMAL

if TYPE_CHECKING:
    from engine.rules import Rules
    from engine.view import MatchView


def _fresh(m: MatchView) -> Position:
    """The hand part of a position in ``deal``: a fresh hand, its first round led by the mão."""
    other = m.clone()
    new_hand(other)
    return export(other)


def check(m: MatchView, p: Position) -> None:
    """Refuse (:class:`PositionError`) a position that no play of the rules could reach;
    ``m`` is the match built from it (its state not yet set). The checks go block by block,
    in this order (the first refusal is the one raised): the kinds' own state (each kind's
    check, :class:`engine.moves.KindState`: the raisers who must beat the table), the score,
    the last hand's record, the state between hands, the cards, the special hand, the bet,
    the cards shown and bound, a decision, the rounds and the side bets."""
    state = p["state"]
    live = state != "match_over"
    for own in kind_states(m.rules, every=True):
        own.check(m, p)
    _check_score(m, live)
    if p["last_hand"] is not None:
        _check_last_number(m, p, state)
        _check_last_hand(m)
    if between_hands(state):  # nothing dealt yet
        _check_between_hands(m, p, state)
        return
    _check_cards(m)
    start = _check_special(m, live)
    _check_bet(m, state)
    _check_shown(m, state)
    if state == DECIDE:
        _check_decision(m)
    _check_rounds(m, p, live, start)


def check_cards(m: MatchView, p: Position) -> None:
    """:func:`check` of a match that differs from one that passed it at most in the cards
    :func:`~engine.matchpos.restore.set_cards` places (the hands, the cards as dealt, the
    faces of covered cards, a pending raise's card, a side bet's shows): it refuses exactly
    what :func:`check` would. Only the blocks that read those cards run: the cards, a pending
    raise's card, the cards shown and bound, the side bets. The others read nothing that
    differs (a covered card counts as nothing in a round, whatever its face, and every card
    played face up is as it was), so they pass again; between hands and at ``match_over``
    (where the round that ended the match is compared card by card) :func:`check` runs whole."""
    state = p["state"]
    if between_hands(state) or state == "match_over":
        check(m, p)
        return
    _check_cards(m)
    hand = m.hand
    pending = hand.pending
    if pending is not None:
        ps, _, pc = pending
        if pc is not None and pc not in hand.hands[ps]:
            raise refuse(Why("pending_card", f"seat {ps} does not hold {card_name(pc)}"),
                         "pending.card")
    _check_shown(m, state)
    if hand.side is not None:
        _check_side(m, p, _hand_start_score(m))


def score_ceiling(rules: Rules) -> int:
    """The most points a team may hold when a match ends (docs/positions.md): a game goes on
    while every team is below the target, so its last hand began at most at the target less
    1, and one hand gives at most its highest value (the ladder's top, the initial value, a
    special hand's value or what its refusal pays) plus what a concede adds while a side bet
    is open (GH11) plus each side bet's highest stake (the falta at most the target, G29; a
    flor's per flor stake for every seat, G38, G40).

    >>> from engine.variant import load_variant
    >>> score_ceiling(load_variant("paulista")), score_ceiling(load_variant("gauderio"))
    (23, 87)
    """
    target, per_hand = rules.target, [rules.initial_value, rules.top_value]
    per_hand += [h.value for h in rules.special_hands] + [h.fold_points
                                                          for h in rules.special_hands]
    extra = 0
    for bet in rules.side_bets:
        extra += bet.open_fold_penalty
        flores = bet.per_flor * rules.players
        stakes = [flores]  # uncontested: per flor sung (G38)
        for chain in bet.chains.values():
            stakes += [target if chain.accepted is None else chain.accepted, chain.refused]
        for flor in (bet.flor_chains or {}).values():
            for stake in (flor.accepted, flor.refused or 0):
                stakes.append(stake if isinstance(stake, int) else
                              {FALTA: target, FLORES: flores}.get(stake, target + flores))
        extra += max(stakes)
    return target - 1 + max(per_hand) + extra


def _check_score(m: MatchView, live: bool) -> None:
    """The match's score: a live match has no winner and no finished game; one over has the
    winner of the match."""
    rules = m.rules
    if live:
        if m.winner is not None:
            raise refuse(Why("winner_of_live_match",
                             "a match with a winner is over (state match_over)"), "winner")
        for t, s in enumerate(m.score):
            if s >= rules.target:
                raise refuse(Why("finished_score",
                                 f"team {t} has {s} points, the target is {rules.target}: "
                                 "the game is over"), f"score[{t}]")
        for t, g in enumerate(m.games):
            if g >= rules.games_to_win:
                raise refuse(Why("finished_games",
                                 f"team {t} has won {g} games, and {rules.games_to_win} "
                                 "win the match: it is over"), f"games[{t}]")
    elif m.winner is None:
        raise refuse(Why("match_over_without_winner", "a match over has a winner"), "winner")
    elif m.games[m.winner] < (1 if rules.match_step else rules.games_to_win):
        raise refuse(Why("match_winner",
                         f"team {m.winner} has won {m.games[m.winner]} games: not the match"),
                     "winner")
    if not live:
        top = score_ceiling(rules)
        for t, s in enumerate(m.score):
            if s > top:
                raise refuse(Why("score_out_of_reach",
                                 f"team {t} has {s} points; no game of this variant ends past "
                                 f"{top} (the target less 1, plus the most one hand gives)"),
                             f"score[{t}]")
        for t, g in enumerate(m.games):
            most = rules.games_to_win - (t != m.winner)
            if g > most:
                raise refuse(Why("score_out_of_reach",
                                 f"team {t} has won {g} games; the match ends when a team "
                                 f"wins {rules.games_to_win}, so {most} at most"), f"games[{t}]")


def _check_last_number(m: MatchView, p: Position, state: str) -> None:
    """The last hand's record is of the hand before this one."""
    expect = m.hand_number if between_hands(state) else m.hand_number - 1
    if p["last_hand"]["hand_number"] != expect or expect < 1:
        raise refuse(Why("last_hand_number",
                         f"the hand before this one is hand {expect}"),
                     "last_hand.hand_number")


def _check_between_hands(m: MatchView, p: Position, state: str) -> None:
    """State ``deal`` (or a move before it, a cut): nothing dealt, called or raised yet; a
    seeded match never waits in ``deal``."""
    if m.rng is not None and state == DEAL:
        raise refuse(Why("deal_awaited_with_seed",
                         "a seeded match deals the next hand at once: it never waits "
                         "in state deal"), "rng")
    fresh = _fresh(m)
    for key in ("value", "special", "pending", "refused", "last_raise_team", "vira",
                "hands", "dealt", "rounds", "round", "shown", "bound"):
        if p[key] != fresh[key]:
            raise refuse(Why("dealt_before_deal",
                             f"no hand is dealt in state {state}: expected {fresh[key]!r}"),
                         key)
    if "side_bets" in fresh and p["side_bets"] != fresh["side_bets"]:  # G24: not called
        raise refuse(Why("dealt_before_deal", f"no side bet is called in state {state}"),
                     "side_bets")


def _check_cards(m: MatchView) -> None:
    """The hand in play: its number, the vira, each seat's cards held and played as dealt."""
    rules, hand, n = m.rules, m.hand, m.rules.players
    if m.hand_number < 1:
        raise refuse(Why("hand_number", "a hand in play is hand 1 or later"), "hand_number")
    if rules.has_vira and hand.vira is None:
        raise refuse(Why("missing_vira", "this variant turns a vira (P1)"), "vira")
    if not rules.has_vira and hand.vira is not None:
        raise refuse(Why("extra_vira", "this variant has no vira"), "vira")
    by_seat: list[list[Card]] = [[] for _ in range(n)]
    for _, s, c, _ in hand.played:
        by_seat[s].append(c)
    for s in range(n):
        count = len(hand.hands[s]) + len(by_seat[s])
        if count != rules.cards_per_player:
            raise refuse(Why("card_count",
                             f"seat {s} holds {len(hand.hands[s])} cards and played "
                             f"{len(by_seat[s])}, expected {rules.cards_per_player} in all"),
                         f"hands[{s}]")
    if len(hand.dealt) != n:
        raise refuse(Why("dealt_mismatch", "a hand in play has its cards as dealt"), "dealt")
    for s in range(n):
        dealt = hand.dealt[s]
        # the same cards as many times each (sorted card codes: cheaper than two Counters)
        if sorted(dealt) != sorted(hand.hands[s] + by_seat[s]):
            raise refuse(Why("dealt_mismatch",
                             f"seat {s}'s cards as dealt are not those held and played"),
                         f"dealt[{s}]")
        order = [c for c in dealt if c in hand.hands[s]]
        if order != hand.hands[s]:
            raise refuse(Why("dealt_mismatch",
                             f"seat {s} holds his cards in the order dealt"), f"hands[{s}]")


def _check_special(m: MatchView, live: bool) -> list[int]:
    """The special hand the score makes, its team and decider; returns the score the hand
    began with (G31: side bets credited this hand come off it)."""
    rules, hand = m.rules, m.hand
    start = _hand_start_score(m) if live else m.score  # G31: side bets credited this hand
    special, team = special_for(rules, start) if live else (hand.special, hand.special_team)
    if special != hand.special:
        name = "a normal hand" if special == NORMAL else (
            f"the {rules.special_hands[special - 1].name}")
        raise refuse(Why("special_mismatch", f"at the score {m.score} the hand is {name}"),
                     "special")
    rule = hand.rule
    if rule is not None:
        if team != hand.special_team:
            raise refuse(Why("special_mismatch",
                             f"the team at the {rule.name}'s score is {team}"), "special.team")
        decider = (decider_seat(rules, m.mao, team)
                   if rule.decision and rule.decider == "first_from_mao" and team is not None
                   else None)
        if decider != hand.decider:
            raise refuse(Why("special_mismatch",
                             f"the {rule.name}'s decider is {decider}"), "special.decider")
    return list(start)


def _check_bet(m: MatchView, state: str) -> None:
    """The hand's value on the ladder, a pending raise (C8-C10, P4-P6, M5, M6) and the
    refusals kept while it waits."""
    rules, hand, rnd, team_of = m.rules, m.hand, m.round, m.rules.team_of
    rule = hand.rule
    values = [rules.initial_value, *(step.value for step in rules.ladder)]
    base = rule.value if rule is not None else rules.initial_value
    if hand.value not in values and hand.value != base:
        raise refuse(Why("value_not_on_ladder",
                         f"{hand.value} is not a value of the ladder {values} (C8)"), "value")
    if rule is not None and rule.raises != "allowed" and hand.value != rule.value:
        raise refuse(Why("special_value",
                         f"the {rule.name} is worth {rule.value}, and no raise is allowed "
                         "(P5, P6, M5, M6)"),
                     "value")
    if (hand.last_raise_team is None) != (hand.value == base):
        said = (f"with no raise accepted the hand is worth {base}"
                if hand.last_raise_team is None
                else f"a raise was accepted: the hand is worth more than {base}")
        raise refuse(Why("value_without_raise", said), "value")
    if hand.value < base:
        raise refuse(Why("value_not_on_ladder", f"the hand is worth at least {base} (C8)"),
                     "value")
    pending = hand.pending
    if (state == "answer") != (pending is not None) and not (
            state in ("bet_answer", "sing") and hand.side is not None):  # G26, G36: waits
        raise refuse(Why("pending_state", "a raise waits for its answer exactly in state "
                                          f"answer (the state is {state}, C9)"), "pending")
    if pending is not None:
        ps, pv, pc = pending
        if rule is not None and rule.raises != "allowed":
            # P5, P6, M5, M6: a raise there is refused, or penalised at once: it never waits
            raise refuse(Why("raise_in_special",
                             f"no raise is allowed in the {rule.name}: none waits for an "
                             "answer (P5, P6, M5, M6)"), "pending")
        if team_of[ps] == hand.last_raise_team:
            raise refuse(Why("raised_twice",
                             f"team {team_of[ps]} raised last: it cannot raise again (C10)"),
                         "pending.seat")
        step = rules.next_step(hand.value)
        if step is None or step.value != pv:
            raise refuse(Why("pending_not_next_step",
                             f"a raise from {hand.value} is to "
                             f"{'nothing' if step is None else step.value} (C8)"),
                         "pending.value")
        if rules.name_card != (pc is not None):
            raise refuse(Why("pending_card", "a raise names a card exactly where the variant "
                                             "says (M4)"), "pending.card")
        if pc is not None and pc not in hand.hands[ps]:
            raise refuse(Why("pending_card", f"seat {ps} does not hold {card_name(pc)}"),
                         "pending.card")
        if (hand.last_raise_team is None and rules.raise_timing == "own_turn"
                and ps != rnd.turn):
            # P4: the first raise of the hand (no raise accepted: not a raise back) is made
            # on the raiser's own turn
            raise refuse(Why("pending_not_on_turn",
                             f"a raise only on one's own turn (P4): seat {rnd.turn}'s"),
                         "pending.seat")
    if hand.refused:
        challenged = m.challenged_team
        if pending is None or rules.refusal != "whole_team":
            raise refuse(Why("bad_refusal", "refusals are kept only while a raise waits, "
                                            "where the whole team refuses"), "refused")
        for k, s in enumerate(hand.refused):
            if team_of[s] != challenged or hand.refused.count(s) > 1:
                raise refuse(Why("bad_refusal", f"seat {s} cannot have refused this raise"),
                             f"refused[{k}]")


def _check_shown(m: MatchView, state: str) -> None:
    """Cards shown with a raise and the cards a raiser is bound to (M4)."""
    rules, hand = m.rules, m.hand
    revealed = {(s, c) for b in hand.side or ()
                for s, cards in (b.flores if b.shown is None else (b.shown,))
                for c in cards}  # G32, G41: shown when the hand (and the match) ended
    for k, (s, c) in enumerate(hand.shown):
        if (s, c) in revealed and state == "match_over":
            continue
        if not rules.name_card or c not in hand.dealt[s]:
            raise refuse(Why("bad_shown", f"seat {s} cannot have shown {card_name(c)}"),
                         f"shown[{k}]")
    for s, b in enumerate(hand.bound):
        if b is not None and (b not in hand.hands[s] or (s, b) not in hand.shown):
            raise refuse(Why("bad_bound",
                             f"seat {s} is bound only to a card he holds and showed"),
                         f"bound[{s}]")


def _check_decision(m: MatchView) -> None:
    """State ``decide``: a special hand with a decision, before any card (M5)."""
    hand = m.hand
    rule = hand.rule
    if rule is None or not rule.decision:
        raise refuse(Why("decision_outside_special",
                         "a decision is awaited only in a special hand with one (M5)"),
                     "state")
    if hand.played or hand.value != rule.value:
        raise refuse(Why("decision_after_play", "the decision comes before any card"),
                     "rounds" if hand.results else "round.cards")


def _check_rounds(m: MatchView, p: Position, live: bool, start: Sequence[int]) -> None:
    """The rounds played (their order, winners, a hand already decided), the round in play
    (its number, leader, order and turn) and, last, the side bets."""
    rules, hand, rnd, n = m.rules, m.hand, m.round, m.rules.players
    covered_from = rules.covered_from_round if rules.covered_allowed else None
    leader = m.mao
    results = hand.results
    for i in range(len(results)):
        path = f"rounds[{i}]"
        rcards = [(s, c, cov) for r, s, c, cov in hand.played if r == i]
        _order(rcards, leader, n, path, covered_from, i)
        if len(rcards) != n:
            raise refuse(Why("incomplete_round", f"a completed round has {n} cards"),
                         f"{path}.cards")
        winner, leader = round_outcome(m, rcards, leader)
        if winner != results[i]:
            raise refuse(Why("round_winner", f"round {i + 1} is " + (
               "tied" if winner is None else f"won by team {winner}")),
                         f"{path}.winner")
        if live and 2 * (i + 1) >= rules.cards_per_player and hand_result(m, results[:i + 1])[0]:
            raise refuse(Why("hand_already_decided",
                             f"round {i + 1} decided the hand: it should have ended"),
                         f"{path}.winner")
    number = rnd.number
    if not live and number < len(results):  # the round that ended the match: its last
        ended = [(s, c, cov) for r, s, c, cov in hand.played if r == number]
        if number != len(results) - 1 or rnd.cards != ended:
            raise refuse(Why("match_over_round", "the round the match ended in is the last "
                                                 "of the rounds, or the round after them"),
                         "round.cards")
        if rnd.turn != ended[-1][0]:
            raise refuse(Why("wrong_turn", f"the last card was seat {ended[-1][0]}'s"),
                         "round.turn")
        if hand.side is not None:
            _check_side(m, p, start)
        return
    if number != len(results):
        raise refuse(Why("round_number", f"after {len(results)} rounds the round in play is "
                                         f"round {len(results) + 1}"), "round.number")
    if rnd.leader != leader:
        if number == 0:
            raise refuse(Why("round_one_leader", f"the mão (seat {leader}) leads round 1"),
                         "round.leader")
        raise refuse(Why("round_leader", f"round {number + 1} is led by seat {leader}"),
                     "round.leader")
    _order(rnd.cards, leader, n, "round", covered_from, number)
    if live and len(rnd.cards) >= n:
        raise refuse(Why("round_full", "a round with every card played is over"),
                     "round.cards")
    turn = (leader + len(rnd.cards)) % n
    if rnd.turn != turn:
        raise refuse(Why("wrong_turn", f"the next card is seat {turn}'s"), "round.turn")
    if hand.side is not None:
        _check_side(m, p, start)


def _check_last_hand(m: MatchView) -> None:
    """The last hand's record is one a hand leaves: each card played once, the rounds in
    order, each round's cards from a leader on, one a seat, covered only where allowed; every
    round before the last complete, a winner for each complete round; a card shown and played
    by the same seat. Its round winners and ``blind`` are not checked: its vira and score
    are not in the position."""
    assert m.last_hand is not None
    _, played, shown, results, _ = m.last_hand
    rules = m.rules
    n = rules.players
    covered_from = rules.covered_from_round if rules.covered_allowed else None
    by_card: dict[Card, tuple[int, int]] = {}
    rounds: list[list[int]] = []
    for k, (r, s, c, cov) in enumerate(played):
        at = f"last_hand.played[{k}]"
        if c in by_card:
            raise refuse(Why("card_twice", f"{card_name(c)} is also at "
                                           f"last_hand.played[{by_card[c][1]}]"), f"{at}.card")
        by_card[c] = (s, k)
        if r < len(rounds) - 1 or r >= rules.cards_per_player or r > len(rounds):
            raise refuse(Why("last_hand_record", "the last hand's cards are played round "
                                                 f"after round, 1 to {rules.cards_per_player}"),
                         f"{at}.round")
        if r == len(rounds):
            if rounds and len(rounds[-1]) != n:
                raise refuse(Why("last_hand_record", f"round {r} of the last hand has "
                                                     f"{len(rounds[-1])} cards, not {n}: no "
                                                     "round followed it"), f"{at}.round")
            rounds.append([])
        seats = rounds[-1]
        if seats and s != (seats[0] + len(seats)) % n:
            raise refuse(Why("wrong_play_order", f"card {len(seats) + 1} of the last hand's "
                                                 f"round {r + 1} is seat "
                                                 f"{(seats[0] + len(seats)) % n}'s"),
                         f"{at}.seat")
        if cov and (covered_from is None or r + 1 < covered_from):
            raise refuse(Why("covered_forbidden", "no covered card there (P7)"),
                         f"{at}.covered")
        seats.append(s)
    complete = sum(1 for seats in rounds if len(seats) == n)
    if len(results) != complete:
        raise refuse(Why("last_hand_record", f"the last hand has {complete} complete rounds: "
                                             "a winner (or a tie) for each"),
                     "last_hand.rounds")
    for k, (s, c) in enumerate(shown):
        if c in by_card and by_card[c][0] != s:
            raise refuse(Why("last_hand_record", f"{card_name(c)} was played by seat "
                                                 f"{by_card[c][0]}, not shown by seat {s}"),
                         f"last_hand.shown[{k}].seat")


def _check_side(m: MatchView, p: Position, start: Sequence[int]) -> None:
    """The side bets (G22-G41): their records, their results as the engine settles them,
    and the score that holds what they were credited (``start``: the score the hand began
    with, :func:`_hand_start_score`)."""
    check_bets(m, p)
    check_bet_results(m, p["state"] != "match_over", start)
    if p["state"] != "match_over":
        for t, s in enumerate(start):
            if s < 0:
                raise refuse(Why("bet_credit", f"team {t} has {m.score[t]} points, less than "
                                               f"the {m.score[t] - s} its side bets were "
                                               "credited this hand (G31)"), f"score[{t}]")


def _hand_start_score(m: MatchView) -> list[int]:
    """The score the hand in play began with: the score less the side bets' points credited
    at once this hand (G31; nothing else is credited before the hand ends)."""
    score = m.score[:]
    for b in m.hand.side or ():
        if b.settled and not b.owed and b.winner is not None and 0 <= b.winner < len(score):
            score[b.winner] -= b.points
    return score



def _order(cards: Sequence[tuple[int, Card, bool]], leader: int, n: int, path: str,
           covered_from: int | None, number: int) -> None:
    """The cards of a round are played from its leader on, and covered only where allowed."""
    for j, (s, _, cov) in enumerate(cards):
        if s != (leader + j) % n:
            raise refuse(Why("wrong_play_order",
                             f"card {j + 1} of the round is seat {(leader + j) % n}'s"),
                         f"{path}.cards[{j}].seat")
        if cov and (covered_from is None or number + 1 < covered_from):
            raise refuse(Why("covered_forbidden",
                             "this variant has no covered cards (P7)" if covered_from is None
                             else f"covered cards only from round {covered_from} (P7)"),
                         f"{path}.cards[{j}].covered")

