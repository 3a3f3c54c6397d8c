"""How ``truco play`` reads a move typed by the person: a menu letter, a card (``4c``, ``4♣``,
``4c coberta``, a bare rank), or the move's words (``truco``, ``aceito``, ``corro``, the
variant's ``move_names``...); anything else gets a hint saying what to type."""


from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.actions import Action
from engine.cards import COBERTA, RANKS, CardError, card_name, card_pretty, card_rank, parse_card
from engine.rules import Rules
from engine.words import MOVE_NAMES

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
        return hint(legal, rules)
    letters = MENU_LETTERS[:len(legal)]
    capital_rank = typed in RANKS and typed.isupper()  # "A" is an ace, "a" the first entry
    if len(words) == 1 and len(words[0]) == 1 and words[0] in letters and not capital_rank:
        return legal[letters.index(words[0])]
    named_move = _by_move_name(" ".join(words), legal, rules)
    if named_move is not None:
        return named_move
    line = _Line(words, legal, legal_text, rules, why)
    for reader in (_by_position, _by_song, _by_raise, _by_call, _by_answer, _by_card, _by_rank):
        got = reader(line)
        if got is not None:
            return got
    if len(words) == 1 and words[0].isdigit():
        return f"'{words[0]}' is no move: choose a letter from a to {letters[-1]}"
    return hint(legal, rules)


class _Line:
    """A typed line being read (:func:`parse_move`): its words, the covering word taken out
    (``covered``), the card or bare rank it names, and the legal moves it is read among."""

    def __init__(self, words: list[str], legal: Sequence[Action], legal_text: Sequence[str],
                 rules: Rules, why: Callable[[Action], str | None] | None) -> None:
        self.covered = any(w in COVER_WORDS for w in words)
        self.words = [w for w in words if w not in COVER_WORDS]
        self.said = " ".join(self.words)
        self.legal = legal
        self.legal_text = legal_text
        self.rules = rules
        self.why = why
        self.seat = legal[0].seat if legal else 0
        self.kinds = {a.kind for a in legal}
        self.blind = any("#" in t for t in legal_text)
        self.card = next((c for c in map(_card_token, self.words) if c is not None), None)
        self.rank = None if self.card is not None or self.blind else next(
            (r for r in map(_rank_token, self.words) if r is not None), None)

    def refused(self, action: Action, otherwise: str) -> str:
        """The engine's reason for refusing ``action`` where it gives one, else ``otherwise``."""
        said = self.why(action) if self.why is not None and self.legal else None
        return said if said else otherwise

    def first(self, kind: str, play_on: bool | None = None) -> Action | None:
        """The first legal move of ``kind`` (a decision: the one of ``play_on``), or ``None``."""
        return next((a for a in self.legal if a.kind == kind
                     and (play_on is None or a.play_on == play_on)), None)


def _by_position(line: _Line) -> Action | str | None:
    """In a blind hand (P6): a card by its place in the hand, ``#2``."""
    pos = next((w for w in line.words if w.startswith("#")), None) if line.blind else None
    if pos is None:
        return None
    for a, t in zip(line.legal, line.legal_text, strict=True):
        if a.kind == "play" and t.split()[2] == pos and a.covered == line.covered:
            return a
    return f"no card {pos} to play now" + (f" {COBERTA}" if line.covered else "")


def _by_song(line: _Line) -> Action | None:
    """G35-G39: a flor's song, choice or raise, by its name ("é boa": me achico)."""
    songs = [a for a in line.legal if a.kind == "flor"]
    if not songs:
        return None
    for a in songs:
        if a.call is not None and line.said == a.call.lower():
            return a
    if line.said in ("é boa", "e boa", "eboa"):
        chains = next(b for b in line.rules.side_bets if b.kind == "flor").flor_chains or {}
        achico = [a for a in songs if (a.call or "",) in chains
                  and chains[(a.call or "",)].at_once == "concede"]
        if achico:
            return achico[0]
    return None


def _by_raise(line: _Line) -> Action | str | None:
    """A raise by a raising word or the ladder's step (``vale quatro``), with the card it
    names where the variant asks for one (M4)."""
    rules, words, card, rank = line.rules, line.words, line.card, line.rank
    named = any(set(s.name.lower().split()) <= set(words) for s in rules.ladder)  # vale quatro
    if not named and not any(w in RAISE_WORDS for w in words):
        return None
    raises = [a for a in line.legal if a.kind == "raise"]
    if not raises:
        return "no raise is possible now"
    if card is not None:
        value = raises[0].value or 0
        raises = [a for a in raises if a.card == parse_card(card)]
        if not raises:
            return line.refused(Action.raise_to(line.seat, value, card),
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


def _by_call(line: _Line) -> Action | None:
    """A side bet's call or answer (G27), by name."""
    kinds, said = line.kinds, line.said
    if "envido" not in kinds and "quero" not in kinds:
        return None
    for a in line.legal:
        if a.kind == "envido" and a.call is not None and said == a.call.lower():
            return a
    if said in ("não quero", "nao quero", "naoquero") and "nao_quero" in kinds:
        return line.first("nao_quero")
    if said == "quero" and "quero" in kinds:
        return line.first("quero")
    return None


def _by_answer(line: _Line) -> Action | str | None:
    """An answer by its word: accept, fold (or fold a decision's hand), concede, play the
    decision's hand."""
    words, kinds = line.words, line.kinds
    refuse = any(w in FOLD_WORDS for w in words)  # "não quero" refuses
    if any(w in ACCEPT_WORDS for w in words) and not refuse:
        if "accept" in kinds:
            return line.first("accept")
        if line.card is None and line.rank is None:
            return line.refused(Action.accept(line.seat),
                                "nothing to accept now: " + hint(line.legal, line.rules))
    if refuse:
        if "fold" in kinds:
            return line.first("fold")
        if "decide" in kinds:
            return line.first("decide", False)
    if any(w in CONCEDE_WORDS for w in words) and "concede" in kinds:
        return line.first("concede")
    if any(w in PLAY_WORDS for w in words) and "decide" in kinds:
        return line.first("decide", True)
    return None


def _by_card(line: _Line) -> Action | str | None:
    """A card by its name (``4c``, ``4♣``), face up or covered."""
    card, covered, seat = line.card, line.covered, line.seat
    if card is None or line.blind:
        return None
    for a in line.legal:
        if a.kind == "play" and a.card == parse_card(card) and a.covered == covered:
            return a
    if any(a.kind == "play" and a.card == parse_card(card) for a in line.legal):
        return line.refused(Action.play(seat, card, covered),
                            f"{_pretty(card)} cannot be played {COBERTA} now")
    return line.refused(Action.play(seat, card, covered), f"you cannot play {_pretty(card)} now")


def _by_rank(line: _Line) -> Action | str | None:
    """A card by its bare rank (``3``), when exactly one card that may be played has it."""
    rank = line.rank
    if rank is None:
        return None
    plays = [a for a in line.legal if a.kind == "play" and card_rank(a.card) == rank]  # type: ignore[arg-type]
    fitting = [a for a in plays if a.covered == line.covered]
    if len(fitting) == 1:
        return fitting[0]
    if len(fitting) > 1:
        return (f"you hold {' and '.join(card_pretty(a.card) for a in fitting)}: "  # type: ignore[arg-type]
                f"type {' or '.join(_short(a) for a in fitting)}, or a letter")
    if plays:
        return f"no {_rank_text(rank)} can be played {COBERTA} now"
    if "play" not in line.kinds:
        return "no card can be played now: " + hint(line.legal, line.rules)
    return f"you have no {_rank_text(rank)} to play now"


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


def hint(legal: Sequence[Action], rules: Rules) -> str:
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

