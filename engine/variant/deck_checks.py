"""The cross-key checks of the cards: ``deck`` (C2, C5, house) against ``ranking``, the
``manilhas`` (P1, P2, M1, house), ``card_names`` and the cards a deal needs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.cards import RANKS, canonical_deck, card_name, parse_card
from engine.errors import VariantError
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
            yield err(("deck", "minus", i), f"deck.minus: expected a card of the ranks "
                      f"{' '.join(ranks)}, found {card}, which is not in the deck to remove",
                      (("deck", "ranks"),))
    for i, card in enumerate(plus):
        if parse_card(card) in by_ranks:
            yield err(("deck", "plus", i), f"deck.plus: expected a card outside the ranks "
                      f"{' '.join(ranks)}, found {card}, which the ranks put in already",
                      (("deck", "ranks"),))
    extra = deck_map["extra"]
    cards = set(canonical_deck(ranks, (parse_card(c) for c in minus),
                               (parse_card(c) for c in plus), (parse_card(x) for x in extra)))
    names = {card_name(c) for c in cards}
    for rank in ranks:
        if not any(n[0] == rank for n in names):
            yield err(("deck", "minus"), f"deck.minus removes every card of rank {rank}: "
                      "expected it left out of deck.ranks instead", (("deck", "ranks"),))
    deck_ranks = set(ranks) | {c[0] for c in plus}
    if set(d["ranking"]) != deck_ranks:
        extra_ranks = sorted(set(d["ranking"]) - deck_ranks, key=RANKS.index)
        missing = sorted(deck_ranks - set(d["ranking"]), key=RANKS.index)
        yield err(("ranking",), "the ranking must list exactly the deck's ranks"
                  + (f"; not in the deck: {' '.join(extra_ranks)}" if extra_ranks else "")
                  + (f"; missing: {' '.join(missing)}" if missing else ""),
                  (("deck", "ranks"), ("deck", "plus")))
    yield from _extra_errors(extra, d["ranking"], err)
    where = f"(ranks {' '.join(ranks)}" + (", minus" if minus else "") + \
        (", plus" if plus else "") + (", extra" if extra else "") + ")"
    also = (("deck", "ranks"), ("deck", "minus"), ("deck", "plus"), ("deck", "extra"))
    mode = d["manilhas"]["mode"]
    yield from _manilha_errors(d["manilhas"], deck_ranks, names, where, also, err)
    for card in d["card_names"]:
        if card not in names:
            yield err(("card_names", card), f"{card} is not in the deck {where}", also)
    has_vira = mode in ("vira", "vira_suit")
    needed = d["players"] * d["cards_per_player"] + (1 if has_vira else 0)
    if needed > len(cards):
        yield err(("deck", "ranks"), f"expected a deck of at least {needed} cards for "
                  f"{d['players']} players" + (" and the vira" if has_vira else "")
                  + f", found {len(cards)} {where}",
                  (("deck", "minus"), ("players",), ("cards_per_player",)))


def _extra_errors(extra: dict[str, Any], ranking: list[str], err: Err
                  ) -> Iterator[VariantError]:
    """``deck.extra`` (C2, house): each extra card above something of the deck, and no two
    above each other."""
    for name, entry in extra.items():
        above = entry["above"]
        if above != "manilhas" and above not in ranking and above not in extra:
            what = "an extra card" if above.startswith("X") else "a rank"
            yield err(("deck", "extra", name, "above"), f"deck.extra.{name}.above: expected a "
                      f"rank of the ranking, an extra card of deck.extra or manilhas, found "
                      f"{above}, {what} not in the deck")
    for name in extra:  # an extra card above itself, or above one that is above it
        seen, above = [name], extra[name]["above"]
        while above in extra and above not in seen:
            seen.append(above)
            above = extra[above]["above"]
        if above in seen:
            yield err(("deck", "extra", name, "above"), "deck.extra: the extra cards are each "
                      f"above the other: {' above '.join(seen + [above])}")


def _manilha_errors(man: dict[str, Any], deck_ranks: set[str], names: set[str], where: str,
                    also: tuple[KeyPath, ...], err: Err) -> Iterator[VariantError]:
    """``manilhas`` (P1, P2, M1, house): what each mode needs, its cards in the deck, and the
    keys that have no effect in it."""
    mode = man["mode"]
    # A list or a card a file writes is never empty: empty is the default, left out.
    if mode == "vira" and not man["suit_order"]:
        yield err(("manilhas",),
                  "mode vira needs suit_order (P2), the manilhas' suits weakest first")
    if mode == "fixed":
        if not man["cards"]:
            yield err(("manilhas",), "mode fixed needs cards (M1), the manilhas weakest first")
        for i, card in enumerate(man["cards"]):
            if card not in names:
                yield err(("manilhas", "cards", i), f"manilha {card} is not in the deck "
                          f"{where}", also)
    if mode == "vira_suit":
        yield from _vira_suit_errors(man, deck_ranks, names, where, also, err)
    else:
        for key in ("ranks", "stand_in"):
            if man[key] not in ([], None):
                yield err(("manilhas", key), f"manilhas.{key} has no effect with mode {mode}: "
                          f"expected mode vira_suit, or no {key}", (("manilhas", "mode"),))


def _vira_suit_errors(man: dict[str, Any], deck_ranks: set[str], names: set[str], where: str,
                      also: tuple[KeyPath, ...], err: Err) -> Iterator[VariantError]:
    """Mode vira_suit (house): its ranks, the stand-in for a vira that is one of them, and the
    fixed manilhas below them (truco de amostra), against the deck and each other."""
    ranks = man["ranks"]
    if not ranks:
        yield err(("manilhas",), "mode vira_suit needs ranks, the ranks whose cards of "
                  "the vira's suit are the manilhas, weakest first")
    for i, rank in enumerate(ranks):
        if rank not in deck_ranks:
            yield err(("manilhas", "ranks", i), f"manilhas.ranks: expected a rank of the "
                      f"deck, found {rank} {where}", also)
    stand_in = man["stand_in"]
    if stand_in is not None:
        if stand_in in ranks:
            yield err(("manilhas", "stand_in"), f"manilhas.stand_in stands in for a vira of "
                      f"manilhas.ranks: expected a rank not among them, found {stand_in}",
                      (("manilhas", "ranks"),))
        elif stand_in not in deck_ranks:
            yield err(("manilhas", "stand_in"), f"manilhas.stand_in: expected a rank of the "
                      f"deck, found {stand_in} {where}", also)
    for i, card in enumerate(man["cards"]):
        if card not in names:
            yield err(("manilhas", "cards", i), f"manilha {card} is not in the deck {where}",
                      also)
        elif card[0] in ranks or card[0] == stand_in:
            key = "ranks" if card[0] in ranks else "stand_in"
            yield err(("manilhas", "cards", i), f"manilhas.cards: {card} is of the rank "
                      f"{card[0]} of manilhas.{key}: with a vira of its suit it would be a "
                      "manilha twice; expected a card of another rank",
                      (("manilhas", key), ("manilhas", "mode")))
