"""How ``truco play`` reads a move typed by the person: a menu letter, a card (``4c``, ``4♣``,
``4c coberta``, a bare rank), or the move's words (``truco``, ``aceito``, ``corro``, the
variant's ``move_names``...); anything else gets a hint saying what to type."""


from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.actions import Action
from engine.cards import COBERTA, RANKS, CardError, card_name, card_pretty, card_rank, parse_card
from engine.i18n import _
from engine.moves import KINDS
from engine.moves.names import PLAY_KIND, RAISE_KIND
from engine.rules import Rules

#: The kind of a card typed alone (``4c``, ``4c coberta``, ``3``, ``#2``) and of a raise, read
#: with the card it names (M4); every other kind's words are its own (``MoveKind.typed``).
CARD_KIND = PLAY_KIND
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
    for reader in (_by_position, _by_phrase, _by_raise, _by_words, _by_card, _by_rank):
        got = reader(line)
        if got is not None:
            return got
    if len(words) == 1 and words[0].isdigit():
        return _("'{typed}' is no move: choose a letter from a to {last}").format(
            typed=words[0], last=letters[-1])
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

    @property
    def readings(self) -> list[tuple[int, tuple[str, ...], str, str]]:
        """Every kind's readings (``MoveKind.typed``) as (rank, phrases, kind, notation), by
        rank."""
        return _readings(self.rules)

    def find(self, kind: str, notation: str) -> Action | None:
        """The legal move written ``KIND SEAT NOTATION``, or ``None``."""
        return _find(self.legal, kind, self.seat, notation)


def _readings(rules: Rules) -> list[tuple[int, tuple[str, ...], str, str]]:
    readings = [(rank, phrases, kind.name, notation) for kind in KINDS.values()
                if kind.typed is not None for rank, phrases, notation in kind.typed(rules)]
    return sorted(readings, key=lambda r: r[0])


def _by_position(line: _Line) -> Action | str | None:
    """In a blind hand (P6): a card by its place in the hand, ``#2``."""
    pos = next((w for w in line.words if w.startswith("#")), None) if line.blind else None
    if pos is None:
        return None
    for a, t in zip(line.legal, line.legal_text, strict=True):
        if a.kind == CARD_KIND and t.split()[2] == pos and a.covered == line.covered:
            return a
    return _("no card {place} to play now").format(place=pos) + (
        f" {COBERTA}" if line.covered else "")


def _by_phrase(line: _Line) -> Action | str | None:
    """A line that is a move's phrase: a side bet's call (G27, G39: ``real envido``,
    ``contra-flor``), or a kind's phrase (``MoveKind.typed``, rank 0: ``quero``, ``não
    quero``, ``é boa``)."""
    for a in line.legal:
        if a.call is not None and line.said == a.call.lower():
            return a
    for bet in line.rules.side_bets:  # a side bet's call that is not a move now: the rule
        if line.said in (c.lower() for c in bet.calls) and bet.kind in KINDS:
            call = next(c for c in bet.calls if c.lower() == line.said)
            return line.refused(Action.parse(f"{bet.kind} {line.seat} {call}"),
                                hint(line.legal, line.rules))
    for rank, phrases, kind, notation in line.readings:
        if rank == 0 and line.said in phrases:
            move = line.find(kind, notation)
            if move is not None:
                return move
    return None


def _by_raise(line: _Line) -> Action | str | None:
    """A raise by a raising word or the ladder's step (``vale quatro``), with the card it
    names where the variant asks for one (M4)."""
    rules, words, card, rank = line.rules, line.words, line.card, line.rank
    named = any(set(s.name.lower().split()) <= set(words) for s in rules.ladder)  # vale quatro
    if not named and not any(w in RAISE_WORDS for w in words):
        return None
    raises = [a for a in line.legal if a.kind == RAISE_KIND]
    if not raises:
        first = rules.ladder[0].value if rules.ladder else 0
        return line.refused(Action.parse(f"{RAISE_KIND} {line.seat} {first}"),
                            _("no raise is possible now"))
    if card is not None:
        value = raises[0].value or 0
        raises = [a for a in raises if a.card == parse_card(card)]
        if not raises:
            return line.refused(Action.parse(f"{RAISE_KIND} {line.seat} {value} {card}"),
                                _("you cannot raise with {card} now").format(card=_pretty(card)))
    elif rank is not None and rules.name_card:
        raises = [a for a in raises if a.card is not None and card_rank(a.card) == rank]
        if not raises:
            return _("you cannot raise with a {rank} now").format(rank=_rank_text(rank))
    if len(raises) > 1:
        step = rules.step_name(raises[0].value or 0)
        return _("name the card you raise with, e.g. {examples}").format(
            examples=_(" or ").join(f"'{step} {_short(a)}'" for a in raises))
    return raises[0]


def _by_words(line: _Line) -> Action | str | None:
    """A move by a word of its kind (``MoveKind.typed``: ``aceito``, ``corro``, ``jogo``),
    the readings by rank: a kind's words with no legal move say so where the kind asks
    (``MoveKind.untyped``), alone in the line and with no card."""
    words = set(line.words)
    read = False  # a reading before matched the line (a refusal: "não aceito")
    for rank, phrases, kind, notation in line.readings:
        if rank == 0 or not any(set(p.split()) <= words for p in phrases):
            continue
        move = line.find(kind, notation)
        if move is not None:
            return move
        missing = KINDS[kind].untyped
        if missing is not None and not read and line.card is None and line.rank is None:
            return line.refused(Action.parse(f"{kind} {line.seat} {notation}"),
                                f"{_(missing)}: " + hint(line.legal, line.rules))
        read = True
    return None


def _by_card(line: _Line) -> Action | str | None:
    """A card by its name (``4c``, ``4♣``), face up or covered."""
    card, covered, seat = line.card, line.covered, line.seat
    if card is None or line.blind:
        return None
    move = Action.parse(f"{CARD_KIND} {seat} {card}" + (" covered" if covered else ""))
    if move in line.legal:
        return move
    if any(a.kind == CARD_KIND and a.card == move.card for a in line.legal):
        return line.refused(move, _("{card} cannot be played {coberta} now").format(
            card=_pretty(card), coberta=COBERTA))
    return line.refused(move, _("you cannot play {card} now").format(card=_pretty(card)))


def _by_rank(line: _Line) -> Action | str | None:
    """A card by its bare rank (``3``), when exactly one card that may be played has it."""
    rank = line.rank
    if rank is None:
        return None
    plays = [a for a in line.legal if a.kind == CARD_KIND and card_rank(a.card) == rank]  # type: ignore[arg-type]
    fitting = [a for a in plays if a.covered == line.covered]
    if len(fitting) == 1:
        return fitting[0]
    if len(fitting) > 1:
        return _("you hold {cards}: type {names}, or a letter").format(
            cards=_(" and ").join(card_pretty(a.card) for a in fitting),  # type: ignore[arg-type]
            names=_(" or ").join(_short(a) for a in fitting))
    if plays:
        return _("no {rank} can be played {coberta} now").format(rank=_rank_text(rank),
                                                                 coberta=COBERTA)
    if CARD_KIND not in line.kinds:
        return _("no card can be played now: {hint}").format(hint=hint(line.legal, line.rules))
    return _("you have no {rank} to play now").format(rank=_rank_text(rank))


def _by_move_name(typed: str, legal: Sequence[Action], rules: Rules) -> Action | None:
    """The legal move whose name (the variant's ``move_names``: "vou ao baralho",
    ``MoveKind.named``) is what was typed, or ``None``."""
    for kind in KINDS.values():
        for key, notation in kind.named:
            name = rules.move_name(key, "")
            if name and typed == name.lower():
                move = _find(legal, kind.name, legal[0].seat if legal else 0, notation)
                if move is not None:
                    return move
    return None


def _find(legal: Sequence[Action], kind: str, seat: int, notation: str) -> Action | None:
    """The legal move written ``KIND SEAT NOTATION`` (:meth:`Action.parse`), or ``None``."""
    move = Action.parse(f"{kind} {seat} {notation}")
    return move if move in legal else None


def _pretty(name: str) -> str:
    return card_pretty(parse_card(name))


def _short(action: Action) -> str:
    return card_name(action.card) if action.card is not None else ""


def hint(legal: Sequence[Action], rules: Rules) -> str:
    """What to type: a menu letter, then what each kind with a legal move asks for
    (``MoveKind.hint``)."""
    kinds = {a.kind for a in legal}
    said: dict[int, list[str]] = {}
    for kind in KINDS.values():
        if kind.hint is not None and kind.name in kinds:
            rank, text = kind.hint
            said.setdefault(rank, []).append(text(list(legal), rules))
    say = [_("a letter from a to {last}").format(last=MENU_LETTERS[len(legal) - 1]),
           *("/".join(said[rank]) for rank in sorted(said))]
    return _("type {what} (or 'quit')").format(what=", ".join(say))
