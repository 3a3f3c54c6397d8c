"""The cross-key checks of ``side_bets`` (G22-G41): the chains of calls, the window, the
truco's precedence, the pieces (truco de amostra) and the flor."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from engine.errors import VariantError
from engine.i18n import Said, mark
from engine.variant.messages import Err
from engine.variant.reader import KeyPath


def _side_bet_errors(d: dict[str, Any], err: Err, stated: Callable[[KeyPath], bool]
                     ) -> Iterator[VariantError]:
    """Side bets (G22-G32): chains of calls the bet has, a chain whose prefix is not a chain,
    a refusal that would pay a falta, a window in a round that does not exist, precedence
    over a truco that closes the bet. ``stated(path)``: whether a file wrote the key (``d``
    has the defaults filled in)."""
    for name, bet in d["side_bets"].items():
        at: KeyPath = ("side_bets", name)
        missing = [k for k in ("calls", "chains") if k not in bet]
        if missing:
            yield err(at, mark("expected the bet's calls and chains (G27, G28), found none")
                      if len(missing) > 1 else mark("expected the bet's {key} (G27, G28), found "
                                                    "none"), key=missing[0])
            continue
        calls = bet["calls"]
        chains = {tuple(c["calls"]): c for c in bet["chains"]}
        for i, chain in enumerate(bet["chains"]):
            seq = tuple(chain["calls"])
            for j, call in enumerate(seq):
                if call not in calls:
                    yield err((*at, "chains", i, "calls", j), mark(
                        "expected one of the bet's calls ({calls}), found {call}"),
                        ((*at, "calls"),), calls=", ".join(calls), call=repr(call))
            if list(chains).index(seq) != i:
                yield err((*at, "chains", i, "calls"), mark("the chain {chain} is listed "
                          "twice"), chain=" - ".join(seq))
            if len(seq) > 1 and seq[:-1] not in chains:
                yield err((*at, "chains", i, "calls"), mark(
                    "expected the chain without its last call ({chain}) listed too (a chain is "
                    "made call by call), found it missing"), chain=" - ".join(seq[:-1]))
            elif (len(seq) > 1 and "refused" not in chain and bet["kind"] != "flor"
                  and chains[seq[:-1]]["accepted"] == "falta"):
                yield err((*at, "chains", i), mark("expected refused: the chain without its "
                          "last call is worth the falta, which a refusal cannot pay (G28)"))
        if not any(len(c["calls"]) == 1 for c in bet["chains"]):
            yield err((*at, "chains"), mark("expected at least one chain of a single call "
                      "(the first call), found none"))
        window = bet["window"]
        if window["round"] > d["cards_per_player"]:
            yield err((*at, "window", "round"), mark("there is no round {round} with {cards} "
                      "cards"), (("cards_per_player",),), round=window["round"],
                      cards=d["cards_per_player"])
        truco = bet["truco"]
        if truco["closes"] == "called" and truco["precedence"]:
            yield err((*at, "truco", "precedence"), mark(
                "expected precedence: false with closes: called (a truco called closes the bet: "
                "nobody may start it instead of answering), found true"),
                ((*at, "truco", "closes"),))
        if bet["open_fold_penalty"] and not d["concede"]["allowed"]:
            yield err((*at, "open_fold_penalty"), mark(
                "expected concede.allowed: true with open_fold_penalty (nobody goes to the "
                "baralho), found concede.allowed false"), (("concede", "allowed"),))
        yield from _pieces_errors(d, at, bet, err)
        yield from _flor_errors(d, name, bet, err, stated)


def _pieces_errors(d: dict[str, Any], at: KeyPath, bet: dict[str, Any],
                   err: Err) -> Iterator[VariantError]:
    """House (truco de amostra): pieces need a vira, and points that count the bonus."""
    pts = bet["points"]
    pieces = pts["pieces"]["values"] if "pieces" in pts else {}  # absent: no pieces
    mode = d["manilhas"]["mode"]
    if pieces and mode not in ("vira", "vira_suit"):
        yield err((*at, "points", "pieces"), mark("the pieces are cards of the vira's suit: "
                  "expected manilhas.mode vira or vira_suit, found {mode}"),
                  (("manilhas", "mode"),), mode=mode)
    bonus = pts["same_suit_bonus"]
    for rank, points in pieces.items():
        if points < bonus:
            yield err((*at, "points", "pieces", "values", rank), mark(
                "a piece's points count the same_suit_bonus: expected at least {bonus}, found "
                "{points}"), ((*at, "points", "same_suit_bonus"),), bonus=bonus, points=points)


#: The keys and stakes only a flor bet has (G37-G40).
_FLOR_ONLY = ("per_flor", "kills", "timing")
_FLOR_STAKES = ("flores", "falta_plus_flores")


def _flor_errors(d: dict[str, Any], name: str, bet: dict[str, Any], err: Err,
                 stated: Callable[[KeyPath], bool]) -> Iterator[VariantError]:
    """Flor (G33-G41): its keys on an envido, a choice settled at once that is a raise, a
    raise nobody can refuse, a plain song that is not settled at once, bets it kills that do
    not exist, a flor with fewer than three cards each, two flores."""
    at: KeyPath = ("side_bets", name)
    flor = bet["kind"] == "flor"
    if not flor:
        for key in _FLOR_ONLY:
            if stated((*at, key)):
                yield err((*at, key), mark("expected {key} only on a flor (kind: flor, "
                          "G37-G40), found it on an envido"), ((*at, "kind"),), key=key)
        if bet.get("reveal") == "scored":
            yield err((*at, "reveal"), mark("expected winner or nothing on an envido (scored "
                      "is the flores', G41), found scored"), ((*at, "kind"),))
    for i, chain in enumerate(bet["chains"]):
        cat: KeyPath = (*at, "chains", i)
        if not flor:
            if "at_once" in chain:
                yield err((*cat, "at_once"), mark("expected at_once only on a flor's chain "
                          "(G39), found it on an envido's"), ((*at, "kind"),))
            if chain["accepted"] in _FLOR_STAKES or chain.get("refused") in _FLOR_STAKES:
                yield err(cat, mark("expected a number or falta on an envido's chain (flores "
                          "stakes are a flor's, G40), found {found}"), ((*at, "kind"),),
                          found=repr(chain["accepted"]))
            continue
        if "at_once" in chain and len(chain["calls"]) > 1:
            yield err((*cat, "at_once"), mark(
                "expected at_once only on a choice (a chain of one call, G39): a raise over a "
                "choice is answered, found it on {chain}"), chain=" - ".join(chain["calls"]))
        elif "at_once" in chain and "refused" in chain:
            yield err((*cat, "refused"), mark("expected no refused on a choice settled at once "
                      "(nobody answers it, G39), found one"), ((*cat, "at_once"),))
        elif "at_once" not in chain and "refused" not in chain:
            yield err((*cat, "refused"), mark("expected refused on a flor's raise (what the "
                      "raiser scores when it is refused, G40), found none"))
    if not flor:
        return
    first = bet["calls"][0]
    plain = next((c for c in bet["chains"] if c["calls"] == [first]), None)
    if plain is None or plain.get("at_once") != "compare":
        found: object = (Said.of(mark("none")) if plain is None else
                         plain["at_once"] if "at_once" in plain else Said.of(mark("a raise")))
        yield err((*at, "chains"), mark(
            "expected the first call ({first}, every holder's plain song) as a chain of one "
            "settled at_once: compare (G39), found {found}"), ((*at, "calls"),), first=first,
            found=found)
    for j, other in enumerate(bet["kills"]):
        if other == name or other not in d["side_bets"]:
            yield err((*at, "kills", j), mark("expected another side bet of the variant "
                      "({bets}), found {found}"), bets=", ".join(
                          n for n in d["side_bets"] if n != name) or Said.of(mark("none")),
                      found=repr(other))
    if d["cards_per_player"] < 3:
        yield err(at, mark("a flor is three cards of one suit (G34): expected "
                  "cards_per_player 3 or more, found {found}"), (("cards_per_player",),),
                  found=d["cards_per_player"])
    flores = [n for n, b in d["side_bets"].items()
              if b["kind"] == "flor" and b["played"]]
    if len(flores) > 1 and name == flores[1]:
        yield err(at, mark("expected one flor, found {n} ({flores})"), n=len(flores),
                  flores=", ".join(flores))
