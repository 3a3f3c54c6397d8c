"""The blocks of a variant's rules, one small frozen dataclass per mapping of the YAML
(``deck``, ``manilhas``, ``rounds``, ``covered_cards``, ``play``, ``betting``, ``concede``,
``special_hands``, ``game``, ``match``), with the ladder's :class:`Step` and the general form
of a special hand (:class:`SpecialHand`) and the literal types of their keys."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from engine.cards import Card

Penalty = Literal["lose_game", "lose_hand"]
#: How a special hand treats a raise: a normal bet, a penalised move, or an illegal move.
Raises = Literal["allowed", "penalised", "illegal"]
#: Which teams' scores a special hand's condition asks about (see :class:`SpecialHand`).
Teams = Literal["exactly_one", "all", "any"]

#: C6: who leads after a tied round.
TieLeader = Literal["same_leader", "first_tied_card", "last_tied_card", "lowest_seat", "mao"]
#: P8, M7: who scores a hand of ties.
AllTied = Literal["nobody", "mao_team", "dealer_team", "first_round_first_card"]
#: P1, M1 (and house): how the manilhas are chosen.
ManilhaMode = Literal["none", "fixed", "vira", "vira_suit"]
#: P4, M3: when a raise may be made.
RaiseTiming = Literal["own_turn", "any_time"]
#: C9: who answers a raise.
AnsweredBy = Literal["challenged_team", "next_seat", "designated"]
#: C9: whose fold refuses a raise.
Refusal = Literal["one_player", "whole_team"]


@dataclass(frozen=True)
class Step:
    """One step of the bet ladder (C8). A step written ``value: game`` is worth the game:
    its ``value`` is the game's target and ``game`` is true (accepted, the hand decides the
    game); ``value: match``, worth the match: ``game`` and ``match`` are true (accepted, the
    hand's winner wins the game and the match). A numeric value with ``worth: game`` or
    ``worth: match`` (house rule) is the same at that value, so a step of the target may come
    before it (doze, e em seguida queda)."""

    value: int
    name: str
    game: bool = False
    match: bool = False


@dataclass(frozen=True)
class SpecialHand:
    """One entry of the variant's list of special hands (P5, P6, M5, M6 and house rules): a
    hand that starts at certain scores is played differently. The engine knows only this
    general form; the old ``one_team``/``both_teams`` mapping is read into it.

    It applies to a hand dealt when the scores meet its condition: a team is *at the score*
    when its score is between ``from_score`` and ``to_score`` (both included; ``to_score``
    ``None``: no upper bound); ``teams`` says how many teams must be: ``exactly_one``,
    ``all`` or ``any`` (at least one). The first entry of the list whose condition holds is
    the hand's; none: a normal hand.
    """

    name: str
    teams: Teams
    from_score: int
    to_score: int | None
    value: int
    decision: bool
    #: Who decides for the team at the score: ``either`` partner (the first answer counts),
    #: or only ``first_from_mao``, the team's first seat in playing order from the mão.
    decider: Literal["either", "first_from_mao"]
    show_partner_cards: bool
    fold_points: int
    blind: bool
    winner_takes_game: bool
    raises: Raises
    #: What a raise costs a team at the score, and a team not at it (``raises: penalised``).
    penalty_team_at_score: Penalty
    penalty_other_team: Penalty

    def at_score(self, score: int) -> bool:
        """Whether a team with ``score`` points is at this hand's score."""
        return self.from_score <= score and (self.to_score is None or score <= self.to_score)

    def team_for(self, score: Sequence[int]) -> tuple[bool, int | None]:
        """Whether the hand applies at ``score`` (a score per team), and the one team at the
        score when exactly one is (``None`` otherwise)."""
        at = [t for t, s in enumerate(score) if self.at_score(s)]
        if self.teams == "exactly_one":
            ok = len(at) == 1
        elif self.teams == "all":
            ok = len(at) == len(score)
        else:
            ok = bool(at)
        return ok, (at[0] if ok and len(at) == 1 else None)


@dataclass(frozen=True)
class OneTeamHand:
    """P5 mão de 11 / M5 mão de dez: exactly one team has at least ``from_score``. A reader's
    view (tests, bots): the engine plays :attr:`Rules.special_hands`."""

    enabled: bool
    name: str
    from_score: int
    value: int
    decision: bool
    show_partner_cards: bool
    fold_points: int
    blind: bool
    winner_takes_game: bool
    raises: Raises
    penalty_team_at_score: Penalty
    penalty_other_team: Penalty
    decider: Literal["either", "first_from_mao"] = "either"


@dataclass(frozen=True)
class BothTeamsHand:
    """P6 mão de ferro / M6: both teams have at least ``from_score``. A reader's view (tests,
    bots): the engine plays :attr:`Rules.special_hands`."""

    enabled: bool
    name: str
    from_score: int
    value: int
    blind: bool
    winner_takes_game: bool
    raises: Raises
    penalty: Penalty


@dataclass(frozen=True)
class DeckRules:
    """``deck`` (C2): every suit of ``ranks``, without ``minus``, with ``plus`` (house), and
    the extra cards (X1..., house) with what each is just above: a rank of the ranking,
    another extra card, or ``"manilhas"``."""

    ranks: tuple[str, ...]
    minus: tuple[Card, ...]
    plus: tuple[Card, ...]
    extra: tuple[tuple[Card, str], ...]


@dataclass(frozen=True)
class SuitRanking:
    """``suit_ranking`` (P3, house): the ranks whose ordinary cards are ordered by suit, and
    the suits, weakest first (none: equal ranks tie)."""

    ranks: tuple[str, ...] = ()
    suits: tuple[str, ...] = ()


@dataclass(frozen=True)
class ManilhaRules:
    """``manilhas`` (P1, P2, M1, house): the mode, the vira's suits weakest first (P2), the
    fixed manilhas weakest first (M1; under ``vira_suit``, the ones below the suit's), and for
    ``vira_suit`` the ranks of the vira suit's manilhas and the rank that stands in for a vira
    of them (truco de amostra: K; ``None``: none)."""

    mode: ManilhaMode
    suit_order: tuple[str, ...]
    cards: tuple[Card, ...]
    ranks: tuple[str, ...]
    stand_in: str | None


@dataclass(frozen=True)
class RoundRules:
    """``rounds`` (C6, P8, M7): who leads after a tied round, and a hand of ties."""

    tied_round_leader: TieLeader
    all_tied: AllTied
    #: C5 (house): who leads after a round won by partners' equal cards: the first of them, or
    #: the lowest seat among them.
    partners_tie_leader: Literal["first_card", "lowest_seat"] = "first_card"


@dataclass(frozen=True)
class CoveredCardRules:
    """``covered_cards`` (P7): whether a card may be played face down, and from which round."""

    allowed: bool
    from_round: int


@dataclass(frozen=True)
class PlayRules:
    """``play`` (P7, C7, C8 house rules): play constraints, each off unless the variant says."""

    #: P7 (house): the round's leader plays face up.
    leader_face_up: bool
    #: P7 (house): no covered card once a round of the hand has tied.
    no_cover_after_tie: bool
    #: P7 (house): no covered card after a partner's card in the round.
    no_cover_after_partner: bool
    #: C7 (house): after a tied first round, each plays (face up) his highest card.
    highest_after_tied_first: bool
    #: C8 (house): a raise only by a player whose best card beats the round's best so far.
    raiser_must_beat: bool
    #: C8 (house, "quem truca tem que matar"): once a raise against a card of another team on
    #: the table is accepted, its raiser plays a card that beats the table, if he holds one.
    raiser_must_kill: bool
    #: P6 (house): a blind hand's cards numbered by their place among the cards ``held``
    #: (renumbered after each play) or as ``dealt`` (kept through the hand).
    blind_places: str = "held"


@dataclass(frozen=True)
class BettingRules:
    """``betting`` (C8, C9, C10, P4, M3, M4, house rules): the hand's value and the raises."""

    initial_value: int  # C8
    ladder: tuple[Step, ...]  # C8, M9
    raise_timing: RaiseTiming  # P4, M3
    name_card: bool  # M4
    refused_card_shown_in_rounds: tuple[int, ...]  # M4
    #: No raise when winning the hand at the value it already has would win the game (house).
    no_raise_when_winning: bool
    #: C9: who answers a raise: any player of the challenged team, or only the next seat after
    #: the raiser in playing order (the first of the challenged team who has not folded).
    answered_by: AnsweredBy
    #: C9: a fold by one player refuses the raise, or only folds by the whole team.
    refusal: Refusal
    #: C9: the challenged team may raise back instead of answering.
    raise_back: bool


@dataclass(frozen=True)
class ConcedeRules:
    """``concede`` (house, correr): giving up the hand, on one's turn, instead of answering a
    raise, in the special hands."""

    allowed: bool
    instead_of_answer: bool
    in_special_hands: bool


@dataclass(frozen=True)
class SpecialHandRules:
    """``special_hands`` (P5, P6, M5, M6, house rules): the hands, in the order they are
    tried, and the readers' views of the first exactly-one-team and all-teams ones."""

    hands: tuple[SpecialHand, ...]
    one_team: OneTeamHand
    both_teams: BothTeamsHand


@dataclass(frozen=True)
class GameRules:
    """``game`` (C11): the points that win a game, and whether scores stop there (house)."""

    target: int
    cap_score: bool


@dataclass(frozen=True)
class MatchRules:
    """``match`` (P9, M8, C11 house): the games a team must win to win the match, and the score
    every team starts a game with from a game on (house: a match's later games at 11 x 11), and
    how the first dealer is chosen (house: drawn, :mod:`engine.moves.draw`)."""

    games_to_win: int
    #: C11 (house): the score each team starts the games from ``start_score_from_game`` with.
    start_score: int = 0
    #: C11 (house): the first game (1-based) that starts at ``start_score``.
    start_score_from_game: int = 1
    #: House rule: ``given`` (the log's or the caller's first dealer) or ``drawn``.
    first_dealer: str = "given"
    #: House rule: in a drawn first dealer, the suits (highest first) that break a tie.
    first_dealer_suits: tuple[str, ...] = ()

    def start(self, game: int, teams: int) -> list[int]:
        """The score a game (1-based: ``game`` 1 is the match's first) starts with.

        >>> MatchRules(2, 11, 2).start(1, 2), MatchRules(2, 11, 2).start(2, 2)
        ([0, 0], [11, 11])
        """
        at = self.start_score if game >= self.start_score_from_game else 0
        return [at] * teams
