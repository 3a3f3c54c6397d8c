"""The resolved, immutable rules of one variant, and the tables the engine derives from them.

A :class:`Rules` is built by the loader (:mod:`engine.variant`) from a validated YAML file; it is
frozen and hashable, so one loaded variant (and its one state machine) serves every game. It is
grouped in blocks as the file is (``rules.betting``, ``rules.game``, ...); names follow the
variant schema, and each carries the rule id it expresses.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any, Generic, Literal, TypeVar

from engine.cards import (
    CARD_CODES,
    RANKS,
    SUITS,
    Card,
    canonical_deck,
    card_name,
    card_rank,
    card_suit,
    is_extra,
    parse_card,
)
from engine.resources import schema_path
from engine.sidebets import SideBet, side_bets_from_data

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
AnsweredBy = Literal["challenged_team", "next_seat"]
#: C9: whose fold refuses a raise.
Refusal = Literal["one_player", "whole_team"]

#: Strength of a covered card (P7): below every real card, so it never wins or ties.
COVERED = -1
_MANILHA_BASE = 100
#: Strength of extra cards above every manilha (C2 ``deck.extra``: ``above: manilhas``).
_ABOVE_MANILHAS_BASE = 200
#: What an extra card may be just above, besides a rank or another extra card.
ABOVE_MANILHAS = "manilhas"


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
    #: C7 (house): after a tied first round, each plays (face up) his highest card.
    highest_after_tied_first: bool
    #: C8 (house): a raise only by a player whose best card beats the round's best so far.
    raiser_must_beat: bool
    #: C8 (house, "quem truca tem que matar"): once a raise against a card of another team on
    #: the table is accepted, its raiser plays a card that beats the table, if he holds one.
    raiser_must_kill: bool


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
    """``match`` (P9, M8): the games a team must win to win the match."""

    games_to_win: int


_T = TypeVar("_T")


class _Flat(Generic[_T]):
    """A read-only attribute of :class:`Rules` under its old flat name, read from a block:
    ``rules.target`` is ``rules.game.target``."""

    __slots__ = ("block", "key")

    def __init__(self, block: str, key: str) -> None:
        self.block = block
        self.key = key

    def __get__(self, rules: Rules, owner: type | None = None) -> _T:
        return getattr(getattr(rules, self.block), self.key)  # type: ignore[no-any-return]

    def __set__(self, rules: Rules, value: object) -> None:
        raise AttributeError(f"Rules is immutable: {self.key} is {self.block}.{self.key}")


def _hot() -> Any:
    """A field of :class:`Rules` that is no argument, no part of its equality: derived."""
    return field(init=False, compare=False, hash=False, repr=False)


#: The flat names of :class:`Rules` read for every move, each with its block and key: plain
#: attributes, set once at construction (a property call there would cost, per move).
_HOT: dict[str, tuple[str, str]] = {
    "manilha_mode": ("manilhas", "mode"),
    "manilha_suit_order": ("manilhas", "suit_order"),
    "fixed_manilhas": ("manilhas", "cards"),
    "manilha_ranks": ("manilhas", "ranks"),
    "manilha_stand_in": ("manilhas", "stand_in"),
    "tied_round_leader": ("rounds", "tied_round_leader"),
    "covered_allowed": ("covered_cards", "allowed"),
    "covered_from_round": ("covered_cards", "from_round"),
    "leader_face_up": ("play", "leader_face_up"),
    "no_cover_after_tie": ("play", "no_cover_after_tie"),
    "highest_after_tied_first": ("play", "highest_after_tied_first"),
    "raiser_must_beat": ("play", "raiser_must_beat"),
    "raiser_must_kill": ("play", "raiser_must_kill"),
    "ladder": ("betting", "ladder"),
    "raise_timing": ("betting", "raise_timing"),
    "name_card": ("betting", "name_card"),
    "refused_card_shown_in_rounds": ("betting", "refused_card_shown_in_rounds"),
    "no_raise_when_winning": ("betting", "no_raise_when_winning"),
    "answered_by": ("betting", "answered_by"),
    "refusal": ("betting", "refusal"),
    "raise_back": ("betting", "raise_back"),
    "special_hands": ("special_rules", "hands"),
    "target": ("game", "target"),
    "concede": ("concede_rules", "allowed"),
    "concede_instead_of_answer": ("concede_rules", "instead_of_answer"),
}


@dataclass(frozen=True, kw_only=True)
class Rules:
    """Every rule of one variant, grouped as the variant file groups them: one small frozen
    block per mapping of the YAML (:attr:`betting`, :attr:`rounds`, :attr:`covered_cards`,
    :attr:`play`, :attr:`manilhas`, :attr:`deck_rules` (``deck``), :attr:`game`,
    :attr:`match`, :attr:`special_rules` (``special_hands``), :attr:`concede_rules`
    (``concede``), :attr:`side_bets`), the top-level keys as fields. Build it with
    :func:`engine.variant.load`.

    The flat names of before (``rules.target``, ``rules.answered_by``, ...) still read the
    blocks, read-only (a later step moves the callers to the blocks): those read for every
    move are plain attributes set once at construction (:data:`_HOT`), the others delegate.
    Equality and the hash are the blocks' and the top-level fields' (not ``data`` nor
    ``source``), as they were the flat fields'.
    """

    name: str
    title: str
    players: int  # C1
    cards_per_player: int  # C3
    ranking: tuple[str, ...]  # P3, M2: weakest first
    #: C1 (house): the teams' seats, as the variant lists them; empty: alternate seats.
    team_seats: tuple[tuple[int, ...], ...]
    deck_rules: DeckRules  # C2
    manilhas: ManilhaRules  # P1, P2, M1
    rounds: RoundRules  # C6, P8, M7
    covered_cards: CoveredCardRules  # P7
    play: PlayRules  # house
    betting: BettingRules  # C8, C9, C10, P4, M3, M4
    special_rules: SpecialHandRules  # P5, P6, M5, M6
    game: GameRules  # C11
    match: MatchRules  # P9, M8
    concede_rules: ConcedeRules  # house
    #: Side bets beside the ladder (G22-G32, ``side_bets``); none in Paulista and Mineiro.
    side_bets: tuple[SideBet, ...]
    #: The resolved variant as plain data, as the files state it (what the fingerprint is
    #: taken of; the defaults are not filled in).
    data: Any = field(compare=False, hash=False, repr=False)
    #: Where the variant was loaded from (a shipped name's file, or a path).
    source: str = field(default="", compare=False, hash=False, repr=False)
    # Derived tables, filled in __post_init__.
    deck: tuple[Card, ...] = field(init=False, compare=False, hash=False, repr=False)
    #: The team of each seat, by seat (C1: partners in alternate seats, ``seat % 2``, unless
    #: the variant's ``teams`` says otherwise).
    team_of: tuple[int, ...] = field(init=False, compare=False, hash=False, repr=False)
    #: How many teams (the length of a score array).
    teams: int = field(init=False, compare=False, hash=False, repr=False)
    #: The value of the ladder's step worth the game or the match (``value: game``,
    #: ``value: match``), or ``None``.
    game_value: int | None = field(init=False, compare=False, hash=False, repr=False)
    #: Whether that step is worth the match.
    match_step: bool = field(init=False, compare=False, hash=False, repr=False)
    #: P1: whether a card is turned after dealing (it names the manilhas: the next rank, or,
    #: in mode ``vira_suit``, its suit).
    has_vira: bool = field(init=False, compare=False, hash=False, repr=False)
    _tables: tuple[tuple[int, ...] | None, ...] = field(
        init=False, compare=False, hash=False, repr=False
    )
    _levels: dict[str, int] = field(init=False, compare=False, hash=False, repr=False)

    # -- the flat names of before, read from the blocks (a later step moves the callers) --
    # Read for every move (move listers and judges, observations): plain attributes set once
    # in __post_init__ from the blocks (_HOT), read-only as every field.
    manilha_mode: ManilhaMode = _hot()  # P1, M1
    manilha_suit_order: tuple[str, ...] = _hot()  # P2
    fixed_manilhas: tuple[Card, ...] = _hot()  # M1
    manilha_ranks: tuple[str, ...] = _hot()  # house (vira_suit)
    manilha_stand_in: str | None = _hot()  # P1 (house)
    tied_round_leader: TieLeader = _hot()  # C6
    covered_allowed: bool = _hot()  # P7
    covered_from_round: int = _hot()  # P7
    leader_face_up: bool = _hot()  # P7 (house)
    no_cover_after_tie: bool = _hot()  # P7 (house)
    highest_after_tied_first: bool = _hot()  # C7 (house)
    raiser_must_beat: bool = _hot()  # C8 (house)
    raiser_must_kill: bool = _hot()  # C8 (house)
    ladder: tuple[Step, ...] = _hot()  # C8, M9
    raise_timing: RaiseTiming = _hot()  # P4, M3
    name_card: bool = _hot()  # M4
    refused_card_shown_in_rounds: tuple[int, ...] = _hot()  # M4
    no_raise_when_winning: bool = _hot()  # house
    answered_by: AnsweredBy = _hot()  # C9 (house)
    refusal: Refusal = _hot()  # C9 (house)
    raise_back: bool = _hot()  # C9 (house)
    special_hands: tuple[SpecialHand, ...] = _hot()  # P5, P6, M5, M6
    target: int = _hot()  # C11
    concede: bool = _hot()  # house
    concede_instead_of_answer: bool = _hot()  # house
    # Read once a hand or less: delegating to the blocks.
    deck_ranks = _Flat[tuple[str, ...]]("deck_rules", "ranks")  # C2
    deck_minus = _Flat[tuple[Card, ...]]("deck_rules", "minus")  # C2 (house)
    deck_plus = _Flat[tuple[Card, ...]]("deck_rules", "plus")  # C2 (house)
    deck_extra = _Flat[tuple[tuple[Card, str], ...]]("deck_rules", "extra")  # C2 (house)
    all_tied = _Flat[AllTied]("rounds", "all_tied")  # P8, M7
    initial_value = _Flat[int]("betting", "initial_value")  # C8
    one_team = _Flat[OneTeamHand]("special_rules", "one_team")  # P5, M5 (a reader's view)
    both_teams = _Flat[BothTeamsHand]("special_rules", "both_teams")  # P6, M6 (the same)
    cap_score = _Flat[bool]("game", "cap_score")  # C11 (house)
    games_to_win = _Flat[int]("match", "games_to_win")  # P9, M8
    concede_in_special_hands = _Flat[bool]("concede_rules", "in_special_hands")  # house

    def __hash__(self) -> int:
        # The generated hash would rehash every field on each call; Rules are looked up in
        # caches (the machine, the move table) for every new match, so compute it once.
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(getattr(self, f.name) for f in fields(self) if f.compare))
            object.__setattr__(self, "_hash", cached)
        return cached

    def __post_init__(self) -> None:
        for name, (block, key) in _HOT.items():
            object.__setattr__(self, name, getattr(getattr(self, block), key))
        deck = tuple(canonical_deck(self.deck_ranks, self.deck_minus, self.deck_plus,
                                    (card for card, _ in self.deck_extra)))
        object.__setattr__(self, "deck", deck)
        team_of = [s % 2 for s in range(self.players)]
        for team, seats in enumerate(self.team_seats):  # checked by the loader: each seat once
            for seat in seats:
                team_of[seat] = team
        object.__setattr__(self, "team_of", tuple(team_of))
        object.__setattr__(self, "teams", len(self.team_seats) or 2)
        object.__setattr__(self, "game_value", next(
            (s.value for s in self.ladder if s.game), None))
        object.__setattr__(self, "match_step", any(s.match for s in self.ladder))
        object.__setattr__(self, "has_vira", self.manilha_mode in ("vira", "vira_suit"))
        object.__setattr__(self, "_levels", self._strength_levels())
        if self.has_vira:
            tables: list[tuple[int, ...] | None] = [None] * CARD_CODES
            for vira in deck:
                tables[vira] = self._strengths(self.manilhas_for(vira))
            object.__setattr__(self, "_tables", tuple(tables))
        else:
            object.__setattr__(self, "_tables", (self._strengths(self.manilhas_for(None)),))

    # -- derived rules ----------------------------------------------------------------------

    @property
    def levels(self) -> dict[str, int]:
        """The strength of each rank of the ranking and of each extra card (``X1``...) when no
        manilha is involved (P3, M2, C2): higher wins, equal values tie. Without extra cards a
        rank's strength is its place in ``ranking``.

        >>> from engine.variant import load_variant
        >>> load_variant("paulista").levels["3"]
        9
        """
        return dict(self._levels)

    @property
    def fingerprint(self) -> str:
        """SHA-256 of the resolved rules (name, title, description, ``extends`` and
        ``card_names`` left out): the ``variant_sha256`` of a log."""
        cached: str | None = self.__dict__.get("_fingerprint")
        if cached is None:  # computed once: the rules are immutable
            rules = {k: v for k, v in self.data.items() if k not in NOT_RULES}
            text = json.dumps(rules, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            cached = hashlib.sha256(text.encode("utf-8")).hexdigest()
            object.__setattr__(self, "_fingerprint", cached)
        return cached

    def move_name(self, move: str, default: str) -> str:
        """What the table says for a move (the variant's optional ``move_names``: ``accept``,
        ``fold``, ``concede``, ``play_hand``, ``fold_hand``), else ``default``. Presentation
        only, as ``card_names``: no rule reads it and ``variant_sha256`` leaves it out.

        >>> from engine.variant import load_variant
        >>> load_variant("gauderio").move_name("accept", "aceito")
        'quero'
        >>> load_variant("paulista").move_name("accept", "aceito")
        'aceito'
        """
        names = self.data.get("move_names") if isinstance(self.data, Mapping) else None
        got = names.get(move) if isinstance(names, Mapping) else None
        return got if isinstance(got, str) else default

    @property
    def top_value(self) -> int:
        """The highest value a raise can reach (C8)."""
        return self.ladder[-1].value if self.ladder else self.initial_value

    def next_step(self, value: int) -> Step | None:
        """The ladder step after ``value``, or ``None`` at the top (C8: none may be skipped)."""
        for step in self.ladder:
            if step.value > value:
                return step
        return None

    def step_name(self, value: int) -> str:
        """What players call the raise to ``value``."""
        for step in self.ladder:
            if step.value == value:
                return step.name
        return str(value)

    def manilhas_for(self, vira: Card | None) -> tuple[Card, ...]:
        """The manilhas, weakest first, for this vira (P1, P2), the fixed list (M1), or the
        vira suit's cards of ``manilha_ranks`` (mode ``vira_suit``, the vira itself left out,
        or replaced by the card of ``manilha_stand_in`` of its suit; above the fixed list, if
        any: truco de amostra). Only cards of the deck; an extra card turned as the vira names
        no rank and no suit: no manilhas that hand (but the fixed list)."""
        if self.manilha_mode == "fixed":
            return self.fixed_manilhas
        if self.manilha_mode == "vira_suit" and (vira is None or is_extra(vira)):
            return tuple(c for c in self.fixed_manilhas if c != vira)
        if self.manilha_mode == "none" or vira is None or is_extra(vira):
            return ()
        if self.manilha_mode == "vira_suit":
            suit = SUITS.index(card_suit(vira)) * 13
            pieces = [suit + RANKS.index(r) for r in self.manilha_ranks]
            stand_in = self.manilha_stand_in
            if stand_in is not None and vira in pieces:
                pieces[pieces.index(vira)] = suit + RANKS.index(stand_in)
            cards = [*self.fixed_manilhas, *pieces]
        else:
            order = self.ranking
            rank = order[(order.index(card_rank(vira)) + 1) % len(order)]
            cards = [SUITS.index(s) * 13 + RANKS.index(rank) for s in self.manilha_suit_order]
        deck = self.deck
        return tuple(c for c in cards if c in deck and c != vira)

    def strengths(self, vira: Card | None) -> tuple[int, ...]:
        """A table indexed by card code: the card's strength in this hand (higher wins).
        Ordinary cards rank by ``ranking`` (suits tie, P3/M2); manilhas beat them all (P2/M1);
        extra cards stand where ``deck.extra`` puts them (C2)."""
        table = self._tables[vira if self.has_vira else 0]  # type: ignore[index]
        assert table is not None, "the vira must be a card of the deck"
        return table

    def _strengths(self, manilhas: tuple[Card, ...]) -> tuple[int, ...]:
        table = [COVERED] * CARD_CODES
        levels = self._levels
        for card in self.deck:
            table[card] = levels[card_name(card) if is_extra(card) else card_rank(card)]
        for i, card in enumerate(manilhas):
            table[card] = _MANILHA_BASE + i
        return tuple(table)

    def _strength_levels(self) -> dict[str, int]:
        """Ranks and extra cards by strength (see :attr:`levels`). Each extra card stands one
        level above what ``deck.extra`` names; extra cards above the same thing tie."""
        # Levels weakest first, each a list of the ranks or extra cards on it; the marker
        # level stands for the manilhas.
        levels: list[list[str]] = [[r] for r in self.ranking] + [[ABOVE_MANILHAS]]
        joined: dict[str, list[str]] = {}  # what is named as "above" -> its extras' level
        pending = {card_name(c): above for c, above in self.deck_extra}
        while pending:
            placed = False
            for name, above in list(pending.items()):
                at = next((lv for lv in levels if above in lv), None)
                if at is None:
                    continue  # above an extra card that is not placed yet
                level = joined.get(above)
                if level is None:
                    level = joined[above] = []
                    levels.insert(levels.index(at) + 1, level)
                level.append(name)
                del pending[name]
                placed = True
            if not placed:
                raise ValueError(f"deck.extra cannot be ordered: {pending}")
        marker = next(i for i, lv in enumerate(levels) if ABOVE_MANILHAS in lv)
        out: dict[str, int] = {}
        for i, level in enumerate(levels):
            for name in level:
                if name != ABOVE_MANILHAS:
                    out[name] = i if i < marker else _ABOVE_MANILHAS_BASE + i - marker
        return out

    def __str__(self) -> str:
        return self.name


#: Top-level keys that are no rule: labels, the parent, presentation (what players call cards).
#: The fingerprint and the playthroughs leave them out.
NOT_RULES = frozenset({"$schema", "name", "title", "description", "extends", "card_names",
                       "move_names"})


@cache
def variant_schema() -> dict[str, Any]:
    """The shipped JSON Schema of variant files, as data."""
    with open(schema_path("variant"), encoding="utf-8") as f:
        return json.load(f)  # type: ignore[no-any-return]


def with_defaults(value: Any, path: tuple[str, ...] = ()) -> Any:
    """A copy of a resolved variant (or of its key at ``path``, like ``("special_hands",)``)
    with every key it leaves out that has a ``default`` in the variant schema filled in with
    that default, at every level: the one statement of what a key left out means. The value
    given is not changed. (The rules' ``data`` and ``variant_sha256`` keep only what the files
    state.)

    >>> with_defaults({"betting": {"initial_value": 1}})["betting"]["raise_back"]
    True
    """
    schema = variant_schema()
    sub: dict[str, Any] = schema
    for key in path:
        sub = _deref(sub["properties"][key])
    return _fill(copy.deepcopy(value), sub)


def _deref(sub: dict[str, Any]) -> dict[str, Any]:
    """A schema node with its ``$ref`` (``#/$defs/...``) followed."""
    ref = sub.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return _deref(variant_schema()["$defs"][ref.rpartition("/")[2]])
    return sub


def _fill(value: Any, sub: dict[str, Any]) -> Any:
    if isinstance(value, dict):
        props: dict[str, Any] = sub.get("properties", {})
        for key, prop in props.items():
            if key not in value and "default" in prop:
                value[key] = copy.deepcopy(prop["default"])
        more = sub.get("additionalProperties")
        for key, item in value.items():
            inner = props.get(key, more)
            if isinstance(inner, dict):
                _fill(item, _deref(inner))
    elif isinstance(value, list) and isinstance(sub.get("items"), dict):
        for item in value:
            _fill(item, _deref(sub["items"]))
    return value


def rules_from_data(data: dict[str, Any], source: str = "") -> Rules:
    """Build :class:`Rules` from a resolved, validated variant mapping. A key it leaves out
    takes the schema's ``default`` (:func:`with_defaults`); the rules' ``data`` is the mapping
    as given."""
    full = with_defaults(data)
    man = full["manilhas"]
    bet = full["betting"]
    play = full["play"]
    concede = full["concede"]
    target = full["game"]["target"]
    specials = special_hands_from_data(full["special_hands"])
    one, both = _views(full["special_hands"], specials, target)
    deck = full["deck"]
    vira_suit = man["mode"] == "vira_suit"
    return Rules(
        name=full.get("name", ""),
        title=full.get("title", full.get("name", "")),
        players=full["players"],
        cards_per_player=full["cards_per_player"],
        ranking=tuple(full["ranking"]),
        team_seats=tuple(tuple(seats) for seats in full["teams"]),
        deck_rules=DeckRules(
            ranks=tuple(deck["ranks"]),
            minus=tuple(parse_card(c) for c in deck["minus"]),
            plus=tuple(parse_card(c) for c in deck["plus"]),
            extra=tuple(sorted((parse_card(name), entry["above"])
                               for name, entry in deck["extra"].items()))),
        manilhas=ManilhaRules(
            mode=man["mode"],
            suit_order=tuple(man["suit_order"]),
            cards=tuple(parse_card(c) for c in man["cards"])
            if man["mode"] in ("fixed", "vira_suit") else (),
            ranks=tuple(man["ranks"]) if vira_suit else (),
            stand_in=man["stand_in"] if vira_suit else None),
        rounds=RoundRules(tied_round_leader=full["rounds"]["tied_round_leader"],
                          all_tied=full["rounds"]["all_tied"]),
        covered_cards=CoveredCardRules(allowed=full["covered_cards"]["allowed"],
                                       from_round=full["covered_cards"]["from_round"]),
        play=PlayRules(**{key: play[key] for key in (
            "leader_face_up", "no_cover_after_tie", "highest_after_tied_first",
            "raiser_must_beat", "raiser_must_kill")}),
        betting=BettingRules(
            initial_value=bet["initial_value"],
            ladder=tuple(_step(s, target) for s in bet["ladder"]),
            raise_timing=bet["raise_timing"],
            name_card=bet["name_card"],
            refused_card_shown_in_rounds=tuple(bet["refused_card_shown_in_rounds"]),
            no_raise_when_winning=bet["no_raise_when_winning"],
            answered_by=bet["answered_by"],
            refusal=bet["refusal"],
            raise_back=bet["raise_back"]),
        special_rules=SpecialHandRules(hands=specials, one_team=one, both_teams=both),
        game=GameRules(target=target, cap_score=full["game"]["cap_score"]),
        match=MatchRules(games_to_win=full["match"]["games_to_win"]),
        concede_rules=ConcedeRules(allowed=concede["allowed"],
                                   instead_of_answer=concede["instead_of_answer"],
                                   in_special_hands=concede["in_special_hands"]),
        side_bets=side_bets_from_data(full),
        data=_freeze(data),
        source=source,
    )


def _step(step: dict[str, Any], target: int) -> Step:
    """One ladder step (C8): ``value: game`` or ``value: match`` stands for the target; a
    numeric value with ``worth`` (house rule) is worth the game or the match at its own value."""
    value = step["value"]
    if value in ("game", "match"):
        return Step(target, step["name"], True, value == "match")
    worth = step["worth"]
    return Step(value, step["name"], worth is not None, worth == "match")


def special_hands_from_data(special: Any) -> tuple[SpecialHand, ...]:
    """The list of special hands of a validated ``special_hands`` value: the list form as it
    is, or the mapping form (``one_team``, ``both_teams``) as the list it means: the
    both-teams hand first (it wins where both apply, P6/M6), then the one-team hand, each only
    where enabled. Keys left out take the schema's defaults."""
    special = with_defaults(special, ("special_hands",))
    if isinstance(special, list):
        return tuple(_entry(e) for e in special)
    out = []
    both, one = special["both_teams"], special["one_team"]
    if both["enabled"]:  # P6, M6
        out.append(SpecialHand(
            name=both["name"], teams="all", from_score=both["from_score"], to_score=None,
            value=both["value"], decision=False, decider="either", show_partner_cards=False,
            fold_points=0, blind=both["blind"], winner_takes_game=both["winner_takes_game"],
            raises=both["raises"], penalty_team_at_score=both["raise_penalty"],
            penalty_other_team=both["raise_penalty"]))
    if one["enabled"]:  # P5, M5
        out.append(SpecialHand(
            name=one["name"], teams="exactly_one", from_score=one["from_score"], to_score=None,
            value=one["value"], decision=one["decision"],
            decider=one["decider"],
            show_partner_cards=one["show_partner_cards"], fold_points=one["fold_points"],
            blind=one["blind"], winner_takes_game=one["winner_takes_game"],
            raises=one["raises"], penalty_team_at_score=one["raise_penalty"]["team_at_score"],
            penalty_other_team=one["raise_penalty"]["other_team"]))
    return tuple(out)


def _entry(e: dict[str, Any]) -> SpecialHand:
    """One entry of the list form, its defaults filled (a key left out means: no decision,
    not blind, the winner does not take the game, and a penalty only where ``raises:
    penalised`` gives one)."""
    when = e["when"]
    penalty = e["raise_penalty"]
    return SpecialHand(
        name=e["name"], teams=when["teams"], from_score=when["from_score"],
        to_score=when["to_score"], value=e["value"], decision=e["decision"],
        decider=e["decider"], show_partner_cards=e["show_partner_cards"],
        fold_points=e["fold_points"], blind=e["blind"],
        winner_takes_game=e["winner_takes_game"], raises=e["raises"],
        penalty_team_at_score=penalty["team_at_score"], penalty_other_team=penalty["other_team"])


def _views(special: Any, specials: tuple[SpecialHand, ...],
           target: int) -> tuple[OneTeamHand, BothTeamsHand]:
    """The readers' views :attr:`Rules.one_team` and :attr:`Rules.both_teams`: the mapping
    form as written; for the list form, its first exactly-one-team and first all-teams entries
    (disabled where there is none)."""
    if isinstance(special, dict):
        one, both = special["one_team"], special["both_teams"]
        return (OneTeamHand(
            enabled=one["enabled"], name=one["name"], from_score=one["from_score"],
            value=one["value"], decision=one["decision"],
            show_partner_cards=one["show_partner_cards"], fold_points=one["fold_points"],
            blind=one["blind"], winner_takes_game=one["winner_takes_game"],
            raises=one["raises"], penalty_team_at_score=one["raise_penalty"]["team_at_score"],
            penalty_other_team=one["raise_penalty"]["other_team"],
            decider=one["decider"]),
            BothTeamsHand(
            enabled=both["enabled"], name=both["name"], from_score=both["from_score"],
            value=both["value"], blind=both["blind"],
            winner_takes_game=both["winner_takes_game"], raises=both["raises"],
            penalty=both["raise_penalty"]))
    o = next((h for h in specials if h.teams == "exactly_one"), None)
    b = next((h for h in specials if h.teams == "all"), None)
    return (OneTeamHand(
        enabled=o is not None, name=o.name if o else "",
        from_score=o.from_score if o else target, value=o.value if o else 1,
        decision=o.decision if o else False,
        show_partner_cards=o.show_partner_cards if o else False,
        fold_points=o.fold_points if o else 0, blind=o.blind if o else False,
        winner_takes_game=o.winner_takes_game if o else False,
        raises=o.raises if o else "penalised",
        penalty_team_at_score=o.penalty_team_at_score if o else "lose_game",
        penalty_other_team=o.penalty_other_team if o else "lose_game",
        decider=o.decider if o else "either"),
        BothTeamsHand(
        enabled=b is not None, name=b.name if b else "",
        from_score=b.from_score if b else target, value=b.value if b else 1,
        blind=b.blind if b else False, winner_takes_game=b.winner_takes_game if b else False,
        raises=b.raises if b else "penalised",
        penalty=b.penalty_team_at_score if b else "lose_game"))


def _freeze(value: Any) -> Any:
    """A deep copy with plain containers, so the Rules' data cannot be changed through the
    caller's dict (it stays a dict for JSON output; Rules itself hashes on its fields)."""
    if isinstance(value, dict):
        return {k: _freeze(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_freeze(v) for v in value]
    return value


