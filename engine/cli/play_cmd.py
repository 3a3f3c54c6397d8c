"""``truco play``: a person against bots in the terminal, logged as it goes.

Every hand opens with a banner (dealer, mão, score, a special hand, your cards strongest first);
the table is shown before each of your moves. You answer with the move's letter in the menu or
its name (``b``, ``4c``, ``4♣``, ``4c coberta``, a bare rank such as ``3`` when exactly one card
of your hand has it, ``truco``, ``aceito``/``accept``, ``corro``/``fold``, ``jogo``/``play``,
``#1`` in a blind hand; ``corro``/``concede`` gives up the hand where the variant allows it;
Gaudério's words too: ``quero``, ``não quero``, ``retruco``, ``vale quatro``, ``baralho``).
A lower-case letter is a menu entry; a capital rank letter (``A``, ``K``) is a card. Where any
player may raise at any moment (M3), you are asked before each bot card at which you may raise:
Enter lets the bot play, ``no`` stops asking until the next hand. The bots are offered it too,
before every card, as in ``truco simulate``; ``--resume`` replays those offers, so a resumed
game goes on exactly as if it had not stopped.
A bad answer gets a hint (for a move the rules refuse, the engine's reason) and the question
again.
With ``--log`` every move is written and flushed at once; ``--resume LOG`` replays the moves of
a log that truco play wrote (its header's ``meta``: ``"tool": "truco play"``) and goes on
writing to it; the options its log decides are refused beside it. ``--position FILE`` starts
the game at a position (docs/positions.md), and its log (``--log``) starts from it. End of
input stops the game cleanly (exit 0), the log kept.

Exit codes: 0 ok (also when stopped), 1 an invalid variant or log, 2 usage errors.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

import click

from engine.actions import Action
from engine.bots import (
    Bot,
    bot_problem,
    choose_for,
    make_bot,
    next_actor,
    notify,
    out_of_turn_raise,
)
from engine.bots.search import DEFAULT_BUDGET
from engine.cards import COBERTA, RANKS, CardError, card_name, card_pretty, card_rank, parse_card
from engine.cli.options import U64, bots_option, force_option, parse_bots
from engine.errors import IllegalMoveError, LogError, PositionError, TrucoError
from engine.game import Checkpoint, Match, resolve_rules
from engine.logformat import Recorder, header_variant
from engine.logread import MAX_FILE_BYTES, LogItem, loads_strict, read_log
from engine.moves import KINDS, Words
from engine.observation import Observation, SideBetView
from engine.reading import NotARegularFile, open_regular, read_regular
from engine.replay import Visitor, replay
from engine.rules import Rules
from engine.shuffle import SplitMix64
from engine.sidebets import SideBet
from engine.simulate import bot_seed
from engine.state import HandState
from engine.tui import (
    card_label,
    render_banner,
    render_table,
    scores_text,
    seat_label,
    side_text,
)
from engine.words import MOVE_NAMES, card_names, named, table_word

HUMAN = "human"
#: ``--level``: the bots a player understands, weakest first.
LEVELS = {"easy": "random", "medium": "heuristic", "hard": f"search:{DEFAULT_BUDGET}"}
ACCEPT_WORDS = {"aceito", "accept", "aceitar", "aceita", "quero", "sim", "yes", "ok"}
FOLD_WORDS = {"corro", "fold", "correr", "corre", "nao", "não", "no", "baralho"}
# "eu corro", "vou ao baralho" (Gaudério, G20): give up the hand
CONCEDE_WORDS = {"corro", "correr", "corre", "concede", "desisto", "baralho"}
PLAY_WORDS = {"jogo", "play", "jogar", "joga"}
RAISE_WORDS = {"raise", "trucar", "truco", "pede"}
COVER_WORDS = {"covered", "coberta", "coberto", "cover", "down", "encoberta"}
QUIT_WORDS = {"quit", "exit", "sair"}  # not "q": a bare rank names a queen
PASS_WORDS = {"no", "n", "nao", "não"}  # at an out-of-turn raise prompt: not again this hand
MENU_LETTERS = "abcdefghijklmnopqrstuvwxyz"
SUIT_SIGNS = {"♣": "c", "♧": "c", "♦": "d", "♢": "d", "♥": "h", "♡": "h", "♠": "s", "♤": "s"}


class _Stop(Exception):
    """The person ended the input (EOF or a quit word)."""


# -- describing moves ----------------------------------------------------------------------------
def seat_names(kinds: Sequence[str]) -> list[str]:
    """The seats' names, shared by the game and the log header's ``players`` (so ``truco
    replay`` says the same): ``'you'`` for the person, ``'Bot N (kind)'`` for the bot at seat N.

    >>> seat_names(["human", "heuristic", "random", "heuristic"])
    ['you', 'Bot 1 (heuristic)', 'Bot 2 (random)', 'Bot 3 (heuristic)']
    """
    return ["you" if kind == HUMAN else f"Bot {s} ({kind})" for s, kind in enumerate(kinds)]


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
    if said is not None:  # the table's own word (move_names): "Bot 1 says VOU AO BARALHO"
        return f"{who} say{'s' * (who != 'you')} {said.upper()}"
    words = Words(who=who, s="s" * (who != "you"), me=me, rules=rules, position=position,
                  card=card, label=card)
    tell = KINDS[action.kind].tell
    assert tell is not None, f"{action.kind} has no words"
    return tell(action, words)


def menu_entry(action: Action, rules: Rules, position: int | None,
               manilhas: Sequence[str] = (), names: dict[str, str] | None = None,
               side: Sequence[SideBetView] = (),
               worth: tuple[int, int | None] | None = None) -> str:
    """One line of the move menu, offered by its kind (``MoveKind.menu``): what the move is,
    in words to type for it; a card is marked as a manilha (``manilhas``, card names), named
    where ``names`` name it; ``position`` as for :func:`describe`. A side bet's call or
    answer says its stakes (``side``: the observation's side bets, G28, G40):
    ``envido (2; não quero gives 1)``; with ``worth`` (the hand's value and the pending
    raise's, if any) a raise, an accept and a fold say theirs (C8, C9):
    ``seis (raise to 6; corro gives 3)``, ``aceito (accept: worth 3)``, ``corro (fold: gives
    1)``."""

    def label(c: int) -> str:
        return card_label(card_name(c), manilhas, names or {})

    stakes = _stakes(action, rules, side)
    if stakes is not None:
        return stakes
    if worth is not None and action.kind in ("raise", "accept", "fold"):
        value, pending = worth
        fold, accept = rules.move_name("fold", "corro"), rules.move_name("accept", "aceito")
        if action.kind == "accept" and pending is not None:
            return f"{accept} (accept: worth {pending})"
        if action.kind == "fold":
            return f"{fold} (fold: gives {value})"
        if action.kind == "raise" and action.value is not None:
            refused = pending if pending is not None else value  # a raise back accepts (C9)
            card = f" with {label(action.card)}" if action.card is not None else ""
            return (f"{rules.step_name(action.value)} (raise to {action.value}; {fold} gives "
                    f"{refused}){card}")
    words = Words(who="you", s="", me=action.seat, rules=rules, position=position,
                  card=label, label=label)
    menu = KINDS[action.kind].menu
    assert menu is not None, f"{action.kind} has no words"
    return menu(action, words)


def _stake_text(stake: int | str | None, bet: SideBet) -> str:
    """A side bet's stake in words: ``2``, ``the falta``, ``3 a flor``."""
    if stake is None or stake == "falta":
        return "the falta"
    if stake == "flores":
        return f"{bet.per_flor} a flor"
    if stake == "falta_plus_flores":
        return f"the falta + {bet.per_flor} a flor"
    return str(stake)


def _stakes(action: Action, rules: Rules, side: Sequence[SideBetView]) -> str | None:
    """The menu line of a side bet's call (``envido``, ``flor``) or answer (``quero``, ``não
    quero``) with what it plays for and what a refusal gives (G28, G39, G40); ``None`` for
    any other move, or a call the variant's chains do not price."""
    pending = next((v for v in side if v["pending"]), None)
    chain = tuple(pending["calls"]) if pending is not None else ()
    refuse = "não quero"
    if action.kind in ("quero", "nao_quero") and pending is not None:
        bet = next(b for b in rules.side_bets if b.name == pending["bet"])
        accepted, refused = _chain_stakes(bet, chain)
        if action.kind == "quero":
            return f"quero (accept the {bet.name}: {_stake_text(accepted, bet)})"
        return f"{refuse} (refuse the {bet.name}: gives {_stake_text(refused, bet)})"
    if action.kind not in ("envido", "flor") or action.call is None:
        return None
    called = next((b for b in rules.side_bets if action.call in b.calls), None)
    if called is None:
        return None
    bet = called
    key = (*chain, action.call) if pending is not None and pending["bet"] == bet.name \
        else (action.call,)
    if key not in (bet.flor_chains or bet.chains):
        return None
    accepted, refused = _chain_stakes(bet, key)
    if bet.kind == "flor":
        at_once = (bet.flor_chains or {})[key].at_once
        if at_once == "concede":
            return f"{action.call} / é boa (concede the flor: {_stake_text(accepted, bet)})"
        if at_once == "compare" or refused is None:
            return f"{action.call} ({_stake_text(accepted, bet)})"
    return f"{action.call} ({_stake_text(accepted, bet)}; {refuse} gives " \
           f"{_stake_text(refused, bet)})"


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
        return "nobody" if t is None else side_text(t, team, teams)

    ev = cp["event"]
    if ev == "round":
        return f"  → round won by {side(cp['winner'])}" if cp["winner"] is not None \
            else "  → round tied"
    if ev == "side_declare":  # G30: the declared points, or "são boas"
        said = str(cp["points"]) if cp["points"] is not None else "são boas"
        return f"  {seat_label(cp['seat'], me, names, team_of)}: \"{said}\""
    if ev == "side_bet":
        how = ("accepted" if cp["accepted"] else "sung" if after == "flor" else "refused")
        return (f"  → {cp['bet']} ({' - '.join(cp['calls'])}, {how}) won by "
                f"{side(cp['winner'])} for {cp['points']} · score "
                f"{scores_text(cp['score'], team)}")
    if ev == "side_show":  # G32: the winning points' cards
        why = f" for the {proves}" if proves is not None else ""
        return (f"  shown{why}: {seat_label(cp['seat'], me, names, team_of)} "
                + " ".join(named(c, called or {}) for c in cp["cards"]))
    if ev == "hand":
        s = cp["score"]
        won = (f"hand won by {side(cp['winner'])} for {cp['points']}" if cp["winner"] is not None
               else "hand tied: nobody scores")
        return f"  → {won} · score {scores_text(s, team)}"
    if ev == "game":
        return (f"  ★ game won by {side(cp['winner'])}, {scores_text(cp['score'], team)} · "
                f"games {scores_text(cp['games'], team)}")
    return f"  ★★ match won by {side(cp['winner'])}: " + (
        "you win!" if cp["winner"] == team else "you lose.")


# -- reading a move ------------------------------------------------------------------------------
def _card_token(word: str) -> str | None:
    """``4c``, ``4C``, ``kd``, ``10h``, ``4♣``, a joker ``x1`` .. ``x16`` as a card name, or
    ``None``."""
    w = word.strip()
    if w[:1] in "xX" and w[1:].isdigit():  # an extra card (deck.extra): X1 .. X16
        try:
            return card_name(parse_card(w.upper()))
        except CardError:
            return None
    if w.startswith("10"):
        w = "T" + w[2:]
    if len(w) != 2:
        return None
    name = w[0].upper() + SUIT_SIGNS.get(w[1], w[1].lower())
    try:
        parse_card(name)
    except CardError:
        return None
    return name


def _rank_token(word: str) -> str | None:
    """A bare rank (``3``, ``q``, ``10``) as its rank letter, or ``None``."""
    w = "T" if word == "10" else word.upper()
    return w if len(w) == 1 and w in RANKS else None


def _rank_text(rank: str) -> str:
    return "10" if rank == "T" else rank


def parse_move(text: str, legal: Sequence[Action], legal_text: Sequence[str],
               rules: Rules, why: Callable[[Action], str | None] | None = None) -> Action | str:
    """The legal move that ``text`` names, or a hint saying what to type instead.

    ``legal`` is in menu order: letter ``a`` is ``legal[0]``. A lower-case letter is always a
    menu entry; a capital rank letter (``A``, ``K``) is a rank, never a letter; a card is named
    with its suit (``3d``, ``3♦``), or by a bare rank (``3``) when exactly one card that may
    be played has it. ``why`` gives the engine's reason (an IllegalMoveError's ``why``) for
    a move named but not legal now: the hint is then the rule that refuses it.

    >>> from engine import Match
    >>> m = Match.new("paulista", seed=7)
    >>> legal = m.legal_actions(1)
    >>> parse_move("a", legal, [str(a) for a in legal], m.rules) == legal[0]
    True
    >>> parse_move("truco", legal, [str(a) for a in legal], m.rules)
    Action.raise_to(1, 3)
    """
    typed = text.strip()
    words = typed.lower().split()
    if not words:
        return _hint(legal, rules)
    letters = MENU_LETTERS[:len(legal)]
    capital_rank = typed in RANKS and typed.isupper()  # "A" is an ace, "a" the first entry
    if len(words) == 1 and len(words[0]) == 1 and words[0] in letters and not capital_rank:
        return legal[letters.index(words[0])]

    def refused(action: Action, hint: str) -> str:
        """The engine's reason for refusing ``action`` where it gives one, else ``hint``."""
        said = why(action) if why is not None and legal else None
        return said if said else hint

    seat = legal[0].seat if legal else 0
    named_move = _by_move_name(" ".join(words), legal, rules)
    if named_move is not None:
        return named_move
    covered = any(w in COVER_WORDS for w in words)
    words = [w for w in words if w not in COVER_WORDS]
    blind = any("#" in t for t in legal_text)
    if blind:
        pos = next((w for w in words if w.startswith("#")), None)
        if pos is not None:
            for a, t in zip(legal, legal_text, strict=True):
                if a.kind == "play" and t.split()[2] == pos and a.covered == covered:
                    return a
            return f"no card {pos} to play now" + (f" {COBERTA}" if covered else "")
    songs = [a for a in legal if a.kind == "flor"]
    if songs:  # G35-G39: a flor's song, choice or raise, by its name ("é boa": me achico)
        said = " ".join(words)
        for a in songs:
            if a.call is not None and said == a.call.lower():
                return a
        if said in ("é boa", "e boa", "eboa"):
            chains = next(b for b in rules.side_bets if b.kind == "flor").flor_chains or {}
            achico = [a for a in songs if (a.call or "",) in chains
                      and chains[(a.call or "",)].at_once == "concede"]
            if achico:
                return achico[0]
    card = next((c for c in map(_card_token, words) if c is not None), None)
    rank = None if card is not None or blind else next(
        (r for r in map(_rank_token, words) if r is not None), None)
    named = any(set(s.name.lower().split()) <= set(words) for s in rules.ladder)  # vale quatro
    if named or any(w in RAISE_WORDS for w in words):
        raises = [a for a in legal if a.kind == "raise"]
        if not raises:
            return "no raise is possible now"
        if card is not None:
            value = raises[0].value or 0
            raises = [a for a in raises if a.card == parse_card(card)]
            if not raises:
                return refused(Action.raise_to(seat, value, card),
                               f"you cannot raise with {_pretty(card)} now")
        elif rank is not None and rules.name_card:
            raises = [a for a in raises if a.card is not None and card_rank(a.card) == rank]
            if not raises:
                return f"you cannot raise with a {_rank_text(rank)} now"
        if len(raises) > 1:
            step = rules.step_name(raises[0].value or 0)
            return ("name the card you raise with, e.g. "
                    + " or ".join(f"'{step} {_short(a)}'" for a in raises))
        return raises[0]
    kinds = {a.kind for a in legal}
    said = " ".join(words)
    if "envido" in kinds or "quero" in kinds:  # a side bet's call or answer (G27), by name
        for a in legal:
            if a.kind == "envido" and a.call is not None and said == a.call.lower():
                return a
        if said in ("não quero", "nao quero", "naoquero") and "nao_quero" in kinds:
            return next(a for a in legal if a.kind == "nao_quero")
        if said == "quero" and "quero" in kinds:
            return next(a for a in legal if a.kind == "quero")
    refuse = any(w in FOLD_WORDS for w in words)  # "não quero" refuses
    if any(w in ACCEPT_WORDS for w in words) and not refuse:
        if "accept" in kinds:
            return next(a for a in legal if a.kind == "accept")
        if card is None and rank is None:
            return refused(Action.accept(seat), "nothing to accept now: " + _hint(legal, rules))
    if refuse:
        if "fold" in kinds:
            return next(a for a in legal if a.kind == "fold")
        if "decide" in kinds:
            return next(a for a in legal if a.kind == "decide" and not a.play_on)
    if any(w in CONCEDE_WORDS for w in words) and "concede" in kinds:
        return next(a for a in legal if a.kind == "concede")
    if any(w in PLAY_WORDS for w in words) and "decide" in kinds:
        return next(a for a in legal if a.kind == "decide" and a.play_on)
    if card is not None and not blind:
        for a in legal:
            if a.kind == "play" and a.card == parse_card(card) and a.covered == covered:
                return a
        if any(a.kind == "play" and a.card == parse_card(card) for a in legal):
            return refused(Action.play(seat, card, covered),
                           f"{_pretty(card)} cannot be played {COBERTA} now")
        return refused(Action.play(seat, card, covered), f"you cannot play {_pretty(card)} now")
    if rank is not None:
        plays = [a for a in legal if a.kind == "play" and card_rank(a.card) == rank]  # type: ignore[arg-type]
        fitting = [a for a in plays if a.covered == covered]
        if len(fitting) == 1:
            return fitting[0]
        if len(fitting) > 1:
            return (f"you hold {' and '.join(card_pretty(a.card) for a in fitting)}: "  # type: ignore[arg-type]
                    f"type {' or '.join(_short(a) for a in fitting)}, or a letter")
        if plays:
            return f"no {_rank_text(rank)} can be played {COBERTA} now"
        if "play" not in kinds:
            return "no card can be played now: " + _hint(legal, rules)
        return f"you have no {_rank_text(rank)} to play now"
    if len(words) == 1 and words[0].isdigit():
        return f"'{words[0]}' is no move: choose a letter from a to {letters[-1]}"
    return _hint(legal, rules)


def _by_move_name(typed: str, legal: Sequence[Action], rules: Rules) -> Action | None:
    """The legal move whose name (the variant's ``move_names``: "vou ao baralho") is what was
    typed, or ``None``."""
    for key, kind, play_on in MOVE_NAMES:
        name = rules.move_name(key, "")
        if name and typed == name.lower():
            for a in legal:
                if a.kind == kind and (play_on is None or a.play_on == play_on):
                    return a
    return None


def _pretty(name: str) -> str:
    return card_pretty(parse_card(name))


def _short(action: Action) -> str:
    return card_name(action.card) if action.card is not None else ""


def _hint(legal: Sequence[Action], rules: Rules) -> str:
    kinds = {a.kind for a in legal}
    say = [f"a letter from a to {MENU_LETTERS[len(legal) - 1]}"]
    if "play" in kinds:
        say.append(f"a card like 4c or 4♣ ('4c {COBERTA}' to hide it)")
    if "raise" in kinds:
        step = next(a for a in legal if a.kind == "raise")
        say.append(rules.step_name(step.value or 0))
    name = rules.move_name
    if "accept" in kinds:
        say.append(f"{name('accept', 'aceito')}/accept, {name('fold', 'corro')}/fold")
    if "decide" in kinds:
        say.append(f"{name('play_hand', 'jogo')}/play, {name('fold_hand', 'corro')}/fold")
    if "concede" in kinds:
        say.append(f"{name('concede', 'corro')}/concede" if "fold" not in kinds else "concede")
    calls = list(dict.fromkeys(a.call for a in legal if a.kind in ("envido", "flor")))
    if calls:
        say.append("/".join(c for c in calls if c is not None))
    if "quero" in kinds:
        say.append("quero, não quero")
    return "type " + ", ".join(say) + " (or 'quit')"


# -- the game ------------------------------------------------------------------------------------
class _Game:
    """The match, its bots and the optional recorder, with the person at ``seat``; ``names``
    are the seats' names (the log header's ``players``)."""

    def __init__(self, match: Match, seat: int, bots: dict[int, Bot], title: str,
                 recorder: Recorder | None, stdin: IO[str], names: Sequence[str],
                 first: int | None = 1) -> None:
        self.match = match
        self.seat = seat
        self.bots = bots
        self.title = title
        self.recorder = recorder
        self.stdin = stdin
        self.names = list(names)
        self.card_names = card_names(match.rules)
        self.banner_hand = 0  # the hand whose banner was printed last
        self.quiet_hand = 0  # the hand in which the person asked not to be offered raises
        #: The match's number of the current game's first hand: hands are numbered per game
        #: (``None``: not known, from a position in a later game).
        self.first = first
        #: The partners' cards shown for a decision (M5, P5), by hand: kept on the table for
        #: the rest of that hand, less the cards played since.
        self.partners_seen: tuple[int, dict[int, list[str]]] | None = None

    def table(self, obs: Observation) -> str:
        """The table as the person sees it, with what he was shown earlier in the hand."""
        seen = self.partners_seen
        if obs.get("partner_hands"):
            self.partners_seen = (obs["hand_number"], dict(obs["partner_hands"] or {}))
        elif seen is not None and seen[0] == obs["hand_number"]:
            played = {(p["seat"], p["card"]) for p in obs["played"]}
            kept = {s: [c for c in cards if (s, c) not in played] for s, cards in seen[1].items()}
            obs = {**obs, "partner_hands": kept}
        rules = self.match.rules
        return render_table(obs, title=self.title, target=rules.target, rules=rules,
                            names=self.names, places=self.places(), first=self.first)

    def run(self) -> None:
        m = self.match
        while not m.is_over and not m.awaiting_deal:  # (an unseeded match waits for a deal)
            if m.hand_number != self.banner_hand:  # before any move of the hand is printed
                self.banner_hand = m.hand_number
                click.echo("")
                click.echo(render_banner(m.observation(self.seat), rules=m.rules,
                                         names=self.names, target=m.rules.target,
                                         places=self.places(), first=self.first))
            actor = next_actor(m, prefer=self.seat, bots=self.bots)
            # M3: before a card, the seats that may raise out of turn are offered it as in
            # truco simulate (play_match): in playing order from the seat after the one to
            # play, each bot its raises or a pass, the person (on the terminal) in its place.
            action = out_of_turn_raise(m, self.bots, ask=self.offer_raise)
            if action is None:
                obs = m.observation(actor)
                legal = m.legal_actions(actor)
                if actor == self.seat:
                    action = self.ask(obs, legal)
                else:
                    action = choose_for(self.bots[actor], m, actor)
            position = None  # P6: the person played a card of his blind hand by its place
            if m.blind and action.kind == "play" and action.seat == self.seat:
                position = self.place(action.card)  # type: ignore[arg-type]
            hand, shown_before, state = m.hand_number, len(m.shown), m.hand
            cps = self.recorder.apply(action) if self.recorder is not None else m.apply(action)
            notify(m, self.bots)  # a bot over the protocol: what its seat saw (and the end)
            if any(cp["event"] == "game" for cp in cps):
                self.first = m.hand_number  # the next game's first hand (dealt at once)
            click.echo(describe(action, m.rules, self.seat, position, self.names))
            proofs = [c for c in cps if c["event"] == "side_show"]  # G32, not raises
            self.tell_shown(hand, shown_before, sum(len(c["cards"]) for c in proofs))
            bets = iter(_side_shows(state))
            for cp in cps:
                proves = next(bets, None) if cp["event"] == "side_show" else None
                click.echo(describe_checkpoint(cp, self.seat, m.rules.team_of, self.names,
                                               proves, self.card_names, action.kind))

    def tell_shown(self, hand: int, before: int, proofs: int = 0) -> None:
        """Cards newly shown with a raise (M4): accepted, or refused where the variant shows a
        refused raise's card (round 1 in Mineiro), which ends the hand. The last ``proofs``
        cards shown are a side bet's proof (G32), told by their checkpoint instead."""
        m = self.match
        obs = m.observation(self.seat)
        last = obs["last_hand"]
        shown = obs["shown"] if m.hand_number == hand else (last["shown"] if last else [])
        for s in shown[before:len(shown) - proofs]:
            click.echo(f"  shown: {seat_label(s['seat'], self.seat, self.names)} raised with "
                       f"{card_label(s['card'], obs['manilhas'], self.card_names)}")

    def offer_raise(self, seat: int) -> Action | None:
        """Before a bot's card: where the person (``seat``) may raise now, out of turn (M3),
        ask whether to; ``None`` passes. :func:`out_of_turn_raise` calls it at the person's
        place in playing order."""
        m = self.match
        if m.state != "play" or self.quiet_hand == m.hand_number:
            return None
        actor = m.turn
        legal = [a for a in m.legal_actions(self.seat) if a.kind == "raise"]
        if not legal:
            return None
        obs = m.observation(self.seat)
        legal = [legal[i] for i in menu_order(legal, m.rules, obs["vira"], obs["blind"])]
        texts = [str(a) for a in legal]
        choices = "  ".join(
            f"{MENU_LETTERS[i]}) {m.rules.step_name(a.value or 0)}" + (
                "" if a.card is None else
                f" with {card_label(card_name(a.card), obs['manilhas'], self.card_names)}")
            for i, a in enumerate(legal))
        click.echo(f"Raise before {seat_label(actor, self.seat, self.names)} plays? {choices}")
        while True:
            click.echo(f"[Enter: let {seat_label(actor, self.seat, self.names)} play · no: not "
                       "again this hand] ", nl=False)
            line = self.stdin.readline()
            if not line:
                raise _Stop
            word = line.strip().lower()
            if word == "":
                return None
            if word in QUIT_WORDS:
                raise _Stop
            if word in PASS_WORDS:
                self.quiet_hand = m.hand_number
                return None
            if word in ("?", "help", "h", "ajuda"):
                click.echo(self.table(obs))
                click.echo(choices)
                continue
            got = parse_move(word, legal, texts, m.rules, self.why)
            if isinstance(got, Action):
                return got
            click.echo(f"'{line.strip()}': {got}")

    def place(self, card: int) -> int:
        """The 1-based place in which ``card`` was dealt to the person: in a blind hand (P6)
        his cards keep their numbers as he plays them."""
        dealt = self.match.dealt[self.seat] if self.match.dealt else ()
        return (dealt.index(card) if card in dealt
                else self.match.hands[self.seat].index(card)) + 1

    def places(self) -> list[int] | None:
        """In a blind hand (P6), the places as dealt of the cards the person holds."""
        m = self.match
        return [self.place(c) for c in m.hands[self.seat]] if m.blind else None

    def why(self, action: Action) -> str | None:
        """The engine's reason for refusing ``action`` now (the IllegalMoveError's ``why``),
        tried on a copy of the match; ``None`` when it would be legal."""
        try:
            self.match.clone().apply(action)
        except IllegalMoveError as exc:
            return str(exc.why)
        return None

    def entry(self, action: Action, obs: Observation) -> str:
        position = None  # P6: a card of the person's blind hand is offered by its place
        if obs["blind"] and action.kind == "play":
            position = self.place(action.card)  # type: ignore[arg-type]
        pending = obs["pending_raise"]
        worth = (obs["value"], pending["value"] if pending is not None else None)
        return menu_entry(action, self.match.rules, position, obs["manilhas"], self.card_names,
                          obs.get("side_bets", ()), worth)

    def ask(self, obs: Observation, legal: list[Action]) -> Action:
        rules = self.match.rules
        click.echo("")
        click.echo(self.table(obs))
        blind = obs["blind"]
        order = menu_order(legal, rules, obs["vira"], blind)
        legal = [legal[i] for i in order]
        texts = [obs["legal"][i] for i in order]
        if blind:  # P6: a card keeps the place it was dealt in, #3 stays #3
            texts = [" ".join([*t.split()[:2], f"#{self.place(a.card)}", *t.split()[3:]])
                     if a.kind == "play" and a.card is not None else t
                     for a, t in zip(legal, texts, strict=True)]
        for i, a in enumerate(legal):
            click.echo(f"  {MENU_LETTERS[i]}) {self.entry(a, obs)}")
        while True:
            click.echo("Your move: ", nl=False)
            line = self.stdin.readline()
            if not line:
                raise _Stop
            if line.strip().lower() in QUIT_WORDS:
                raise _Stop
            if line.strip() in ("?", "help", "ajuda"):
                click.echo(_hint(legal, rules))
                continue
            got = parse_move(line, legal, texts, rules, self.why)
            if isinstance(got, Action):
                return got
            click.echo(f"'{line.strip()}': {got}")


#: What ``--resume`` takes from its log: a different value would change the game mid-match.
_FROM_THE_LOG = (("variant", "--variant"), ("seat", "--seat"), ("bots", "--bots"),
                 ("seed", "--seed"))


def _refuse_with_resume(level: str | None) -> None:
    """A usage error naming the first option given with ``--resume`` that the log decides
    (the variant, the seed, your seat, the bots): the game goes on exactly as it was."""
    ctx = click.get_current_context()
    given = [flag for param, flag in _FROM_THE_LOG
             if ctx.get_parameter_source(param) not in (None, click.core.ParameterSource.DEFAULT)]
    if level is not None:
        given.append("--level")
    if given:
        raise click.UsageError(f"--resume goes on with its log's variant, seed, seat and bots: "
                               f"leave out {given[0]}")


def sides_text(names: Sequence[str], team_of: Sequence[int], seat: int) -> str:
    """Who "us" and "them" are on the screen (the variant's teams, C1), from ``seat``'s side:
    ``us: you and Bot 2; them: Bot 1 and Bot 3`` (``team N`` for each team with more).

    >>> sides_text(["you", "Bot 1", "Bot 2", "Bot 3"], [0, 1, 0, 1], 0)
    'us: you and Bot 2; them: Bot 1 and Bot 3'
    >>> sides_text(["you", "Bot 1", "Bot 2"], [0, 1, 2], 0)
    'us: you; team 1: Bot 1; team 2: Bot 2'
    """
    teams = sorted(set(team_of), key=lambda t: (t != team_of[seat], t))
    parts = []
    for t in teams:
        label = side_text(t, team_of[seat], len(teams))
        parts.append(f"{label}: " + " and ".join(n for s, n in enumerate(names) if team_of[s] == t))
    return "; ".join(parts)


def _side_shows(hand: HandState) -> list[str]:
    """The side bet that each ``side_show`` checkpoint of the hand's end proves, in their
    order (as :func:`engine.moves.bets.side_bets_at_end` shows them)."""
    bets = []
    for b in hand.side or ():
        for seat, cards in (b.flores if b.shown is None else (b.shown,)):
            if any(c in hand.hands[seat] for c in cards):
                bets.append(b.bet.name)
    return bets


def _bots_by_seat(text: str, seat: int, rules: Rules) -> list[str]:
    """Every seat's player: ``--bots`` read as everywhere (:func:`parse_bots`), with the
    human at ``seat``."""
    players = rules.players
    names = parse_bots(text, players, team_of=rules.team_of)
    return [HUMAN if s == seat else name for s, name in enumerate(names)]


class _ResumeVisitor(Visitor):
    """A strict replay (the first problem is raised) that keeps the log's moves."""

    def __init__(self) -> None:
        self.moves: list[LogItem] = []

    def move(self, item: LogItem, action: Action, match: Match,
             checkpoints: list[Checkpoint]) -> None:
        self.moves.append(item)


def _resume(path: str) -> tuple[dict[str, Any], Match, list[Action], bytes, int]:
    """Verify the log strictly; return its header, the match rebuilt from it, its moves, its
    data and the bots' seed (the header's seed; for a log that starts from a position, the
    ``bots_seed`` truco play writes in its ``meta``)."""
    p = Path(path)
    try:
        data = read_regular(p, MAX_FILE_BYTES)  # bounded, a regular file (engine.reading)
    except OSError as exc:
        raise LogError(f"cannot read the log: {exc.strerror}", file=path, line=1) from None
    visitor = _ResumeVisitor()
    replayer = replay(data, path, visitor, p.resolve().parent)
    first = next(iter(read_log(data, path)))
    if not isinstance(first, LogItem):
        raise first
    header = first.data
    assert replayer.rules is not None
    _played_here(header, replayer.rules.players, path)
    moves = [Action.from_event(item.data) for item in visitor.moves]
    if "position" in header:
        bots_seed = (header.get("meta") or {}).get("bots_seed")
        if (type(bots_seed) is not int or not 0 <= bots_seed < 1 << 64
                or header["position"].get("rng") is None):
            raise LogError("only a log that truco play --position wrote can be resumed "
                           "from a position (its meta has no bots_seed)", file=path, line=1)
        match = Match.from_position(replayer.rules, header["position"])
        return header, match, moves, data, bots_seed
    if header.get("seed") is None:
        raise LogError("only a seeded log can be resumed (its header has no seed)",
                       file=path, line=1)
    match = Match(replayer.rules, seed=header["seed"], dealer=header.get("dealer", 0))
    return header, match, moves, data, header["seed"]


def _played_here(header: dict[str, Any], players: int, path: str) -> None:
    """Refuse (:class:`~engine.errors.LogError`, line 1) a log that ``truco play`` did not
    write: its header's ``meta`` must say ``"tool": "truco play"`` and give the seat of the
    person (``human``) and every seat's player (``bots``), and its ``players`` must be the
    names play gives those seats. Another program's log, or a recorded game, is never taken
    over and written into."""
    meta = header.get("meta")
    meta = meta if isinstance(meta, dict) else {}
    human, kinds = meta.get("human"), meta.get("bots")
    why = None
    if meta.get("tool") != "truco play":
        why = 'its header\'s meta has no "tool": "truco play"'
    elif (type(human) is not int or not isinstance(kinds, list) or len(kinds) != players
          or not 0 <= human < players
          or not all(isinstance(k, str) and (k == HUMAN) == (s == human)
                     and (k == HUMAN or bot_problem(k) is None) for s, k in enumerate(kinds))):
        why = "its header's meta does not name the seat of the person and the bots"
    elif header.get("players", seat_names(kinds)) != seat_names(kinds):
        why = "its header's players are not the names truco play gives its seats"
    if why is not None:
        raise LogError(f"only a log that truco play wrote can be resumed ({why}); "
                       "truco replay shows it", file=path, line=1)


def _json_where(text: str) -> tuple[int, int] | tuple[None, None]:
    """The 1-based line and column where ``text`` stops being JSON (Python's own reader
    knows them), or ``(None, None)`` where the problem has no place (a duplicate key...)."""
    import json

    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return exc.lineno, exc.colno
    except (ValueError, RecursionError):
        pass
    return None, None


def _readable(path: str | None, hint: str) -> None:
    """A usage error (exit 2) naming the option for a file given that cannot be read."""
    if path is None:
        return
    try:
        with open_regular(path):  # never waits on a FIFO
            pass
    except NotARegularFile:
        raise  # invalid input, exit 1 (engine.cli), as every reader says it
    except OSError as exc:
        raise click.BadParameter(f"cannot read {path}: {exc.strerror}", param_hint=hint) from None


#: A position file larger than this is refused (a position is a few KiB).
MAX_POSITION_BYTES = 1 << 20


def position_match(rules: Rules, path: str, seed: int) -> Match:
    """The match at the position in the file ``path`` (a JSON position, as ``truco position``
    prints it). A position without a generator's state (``rng`` null) deals its later hands
    from ``seed`` (and its awaited hand at once). Raises :class:`~engine.errors.TrucoError`
    naming the file for a file that cannot be read, is not JSON, or is not a possible
    position (with the position's code and field)."""
    try:
        data = read_regular(path, MAX_POSITION_BYTES)  # a regular file (engine.reading)
    except OSError as exc:
        raise TrucoError(f"cannot read the position: {exc.strerror}", file=path) from None
    if len(data) > MAX_POSITION_BYTES:
        raise TrucoError(f"bad position: larger than {MAX_POSITION_BYTES // 1024} KiB",
                         file=path)
    why: str | None = None
    place: tuple[int, int] | tuple[None, None] = (None, None)
    try:
        text = data.decode("utf-8")
        position = loads_strict(text)
    except UnicodeDecodeError as exc:
        why = f"invalid UTF-8 at byte {exc.start + 1}"
    except ValueError as exc:
        why = f"invalid JSON: {exc}"
        place = _json_where(text)
        if place[0] is not None:
            why = why.rsplit(" at column ", 1)[0]  # the column is in the place, file:line:col
    if why is not None:
        raise TrucoError(f"bad position: {why}", file=path, line=place[0], column=place[1])
    try:
        match = Match.from_position(rules, position)
    except PositionError as exc:
        where = exc.path or "position"
        why = f"bad position: {exc.code}: {where}: {exc.why}"
    if why is not None:  # raised outside the except: no chained context
        raise TrucoError(why, file=path)
    if match.rng is None:
        match.rng = SplitMix64(seed)
        if match.awaiting_deal:
            match.deal_next()
    return match


@click.command()
@click.option("--variant", "-v", metavar="NAME|FILE",
              help="A shipped variant name or a path to a variant YAML file.  "
                   "[required unless --resume]")
@click.option("--seat", type=click.IntRange(0), default=0, show_default=True,
              help="Your seat, from 0 (seat 0 deals the first hand; your partners are "
                   "the variant's teams, alternate seats unless it says otherwise).")
@bots_option("heuristic", note="Your own seat is yours, whatever the list gives it.")
@click.option("--level", type=click.Choice(list(LEVELS)), default=None,
              help="How strong the bots play, instead of --bots: easy (random moves), medium "
                   f"(heuristic), hard (search, {DEFAULT_BUDGET} hands played out per move).")
@click.option("--seed", "-s", type=U64, default=None,
              help="Seeds the deals and the bots; left out, a new seed is drawn and printed.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False),
              help="Write the game's log to FILE as it is played (an existing FILE is "
                   "refused unless --force is given).")
@force_option("the --log file")
@click.option("--resume", metavar="LOG", type=click.Path(dir_okay=False),
              help="Go on with the game of LOG (a seeded log written by truco play, or one "
                   "it started from a position; any other log is refused), writing to it: its "
                   "variant, seed, seat and bots are used, and giving any of them is a usage "
                   "error.")
@click.option("--position", "position_file", metavar="FILE", type=click.Path(dir_okay=False),
              help="Start the game at the position in FILE (a JSON position, as truco "
                   "position prints it; docs/positions.md), of --variant. The deals go on "
                   "from the position's rng (from --seed where it has none); --seed seeds "
                   "the bots.")
def play(variant: str | None, seat: int, bots: str, level: str | None, seed: int | None,
         log_path: str | None, resume: str | None, force: bool,
         position_file: str | None) -> None:
    """Play a match against bots in the terminal.

    \b
    Examples:
      truco play --variant paulista --seat 0 --bots heuristic --seed 7 --log game.jsonl
      truco play --variant mineiro --level hard
      truco play --resume game.jsonl
      truco play --variant paulista --position puzzle.json --log puzzle.jsonl
    """
    stdin: IO[str] = sys.stdin  # CliRunner and scripted runs swap sys.stdin
    moves: list[Action] = []
    _readable(resume, "--resume")  # a missing file is a usage error, as in verify and replay
    _readable(position_file, "--position")
    bots_source = click.get_current_context().get_parameter_source("bots")
    if level is not None:
        if bots_source is not click.core.ParameterSource.DEFAULT:
            raise click.UsageError("--level chooses the bots: leave out --bots (or --level)")
        bots = LEVELS[level]
    if resume is not None:
        if log_path is not None:
            raise click.UsageError("--resume goes on writing to its own log; leave out --log")
        if position_file is not None:
            raise click.UsageError("--resume goes on from its log; leave out --position")
        _refuse_with_resume(level)
        header, match, moves, data, seed = _resume(resume)
        meta = header["meta"]  # checked by _resume: written by truco play
        rules = match.rules
        seat = meta["human"]
        names = list(meta["bots"])
        label = header["variant"]
    else:
        if variant is None:
            raise click.UsageError("--variant is required (or --resume LOG)")
        rules = resolve_rules(variant)
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "big")
            again = "this position" if position_file is not None else "this deal"
            click.echo(f"seed {seed} (play {again} again with --seed {seed})")
        if position_file is not None:
            match = position_match(rules, position_file, seed)
        else:
            match = Match(rules, seed=seed)
        names = None
        label = variant if log_path is None else header_variant(variant, Path(log_path).parent
                                                                 or ".")
        data = b""
    if seat >= rules.players:
        raise click.BadParameter(f"seat {seat} is not a seat of {rules.name} "
                                 f"(0..{rules.players - 1})", param_hint="--seat")
    if names is None or len(names) != rules.players or names[seat] != HUMAN:
        names = _bots_by_seat(bots, seat, rules)
    players = {s: make_bot(n, rules, bot_seed(seed, s)) for s, n in enumerate(names)
               if s != seat}
    # Replaying a log: each bot sees the positions it moved in, as when they were played,
    # and the out-of-turn offers made before each move (M3), passes included (they leave no
    # trace in the log but advance the bots' random state): up to the seat that raised.
    first: int | None = 1 if not any(match.games) else None  # from a position: not known
    for action in moves:
        out_of_turn_raise(match, players, until=action.seat)
        if action.seat != seat and next_actor(match, prefer=seat, bots=players) == action.seat:
            choose_for(players[action.seat], match, action.seat)
        if any(cp["event"] == "game" for cp in match.apply(action)):
            first = match.hand_number
    out: IO[str] | None = None
    recorder = None
    target = resume or log_path
    if target is not None:
        if resume is None and not force and Path(target).exists():
            raise click.BadParameter(f"{target} exists: continue it with --resume {target}, "
                                     "replace it with --force, or choose another file",
                                     param_hint="--log")
        out = open(target, "a" if resume else "w" if force else "x",  # noqa: SIM115
                   encoding="utf-8", newline="\n")
        if resume and data and not data.endswith(b"\n"):
            out.write("\n")
        log_meta: dict[str, Any] = {"tool": "truco play", "human": seat, "bots": names}
        if position_file is not None:  # the header has no seed: --resume needs the bots'
            log_meta["bots_seed"] = seed
        recorder = Recorder(match, out, variant=label, players=seat_names(names), meta=log_meta,
                            write_header=resume is None)
        click.echo(f"truco: the game's log is written to {target} as it goes", err=True)
    title = rules.title or rules.name
    if moves:
        click.echo(f"resumed {resume} after {len(moves)} moves")
    try:
        if match.is_over:
            click.echo(f"the match in {resume or position_file} is over: team {match.winner} "
                       "won")
            return
        shown = seat_names(names)
        click.echo(f"{title}: you are seat {seat}; {sides_text(shown, rules.team_of, seat)}. "
                   "Type a move's letter or name; 'quit' or end of input stops.")
        _Game(match, seat, players, title, recorder, stdin, shown, first).run()
    except _Stop:
        kept = f"; the log is kept: continue with --resume {target}" if target else ""
        click.echo(f"\ngame stopped{kept}")
    except KeyboardInterrupt:
        kept = f"; the log is kept: continue with --resume {target}" if target else ""
        click.echo(f"\ngame interrupted{kept}", err=True)
        sys.exit(130)
    finally:
        if out is not None:
            out.close()
