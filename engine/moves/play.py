"""``play``: the seat whose turn it is plays a card, face up or covered (P7); the last card of
a round decides it (C5, C6) and may decide the hand (C7, P8, M7)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine.actions import Action, as_card
from engine.cards import CARD_CODES, COBERTA, Card, card_name
from engine.errors import PositionError, Why
from engine.i18n import _, person
from engine.moves import (
    Judge,
    KindState,
    Lister,
    MoveKind,
    Waiting,
    Words,
    move_transitions,
    register,
)
from engine.moves.names import PLAY_KIND
from engine.moves.outcome import conclude, enter_after_hand, hand_result
from engine.moves.scoring import end_hand
from engine.payload import CardField, Flag, LogEvent, Payload
from engine.rules import COVERED
from engine.ruling import Ruling, round_result
from engine.state import DEAL, MATCH_OVER, PLAY, Phase, Ruled, set_own

if TYPE_CHECKING:
    from engine.checkpoint import Checkpoint
    from engine.rules import Rules
    from engine.view import Listing, MatchView, Quick


#: The raisers who must beat the table (``play.raiser_must_kill``): the kind's own state
#: (:data:`STATE`), set by their raises (:mod:`engine.moves.raising`).
MUST_KILL = "must_kill"


def round_outcome(m: Ruled, cards: Sequence[tuple[int, Card, bool]],
                  leader: int) -> tuple[int | None, int]:
    """A complete round's winning team (``None``: tied) and the next round's leader, from its
    ``cards`` (seat, card, covered) in playing order and its ``leader``. C5: the strongest
    card wins; equal strongest cards of one team win for it, the first of them leads (pinned;
    house: the lowest seat of them, ``rounds.partners_tie_leader``);
    across teams they tie. P7: a covered card is nothing. C6: who leads after a tie."""
    strength = m.hand.strength
    best = -2
    tops: list[int] = []
    for s, c, cov in cards:
        v = COVERED if cov else strength[c]
        if v > best:
            best = v
            tops = [s]
        elif v == best:
            tops.append(s)
    team_of = m.rules.team_of
    first_team = team_of[tops[0]]
    if best != COVERED and (len(tops) == 1 or all(team_of[s] == first_team for s in tops)):
        if len(tops) > 1 and m.rules.rounds.partners_tie_leader == "lowest_seat":
            return first_team, min(tops)  # C5 (house): partners' tie led by the lowest seat
        return first_team, tops[0]
    how = m.rules.tied_round_leader  # C6
    if how == "mao":  # the mão, whatever the cards (a round all face down too)
        return None, m.mao
    if how == "same_leader" or best == COVERED:
        # P7: a covered card ties nothing: after a round all face down, its leader leads
        return None, leader
    if how == "first_tied_card":
        return None, tops[0]
    if how == "last_tied_card":
        return None, tops[-1]
    return None, min(tops)  # lowest_seat


def _judge(m: MatchView, a: Action, r: Ruling, table: Plays | None = None) -> str | None:
    seat = a.seat
    card = a.card
    rnd = m.round
    if seat != rnd.turn:
        return Why("not_your_turn", f"it is seat {rnd.turn}'s turn")
    hand = m.hand
    if card not in hand.hands[seat]:
        if card is None:
            return Why("position_not_a_move",
                       "a move by position is a bot's view of a blind hand: "
                       "engine.bots.choose_for or play_by_position gives the move")
        return Why("card_not_held", f"seat {seat} does not hold {card_name(card)}")
    bound = hand.bound[seat]
    if bound is not None and card != bound:
        return Why("bound_card",
                   f"seat {seat} raised with {card_name(bound)} and must play it (M4)")
    covered = a.covered
    if covered:
        rules = m.rules
        if not rules.covered_allowed:
            return Why("covered_not_allowed", "this variant has no covered cards (P7)")
        if rnd.number + 1 < rules.covered_from_round:
            return Why("covered_too_early",
                       f"covered cards only from round {rules.covered_from_round} (P7)")
        if bound is not None:
            return Why("bound_card_covered", "a card shown with a raise cannot be covered (M4)")
    if table is None:  # (the variant's judge has it: _judging)
        table = m.move_table.tables[PLAY_KIND]
    if table.constrained:
        why = _constraints(m, seat, card, covered, bound)
        if why is not None:
            return why
    cards = rnd.cards
    if len(cards) + 1 < m.move_table.players:
        return None
    # The card completes the round (C5, C6, P7).
    winner, leader = round_outcome(m, (*cards, (seat, card, covered)), rnd.leader)
    r.round = round_result(winner, leader)
    if 2 * (rnd.number + 1) < m.rules.cards_per_player:
        return None  # C7: fewer than half the rounds played, nobody can have the hand yet
    decided, hand_winner = hand_result(m, [*hand.results, winner])
    if decided:
        conclude(m, r, hand_winner, hand.value if hand_winner is not None else 0)
    return None


def _judging(rules: Rules, table: Plays) -> Judge:
    """The play kind's judge in the variant (``MoveKind.judging``): :func:`_judge` with its
    table, without looking it up a move."""

    def judge(m: MatchView, a: Action, r: Ruling) -> str | None:
        return _judge(m, a, r, table)

    return judge


def _quicking(rules: Rules, table: Plays, enters: dict[str, Any]) -> Quick | None:
    """The play kind's quick move (``MoveKind.quick``, :mod:`engine.moves.quick`): a card,
    face up or covered where covering is allowed, played by the seat whose turn it is and who
    holds it, bound to no card (M4), made whole: what :func:`_judge` checks of it and what
    :func:`_effect` does. A card that ends its round decides the round (C5, C6, P7) and begins
    the next, with its ``round`` checkpoint; where it may decide the hand (C7: from half the
    rounds played) and does, it ends the hand as the machine's transitions would: ruled
    (:func:`~engine.moves.outcome.conclude`) before anything changes, applied
    (:func:`~engine.moves.scoring.end_hand`), the state set to ``match_over`` where the match
    is won, else to ``deal``, and the effects of entering it run (``enters``: the next
    deal, or the match over). None where a play constraint of the ``play`` block may refuse a
    card or keeps the kind's state (``constrained``)."""
    if table.constrained:
        return None
    players, covered_from = rules.players, table.covered_from
    # C7: the first round whose last card may decide the hand (_judge asks hand_result there)
    decides_from = (rules.cards_per_player - 1) // 2
    to_deal, to_end = enters.get(DEAL, ()), enters.get(MATCH_OVER, ())
    last = players - 1  # cards on the table before a round's last
    after = [(s + 1) % players for s in range(players)]  # the seat after each

    def quick(m: MatchView, a: Action) -> list[Checkpoint] | None:
        rnd = m.round
        cards = rnd.cards
        seat = a.seat
        if m.state != PLAY or seat != rnd.turn:
            return None
        hand = m.hand
        held = hand.hands[seat]
        card = a.card
        covered = a.covered
        number = rnd.number
        if (card not in held or hand.bound[seat] is not None
                or (covered and number < covered_from)):
            return None
        if len(cards) < last:  # not the round's last card
            held.remove(card)
            hand.played.append((number, seat, card, covered))
            cards.append((seat, card, covered))
            rnd.turn = after[seat]
            return []
        play = (seat, card, covered)
        winner, leader = round_outcome(m, (*cards, play), rnd.leader)
        r = None
        if number >= decides_from:  # C7: the card may end the hand (ruled before any change)
            decided, hand_winner = hand_result(m, [*hand.results, winner])
            if decided:
                r = Ruling()
                r.model = m
                conclude(m, r, hand_winner, hand.value if hand_winner is not None else 0)
        held.remove(card)
        hand.played.append((number, seat, card, covered))
        cards.append(play)
        hand.results.append(winner)
        made: list[Checkpoint] = [{"event": "round", "winner": winner}]
        if r is None:
            rnd.number = number + 1
            rnd.cards = []
            rnd.leader = rnd.turn = leader
            return made
        r.checkpoints = made
        end_hand(m, r)
        enter_after_hand(m, a, r, to_deal, to_end)
        return made

    return quick


def _effect(a: Action, r: Ruling) -> None:
    m: MatchView = r.model
    seat = a.seat
    card = a.card
    assert card is not None  # judged: a card the seat holds
    covered = a.covered
    hand = m.hand
    rnd = m.round
    hand.hands[seat].remove(card)
    if hand.bound[seat] is not None:
        hand.bound[seat] = None
    hand.played.append((rnd.number, seat, card, covered))
    own = hand.own  # empty but where a kind keeps state: no lookup a card then
    killers = own.get(MUST_KILL) if own else None
    if killers:  # his card of the round is played (play.raiser_must_kill)
        set_own(hand, MUST_KILL, tuple(s for s in killers if s != seat))
    rnd.cards.append((seat, card, covered))
    if r.round is None:
        rnd.turn = (seat + 1) % m.move_table.players
        return
    winner, leader = r.round
    hand.results.append(winner)
    r.checkpoints = [{"event": "round", "winner": winner}]
    if r.ends:
        end_hand(m, r)
    else:
        rnd.number += 1
        rnd.cards = []
        rnd.leader = rnd.turn = leader


class Plays:
    """The play kind's table of a variant (``MoveKind.table``): every play, made once, and
    what its judge and lister read of the rules."""

    __slots__ = ("face_up", "covered", "covered_from", "constrained")

    def __init__(self, rules: Rules) -> None:
        n = rules.players
        self.face_up = [[Action(PLAY_KIND, s, c) for c in range(CARD_CODES)] for s in range(n)]
        self.covered = [[Action(PLAY_KIND, s, c, True) for c in range(CARD_CODES)]
                        for s in range(n)]
        # P7: the 0-based round from which a card may be covered (never, without covered cards)
        self.covered_from = rules.covered_from_round - 1 if rules.covered_allowed else 99
        #: Whether a play constraint of the ``play`` block applies to cards (P7, C7 house)
        self.constrained = (rules.leader_face_up or rules.no_cover_after_tie
                            or rules.no_cover_after_partner
                            or rules.highest_after_tied_first or rules.raiser_must_kill)


def plays(m: MatchView) -> Plays:
    """The variant's plays (its :class:`Plays`)."""
    table: Plays = m.move_table.tables[PLAY_KIND]
    return table


def _listing(rules: Rules, table: Plays) -> Lister:
    """The play kind's lister in the variant: the plays of the seat whose card is awaited."""
    face_up, covered, covered_from = table.face_up, table.covered, table.covered_from
    constrained = table.constrained

    def lister(m: MatchView, seat: int | None, out: list[Action]) -> None:
        rnd = m.round
        t = rnd.turn
        if seat is None or seat == t:
            hand = m.hand
            bound = hand.bound[t]
            row = face_up[t]
            if bound is not None:
                out.append(row[bound])
            elif constrained:
                _constrained_plays(m, t, row, out)
            else:
                cards = hand.hands[t]
                for c in cards:  # a plain loop: cheaper than a comprehension or map for 3 cards
                    out.append(row[c])
                if rnd.number >= covered_from:
                    row = covered[t]
                    for c in cards:
                        out.append(row[c])

    return lister


def _quick_listing(rules: Rules, table: Plays, state: str) -> Listing | None:
    """The play kind's lister as source (``MoveKind.quick_listing``, :mod:`engine.moves.quick`):
    :func:`_listing`'s, where no play constraint applies, with P7's round written in and the
    cards of a hand of each size read at once (a loop of appends costs twice as much)."""
    if table.constrained:
        return None
    covers = table.covered_from < rules.cards_per_player  # covered cards in some round (P7)
    lines = ["t = rnd.turn",
             "if seat is None or seat == t:",
             "    bound = hand.bound[t]",
             "    row = play_face_up[t]",
             "    if bound is not None:",
             "        out.append(row[bound])",
             "    else:",
             "        cards = hand.hands[t]",
             "        n = len(cards)"]
    for size in range(rules.cards_per_player, 0, -1):
        names = [f"c{k}" for k in range(size)]
        plays = "".join(f"row[{c}], " for c in names)
        lines += [f"        {'if' if size == rules.cards_per_player else 'elif'} n == {size}:",
                  f"            {', '.join(names)}, = cards",
                  f"            out += ({plays})"]
        if covers:
            lines += [f"            if rnd.number >= {table.covered_from}:",
                      "                row = play_covered[t]",
                      f"                out += ({plays})"]
    lines += ["        else:  # more cards than are dealt (none in the shipped variants)",
              "            for c in cards:",
              "                out.append(row[c])"]
    if covers:
        lines += [f"            if rnd.number >= {table.covered_from}:",
                  "                row = play_covered[t]",
                  "                for c in cards:",
                  "                    out.append(row[c])"]
    return lines, {"play_face_up": table.face_up, "play_covered": table.covered}


def _constraints(m: MatchView, seat: int, card: int, covered: bool,
                 bound: int | None) -> str | None:
    """Why a play breaks a constraint of the ``play`` block (P7, C7 house), or ``None``; the
    card is held, and may be covered by P7 and M4."""
    hand = m.hand
    if covered:
        why = _no_cover(m)
        if why is not None:
            return why
    if m.round.number and hand.results[0] is None and bound is None and _highest_now(m):
        # C7 (house): after a tied first round, the highest card, face up
        strength = hand.strength
        top = max(strength[c] for c in hand.hands[seat])
        if strength[card] != top:
            return Why("not_highest_card",
                       f"after a tied first round seat {seat} plays his highest card "
                       f"(play.highest_after_tied_first)")
        if covered:
            return Why("highest_face_up",
                       "after a tied first round the highest card is played face up")
    if bound is None and hand.own.get(MUST_KILL):
        killers = _killers(m, seat)
        if killers and (covered or card not in killers):
            return Why("must_kill",
                       f"seat {seat} raised against the table and holds a card that beats it: "
                       "he plays one, face up (play.raiser_must_kill)")
    return None


def _constrained_plays(m: MatchView, t: int, row: list[Action], out: list[Action]) -> None:
    """The plays of seat ``t`` (bound to no card) under the ``play`` block's constraints."""
    hand = m.hand
    rnd = m.round
    cards = hand.hands[t]
    if rnd.number and hand.results[0] is None and _highest_now(m):
        # C7 (house): after a tied first round, his highest card(s), face up only
        strength = hand.strength
        top = max(strength[c] for c in cards)
        out.extend([row[c] for c in cards if strength[c] == top])
        return
    if hand.own.get(MUST_KILL):
        killers = _killers(m, t)
        if killers:  # C8 (house): a raiser who can beat the table plays a card that does
            out.extend([row[c] for c in cards if c in killers])
            return
    out.extend([row[c] for c in cards])
    table = plays(m)
    if rnd.number >= table.covered_from and _no_cover(m) is None:
        row = table.covered[t]
        out.extend([row[c] for c in cards])


def _no_cover(m: MatchView) -> str | None:
    """P7 (house): why the card to play now may not be covered (covered cards allowed in this
    round), or ``None``."""
    rules = m.rules
    if rules.leader_face_up and not m.round.cards:
        return Why("leader_face_up", "the round's leader plays face up (play.leader_face_up)")
    if rules.no_cover_after_tie and None in m.hand.results:
        return Why("no_cover_after_tie",
                   "no covered card after a tied round (play.no_cover_after_tie)")
    if rules.no_cover_after_partner and m.round.cards:
        team_of, seat = rules.team_of, m.round.turn
        if any(team_of[s] == team_of[seat] for s, _, _ in m.round.cards):
            return Why("no_cover_after_partner", "no covered card after a partner's card in "
                                                 "the round (play.no_cover_after_partner)")
    return None


def _highest_now(m: MatchView) -> bool:
    """C7 (house): whether, the first round tied, the card to play must be the highest (not in
    a blind hand, P6: nobody sees his cards there)."""
    return m.rules.highest_after_tied_first and not m.hand.blind


def beats_table(m: MatchView, seat: int) -> bool:
    """C8 (house, ``play.raiser_must_beat``): whether ``seat``'s best card in hand beats the
    strongest card of the round so far (a covered card is nothing). With no card on the table
    there is nothing to beat: true; with no card in hand: false."""
    cards = m.round.cards
    if not cards:
        return True
    hand = m.hand
    held = hand.hands[seat]
    if not held:
        return False
    strength = hand.strength
    table = max(COVERED if cov else strength[c] for _, c, cov in cards)
    return max(strength[c] for c in held) > table


def kill_target(m: MatchView, seat: int) -> int | None:
    """C8 (house, ``play.raiser_must_kill``): the strength of the strongest card of another
    team than ``seat``'s face up on the table in the round so far, or ``None``: no such card
    (a covered card is nothing to kill)."""
    team_of = m.rules.team_of
    team = team_of[seat]
    strength = m.hand.strength
    best = None
    for s, c, cov in m.round.cards:
        if not cov and team_of[s] != team and (best is None or strength[c] > best):
            best = strength[c]
    return best


def _killers(m: MatchView, seat: int) -> list[Card]:
    """C8 (house, ``play.raiser_must_kill``): the cards ``seat`` must choose from now, his
    raise against the table accepted: those that beat the strongest card of another team on
    the table. Empty: no such duty, or no card that beats it (he plays as usual). Not in a
    blind hand (P6), where nobody sees his cards."""
    hand = m.hand
    if seat not in hand.own.get(MUST_KILL, ()) or hand.blind:
        return []
    best = kill_target(m, seat)
    if best is None:
        return []
    strength = hand.strength
    return [c for c in hand.hands[seat] if strength[c] > best]


def _transitions(rules: Rules) -> list[dict[str, Any]]:
    return move_transitions("play", Phase.PLAY, None)  # the last card of a round may end the hand


def _tell(a: Action, w: Words) -> str:
    mine = a.seat == w.me
    if a.covered and not mine:  # P7: nobody else sees it
        return _("{who} plays a card {coberta}").format(who=w.who, coberta=COBERTA)
    card = w.card(a.card)  # type: ignore[arg-type]
    if w.position is not None:  # P6: chosen by position, seen once played
        card = (_("card #{place}") if a.covered else _("card #{place}: {card}")).format(
            place=w.position, card=card)
    return person(mine, _("you play {card}"), _("{who} plays {card}"), who=w.who,
                  card=card) + (f" {COBERTA}" if a.covered else "")


def _menu(a: Action, w: Words) -> str:
    if w.position is not None:  # P6: the cards are hidden
        return _("play card #{place}").format(place=w.position) + (
            f" {COBERTA}" if a.covered else "")
    return _("play {card}").format(card=w.label(a.card)) + (  # type: ignore[arg-type]
        f" {COBERTA}" if a.covered else "")

def _space(rules: Rules) -> list[tuple[tuple[int, ...], dict[str, Any], str]]:
    """Every card of the deck, then every card covered (P7); after the other kinds' moves, a
    blind hand's positions (P6), as a seat is offered them."""
    deck = rules.deck
    out: list[tuple[tuple[int, ...], dict[str, Any], str]] = [
        ((0,), {"card": c}, f"play {card_name(c)}") for c in deck]
    if rules.covered_allowed:
        out += [((0,), {"card": c, "covered": True}, f"play {card_name(c)} covered")
                for c in deck]
    if any(h.blind for h in rules.special_hands):
        places = range(rules.cards_per_player)
        out += [((9,), {"position": i}, f"play #{i + 1}") for i in places]
        if rules.covered_allowed:
            out += [((9,), {"position": i, "covered": True}, f"play #{i + 1} covered")
                    for i in places]
    return out


def _told(a: Action, w: Words) -> str:
    card = w.card(a.card) + (f" {COBERTA}" if a.covered else "")  # type: ignore[arg-type]
    return person(a.seat == w.me, _("you play {card}"), _("{who} plays {card}"), who=w.who,
                  card=card)


def _refuse_kill(message: str, at: str) -> PositionError:
    return PositionError(Why("bad_must_kill", message), path=at)


def _check_must_kill(m: MatchView, p: dict[str, Any]) -> None:
    """The raisers who must beat the table with their card of the round (C8 house,
    ``play.raiser_must_kill``) in a position: present exactly in a variant with the rule; each
    a seat that raised against a card of another team face up in the round in play and has
    not played since, in state play or answer."""
    rules = m.rules
    given = p.get(MUST_KILL)
    if (given is not None) != rules.raiser_must_kill:
        said = ("this variant has play.raiser_must_kill: expected must_kill, the raisers who "
                "must beat the table" if given is None
                else "this variant has no play.raiser_must_kill")
        raise _refuse_kill(said, MUST_KILL)
    if not given:
        return
    if p["state"] not in ("play", "answer"):
        raise _refuse_kill(f"a raiser must beat the table only while the round is played, "
                           f"not in state {p['state']}", MUST_KILL)
    seats: list[int] = []
    for k, seat in enumerate(given):
        at = f"must_kill[{k}]"
        if not 0 <= seat < rules.players:
            raise PositionError(Why("seat_out_of_range", f"there is no seat {seat} "
                                                         f"(0..{rules.players - 1})"), path=at)
        if seat in seats:
            raise _refuse_kill(f"seat {seat} is listed twice", at)
        if any(c[0] == seat for c in m.round.cards):
            raise _refuse_kill(f"seat {seat} has played his card of the round: he has nothing "
                               "more to beat it with", at)
        if kill_target(m, seat) is None:
            raise _refuse_kill(f"no card of another team than seat {seat}'s is face up on the "
                               "table: nothing to beat", at)
        seats.append(seat)


#: ``must_kill``: set by a raise against the table (:mod:`engine.moves.raising`), emptied
#: seat by seat by their cards, public (everyone saw the raise and the table).
STATE = KindState(MUST_KILL, lambda rules: rules.raiser_must_kill, (), check=_check_must_kill,
                  schema={"type": "array", "uniqueItems": True,
                          "items": {"type": "integer", "minimum": 0}, "description": (
                              "C8 (house, play.raiser_must_kill): the seats that raised "
                              "against a card of another team face up in the round in play "
                              "and have not played since: each plays a card that beats the "
                              "table if he holds one. Only in a variant with the rule "
                              "(required there).")})


def play(seat: Any, card: Any, covered: Any = False) -> Action:
    """A card played (face down when ``covered``, P7): ``Action.play(1, "4c")``."""
    return Action(PLAY_KIND, seat, as_card(card), covered)


def play_at(seat: Any, position: Any, covered: Any = False) -> Action:
    """A bot's view of a play in a blind hand (P6): the card at ``position`` (0-based) of
    the seat's hand, unseen. :func:`engine.bots.choose_for` turns it into the real move."""
    return Action(PLAY_KIND, seat, None, covered, position=position)

KIND = register(MoveKind(
    name="play", tell=_tell, menu=_menu, order=1, judge=_judge, effect=_effect, table=Plays,
    judging=_judging, quick=_quicking, quick_listing=_quick_listing,
    listing=_listing, transitions=_transitions,
    payload=Payload((CardField(), Flag(doc="Face down (P7); default false.")),
                    factories=(play, play_at), view_factory="play_at"),
    log=LogEvent(place=1,
                 about="Move: a card played."),
    # a card is awaited: the seat to play
    phases=(Waiting(Phase.PLAY, lambda m: [m.turn], about="a card or a raise is awaited"),),
    not_now={Phase.ANSWER: "a raise is waiting for its answer",
             Phase.DECIDE: "the special hand's decision comes first",
             None: "no card is awaited"},
    keys=("ranking", "manilhas", "rounds", "covered_cards", "play.leader_face_up",
          "play.no_cover_after_tie", "play.no_cover_after_partner",
          "play.highest_after_tied_first", "play.raiser_must_kill"),
    state=STATE,
    # its words (truco play, the transcript) and its moves in engine.env's action space
    hint=(0, lambda legal, rules: _("a card like 4c or 4♣ ('4c {coberta}' to hide it)").format(
        coberta=COBERTA) if rules.covered_allowed else _("a card like 4c or 4♣")),
    told=_told,
    space=_space))
