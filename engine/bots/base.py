"""The bot protocol, the registry of bots by name, and who is asked to move.

A bot sees only what its seat may know: :func:`seat_view` gives it ``match.observation(seat)``
(plain data, never another seat's hidden cards) and the seat's legal moves as the seat may see
them (in a blind hand, P6, a play names a hand position, not a card). It returns one of those
moves; :func:`choose_for` asks it and turns its choice back into the real move. Bots are seeded
and deterministic: the same seed, observations and legal moves give the same choices.

>>> from engine import Match
>>> m = Match.new("paulista", seed=7)
>>> bot = make_bot("random", m.rules, seed=1)
>>> seat = next_actor(m)
>>> choose_for(bot, m, seat) in m.legal_actions(seat)
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from engine.actions import Action
from engine.game import Match
from engine.i18n import _
from engine.moves import PHASES, Waiting
from engine.moves.names import PLAY_KIND, RAISE_KIND
from engine.moves.raising import pass_ as no_raise
from engine.moves.raising import raises_any_time
from engine.observation import Observation, blind_places
from engine.rules import Rules
from engine.shuffle import MASK64, SplitMix64
from engine.state import PLAY

__all__ = ["Bot", "Judge", "MatchShim", "Observation", "choose_for", "derive_seed", "make_bot",
           "mover_moves", "movers", "next_actor", "register", "seat_view", "stronger_seat",
           "viewed_moves"]


class Bot(Protocol):
    """Anything that picks a move from a seat's observation and legal moves.

    ``legal_actions`` is what :func:`seat_view` gives: in a blind hand the plays are
    :meth:`Action.play_at` (by position), and an offer to raise out of turn (M3) is the
    seat's raises and :meth:`Action.pass_`."""

    name: str

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """One member of ``legal_actions`` (never empty)."""
        ...


class MatchShim:
    """What the engine's pure rulings read of a match, for a bot that has only the rules and
    its observation: ``rules``, the mão and the cards' strengths (``hand.strength``). Enough
    for :func:`engine.moves.play.round_outcome` and, for results with a round won, for
    :func:`engine.moves.outcome.hand_result` (its all-tied rule reads the real hand)."""

    __slots__ = ("hand", "rules", "mao", "strength")

    def __init__(self, rules: Rules, mao: int, strength: tuple[int, ...] = ()) -> None:
        self.rules = rules
        self.mao = mao
        self.hand = self
        self.strength = strength


class Judge(Protocol):
    """A bot that can say how strong its seat's hand is for answering a raise or a side
    bet's call, or deciding a special hand, for its team (:func:`stronger_seat`)."""

    def judge(self, observation: Observation) -> float:
        """The seat's strength for the move ``observation["phase"]`` waits for, from that
        observation only (higher: stronger; only compared with a partner's in the same
        phase). Pure: no random draw, so asking it changes none of the bot's later moves."""
        ...


BotFactory = Callable[[Rules, int], Bot]
#: A bot with a budget (``search:400``): rules, seed, budget.
BudgetFactory = Callable[[Rules, int, int], Bot]
#: A bot from the text after ``PREFIX:`` (``cmd:./mybot --level 3``): rules, seed, text.
SpecFactory = Callable[[Rules, int, str], Bot]
#: A bot with a budget and an option (``search:96:heuristic``): rules, seed, budget, option.
OptionFactory = Callable[[Rules, int, int, str], Bot]
_REGISTRY: dict[str, BotFactory] = {}
_BUDGETED: dict[str, BudgetFactory] = {}
#: The options ``NAME:N:OPTION`` a bot with a budget takes, and how it is built with one.
_OPTIONS: dict[str, tuple[tuple[str, ...], OptionFactory]] = {}
_SPECS: dict[str, SpecFactory] = {}
#: Why the text after ``PREFIX:`` is not a bot (``None``: it is one), by prefix.
_SPEC_PROBLEMS: dict[str, Callable[[str], str | None]] = {}


def register_spec(prefix: str, factory: SpecFactory, *,
                  problem: Callable[[str], str | None] | None = None) -> None:
    """Make ``PREFIX:TEXT`` a bot, built from ``TEXT`` (``cmd:COMMAND``, a bot program over
    the protocol, :mod:`engine.protocol.external`); ``problem`` says why a ``TEXT`` is not
    one (:func:`bot_problem`), so that a command line refuses it before anything runs."""
    _SPECS[prefix] = factory
    if problem is not None:
        _SPEC_PROBLEMS[prefix] = problem


def register(name: str, factory: BotFactory, *, budgeted: BudgetFactory | None = None,
             options: tuple[Sequence[str], OptionFactory] | None = None) -> None:
    """Make a bot available by name to :func:`make_bot` (and so to the command line);
    ``budgeted`` also makes ``NAME:N`` a bot, built with the budget ``N`` (a positive int),
    and ``options`` (the words, and a factory) ``NAME:N:OPTION`` for each word."""
    _REGISTRY[name] = factory
    if budgeted is not None:
        _BUDGETED[name] = budgeted
    if options is not None:
        _OPTIONS[name] = (tuple(options[0]), options[1])


def bot_names() -> list[str]:
    """The registered bot names, sorted."""
    return sorted(_REGISTRY)


def bot_problem(name: str) -> str | None:
    """Why ``name`` is not a bot (``None``: it is one): a registered name, or ``NAME:N`` for a
    bot with a budget.

    >>> bot_problem("heuristic") is None, bot_problem("search:400") is None
    (True, True)
    >>> bot_problem("search:0")
    "bad budget in 'search:0': a positive whole number of iterations"
    """
    base, colon, arg = name.partition(":")
    if colon and base in _SPECS:
        if not arg.strip():
            return _("{prefix}: needs a command, e.g. {prefix}:./mybot").format(prefix=base)
        check = _SPEC_PROBLEMS.get(base)
        problem = check(arg) if check is not None else None
        return None if problem is None else f"{base}: {problem}"
    if base not in _REGISTRY:
        return _("unknown bot {name}; known bots: {known}").format(
            name=repr(base), known=", ".join(_known()))
    if not colon:
        return None
    if base not in _BUDGETED:
        return _("bot {name} takes no budget ({spec})").format(name=repr(base), spec=repr(name))
    budget, colon, option = arg.partition(":")
    if not budget.isdigit() or int(budget) < 1:
        return _("bad budget in {spec}: a positive whole number of iterations").format(
            spec=repr(name))
    words = _OPTIONS[base][0] if base in _OPTIONS else ()
    if colon and option not in words:
        return (_("bad option in {spec}: one of {words}").format(
                    spec=repr(name), words=", ".join(words)) if words
                else _("bot {name} takes no option after its budget ({spec})").format(
                    name=repr(base), spec=repr(name)))
    return None


def is_unknown(name: str) -> bool:
    """Whether ``name`` names no bot at all (not a registered name, nor ``PREFIX:TEXT`` of a
    registered prefix), as opposed to a known bot given a wrong budget or option.

    >>> is_unknown("genius"), is_unknown("search:0"), is_unknown("cmd:./mybot")
    (True, False, False)
    """
    base, colon, _arg = name.partition(":")
    return not (colon and base in _SPECS) and base not in _REGISTRY


def _known() -> list[str]:
    return [*(f"{n}[:N[:{'|'.join(_OPTIONS[n][0])}]]" if n in _OPTIONS
              else f"{n}[:N]" if n in _BUDGETED else n for n in bot_names()),
            *(f"{p}:COMMAND" for p in sorted(_SPECS))]


def make_bot(name: str, rules: Rules, seed: int = 0) -> Bot:
    """A new bot of the named kind for this variant's rules, seeded; ``NAME:N`` gives a bot
    with a budget its budget (``search:400``), ``NAME:N:OPTION`` an option too
    (``search:96:heuristic``).

    Raises ``KeyError`` with the known names for an unknown one."""
    problem = bot_problem(name)
    if problem is not None:
        raise KeyError(problem)
    base, colon, arg = name.partition(":")
    if colon and base in _SPECS:
        return _SPECS[base](rules, seed & MASK64, arg)
    if colon:
        budget, colon, option = arg.partition(":")
        if colon:
            return _OPTIONS[base][1](rules, seed & MASK64, int(budget), option)
        return _BUDGETED[base](rules, seed & MASK64, int(budget))
    return _REGISTRY[base](rules, seed & MASK64)


def derive_seed(seed: int, index: int) -> int:
    """The ``index``-th draw (0-based) of the SplitMix64 stream seeded with ``seed``, computed
    directly: how a run seed gives each match, and a match each bot, its own seed.

    >>> rng = SplitMix64(5); _ = rng.next()
    >>> derive_seed(5, 1) == rng.next()
    True
    """
    rng = SplitMix64((seed + index * 0x9E3779B97F4A7C15) & MASK64)
    return rng.next()


def next_actor(match: Match, prefer: int | None = None,
               bots: Mapping[int, Bot] | Sequence[Bot] | None = None) -> int:
    """The seat a driver asks to move now.

    A card is awaited: the seat whose turn it is (the others may raise out of turn, M3:
    :func:`out_of_turn_raise` offers it to them before each card). A raise waits for its
    answer: the challenged seats that may answer (the variant may name one seat,
    ``betting.answered_by``, and a seat that has folded answers no more,
    ``betting.refusal``). A side bet's call waits for its answer (G27): the other team's
    seats. A special hand's decision (M5): the one seat that decides where only one does,
    else the deciding team's seats. Of those: ``prefer`` if it is one of them (a person
    at the table); else, given the drivers' ``bots``, the one of the team's seats that
    judges its own hand strongest (:func:`stronger_seat`); else the first: for an answer the
    first after the raiser (or caller) in playing order (C9: the first answer counts), for a
    decision the team's first seat from the mão."""
    seats = movers(match)
    if prefer in seats:
        return prefer
    if bots is not None and len(seats) > 1:
        return stronger_seat(match, seats, bots)
    return seats[0]


def movers(match: Match) -> list[int]:
    """The seats that may make the move the match waits for, the default first (see
    :func:`next_actor`): one seat for a card, a flor's song or a single decider; else the
    seats that may answer or decide, in playing order from the raiser's (or caller's) next
    seat, or from the mão for a decision. Who may move in each phase is its kind's
    (:class:`engine.moves.Waiting`); of several, only the seats with a legal move are kept
    (a rule may let only some of them answer: G39's contra-flor, by the team it names)."""
    seats = _waiting(match).movers(match)
    if len(seats) > 1:
        seats = [s for s in seats if match.legal_actions(s)] or seats
    return seats


def mover_moves(match: Match) -> tuple[int, list[Action]]:
    """What :func:`next_actor` gives without ``prefer`` or ``bots`` (the first of
    :func:`movers`), with that seat's legal moves: each seat's listed once, the first seat
    that has some taken (the environment's step)."""
    seats = _waiting(match).movers(match)
    if len(seats) > 1:
        for s in seats:
            legal = match.legal_actions(s)
            if legal:
                return s, legal
    return seats[0], match.legal_actions(seats[0])


def _waiting(match: Match) -> Waiting:
    phase = PHASES.get(match.state)
    if phase is None:
        raise ValueError(f"nobody moves while the match is in {match.state!r}")
    return phase


def stronger_seat(match: Match, seats: Sequence[int],
                  bots: Mapping[int, Bot] | Sequence[Bot]) -> int:
    """Of ``seats`` (the default first), the seat of the first one's team whose bot judges its
    own hand strongest: each bot with a ``judge`` method (see :class:`Judge`) is given its
    own seat's observation only, and the highest value wins; a tie, a seat without a bot or
    without a judge (``random``), or a seat with no legal move leaves the first. So partners
    answer a raise, a side bet's call or decide a special hand as a table does: the one with
    the better hand speaks; and nothing the rule reads depends on cards a seat cannot see.

    >>> from engine import Match
    >>> from engine.bots import make_bot
    >>> m = Match.new("paulista", seed=7)
    >>> m.apply(Action.raise_to(m.turn, 3))
    []
    >>> bots = [make_bot("heuristic", m.rules, s) for s in range(4)]
    >>> stronger_seat(m, movers(m), bots) in movers(m)
    True
    """
    team_of = match.rules.team_of
    best, top = seats[0], None
    for s in seats:
        if team_of[s] != team_of[seats[0]]:
            continue  # another team's seat (three teams): not a partner
        bot = bots.get(s) if isinstance(bots, Mapping) else bots[s]
        judge = getattr(bot, "judge", None)
        if judge is None or not match.legal_actions(s):
            continue
        value = float(judge(match.observation(s)))
        if top is None or value > top:
            best, top = s, value
    return best


def seat_view(match: Match, seat: int, *,
              legal: Sequence[Action] | None = None) -> tuple[Observation, list[Action]]:
    """What a bot at ``seat`` is given: its observation and its legal moves (``legal``, or
    ``match.legal_actions(seat)``) as the seat may see them. In a blind hand (P6) a move that
    names one of the seat's own cards names its position in the hand instead
    (:meth:`Action.play_at`), in the order of ``legal``, so nothing of the view depends on
    cards the seat cannot see.

    >>> from engine import Match
    >>> m = Match.new("paulista", seed=7)
    >>> seat_view(m, m.turn)[1][:1]
    [Action.play(1, '2h')]
    """
    obs = match.observation(seat)
    return obs, viewed_moves(match, seat,
                             match.legal_actions(seat) if legal is None else legal)


def viewed_moves(match: Match, seat: int, legal: Sequence[Action]) -> list[Action]:
    """The moves of :func:`seat_view`, without the observation: ``legal`` as ``seat`` may see
    them (a blind hand's plays and raises by position, P6), in their order.

    >>> from engine import Match
    >>> m = Match.new("paulista", seed=7)
    >>> viewed_moves(m, m.turn, m.legal_actions(m.turn)) == seat_view(m, m.turn)[1]
    True
    """
    moves = list(legal)
    if not match.hand.blind:
        return moves
    hand = match.hand.hands[seat]
    places = blind_places(match, seat)  # held, or as dealt (play.blind_places, house)
    view = []
    for a in moves:
        if a.card is not None and a.card in hand and a.kind in (PLAY_KIND, RAISE_KIND):
            a = Action(a.kind, a.seat, None, a.covered, a.value, position=places.index(a.card))
        view.append(a)
    return view


def choose_for(bot: Bot, match: Match, seat: int) -> Action:
    """Ask ``bot`` for the move of ``seat`` from :func:`seat_view` only, and return the real
    move it stands for (one of ``match.legal_actions(seat)``).

    Raises ``ValueError`` if the bot returns something it was not offered."""
    legal = match.legal_actions(seat)
    return _real_choice(bot, match, seat, legal)


def _real_choice(bot: Bot, match: Match, seat: int, legal: list[Action]) -> Action:
    obs, view = seat_view(match, seat, legal=legal)
    choice = bot.choose(obs, view)
    for shown, real in zip(view, legal, strict=True):
        if shown == choice:
            return real
    raise ValueError(f"bot {bot.name!r} at seat {seat} chose {choice!r}, which it was not "
                     f"offered: {', '.join(map(str, view))}")


def out_of_turn_raise(match: Match, bots: Mapping[int, Bot] | Sequence[Bot],
                      skip: int | None = None, *,
                      ask: Callable[[int], Action | None] | None = None,
                      until: int | None = None) -> Action | None:
    """M3: before a card, offer each seat that may raise out of turn its raises and a pass.

    Only where the variant lets any player raise while a card is awaited (``raise_timing:
    any_time``); the seats are asked in playing order from the one after the seat to play
    (``skip`` is not asked). A seat without a bot is asked through ``ask(seat)`` if given (a
    person: its raise, or ``None`` to pass), else not at all. ``until`` is the last seat asked
    (a replay stops at the seat whose raise it reads). The first raise chosen is returned (the
    caller applies it), or ``None`` when every seat passed. Deterministic: the same match and
    bots give the same answer."""
    if match.state != PLAY or not raises_any_time(match) or match.special:
        return None
    n = match.players
    turn = match.turn
    for k in range(1, n):
        seat = (turn + k) % n
        if seat == skip or match.rules.team_of[seat] == match.last_raise_team:
            pass
        elif (bot := bots.get(seat) if isinstance(bots, Mapping) else bots[seat]) is not None:
            raises = match.legal_actions(seat)  # not its turn: its raises only
            if raises:
                pass_ = no_raise(seat)
                choice = _real_choice(bot, match, seat, [*raises, pass_])
                if choice is not pass_:
                    return choice
        elif ask is not None and match.legal_actions(seat):
            person = ask(seat)
            if person is not None:
                return person
        if seat == until:
            break
    return None
