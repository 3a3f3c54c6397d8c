"""Move kinds: one module each, registered here.

A move kind is everything the engine knows about one kind of move, in one module:

- its **trigger** of the variant's machine and its **log event** (the same name);
- ``payload``: what a move of the kind carries besides its seat (:class:`engine.payload.Payload`:
  its fields and their types), from which :class:`~engine.actions.Action` derives its checks,
  log event, notation (``str``, ``Action.parse``) and ``repr``; ``None`` for the chance step
  (a deal is no Action);
- ``enabled(rules)``: whether the variant has it at all (a kind a variant turns off has no
  transition in its machine, so the machine refuses it);
- ``transitions(rules)``: the machine's transitions it adds (from which states, to which);
- ``judge(match, move, ruling)``: its legality, by the variant's data, and what a legal move
  does, written on the :class:`~engine.ruling.Ruling` before anything changes (the machine's
  ``legal_<kind>`` condition);
- ``effect``: the transition's ``before`` callback that applies the ruling;
- ``lister(match, seat, out)``: the moves of the kind that are legal now, exactly those its
  judge accepts (tested), in a fixed order; while a raise waits for its answer, moves are
  listed seat by seat and a lister is called only for the seats that may answer now
  (:func:`engine.moves.answers.answering_seats`); or ``listing``, over its ``table``
  (``quick`` and ``quick_listing``: its commonest move and listing written out whole,
  :mod:`engine.moves.quick`);
- ``not_now``: why it is not a move in a state that has no trigger for it;
- ``phases``: the states in which the match waits for a move of the kind (:class:`Waiting`:
  the :class:`~engine.state.Phase`, who may move there, the code of a move refused while it
  waits, whether its moves are listed seat by seat): ``play`` for a card, ``answer`` for an
  accept (or a fold) of a raise, ...;
- ``adjust`` (rarely): a rewrite of the other kinds' transitions, for a kind that changes
  where their moves lead (flor, G35: a move after which a flor is due goes to ``sing``);
- ``hand_end`` (rarely): what the end of every hand owes to the kind's moves
  (:class:`engine.moves.scoring.HandEnd`: the side bets credited then, GH6, and their cards
  shown, G32), ruled by :func:`engine.moves.outcome.conclude` and applied by
  :func:`engine.moves.scoring.end_hand`, which call the hooks of the variant's kinds in a fixed
  order (:func:`engine.moves.scoring.hooks_in_order`) and never name the kind;
- ``log``: how its moves stand in a log (:class:`engine.payload.LogEvent`: the event's place
  among the format's moves, its schema's description, the format version that has it), from
  which :mod:`engine.logschema` builds ``schemas/log.schema.json`` and the version checks;
- ``keys``: the variant keys (schema paths) that parameterise it, checked against
  ``schemas/variant.schema.json`` by the tests;
- ``tell`` and ``menu``: how ``truco play`` tells a move of the kind and offers it in its menu,
  in words (:class:`Words`); ``told``: how the transcript of a log (``truco replay``) tells it;
  ``named`` and ``typed``: the table's names for its moves (``move_names``) and the words a
  person types for them;
- ``space``: its moves in the fixed action space of the PettingZoo environment (:mod:`engine.env`),
  which lists every kind's by place. Bots choose among the moves listed (``engine.bots``).
- ``bet_*`` (a kind whose name is a side bet's ``kind``: envido, flor): how a bet of the kind
  stands in a position (:mod:`engine.matchpos`): its own fields and their checks, the rules
  its results follow, the engine's settlement they are compared with.

Adding a kind is one module of this package that builds a :class:`MoveKind` and calls
:func:`register` (:func:`load_kinds` imports every module of the package: no list to extend),
reading its variant keys with :meth:`Rules.block <engine.rules.Rules.block>` (no rules block beside
it); :mod:`engine.machine` builds each variant's machine from the registered kinds, and
:meth:`engine.game.Match.legal_actions` lists their moves in ``order``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import import_module
from pkgutil import iter_modules
from typing import TYPE_CHECKING, Any

from engine.actions import Action as _Action
from engine.actions import declare
from engine.errors import Why
from engine.i18n import _, person
from engine.moves.scoring import HandEnd, hooks_in_order
from engine.payload import DERIVED, LogEvent, Payload
from engine.ruling import Ruling, condition, effect
from engine.schemas import KIND_BLOCKS
from engine.state import Phase
from engine.variant.checks import KIND_CHECKS
from engine.view import Lister as ViewLister

if TYPE_CHECKING:
    from engine.actions import Action
    from engine.cards import Card
    from engine.errors import VariantError, Why
    from engine.rules import Rules
    from engine.variant.messages import Err
    from engine.view import Listing, MatchView, Quick

#: ``judge(match, move, ruling)``: why the move is illegal, or ``None`` (legal, ruled).
Judge = Callable[["MatchView", Any, Ruling], "str | None"]
Lister = ViewLister  #: append the legal moves of the kind (:data:`engine.view.Lister`)
#: A machine callback: called with the move and its :class:`~engine.ruling.Ruling`.
Callback = Callable[[Any, Ruling], Any]
#: One move of the environment's action space: its place (the space lists every kind's moves
#: by place, a kind's own in the order it gives them; ``()``: after every place given, in
#: the kinds' order, :data:`DERIVED`), its fields by Action slot (``card``, ``covered``,
#: ``play_on``, ``call``, ``position``: what tells the moves apart; a raise's ``value`` never,
#: it follows from the hand) and its name (``play 4c``, ``raise``).
SpaceMove = tuple[tuple[int, ...], dict[str, Any], str]
#: A way to type a kind's move in truco play (``MoveKind.typed``): rank, phrases, notation.
Reading = tuple[int, tuple[str, ...], str]
#: ``checks(d, err)``: a kind's cross-key checks of a resolved variant (:class:`VariantBlock`).
Check = Callable[[dict[str, Any], "Err"], Iterator["VariantError"]]
#: What is wrong with a side bet's record in a position: the refusal, and the field of the
#: bet's entry it names (``sung``, ``winner``).
BetProblem = tuple["Why", str]
#: ``sees(match, seat)``, ``held(match, seat)``: what a kind shows a seat (:class:`MoveKind`).
Sees = Callable[["MatchView", int], Sequence[int]]
Held = Callable[["MatchView", int], Sequence["Card"]]
#: What a person types to give up a hand (a fold of a raise, or a special hand's fold: G20, M5,
#: "eu corro"), read by the fold and decide kinds' ``typed``.
FOLD_WORDS = ("corro", "fold", "correr", "corre", "nao", "não", "no", "baralho")

@dataclass(frozen=True)
class Words:
    """What a kind needs to put one of its moves into words for ``truco play``: who moves as
    the seat ``me`` calls him (``who``: ``you``, ``Bot 2 (random)``, ``partner (seat 2)``), the
    verb's ending (``s``: ``""`` for ``you``), the rules, the card's place in the hand
    (``position``) where the cards are hidden (P6), and how to show a card (``card``, for
    people; ``label``, in the menu, marked as a manilha and named where the variant names
    it)."""

    who: str
    s: str
    me: int
    rules: Rules
    #: The card's 1-based place in the hand, for a play of a blind hand (P6); else ``None``.
    position: int | None
    card: Callable[[int], str]
    label: Callable[[int], str]
    #: The table's own word for the move, where the variant names it (``move_names``:
    #: Gaudério's ``quero``, ``não quero``, ``vou ao baralho``), else ``None``.
    said: str | None = None
    #: For the transcript of a log (``told``): the hand's value after the move, and whether
    #: checkpoints followed the move (it settled a round, a bet or the hand).
    value: int = 0
    settles: bool = False
    #: For truco play's menu: the hand's value and the pending raise's, if any (a raise, an
    #: accept and a fold then say what they play for, C8, C9); ``None``: not said.
    worth: tuple[int, int | None] | None = None
    #: For truco play's menu: the side bet whose call waits for an answer (G28), as its name,
    #: what its acceptance plays for and what its refusal gives, in words; ``None``: none.
    bet: tuple[str, str, str] | None = None


@dataclass(frozen=True)
class Waiting:
    """A state in which the match rests, waiting for a move of the kind that declares it."""

    #: The state's name: the kind's own string (the machine, positions and observations name
    #: it as given; a :class:`~engine.state.Phase` member only where other code names it).
    phase: str
    #: ``movers(match)``: the seats that may make the awaited move, the default first (a
    #: driver asks it: :func:`engine.bots.base.next_actor`).
    movers: Callable[[MatchView], list[int]]
    #: The code of a move refused because the match waits here (a kind with no transition
    #: from the state, :meth:`engine.game.Match.apply`): ``None``, the plain ``not_now``.
    pending: str | None = None
    #: Whether the moves are listed seat by seat, for those who may answer (answering_seats).
    by_seat: bool = False
    #: Whether a hand begins here, before its deal (a cut): the machine starts in this state
    #: (the kind's ``adjust`` sends the hand's end here instead of to ``deal``).
    opens: bool = False
    #: What the match waits for here, as positions describe it (``a raise waits for ...``).
    about: str = ""
    #: The effects (by name) run on entering the state, and where the match starts in it
    #: (a cut not offered in a special hand deals at once, without waiting here).
    enter: tuple[str, ...] = ()


@dataclass(frozen=True)
class VariantBlock:
    """A kind's own top-level block of variant keys (``cut``: ``cut.allowed``,
    ``cut.choices``): its part of the variant schema, each key's schema with its ``default``
    (what :meth:`Rules.block <engine.rules.Rules.block>` fills in), and the cross-key checks the
    schema cannot say. :func:`register` adds the block to the variant schema
    (:data:`engine.schemas.KIND_BLOCKS`) and its checks to the loader's
    (:data:`engine.variant.checks.KIND_CHECKS`); ``python -m engine.generate`` writes the
    shipped ``schemas/variant.schema.json``."""

    #: The block's top-level key, the kind's name as a rule.
    name: str
    #: The block's description in the schema (what it is, and what its absence means).
    about: str
    #: Each key's JSON Schema, in the order the schema lists them, with its ``default``.
    keys: dict[str, dict[str, Any]]
    #: ``checks(d, err)``: the problems of the resolved variant ``d`` (defaults filled in)
    #: the schema cannot say, each ``err(path, mark(template), also, **fields)``
    #: (:func:`engine.variant.checks.semantic_errors`); ``None``: none.
    checks: Check | None = None

    def schema(self) -> dict[str, Any]:
        """The block's JSON Schema: a mapping of its keys, none required, ``{}`` by default
        (each key's ``description`` and ``default`` written last, as the base blocks do)."""
        last = ("description", "default")
        keys = {name: {**{k: v for k, v in key.items() if k not in last},
                       **{k: key[k] for k in last if k in key}}
                for name, key in self.keys.items()}
        return {"type": "object", "description": self.about, "additionalProperties": False,
                "properties": keys, "default": {}}


@dataclass(frozen=True)
class KindState:
    """A kind's own per-hand state, in its own entry of the hand's
    :attr:`~engine.state.HandState.own` (by ``key``), which general code carries for it:
    copying a hand (the value is immutable: a change replaces it,
    :func:`~engine.state.set_own`), a position's export, reading and checks
    (:mod:`engine.matchpos`) and its schema, and what each seat sees of it
    (:func:`engine.observation.observe`). Only in a variant that ``has`` it."""

    #: Its key in the hand's ``own``, in a position and in an observation (``must_kill``).
    key: str
    #: ``has(rules)``: whether the variant has the state.
    has: Callable[[Rules], bool]
    #: Its value at the start of every hand (immutable: shared by every hand).
    fresh: Any
    #: Its JSON Schema in a position, with its ``description``.
    schema: dict[str, Any]
    #: ``check(match, given)``: refuse (:class:`~engine.errors.PositionError`) the position's
    #: value ``given`` (``None`` where the position has none), on the match built from it
    #: before anything else is checked.
    check: Callable[[MatchView, Any], None]
    #: ``export(value)``: its JSON in a position; ``read(given)``: back from it.
    export: Callable[[Any], Any] = list
    read: Callable[[Any], Any] = tuple
    #: ``view(match, seat, value)``: what ``seat`` sees of it (its observation's entry); None: all.
    view: Callable[[MatchView, int, Any], Any] | None = None
    #: The JSON Schema of its observation entry (what ``view`` gives), with its
    #: ``description``: the bot protocol's (:func:`engine.observation.observation_schema`);
    #: ``None``: :attr:`schema`, the seat seeing the value as a position holds it.
    view_schema: dict[str, Any] | None = None
    #: ``table(entry, card)``: the lines truco play's table (:func:`engine.tui.render_table`)
    #: shows of the seat's observation entry (``card(code)`` names a card); ``None``: none.
    table: Callable[[Any, Callable[[str], str]], list[str]] | None = None
    #: Whether it is left out of positions and observations while it has its fresh value
    #: (a position that leaves it out reads it fresh): a variant's positions are then its
    #: parent's until the rule acts, so a focus snapshot shows the hands where it does.
    optional: bool = False

    def shown(self, value: Any) -> bool:
        """Whether ``value`` is written in a position and an observation (:attr:`optional`)."""
        return not self.optional or value != self.fresh


def list_choice(kind: str, mover: int, seat: int | None, out: list[Action]) -> None:
    """A lister's moves for a kind of two choices (``play_on``: yes, then no) that ``mover``
    alone makes: both, where the seats asked (``seat``, ``None``: all) include him."""
    if seat is None or seat == mover:
        out.append(_Action(kind, mover, play_on=True))
        out.append(_Action(kind, mover, play_on=False))


def said_told(a: Action, w: Words) -> str:
    """A move the variant names (``w.said``: ``quero``, ``vou ao baralho``) told in a log's
    transcript: ``'Ana says: quero'``, ``'you say: quero'``."""
    return person(a.seat == w.me, _("you say: {said}"), _("{who} says: {said}"), who=w.who,
                  said=w.said)


def flag(about: str) -> dict[str, Any]:
    """A :class:`VariantBlock` key that switches a rule on, off by default."""
    return {"type": "boolean", "description": about, "default": False}


def choice(values: Sequence[str], about: str) -> dict[str, Any]:
    """A :class:`VariantBlock` key that says one of ``values``, the first by default."""
    return {"type": "string", "enum": list(values), "default": values[0], "description": about}


def words(allowed: Sequence[str], default: Sequence[str], about: str) -> dict[str, Any]:
    """A :class:`VariantBlock` key that lists some of the ``allowed`` words, each once, at
    least one (``default`` when left out)."""
    return {"type": "array", "minItems": 1, "uniqueItems": True,
            "items": {"type": "string", "enum": list(allowed)}, "description": about,
            "default": list(default)}


@dataclass(frozen=True)
class MoveKind:
    """One kind of move (see the module docstring)."""

    name: str
    judge: Judge
    effect: Callback
    transitions: Callable[[Rules], list[dict[str, Any]]]
    #: Where its moves are listed among the kinds' (``legal_actions``), and its end-of-hand
    #: hook run; left out (:data:`DERIVED`): after every kind that gives one, in the kinds'
    #: order (:func:`register` derives it).
    order: int = DERIVED
    lister: Lister | None = None  # None, and no listing: the chance step (deal), not listed
    #: ``table(rules)``: the kind's own table of a variant (its moves made once, what it
    #: reads of the rules precomputed), made with the variant's move table and kept in its
    #: ``tables`` by the kind's name; ``listing(rules, table)``: the kind's lister in the
    #: variant, made then too (a closure over its table), in place of ``lister``.
    table: Callable[[Rules], Any] | None = None
    listing: Callable[[Rules, Any], Lister] | None = None
    #: ``judging(rules, table)``: its judge made with its table, for the compiled machine
    judging: Callable[[Rules, Any], Judge] | None = None
    #: ``quick(rules, table, enters)``: its commonest move whole, or None (engine.moves.quick)
    quick: Callable[[Rules, Any, dict[str, Any]], Quick | None] | None = None
    #: ``quick_listing(rules, table, state)``: its lister's source there, or None (moves/quick)
    quick_listing: Callable[[Rules, Any, str], Listing | None] | None = None
    enabled: Callable[[Rules], bool] = lambda rules: True
    #: Why a move of the kind is refused in a state with no trigger for it, by
    #: :class:`~engine.state.Phase` (``None``: any other).
    not_now: dict[str | None, str] = field(default_factory=dict)
    keys: tuple[str, ...] = ()
    #: ``tell(action, words)``: the move told, as seen from seat ``words.me``.
    tell: Callable[[Action, Words], str] | None = None
    #: ``menu(action, words)``: the move's entry in truco play's menu.
    menu: Callable[[Action, Words], str] | None = None
    #: ``told(action, words)``: the move in the transcript of a log (``truco replay``), where
    #: every card is seen.
    told: Callable[[Action, Words], str] | None = None
    #: The variant's ``move_names`` keys that name the kind's moves (``Rules.move_name``), each
    #: with the move's notation after its kind and seat (``""``: the kind's one move).
    named: tuple[tuple[str, str], ...] = ()
    #: ``typed(rules)``: what a person may type in ``truco play`` for the kind's moves, besides
    #: a menu letter: readings ``(rank, phrases, notation)``, read by rank, lowest first, each
    #: naming the legal move whose notation after kind and seat is ``notation`` in a line that
    #: holds every word of one of its ``phrases`` (rank 0: in a line that is one of them).
    typed: Callable[[Rules], list[Reading]] | None = None
    #: What ``truco play`` says when the kind's words alone are typed and it has no legal move
    #: (``nothing to accept now``); ``None``: the line is read on.
    untyped: str | None = None
    #: ``(rank, hint)``: what truco play's hint says to type for the kind's legal moves,
    #: ``hint(legal, rules)`` of the seat's legal moves; the hints by rank, those of one rank
    #: joined by ``/`` (the side bets' calls); ``None``: nothing.
    hint: tuple[int, Callable[[list[Action], Rules], str]] | None = None
    #: How a side bet settled by a move of the kind, with no answer, is told (``sung``: a flor,
    #: G38, G40); ``None``: ``refused``.
    settles_as: str | None = None
    #: ``adjust(rules, transitions)``: the machine's transitions rewritten by this kind (flor,
    #: G35: the moves after which a flor is due go to its ``sing`` state); ``None``: none.
    adjust: Callable[[Rules, list[dict[str, Any]]], list[dict[str, Any]]] | None = None
    #: What a move of the kind carries (its fields), declared to Action; ``None``: no Action.
    payload: Payload | None = None
    #: The states in which the match waits for a move of the kind.
    phases: tuple[Waiting, ...] = ()
    #: How its moves stand in a log: their event's place, schema and format version.
    log: LogEvent | None = None
    #: ``space(rules)``: the kind's moves in the action space of :mod:`engine.env` (whether or
    #: not the variant enables the kind); ``None``: none.
    space: Callable[[Rules], list[SpaceMove]] | None = None
    # -- a side bet of the kind (``SideBet.kind``) in a position (:mod:`engine.matchpos`) --
    #: The rules its results follow, as a refusal cites them (``G28-G30``).
    bet_rules: str = ""
    #: ``bet_record(match, bet, state)``: what is wrong with the kind's own record of ``bet``
    #: (a :class:`~engine.sidebets.BetState`) in ``state`` (checked first): the refusal and
    #: the field of the bet's entry (``sung``), or ``None``.
    bet_record: Callable[[MatchView, Any, str], BetProblem | None] | None = None
    #: ``bet_call(match, bet)``: what is wrong with a call of the kind that waits, or that is
    #: left neither pending nor settled (the refusal and the field), or ``None``.
    bet_call: Callable[[MatchView, Any], BetProblem | None] | None = None
    #: ``bet_result(match, bet)``: what is wrong with the result of a settled bet of the kind,
    #: or ``None``.
    bet_result: Callable[[MatchView, Any], BetProblem | None] | None = None
    #: ``bet_settle(match, ruling, index, bet)``: the engine's settlement of the bet from its
    #: record, on the ruling; ``None``: :func:`engine.moves.bets.settle`, as answered.
    bet_settle: Callable[[MatchView, Ruling, int, Any], None] | None = None
    #: ``bet_fields(bet, card)``: the kind's own fields of the bet's entry, ``card`` naming a
    #: card; ``None``: none.
    bet_fields: Callable[[Any, Callable[[int], str]], dict[str, Any]] | None = None
    #: Whether, in a variant with a bet of the kind, every bet's entry says if it was killed.
    bet_kills: bool = False
    #: What the end of every hand owes to moves of the kind (side bets: GH6, G32), ruled and
    #: applied by the kinds that end a hand without naming this one; ``None``: nothing.
    hand_end: HandEnd | None = None
    #: The kind's own top-level block of variant keys (``cut``), its schema and checks;
    #: ``None``: its keys are in the base blocks (``keys`` names them).
    block: VariantBlock | None = None
    #: The kind's own per-hand state (``raise``: the raisers who must beat the table);
    #: ``None``: none.
    state: KindState | None = None
    #: ``sees(match, seat)``: the seats whose cards ``seat`` sees now because of the kind (M5: a
    #: special hand's decision shows the partners' cards), himself among them or not; ``None``:
    #: none. What the observation and the environment both read (:func:`hands_seen`).
    sees: Sees | None = None
    #: ``held(match, seat)``: cards not dealt yet that the kind shows ``seat`` (a cut's taken
    #: cards, to its cutter: ``cut.refusable``); ``None``: none. What the environment's
    #: vector shows in the seat's hand block (:func:`cards_held`).
    held: Held | None = None
    #: ``shows(rules)``: whether its ``sees`` and ``held`` may show anything in the variant (a
    #: variant's move table keeps only those, :func:`seeing_hooks`); ``None``: where enabled.
    shows: Callable[[Rules], bool] | None = None
    #: ``hides_last_hand(rules)``: whether the kind's rule hides every card of the hand that
    #: ended last from the observations (:func:`last_hand_hidden`); ``None``: it does not.
    hides_last_hand: Callable[[Rules], bool] | None = None


#: The registered kinds, by name, in registration order.
KINDS: dict[str, MoveKind] = {}
#: The phases the kinds declare, in registration order (the order a diagram lists them;
#: ``deal`` and ``match_over`` are the machine's own): by :class:`~engine.state.Phase`, which
#: is a string, so that :attr:`Match.state <engine.game.Match.state>` looks it up.
PHASES: dict[str, Waiting] = {}
#: The machine's own phases, which no kind declares: the first and the last
#: (:func:`all_phases`).
_MACHINES_OWN = (Phase.DEAL.value, Phase.MATCH_OVER.value)
#: The end-of-hand hooks the kinds declare, by name (:class:`~engine.moves.scoring.HandEnd`).
HAND_ENDS: dict[str, HandEnd] = {}
#: What the kinds hide of the last hand (:attr:`MoveKind.hides_last_hand`).
_HIDES_LAST: list[Callable[[Rules], bool]] = []


def register(kind: MoveKind) -> MoveKind:
    """Register a kind: its judge as the machine's ``legal_<name>`` condition (judged once per
    trigger, however many transitions ask), its effect as the ``<name>`` effect, its payload
    with :class:`~engine.actions.Action`, its phases, and its end-of-hand hook (by name, in
    :data:`HAND_ENDS`)."""
    kind = _placed(kind)
    judge = kind.judge
    if kind.payload is not None:
        declare(kind.name, kind.payload)
    for waiting in kind.phases:
        if waiting.phase in _MACHINES_OWN:
            raise ValueError(f"the phase {waiting.phase!r} is the machine's own")
        if PHASES.setdefault(waiting.phase, waiting) is not waiting:
            raise ValueError(f"two kinds declare the phase {waiting.phase!r}")

    def check(move: Any, ruling: Ruling) -> bool:
        if ruling.judged:
            return ruling.why is None
        ruling.judged = True
        ruling.why = why = judge(ruling.model, move, ruling)
        return why is None

    check.__name__ = check.__qualname__ = f"legal_{kind.name}"
    #: what a machine's plan calls in its place when every transition asks it first
    #: (:func:`engine.machine._hoisted`)
    check.judge = judge  # type: ignore[attr-defined]
    condition(f"legal_{kind.name}")(check)
    effect(kind.name)(kind.effect)
    hook = kind.hand_end
    if hook is not None and HAND_ENDS.setdefault(hook.name, hook) is not hook:
        raise ValueError(f"two end-of-hand hooks are named {hook.name!r}")
    block = kind.block
    if block is not None:
        if block.name in KIND_BLOCKS:
            raise ValueError(f"two kinds declare the variant block {block.name!r}")
        KIND_BLOCKS[block.name] = block.schema()
        if block.checks is not None:
            KIND_CHECKS.append(block.checks)
    if kind.hides_last_hand is not None:
        _HIDES_LAST.append(kind.hides_last_hand)
    KINDS[kind.name] = kind
    return kind


def moveless(module: str, what: str, **fields: Any) -> MoveKind:
    """Register the kind of ``module`` (its ``__name__``; the kind is named after it), one with
    no move in any variant (no trigger in the machine): what it shows or asks is in
    ``fields`` (:class:`MoveKind`'s: its ``block``, ``sees``, ``keys``...); ``what`` says what
    it is, in its ``not_now``."""
    name = module.rpartition(".")[2]

    def judge(m: MatchView, a: Any, r: Ruling) -> str | None:
        return Why("not_now", f"{name} has no move")  # never asked: no transition

    judge.__module__ = module  # the kind's own
    return register(MoveKind(name=name, judge=judge, effect=_no_effect,
                             transitions=_no_transitions, enabled=_never,
                             not_now={None: f"{name} has no move: {what}"}, **fields))


def _no_effect(move: Any, r: Ruling) -> None:
    """Nothing: the kind has no move."""


def _no_transitions(rules: Rules) -> list[dict[str, Any]]:
    return []


def _never(rules: Rules) -> bool:
    return False


def _placed(kind: MoveKind) -> MoveKind:
    """The kind with the places it leaves out (:data:`DERIVED`) derived: ``DERIVED`` + its
    registration index, after every place given."""
    at = DERIVED + len(KINDS)
    if kind.order == DERIVED:
        kind = replace(kind, order=at)
    if kind.log is not None and kind.log.place == DERIVED:
        kind = replace(kind, log=replace(kind.log, place=at))
    return kind


def move_transitions(kind: str, source: Phase, goes_on: Phase | None, *, ends: bool = True,
                     goes: bool = True) -> list[dict[str, Any]]:
    """The transitions of one move kind from ``source``: one that goes on to ``goes_on``
    (``None``: stays, an internal transition) unless the move ends the hand, and, when the move
    may end the hand (``ends``), one to ``match_over`` and one to ``deal``, by what the ruling
    says (``goes=False``: the move always ends the hand)."""
    legal = f"legal_{kind}"
    out: list[dict[str, Any]] = []
    if goes:
        out.append({"trigger": kind, "source": source, "dest": goes_on,
                    "conditions": [legal], "unless": ["ends_hand"] if ends else [],
                    "before": [kind]})
    if ends:
        out.append({"trigger": kind, "source": source, "dest": Phase.MATCH_OVER,
                    "conditions": [legal, "ends_match"], "before": [kind]})
        out.append({"trigger": kind, "source": source, "dest": Phase.DEAL,
                    "conditions": [legal, "ends_hand"], "before": [kind]})
    return out


def all_phases() -> tuple[str, ...]:
    """Every phase a variant's machine may rest in, as the position schema lists them: ``deal``,
    the kinds' (:data:`PHASES`, in registration order), ``match_over``."""
    return (_MACHINES_OWN[0], *PHASES, _MACHINES_OWN[1])


def kind_states(rules: Rules, every: bool = False) -> tuple[KindState, ...]:
    """The states of the variant's kinds (``every``: of every kind, whether the variant has
    it or not: what a position's checks go through), in the kinds' order (how positions and
    observations list them)."""
    return tuple(k.state for k in sorted(KINDS.values(), key=lambda k: k.order)
                 if k.state is not None and (every or k.state.has(rules)))


def fresh_own(rules: Rules) -> dict[str, Any]:
    """A new hand's :attr:`~engine.state.HandState.own` in this variant: each state's fresh
    value (one dict, shared by every hand until a kind replaces a value)."""
    return {s.key: s.fresh for s in kind_states(rules)}


def seeing_hooks(rules: Rules) -> tuple[tuple[Sees, ...], tuple[Held, ...]]:
    """The kinds' ``sees`` and ``held`` that may show something in the variant
    (:attr:`MoveKind.shows`): what its move table keeps for :func:`hands_seen`."""
    kinds = [k for k in KINDS.values() if (k.shows or k.enabled)(rules)]
    return (tuple(k.sees for k in kinds if k.sees is not None),
            tuple(k.held for k in kinds if k.held is not None))


def hands_seen(m: MatchView, seat: int) -> list[int]:
    """The seats whose cards ``seat`` sees now by a kind's rule (:attr:`MoveKind.sees`), his
    own among them where a rule says so, in seat order: what observations show him."""
    seen: list[int] = []
    for sees in m.move_table.sees:  # the variant's kinds' that may show (seeing_hooks)
        got = sees(m, seat)  # nearly always none: nothing to merge or sort then
        if got:
            seen = sorted({*seen, *got}) if seen else sorted(got)
    return seen


def cards_held(m: MatchView, seat: int) -> list[Card]:
    """The cards not dealt yet that a kind's rule shows ``seat`` now (:attr:`MoveKind.held`)."""
    return [c for held in m.move_table.held for c in held(m, seat)]


def last_hand_hidden(rules: Rules) -> bool:
    """Whether a kind's rule hides the cards of the hand that ended last from every
    observation (:attr:`MoveKind.hides_last_hand`): what the observation's ``last_hand``
    reads (:func:`engine.observation.last_hand_view`)."""
    return any(hides(rules) for hides in _HIDES_LAST)


@cache
def kind_tables(rules: Rules) -> tuple[dict[str, Any], dict[str, Lister]]:
    """The kinds' own tables of the variant (:attr:`MoveKind.table`) and each listed kind's
    lister there (its ``listing`` made with its table, else its ``lister``), by kind name."""
    tables = {k.name: k.table(rules) for k in KINDS.values() if k.table is not None}
    made = {k.name: k.lister if k.listing is None else k.listing(rules, tables.get(k.name))
            for k in KINDS.values()}
    return tables, {name: lister for name, lister in made.items() if lister is not None}


def hand_end_hooks(rules: Rules) -> tuple[HandEnd, ...]:
    """The end-of-hand hooks of the kinds the variant has, in the order they run
    (:func:`engine.moves.scoring.hooks_in_order`): a variant's
    :attr:`MoveTable.hand_ends <engine.game.MoveTable>`."""
    return hooks_in_order((k.order, k.hand_end) for k in KINDS.values()
                          if k.hand_end is not None and k.enabled(rules))


def has_ladder(rules: Rules) -> bool:
    """Whether the variant has raises to answer (a bet ladder, C8)."""
    return bool(rules.ladder)


#: The first kinds' modules, in the order their transitions are added to a machine; every
#: other module of this package is imported after them, by name (:func:`load_kinds`), so that
#: a new kind is its module alone.
SHIPPED = ("deal", "decide", "play", "raising", "accept", "fold", "concede", "envido", "quero",
           "nao_quero", "flor", "cut")


def load_kinds() -> dict[str, MoveKind]:
    """Import every kind's module (each registers itself): those of :data:`SHIPPED` in its
    order, then the package's other modules by name (a module that registers no kind, like
    :mod:`engine.moves.answers`, adds nothing); the registry."""
    for module in _kind_modules():
        import_module(f"engine.moves.{module}")
    return KINDS


@cache
def _kind_modules() -> tuple[str, ...]:
    """The package's modules, :data:`SHIPPED` first, then the others by name (listed once)."""
    return (*SHIPPED, *sorted(m.name for m in iter_modules(__path__) if m.name not in SHIPPED))
