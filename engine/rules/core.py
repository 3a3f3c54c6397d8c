"""The resolved, immutable rules of one variant (:class:`Rules`): its blocks, the flat names
of before read from them, and the tables derived from them (the deck, the teams, each card's
strength for each vira)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Final, Generic, TypeVar

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
)
from engine.rules.blocks import (
    AllTied,
    AnsweredBy,
    BettingRules,
    BothTeamsHand,
    ConcedeRules,
    CoveredCardRules,
    DeckRules,
    GameRules,
    ManilhaMode,
    ManilhaRules,
    MatchRules,
    OneTeamHand,
    PlayRules,
    RaiseTiming,
    Refusal,
    RoundRules,
    SpecialHand,
    SpecialHandRules,
    Step,
    SuitRanking,
    TieLeader,
)
from engine.schemas import NOT_RULES, with_defaults
from engine.sidebets import SideBet

#: Strength of a covered card (P7): below every real card, so it never wins or ties.
COVERED: Final = -1
_MANILHA_BASE = 100
#: Strength of extra cards above every manilha (C2 ``deck.extra``: ``above: manilhas``).
_ABOVE_MANILHAS_BASE = 200
#: What an extra card may be just above, besides a rank or another extra card.
ABOVE_MANILHAS = "manilhas"


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
    "no_cover_after_partner": ("play", "no_cover_after_partner"),
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
    "cap_score": ("game", "cap_score"),
    "all_tied": ("rounds", "all_tied"),
    "initial_value": ("betting", "initial_value"),
    "games_to_win": ("match", "games_to_win"),
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
    #: P3 (house): ordinary cards of some ranks ordered by suit (``suit_ranking``).
    suit_ranking: SuitRanking = SuitRanking()
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
    #: :meth:`manilhas_for` of every vira of the deck and of ``None``, made once.
    _manilhas: dict[Card | None, tuple[Card, ...]] = field(
        init=False, compare=False, hash=False, repr=False)

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
    no_cover_after_partner: bool = _hot()  # P7 (house)
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
    cap_score: bool = _hot()  # C11 (house)
    all_tied: AllTied = _hot()  # P8, M7
    initial_value: int = _hot()  # C8
    games_to_win: int = _hot()  # P9, M8
    concede: bool = _hot()  # house
    concede_instead_of_answer: bool = _hot()  # house
    # Read once a hand or less: delegating to the blocks.
    deck_ranks = _Flat[tuple[str, ...]]("deck_rules", "ranks")  # C2
    deck_minus = _Flat[tuple[Card, ...]]("deck_rules", "minus")  # C2 (house)
    deck_plus = _Flat[tuple[Card, ...]]("deck_rules", "plus")  # C2 (house)
    deck_extra = _Flat[tuple[tuple[Card, str], ...]]("deck_rules", "extra")  # C2 (house)
    one_team = _Flat[OneTeamHand]("special_rules", "one_team")  # P5, M5 (a reader's view)
    both_teams = _Flat[BothTeamsHand]("special_rules", "both_teams")  # P6, M6 (the same)
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
        object.__setattr__(self, "_manilhas", {vira: self._manilhas_of(vira)
                                               for vira in (None, *deck)})
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

    def block(self, key: str) -> Mapping[str, Any]:
        """The variant's top-level mapping ``key`` (a move kind's own block, like ``redeal``)
        with every key it leaves out filled in with the schema's default, made once per rules:
        how a kind reads its keys without a block of its own here.

        >>> from engine.variant import load_variant
        >>> load_variant("paulista").block("cut")["choices"]
        ['seco', 'burn', 'bottom', 'partner']
        """
        blocks: dict[str, Mapping[str, Any]] = self.__dict__.setdefault("_blocks", {})
        got = blocks.get(key)
        if got is None:
            stated = self.data.get(key, {}) if isinstance(self.data, Mapping) else {}
            got = blocks[key] = with_defaults(stated, (key,))
        return got

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
        no rank and no suit: no manilhas that hand (but the fixed list). Made once per vira of
        the deck (every observation asks)."""
        got = self._manilhas.get(vira)
        return got if got is not None else self._manilhas_of(vira)

    def _manilhas_of(self, vira: Card | None) -> tuple[Card, ...]:
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
        Ordinary cards rank by ``ranking`` (suits tie, P3/M2, unless ``suit_ranking`` orders
        a rank's by suit); manilhas beat them all (P2/M1);
        extra cards stand where ``deck.extra`` puts them (C2). Before the vira is turned (a
        hand waiting for its cut) there are no manilhas yet."""
        if vira is None and self.has_vira:
            return self._strengths(())
        table = self._tables[vira if self.has_vira else 0]  # type: ignore[index]
        assert table is not None, "the vira must be a card of the deck"
        return table

    def _strengths(self, manilhas: tuple[Card, ...]) -> tuple[int, ...]:
        table = [COVERED] * CARD_CODES
        levels = self._levels
        for card in self.deck:
            table[card] = levels[card_name(card) if is_extra(card) else card_rank(card)]
        by_suit = self.suit_ranking
        if by_suit.ranks:  # P3 (house): each level below the manilhas split by suit
            for card in self.deck:
                if table[card] < _MANILHA_BASE:
                    ordered = not is_extra(card) and card_rank(card) in by_suit.ranks
                    sub = by_suit.suits.index(card_suit(card)) if ordered else 0
                    table[card] = table[card] * len(SUITS) + sub
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
