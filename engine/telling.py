"""What a table says, in a terminal (``truco play``) or a page (``truco serve``): the seats'
names, a move told (:func:`describe`) and offered in the menu (:func:`menu_entry`, in
:func:`menu_order`), and a checkpoint told (:func:`describe_checkpoint`). Each kind of move
words its own moves (``MoveKind.tell`` and ``MoveKind.menu``, :mod:`engine.moves`); a side
bet's stakes are added here."""


from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Action
from engine.cards import card_name, parse_card
from engine.game import Checkpoint
from engine.i18n import _, person
from engine.moves import KINDS, Words
from engine.observation import SideBetView
from engine.rules import Rules
from engine.sidebets import SideBet, falta_value
from engine.tui import card_label, scores_text, seat_label, side_text
from engine.words import card_names, named, table_word, unanswered

HUMAN = "human"


def seat_names(kinds: Sequence[str]) -> list[str]:
    """The seats' names, shared by the game and the log header's ``players`` (so ``truco
    replay`` says the same): ``'you'`` for the person, ``'Bot N (kind)'`` for the bot at seat N.

    >>> seat_names(["human", "heuristic", "random", "heuristic"])
    ['you', 'Bot 1 (heuristic)', 'Bot 2 (random)', 'Bot 3 (heuristic)']
    """
    return ["you" if kind == HUMAN else f"Bot {s} ({kind})" for s, kind in enumerate(kinds)]


def shown_names(kinds: Sequence[str]) -> list[str]:
    """The seats' names on the screen, in the reader's language (:func:`seat_names` are the
    log's, always in English): ``'you'``, ``'Bot 1 (heuristic)'``."""
    return [_("you") if kind == HUMAN else _("Bot {seat} ({kind})").format(
        seat=s, kind=_bot_kind(kind)) for s, kind in enumerate(kinds)]


def _bot_kind(kind: str) -> str:
    """A bot's kind for people: the shipped bots' names translated (``heuristic``,
    ``random``, ``search:96``), any other as given (a command, a file)."""
    name, colon, budget = kind.partition(":")
    said = {"random": _("random"), "heuristic": _("heuristic"), "search": _("search")}
    return said.get(name, name) + colon + budget if name in said else kind


def describe(action: Action, rules: Rules, me: int, position: int | None = None,
             names: Sequence[str] | None = None) -> str:
    """A move in words, as seen from seat ``me``, told by its kind (``MoveKind.tell``):
    ``position`` is the card's 1-based place in the hand for a play of a blind hand (P6);
    ``names`` are the seats' names."""
    who = seat_label(action.seat, me, names, rules.team_of)
    called = card_names(rules)

    def card(c: int) -> str:
        return named(card_name(c), called)

    said = table_word(action, rules)
    mine = action.seat == me
    if said is not None:  # the table's own word (move_names): "Bot 1 says VOU AO BARALHO"
        return person(mine, _("you say {word}"), _("{who} says {word}"), who=who,
                      word=said.upper())
    words = Words(who=who, s="" if mine else "s", me=me, rules=rules, position=position,
                  card=card, label=card)
    tell = KINDS[action.kind].tell
    assert tell is not None, f"{action.kind} has no words"
    return tell(action, words)


def menu_entry(action: Action, rules: Rules, position: int | None,
               manilhas: Sequence[str] = (), names: dict[str, str] | None = None,
               side: Sequence[SideBetView] = (),
               worth: tuple[int, int | None] | None = None,
               score: Sequence[int] | None = None) -> str:
    """One line of the move menu, offered by its kind (``MoveKind.menu``): what the move is,
    in words to type for it; a card is marked as a manilha (``manilhas``, card names), named
    where ``names`` name it; ``position`` as for :func:`describe`. A side bet's call or
    answer says its stakes (``side``: the observation's side bets, G28, G40):
    ``envido (2; não quero gives 1)``; with ``worth`` (the hand's value and the pending
    raise's, if any) a raise, an accept and a fold say theirs (C8, C9):
    ``seis (raise to 6; corro gives 3)``, ``aceito (accept: worth 3)``, ``corro (fold: gives
    1)``; with ``score`` (the game's) a falta says its value: ``the falta (10)``."""

    def label(c: int) -> str:
        return card_label(card_name(c), manilhas, names or {})

    pending = next((v for v in side if v["pending"]), None)
    at = (rules.target, tuple(score)) if score is not None else None
    stakes = _call_stakes(action, rules, pending, at) if action.call is not None else None
    if stakes is not None:
        return stakes
    words = Words(who="you", s="", me=action.seat, rules=rules, position=position,
                  card=label, label=label, worth=worth, bet=_answer_stakes(rules, pending, at))
    menu = KINDS[action.kind].menu
    assert menu is not None, f"{action.kind} has no words"
    return menu(action, words)


#: The target and the game's score, from which a falta's value is read (G29).
At = tuple[int, tuple[int, ...]] | None


def _falta(bet: SideBet, at: At) -> str:
    """The falta in words with its value at the score (G29: ``the falta (10)``; where the
    variant's reading gives each team its own, each: ``the falta (10/12)``)."""
    if at is None:
        return _("the falta")
    target, score = at
    values = dict.fromkeys(falta_value(bet.falta, target, score, t) for t in range(len(score)))
    return _("the falta ({value})").format(value="/".join(map(str, values)))


def _stake_text(stake: int | str | None, bet: SideBet, at: At = None) -> str:
    """A side bet's stake in words: ``2``, ``the falta (10)``, ``3 a flor``."""
    if stake is None or stake == "falta":
        return _falta(bet, at)
    if stake == "flores":
        return _("{points} a flor").format(points=bet.per_flor)
    if stake == "falta_plus_flores":
        return _("{falta} + {points} a flor").format(falta=_falta(bet, at), points=bet.per_flor)
    return str(stake)


def _answer_stakes(rules: Rules, pending: SideBetView | None,
                   at: At = None) -> tuple[str, str, str] | None:
    """The side bet whose call waits for its answer (``pending``, the observation's view), its
    name with what its acceptance plays for and its refusal gives, in words (G28, G40)."""
    if pending is None:
        return None
    bet = next(b for b in rules.side_bets if b.name == pending["bet"])
    accepted, refused = _chain_stakes(bet, tuple(pending["calls"]))
    return bet.name, _stake_text(accepted, bet, at), _stake_text(refused, bet, at)


def _call_stakes(action: Action, rules: Rules, pending: SideBetView | None,
                 at: At = None) -> str | None:
    """The menu line of a side bet's call (a move with a ``call``: envido, flor) with what
    it plays for and what a refusal gives (G28, G39, G40); ``None`` for a call the variant's
    chains do not price."""
    call = action.call
    bet = next((b for b in rules.side_bets if call in b.calls), None)
    if bet is None or call is None:
        return None
    key = (*pending["calls"], call) if pending is not None and pending["bet"] == bet.name \
        else (call,)
    if key not in (bet.flor_chains or bet.chains):
        return None
    accepted, refused = _chain_stakes(bet, key)
    if bet.flor_chains is not None:  # a flor's chain (G39): conceded or compared at once
        at_once = bet.flor_chains[key].at_once
        if at_once == "concede":
            return _("{call} / é boa (concede the flor: {stake})").format(
                call=call, stake=_stake_text(accepted, bet, at))
        if at_once == "compare" or refused is None:
            return f"{call} ({_stake_text(accepted, bet, at)})"
    return _("{call} ({stake}; não quero gives {refused})").format(
        call=call, stake=_stake_text(accepted, bet, at), refused=_stake_text(refused, bet, at))


Stakes = tuple[int | str | None, int | str | None]


def _chain_stakes(bet: SideBet, chain: tuple[str, ...]) -> Stakes:
    """What ``chain`` plays for when accepted, and what its refusal gives the caller's team."""
    if bet.flor_chains is not None:
        f = bet.flor_chains.get(chain)
        return (f.accepted, f.refused) if f is not None else (None, None)
    c = bet.chains.get(chain)
    return (c.accepted, c.refused) if c is not None else (None, None)


def menu_order(legal: Sequence[Action], rules: Rules, vira: str | None,
               blind: bool) -> list[int]:
    """The order of the move menu, as indices into ``legal``: the kinds of move as the engine
    lists them, the cards of each strongest first (as dealt in a blind hand: the cards are
    hidden, so their order says nothing).

    >>> from engine import Match
    >>> m = Match.new("mineiro", seed=3)
    >>> legal = m.legal_actions(1)
    >>> [str(legal[i]) for i in menu_order(legal, m.rules, None, False)][:3]
    ['play 1 As', 'play 1 3c', 'play 1 4s']
    """
    strength = rules.strengths(parse_card(vira) if vira is not None else None)
    groups: dict[tuple[str, bool], int] = {}
    for a in legal:
        groups.setdefault((a.kind, a.covered), len(groups))

    def key(i: int) -> tuple[int, int]:
        a = legal[i]
        power = 0 if blind or a.card is None else -strength[a.card]
        return groups[a.kind, a.covered], power

    return sorted(range(len(legal)), key=key)


def describe_checkpoint(cp: Checkpoint, me: int, team_of: Sequence[int] | None = None,
                        names: Sequence[str] | None = None, proves: str | None = None,
                        called: dict[str, str] | None = None, after: str = "") -> str:
    """A checkpoint in words, as seen from seat ``me``'s team (``team_of``: each seat's team,
    by default partners in alternate seats); ``names`` are the seats' names; ``proves`` is
    the side bet whose declaration a ``side_show`` proves (G32); ``called``: the variant's
    card names; ``after``: the kind of the move that caused it (a flor settled by a song is
    "sung", G38, as ``truco replay`` says)."""
    team = team_of[me] if team_of is not None else me % 2
    teams = len(set(team_of)) if team_of is not None else 2

    def side(t: int | None) -> str:
        return _("nobody") if t is None else side_text(t, team, teams)

    if cp["event"] == "round":
        return _("  → round won by {side}").format(side=side(cp["winner"])) \
            if cp["winner"] is not None else _("  → round tied")
    if cp["event"] == "side_declare":  # G30: the declared points, or "são boas"
        said = str(cp["points"]) if cp["points"] is not None else "são boas"
        return f"  {seat_label(cp['seat'], me, names, team_of)}: \"{said}\""
    if cp["event"] == "side_bet":
        how = _("accepted") if cp["accepted"] else _settled_word(unanswered(after))
        return _("  → {bet} ({calls}, {how}) won by {side} for {points} · score {score}").format(
            bet=cp["bet"], calls=" - ".join(cp["calls"]), how=how, side=side(cp["winner"]),
            points=cp["points"], score=scores_text(cp["score"], team))
    if cp["event"] == "side_show":  # G32: the winning points' cards
        shown = (_("  shown for the {bet}: {who} {cards}") if proves is not None
                 else _("  shown: {who} {cards}"))
        return shown.format(bet=proves, who=seat_label(cp["seat"], me, names, team_of),
                            cards=" ".join(named(c, called or {}) for c in cp["cards"]))
    if cp["event"] == "hand":
        won = (_("  → hand won by {side} for {points} · score {score}")
               if cp["winner"] is not None else _("  → hand tied: nobody scores · score {score}"))
        return won.format(side=side(cp["winner"]), points=cp["points"],
                          score=scores_text(cp["score"], team))
    if cp["event"] == "game":
        return _("  ★ game won by {side}, {score} · games {games}").format(
            side=side(cp["winner"]), score=scores_text(cp["score"], team),
            games=scores_text(cp["games"], team))
    won = (_("  ★★ match won by {side}: you win!") if cp["winner"] == team
           else _("  ★★ match won by {side}: you lose."))
    return won.format(side=side(cp["winner"]))


def _settled_word(word: str) -> str:
    """How a side bet settled without an answer, in words (:func:`unanswered`)."""
    return {"refused": _("refused"), "sung": _("sung")}.get(word, word)


def move_words(notation: str, rules: Rules) -> str:
    """A move written in the log's notation (``raise 1 6``, ``play 0 2h covered``) in the
    table's words, as the menu offers it (``seis (raise to 6)``, ``play 2♥ coberta``); a
    notation that is no move of ``rules`` stays as it is."""
    try:
        action = Action.parse(notation)
        position = action.position + 1 if action.card is None and action.position is not None \
            else None
        return menu_entry(action, rules, position)
    except (ValueError, KeyError, AssertionError):
        return notation
