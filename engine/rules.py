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

from engine.cards import RANKS, SUITS, Card, canonical_deck, card_rank, parse_card

Penalty = Literal["lose_game", "lose_hand"]

#: Strength of a covered card (P7): below every real card, so it never wins or ties.
COVERED = -1
_MANILHA_BASE = 100


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
    manilha_mode: Literal["none", "fixed", "vira"]  # P1, M1
    manilha_suit_order: tuple[str, ...]  # P2: weakest first
    fixed_manilhas: tuple[Card, ...]  # M1: weakest first
    tied_round_leader: Literal["same_leader", "first_tied_card", "last_tied_card",
                               "lowest_seat", "mao"]  # C6
    all_tied: Literal["nobody", "mao_team", "dealer_team", "first_round_first_card"]  # P8, M7
    covered_allowed: bool  # P7
    covered_from_round: int  # P7
    # Play constraints (house rules, ``play`` in a variant file; off when left out).
    #: P7 (house): the round's leader plays face up.
    leader_face_up: bool = field(default=False, kw_only=True)
    #: P7 (house): no covered card once a round of the hand has tied.
    no_cover_after_tie: bool = field(default=False, kw_only=True)
    #: C7 (house): after a tied first round, each plays (face up) his highest card.
    highest_after_tied_first: bool = field(default=False, kw_only=True)
    #: C8 (house): a raise only by a player whose best card beats the round's best so far.
    raiser_must_beat: bool = field(default=False, kw_only=True)
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
    # Derived tables, filled in __post_init__.
    deck: tuple[Card, ...] = field(init=False, compare=False, hash=False, repr=False)
    #: The team of each seat, by seat (C1: partners in alternate seats, ``seat % 2``). Write
    #: ``rules.team_of[seat]``, never ``seat % 2``: teams will come from the variant's data.
    team_of: tuple[int, ...] = field(init=False, compare=False, hash=False, repr=False)
    #: How many teams (the length of a score array).
    teams: int = field(init=False, compare=False, hash=False, repr=False)
    _tables: tuple[tuple[int, ...] | None, ...] = field(
        init=False, compare=False, hash=False, repr=False
    )

    def __hash__(self) -> int:
        # The generated hash would rehash every field on each call; Rules are looked up in
        # caches (the machine, the move table) for every new match, so compute it once.
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(getattr(self, f.name) for f in fields(self) if f.compare))
            object.__setattr__(self, "_hash", cached)
        return cached

    def __post_init__(self) -> None:
        deck = tuple(canonical_deck(self.deck_ranks))
        object.__setattr__(self, "deck", deck)
        object.__setattr__(self, "team_of", tuple(s % 2 for s in range(self.players)))
        object.__setattr__(self, "teams", 2)
        if self.manilha_mode == "vira":
            tables: list[tuple[int, ...] | None] = [None] * 52
            for vira in deck:
                tables[vira] = self._strengths(self.manilhas_for(vira))
            object.__setattr__(self, "_tables", tuple(tables))
        else:
            object.__setattr__(self, "_tables", (self._strengths(self.manilhas_for(None)),))

    # -- derived rules ----------------------------------------------------------------------
    @property
    def has_vira(self) -> bool:
        """P1: whether a card is turned after dealing."""
        return self.manilha_mode == "vira"

    @property
    def fingerprint(self) -> str:
        """SHA-256 of the resolved rules (name, title, description, ``extends`` and
        ``card_names`` left out): the ``variant_sha256`` of a log."""
        rules = {k: v for k, v in self.data.items() if k not in NOT_RULES}
        text = json.dumps(rules, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

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
        """The manilhas, weakest first, for this vira (P1, P2) or the fixed list (M1)."""
        if self.manilha_mode == "fixed":
            return self.fixed_manilhas
        if self.manilha_mode == "none" or vira is None:
            return ()
        order = self.ranking
        rank = order[(order.index(card_rank(vira)) + 1) % len(order)]
        return tuple(SUITS.index(s) * 13 + RANKS.index(rank) for s in self.manilha_suit_order)

    def strengths(self, vira: Card | None) -> tuple[int, ...]:
        """A table indexed by card code: the card's strength in this hand (higher wins).
        Ordinary cards rank by ``ranking`` (suits tie, P3/M2); manilhas beat them all (P2/M1)."""
        table = self._tables[vira if self.manilha_mode == "vira" else 0]  # type: ignore[index]
        assert table is not None, "the vira must be a card of the deck"
        return table

    def _strengths(self, manilhas: tuple[Card, ...]) -> tuple[int, ...]:
        table = [COVERED] * 52
        for card in self.deck:
            table[card] = self.ranking.index(card_rank(card))
        for i, card in enumerate(manilhas):
            table[card] = _MANILHA_BASE + i
        return tuple(table)

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
        tied_round_leader=data["rounds"]["tied_round_leader"],
        all_tied=data["rounds"]["all_tied"],
        covered_allowed=data["covered_cards"]["allowed"],
        covered_from_round=data["covered_cards"]["from_round"],
        leader_face_up=data.get("play", {}).get("leader_face_up", False),
        no_cover_after_tie=data.get("play", {}).get("no_cover_after_tie", False),
        highest_after_tied_first=data.get("play", {}).get("highest_after_tied_first", False),
        raiser_must_beat=data.get("play", {}).get("raiser_must_beat", False),
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


