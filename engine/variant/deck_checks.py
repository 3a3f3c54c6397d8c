"""The cross-key checks of the cards: ``deck`` (C2, C5, house) against ``ranking``, the
``manilhas`` (P1, P2, M1, house), ``card_names`` and the cards a deal needs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.cards import RANKS, canonical_deck, card_name, parse_card
from engine.errors import VariantError
from engine.i18n import Said, mark
from engine.variant.messages import Err
from engine.variant.reader import KeyPath


def _deck_errors(d: dict[str, Any], err: Err) -> Iterator[VariantError]:
    """C2, C5 and the manilhas: the deck's cards against the keys that name cards or ranks."""
    deck_map = d["deck"]
    ranks = deck_map["ranks"]
    by_ranks = set(canonical_deck(ranks))
    minus, plus = deck_map["minus"], deck_map["plus"]
    for i, card in enumerate(minus):
        if parse_card(card) not in by_ranks:
            yield err(("deck", "minus", i), mark("deck.minus: expected a card of the ranks "
                      "{ranks}, found {card}, which is not in the deck to remove"),
                      (("deck", "ranks"),), ranks=" ".join(ranks), card=card)
    for i, card in enumerate(plus):
        if parse_card(card) in by_ranks:
            yield err(("deck", "plus", i), mark("deck.plus: expected a card outside the ranks "
                      "{ranks}, found {card}, which the ranks put in already"),
                      (("deck", "ranks"),), ranks=" ".join(ranks), card=card)
    extra = deck_map["extra"]
    cards = set(canonical_deck(ranks, (parse_card(c) for c in minus),
                               (parse_card(c) for c in plus), (parse_card(x) for x in extra)))
    names = {card_name(c) for c in cards}
    for rank in ranks:
        if not any(n[0] == rank for n in names):
            yield err(("deck", "minus"), mark("deck.minus removes every card of rank {rank}: "
                      "expected it left out of deck.ranks instead"), (("deck", "ranks"),),
                      rank=rank)
    deck_ranks = set(ranks) | {c[0] for c in plus}
    if set(d["ranking"]) != deck_ranks:
        extra_ranks = sorted(set(d["ranking"]) - deck_ranks, key=RANKS.index)
        missing = sorted(deck_ranks - set(d["ranking"]), key=RANKS.index)
        yield err(("ranking",), mark("the ranking must list exactly the deck's ranks{extra}"
                                     "{missing}"), (("deck", "ranks"), ("deck", "plus")),
                  extra=Said.of(mark("; not in the deck: {ranks}"), ranks=" ".join(extra_ranks))
                  if extra_ranks else "",
                  missing=Said.of(mark("; missing: {ranks}"), ranks=" ".join(missing))
                  if missing else "")
    yield from _extra_errors(extra, d["ranking"], err)
    where = Said.of(mark("(ranks {ranks}{keys})"), ranks=" ".join(ranks), keys="".join(
        f", {key}" for key, given in (("minus", minus), ("plus", plus), ("extra", extra))
        if given))
    also = (("deck", "ranks"), ("deck", "minus"), ("deck", "plus"), ("deck", "extra"))
    mode = d["manilhas"]["mode"]
    yield from _manilha_errors(d["manilhas"], deck_ranks, names, where, also, err)
    for card in d["card_names"]:
        if card not in names:
            yield err(("card_names", card), mark("{card} is not in the deck {where}"), also,
                      card=card, where=where)
    has_vira = mode in ("vira", "vira_suit")
    needed = d["players"] * d["cards_per_player"] + (1 if has_vira else 0)
    if needed > len(cards):
        yield err(("deck", "ranks"), mark(
            "expected a deck of at least {needed} cards for {players} players and the vira, "
            "found {found} {where}") if has_vira else mark(
            "expected a deck of at least {needed} cards for {players} players, found {found} "
            "{where}"), (("deck", "minus"), ("players",), ("cards_per_player",)),
            needed=needed, players=d["players"], found=len(cards), where=where)


def _extra_errors(extra: dict[str, Any], ranking: list[str], err: Err
                  ) -> Iterator[VariantError]:
    """``deck.extra`` (C2, house): each extra card above something of the deck, and no two
    above each other."""
    for name, entry in extra.items():
        above = entry["above"]
        if above != "manilhas" and above not in ranking and above not in extra:
            yield err(("deck", "extra", name, "above"), mark(
                "deck.extra.{name}.above: expected a rank of the ranking, an extra card of "
                "deck.extra or manilhas, found {above}, an extra card not in the deck")
                if above.startswith("X") else mark(
                "deck.extra.{name}.above: expected a rank of the ranking, an extra card of "
                "deck.extra or manilhas, found {above}, a rank not in the deck"),
                name=name, above=above)
    for name in extra:  # an extra card above itself, or above one that is above it
        seen, above = [name], extra[name]["above"]
        while above in extra and above not in seen:
            seen.append(above)
            above = extra[above]["above"]
        if above in seen:
            yield err(("deck", "extra", name, "above"), mark(
                "deck.extra: the extra cards are each above the other: {cards}"),
                cards=_above([*seen, above]))


def _above(cards: list[str]) -> str:
    """``X1 above X2 above X1``, each ``above`` said again in the reader's language."""
    said = cards[-1]
    for card in reversed(cards[:-1]):
        said = Said.of(mark("{card} above {cards}"), card=card, cards=said)
    return said


def _manilha_errors(man: dict[str, Any], deck_ranks: set[str], names: set[str], where: str,
                    also: tuple[KeyPath, ...], err: Err) -> Iterator[VariantError]:
    """``manilhas`` (P1, P2, M1, house): what each mode needs, its cards in the deck, and the
    keys that have no effect in it."""
    mode = man["mode"]
    # A list or a card a file writes is never empty: empty is the default, left out.
    if mode == "vira" and not man["suit_order"]:
        yield err(("manilhas",),
                  mark("mode vira needs suit_order (P2), the manilhas' suits weakest first"))
    if mode == "fixed":
        if not man["cards"]:
            yield err(("manilhas",),
                      mark("mode fixed needs cards (M1), the manilhas weakest first"))
        for i, card in enumerate(man["cards"]):
            if card not in names:
                yield err(("manilhas", "cards", i), mark("manilha {card} is not in the deck "
                          "{where}"), also, card=card, where=where)
    if mode == "vira_suit":
        yield from _vira_suit_errors(man, deck_ranks, names, where, also, err)
    else:
        for key in ("ranks", "stand_in"):
            if man[key] not in ([], None):
                yield err(("manilhas", key), mark("manilhas.{key} has no effect with mode "
                          "{mode}: expected mode vira_suit, or no {key}"),
                          (("manilhas", "mode"),), key=key, mode=mode)


def _vira_suit_errors(man: dict[str, Any], deck_ranks: set[str], names: set[str], where: str,
                      also: tuple[KeyPath, ...], err: Err) -> Iterator[VariantError]:
    """Mode vira_suit (house): its ranks, the stand-in for a vira that is one of them, and the
    fixed manilhas below them (truco de amostra), against the deck and each other."""
    ranks = man["ranks"]
    if not ranks:
        yield err(("manilhas",), mark("mode vira_suit needs ranks, the ranks whose cards of "
                  "the vira's suit are the manilhas, weakest first"))
    for i, rank in enumerate(ranks):
        if rank not in deck_ranks:
            yield err(("manilhas", "ranks", i), mark("manilhas.ranks: expected a rank of the "
                      "deck, found {rank} {where}"), also, rank=rank, where=where)
    stand_in = man["stand_in"]
    if stand_in is not None:
        if stand_in in ranks:
            yield err(("manilhas", "stand_in"), mark(
                "manilhas.stand_in stands in for a vira of manilhas.ranks: expected a rank not "
                "among them, found {rank}"), (("manilhas", "ranks"),), rank=stand_in)
        elif stand_in not in deck_ranks:
            yield err(("manilhas", "stand_in"), mark("manilhas.stand_in: expected a rank of "
                      "the deck, found {rank} {where}"), also, rank=stand_in, where=where)
    for i, card in enumerate(man["cards"]):
        if card not in names:
            yield err(("manilhas", "cards", i), mark("manilha {card} is not in the deck "
                      "{where}"), also, card=card, where=where)
        elif card[0] in ranks or card[0] == stand_in:
            key = "ranks" if card[0] in ranks else "stand_in"
            yield err(("manilhas", "cards", i), mark(
                "manilhas.cards: {card} is of the rank {rank} of manilhas.{key}: with a vira of "
                "its suit it would be a manilha twice; expected a card of another rank"),
                (("manilhas", key), ("manilhas", "mode")), card=card, rank=card[0], key=key)
