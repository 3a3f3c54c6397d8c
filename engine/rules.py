"""The resolved, immutable rules of one variant, and the tables the engine derives from them.

A :class:`Rules` is built by the loader (:mod:`engine.variant`) from a validated YAML file; it is
frozen and hashable, so one loaded variant (and its one state machine) serves every game.
Field names follow the variant schema; each carries the rule id it expresses.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, fields
from typing import Any, Literal

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

Penalty = Literal["lose_game", "lose_hand"]

#: Strength of a covered card (P7): below every real card, so it never wins or ties.
COVERED = -1
_MANILHA_BASE = 100
#: Strength of extra cards above every manilha (C2 ``deck.extra``: ``above: manilhas``).
_ABOVE_MANILHAS_BASE = 200
#: What an extra card may be just above, besides a rank or another extra card.
ABOVE_MANILHAS = "manilhas"


@dataclass(frozen=True)
class Step:
    """One step of the bet ladder (C8)."""

    value: int
    name: str


@dataclass(frozen=True)
class OneTeamHand:
    """P5 mão de 11 / M5 mão de dez: exactly one team has at least ``from_score``."""

    enabled: bool
    name: str
    from_score: int
    value: int
    decision: bool
    show_partner_cards: bool
    fold_points: int
    blind: bool
    winner_takes_game: bool
    raises: Literal["penalised", "illegal"]
    penalty_team_at_score: Penalty
    penalty_other_team: Penalty


@dataclass(frozen=True)
class BothTeamsHand:
    """P6 mão de ferro / M6: both teams have at least ``from_score``."""

    enabled: bool
    name: str
    from_score: int
    value: int
    blind: bool
    winner_takes_game: bool
    raises: Literal["penalised", "illegal"]
    penalty: Penalty


@dataclass(frozen=True)
class Rules:
    """Every rule of one variant. Build it with :func:`engine.variant.load_variant`."""

    name: str
    title: str
    players: int  # C1
    cards_per_player: int  # C3
    deck_ranks: tuple[str, ...]  # C2
    ranking: tuple[str, ...]  # P3, M2: weakest first
    manilha_mode: Literal["none", "fixed", "vira", "vira_suit"]  # P1, M1, house
    manilha_suit_order: tuple[str, ...]  # P2: weakest first
    fixed_manilhas: tuple[Card, ...]  # M1: weakest first
    tied_round_leader: Literal["same_leader", "first_tied_card", "last_tied_card"]  # C6
    all_tied: Literal["nobody", "mao_team", "dealer_team"]  # P8, M7
    covered_allowed: bool  # P7
    covered_from_round: int  # P7
    initial_value: int  # C8
    ladder: tuple[Step, ...]  # C8, M9
    raise_timing: Literal["own_turn", "any_time"]  # P4, M3
    name_card: bool  # M4
    refused_card_shown_in_rounds: tuple[int, ...]  # M4
    one_team: OneTeamHand  # P5, M5
    both_teams: BothTeamsHand  # P6, M6
    target: int  # C11
    cap_score: bool  # C11 (house)
    games_to_win: int  # P9, M8
    #: The resolved variant as plain data (what the fingerprint is taken of).
    data: Any = field(compare=False, hash=False, repr=False)
    #: Where the variant was loaded from (a shipped name's file, or a path).
    source: str = field(default="", compare=False, hash=False, repr=False)
    deck_minus: tuple[Card, ...] = ()  # C2 (house): cards of the kept ranks left out
    deck_plus: tuple[Card, ...] = ()  # C2 (house): cards of other ranks put in
    #: C2 (house): the extra cards (X1...) and what each is just above: a rank of the ranking,
    #: another extra card, or ``"manilhas"``.
    deck_extra: tuple[tuple[Card, str], ...] = ()
    manilha_ranks: tuple[str, ...] = ()  # house (vira_suit): the vira suit's manilhas' ranks
    #: C1 (house): the teams' seats, as the variant lists them; empty: alternate seats.
    team_seats: tuple[tuple[int, ...], ...] = ()
    # Who acts for a team, and conceding the hand (house rules; the defaults are C9 as pinned).
    #: C9: who answers a raise: any player of the challenged team, or only the next seat after
    #: the raiser in playing order (the first of the challenged team who has not folded).
    answered_by: Literal["challenged_team", "next_seat"] = "challenged_team"
    #: C9: a fold by one player refuses the raise, or only folds by the whole team.
    refusal: Literal["one_player", "whole_team"] = "one_player"
    #: C9: the challenged team may raise back instead of answering.
    raise_back: bool = True
    #: Correr: a player may give up the hand on his own turn; the other team scores its value.
    concede: bool = False
    #: A challenged player may concede instead of answering (the value before the raise).
    concede_instead_of_answer: bool = False
    #: Conceding is allowed in the special hands too (P5, P6, M5, M6).
    concede_in_special_hands: bool = False
    # Derived tables, filled in __post_init__.
    deck: tuple[Card, ...] = field(init=False, compare=False, hash=False, repr=False)
    #: The team of each seat, by seat (C1: partners in alternate seats, ``seat % 2``, unless
    #: the variant's ``teams`` says otherwise).
    team_of: tuple[int, ...] = field(init=False, compare=False, hash=False, repr=False)
    #: How many teams (the length of a score array).
    teams: int = field(init=False, compare=False, hash=False, repr=False)
    _tables: tuple[tuple[int, ...] | None, ...] = field(
        init=False, compare=False, hash=False, repr=False
    )
    _levels: dict[str, int] = field(init=False, compare=False, hash=False, repr=False)

    def __hash__(self) -> int:
        # The generated hash would rehash every field on each call; Rules are looked up in
        # caches (the machine, the move table) for every new match, so compute it once.
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(getattr(self, f.name) for f in fields(self) if f.compare))
            object.__setattr__(self, "_hash", cached)
        return cached

    def __post_init__(self) -> None:
        deck = tuple(canonical_deck(self.deck_ranks, self.deck_minus, self.deck_plus,
                                    (card for card, _ in self.deck_extra)))
        object.__setattr__(self, "deck", deck)
        team_of = [s % 2 for s in range(self.players)]
        for team, seats in enumerate(self.team_seats):  # checked by the loader: each seat once
            for seat in seats:
                team_of[seat] = team
        object.__setattr__(self, "team_of", tuple(team_of))
        object.__setattr__(self, "teams", len(self.team_seats) or 2)
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
    def has_vira(self) -> bool:
        """P1: whether a card is turned after dealing (it names the manilhas: the next rank,
        or, in mode ``vira_suit``, its suit)."""
        return self.manilha_mode == "vira" or self.manilha_mode == "vira_suit"

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
        vira suit's cards of ``manilha_ranks`` (mode ``vira_suit``, the vira itself left out).
        Only cards of the deck; an extra card turned as the vira names no rank and no suit: no
        manilhas that hand."""
        if self.manilha_mode == "fixed":
            return self.fixed_manilhas
        if self.manilha_mode == "none" or vira is None or is_extra(vira):
            return ()
        if self.manilha_mode == "vira_suit":
            suit = card_suit(vira)
            cards = [SUITS.index(suit) * 13 + RANKS.index(r) for r in self.manilha_ranks]
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
NOT_RULES = frozenset({"$schema", "name", "title", "description", "extends", "card_names"})


def rules_from_data(data: dict[str, Any], source: str = "") -> Rules:
    """Build :class:`Rules` from a resolved, validated variant mapping."""
    man = data["manilhas"]
    bet = data["betting"]
    one = data["special_hands"]["one_team"]
    both = data["special_hands"]["both_teams"]
    deck = data["deck"]
    return Rules(
        name=data.get("name", ""),
        title=data.get("title", data.get("name", "")),
        players=data["players"],
        cards_per_player=data["cards_per_player"],
        deck_ranks=tuple(data["deck"]["ranks"]),
        ranking=tuple(data["ranking"]),
        manilha_mode=man["mode"],
        manilha_suit_order=tuple(man.get("suit_order", ())),
        fixed_manilhas=tuple(parse_card(c) for c in man.get("cards", ()))
        if man["mode"] == "fixed"
        else (),
        manilha_ranks=tuple(man.get("ranks", ())) if man["mode"] == "vira_suit" else (),
        deck_minus=tuple(parse_card(c) for c in deck.get("minus", ())),
        deck_plus=tuple(parse_card(c) for c in deck.get("plus", ())),
        deck_extra=tuple(sorted((parse_card(name), entry["above"])
                                for name, entry in deck.get("extra", {}).items())),
        tied_round_leader=data["rounds"]["tied_round_leader"],
        all_tied=data["rounds"]["all_tied"],
        covered_allowed=data["covered_cards"]["allowed"],
        covered_from_round=data["covered_cards"]["from_round"],
        initial_value=bet["initial_value"],
        ladder=tuple(Step(s["value"], s["name"]) for s in bet["ladder"]),
        raise_timing=bet["raise_timing"],
        name_card=bet["name_card"],
        refused_card_shown_in_rounds=tuple(bet["refused_card_shown_in_rounds"]),
        one_team=OneTeamHand(
            enabled=one["enabled"],
            name=one["name"],
            from_score=one["from_score"],
            value=one["value"],
            decision=one["decision"],
            show_partner_cards=one["show_partner_cards"],
            fold_points=one["fold_points"],
            blind=one["blind"],
            winner_takes_game=one["winner_takes_game"],
            raises=one["raises"],
            penalty_team_at_score=one["raise_penalty"]["team_at_score"],
            penalty_other_team=one["raise_penalty"]["other_team"],
        ),
        both_teams=BothTeamsHand(
            enabled=both["enabled"],
            name=both["name"],
            from_score=both["from_score"],
            value=both["value"],
            blind=both["blind"],
            winner_takes_game=both["winner_takes_game"],
            raises=both["raises"],
            penalty=both["raise_penalty"],
        ),
        target=data["game"]["target"],
        cap_score=data["game"]["cap_score"],
        games_to_win=data["match"]["games_to_win"],
        team_seats=tuple(tuple(seats) for seats in data.get("teams", ())),
        answered_by=bet.get("answered_by", "challenged_team"),
        refusal=bet.get("refusal", "one_player"),
        raise_back=bet.get("raise_back", True),
        concede=data.get("concede", {}).get("allowed", False),
        concede_instead_of_answer=data.get("concede", {}).get("instead_of_answer", False),
        concede_in_special_hands=data.get("concede", {}).get("in_special_hands", False),
        data=_freeze(data),
        source=source,
    )


def _freeze(value: Any) -> Any:
    """A deep copy with plain containers, so the Rules' data cannot be changed through the
    caller's dict (it stays a dict for JSON output; Rules itself hashes on its fields)."""
    if isinstance(value, dict):
        return {k: _freeze(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_freeze(v) for v in value]
    return value


