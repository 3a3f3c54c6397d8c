"""Playthroughs: a whole match as text, state by state, for people and for snapshot tests.

A playthrough plays a seeded match with moves drawn from :meth:`Match.legal_actions` by a
:class:`~engine.shuffle.SplitMix64` (never Python's ``random``) and writes every state as a
person would read it: the hand's vira and manilhas, each seat's cards, the table, whose turn,
the hand's value and pending raise, the legal moves and what each seat may see
(:meth:`Match.observation`); then the move applied and the checkpoints it caused. The text
depends only on the rules, the seed and the dealer, so a rule change in a variant file shows up
as a diff of its playthroughs (OpenSpiel's playthrough files; see ``tests/test_playthroughs.py``).

>>> text = playthrough("paulista", seed=1)
>>> text.splitlines()[0]
'playthrough paulista (Truco Paulista) · seed 1 · first dealer 0'
>>> "> play 1 " in text and text.endswith("\\n")
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action
from engine.cards import card_pretty, parse_card
from engine.errors import IllegalMoveError, PositionError
from engine.game import Checkpoint, Match, resolve_rules
from engine.moves.draw import draw_first_dealer, drawn
from engine.moves.names import ACCEPT_KIND, DECIDE_KIND, FOLD_KIND, PLAY_KIND, RAISE_KIND
from engine.observation import last_hand_view
from engine.rules import NOT_RULES, Rules
from engine.shuffle import SplitMix64
from engine.state import Phase
from engine.variant import variant_files

#: How often each kind of move is drawn, relative to the others present: mostly cards, so that
#: hands reach their later rounds and special hands, with raises, folds and accepts mixed in.
KIND_WEIGHTS: dict[str, int] = {PLAY_KIND: 10, RAISE_KIND: 1, ACCEPT_KIND: 2, FOLD_KIND: 1,
                                DECIDE_KIND: 1}
#: The move chooser's generator is seeded with ``seed ^ MOVES_SALT``, so that it is not the
#: same stream as the seeded deals.
MOVES_SALT = 0x6D6F766573  # "moves"
#: A playthrough that has not ended after this many moves is a bug in the engine.
MAX_MOVES = 100_000

# Observation keys fixed for a whole hand: shown in the hand's banner, and in a state's
# lines only when they differ from it.
_HAND_KEYS = ("hand_number", "dealer", "mao", "special", "blind", "vira", "manilhas", "score",
              "games", "last_hand")
# Observation keys in the order they are written; keys not listed follow, sorted.
_KEY_ORDER = ("phase", "turn", "round", "rounds", "value", "pending_raise", "last_raise_team",
              "shown", "played", "hand", "hand_size", "partner_hands", "legal", *_HAND_KEYS)
LEGEND = (
    "legend: [n] is the state before move n; 'table' is the round's cards as the engine knows",
    "  them (▼ face down); 'all see' is what every seat's observation shares (keys fixed for",
    "  the hand are in its === banner, keys with no value left out); 'seat s holds' is its",
    "  cards, then what only that seat observes (▼?? a face-down card it may not see); a",
    "  seat's observed hand and legal moves are written only where they differ from the cards",
    "  it holds and from its moves in 'legal'; '>' is the move applied, '=' its checkpoints.",
)
_FACE_DOWN = "▼"


def choose(legal: Sequence[Action], rng: SplitMix64) -> Action:
    """Draw one move: a kind by :data:`KIND_WEIGHTS` among the kinds present, then one move of
    that kind uniformly. Deterministic for a given generator state.

    >>> choose([Action.accept(1), Action.fold(1)], SplitMix64(0))
    Action.accept(1)
    """
    if not legal:
        raise ValueError("no legal move to choose from")
    kinds = sorted({a.kind for a in legal}, key=lambda k: (list(KIND_WEIGHTS).index(k)
                                                            if k in KIND_WEIGHTS else 99, k))
    weights = [KIND_WEIGHTS.get(k, 1) for k in kinds]
    draw = rng.bounded(sum(weights))
    i = 0
    while draw >= weights[i]:
        draw -= weights[i]
        i += 1
    options = [a for a in legal if a.kind == kinds[i]]
    return options[rng.bounded(len(options))]


@dataclass
class _Step:
    """One state of a playthrough: its text, and (once played) the move and its checkpoints."""

    match: Match
    banner: list[str] | None  # the hand's opening lines, where a new hand starts here
    lines: list[str]
    action: Action | None = None
    events: list[Checkpoint] = field(default_factory=list)
    before: Any = None  # what the probe found before the move


def _steps(rules: Rules, seed: int, dealer: int,
           chooser: Callable[[Sequence[Action], SplitMix64], Action],
           probe: Callable[[Match], Any] | None = None) -> Iterator[_Step]:
    """The states of a seeded match, each yielded once its move is played (its match is then
    in the state the move left), with what ``probe`` found in the match before the move."""
    match = Match.new(rules, seed=seed, dealer=dealer)
    rng = SplitMix64(seed ^ MOVES_SALT)
    banner: dict[str, tuple[str, ...]] = {}
    moves = 0
    while not match.is_over:
        if moves >= MAX_MOVES:
            raise RuntimeError(f"{rules.name} seed {seed}: no end after {MAX_MOVES} moves")
        views = [render_observation(match.observation(s)) for s in range(rules.players)]
        fixed = {k: tuple(v.get(k, "-") for v in views) for k in _HAND_KEYS
                 if any(k in v for v in views)}
        opened = None
        if fixed != banner:
            banner = fixed
            opened = render_hand_banner(match, banner)
        moves += 1
        step = _Step(match, opened, render_state(match, moves, views),
                     before=probe(match) if probe is not None else None)
        step.action = chooser(match.legal_actions(), rng)
        step.events = match.apply(step.action)
        step.lines.append(f"  > {step.action}")
        step.lines.extend(f"  = {render_checkpoint(ev)}" for ev in step.events)
        yield step


def _ending(match: Match, moves: int) -> str:
    return (f"end after {moves} moves and {match.hand_number} hands: match won by team "
            f"{match.winner}, games {_pair(match.games)}")


def playthrough(variant: Rules | str | os.PathLike[str], seed: int, *, dealer: int = 0,
                chooser: Callable[[Sequence[Action], SplitMix64], Action] = choose) -> str:
    """The text of a whole seeded match of ``variant`` (a :class:`Rules`, a shipped name or a
    path), moves drawn by ``chooser`` from a generator seeded with ``seed ^ MOVES_SALT``.

    >>> playthrough("mineiro", seed=2).count("=== hand 1 ")
    1
    """
    rules = resolve_rules(variant)
    out = [f"playthrough {rules.name} ({rules.title}) · seed {seed} · first dealer {dealer}",
           *LEGEND, "rules:"]
    out.extend(f"  {line}" for line in render_rules(rules))
    step = None
    moves = 0
    for step in _steps(rules, seed, dealer, chooser):
        moves += 1
        if step.banner is not None:
            out.append("")
            out.extend(step.banner)
        out.extend(step.lines)
    assert step is not None, "a match has at least one move"
    out.append("")
    out.append(_ending(step.match, moves))
    return "\n".join(out) + "\n"


#: A focused playthrough looks for the hands where a rule acts in the matches of these seeds.
FOCUS_SEEDS = range(1, 101)
FOCUS_LEGEND = (
    "legend: the hands, among seeded matches, where this variant's rules make a difference",
    "  from its parent's: at some state the parent would refuse the position, list other",
    "  moves, show a seat something else, or reach another position by the same move ('≠'",
    "  says which, under the state). States are written as in a full playthrough (its",
)


def focus_legend(rules: Rules) -> tuple[str, ...]:
    """:data:`FOCUS_LEGEND`, then where a full playthrough's legend is: the snapshot of the
    root variant ``rules`` extends (the last file of its ``extends`` chain; the variant's own
    name where the chain is not known).

    >>> focus_legend(resolve_rules("mineiro-12"))[-1]
    '  legend: tests/snapshots/mineiro/mineiro-seed1.txt).'
    """
    chain = variant_files(rules.source) if rules.source else []
    root = chain[-1].stem if chain else rules.name
    return (*FOCUS_LEGEND, f"  legend: tests/snapshots/{root}/{root}-seed1.txt).")


def difference(match: Match, parent: Rules) -> tuple[Match | None, str | None]:
    """How ``parent``'s rules would differ at ``match``'s state: a twin of the match under the
    parent (``None`` where the parent refuses the position) and the first difference in words
    (``None`` where there is none before the move). The record of the hand before is left out
    of the comparison (the twin's ``last_hand`` is ``None``): what the rule did in an earlier
    hand is that hand's difference, not this one's; only how each seat is shown it is
    compared (``seeing.last_hand``)."""
    try:
        twin = Match.from_position(parent, _without_history(match.position()))
    except PositionError as err:
        return None, f"{parent.name} refuses this position: {err.code}: {err.why}"
    ours = [str(a) for a in match.legal_actions()]
    theirs = [str(a) for a in twin.legal_actions()]
    if ours != theirs:
        only_ours = [a for a in ours if a not in theirs]
        only_theirs = [a for a in theirs if a not in ours]
        return twin, (f"legal here, not under {parent.name}: {', '.join(only_ours) or '-'}; "
                      f"under {parent.name} only: {', '.join(only_theirs) or '-'}")
    for seat in range(match.rules.players):
        seen = match.observation(seat)
        if _present(seen) != _present(twin.observation(seat)):
            return twin, f"seat {seat} observes otherwise than under {parent.name}"
        if seen["last_hand"] != last_hand_view(parent, match.last_hand, seat):
            return twin, f"seat {seat} observes the last hand otherwise than under {parent.name}"
    return twin, None


def _without_history(position: dict[str, Any]) -> dict[str, Any]:
    return {**position, "last_hand": None}


def _present(observation: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in observation.items() if k != "last_hand"}


def _first_dealer_difference(rules: Rules, parent: Rules, seed: int) -> str | None:
    """How the seeded match's first dealer differs under the parent's rules (a drawn first
    dealer, house), or ``None``: a difference no position twin shows, made before the first
    state."""
    ours, theirs = Match.new(rules, seed=seed).dealer, Match.new(parent, seed=seed).dealer
    if ours == theirs:
        return None
    draw = ""
    if drawn(rules):
        rounds = draw_first_dealer(rules, SplitMix64(seed))[0]
        draw = " (drawn: " + " / ".join(" ".join(
            "-" if c is None else card_pretty(c) for c in row) for row in rounds) + ")"
    return f"the first dealer is seat {ours}{draw}, seat {theirs} under {parent.name}"


def _after(step: _Step, twin: Match, parent: Rules) -> str | None:
    """The difference the step's move makes under the parent's rules, if any."""
    assert step.action is not None
    try:
        events = twin.apply(step.action)
    except IllegalMoveError as err:
        return f"{parent.name} refuses {step.action}: {err.code}"
    if events != step.events:
        return f"under {parent.name}: {' · '.join(render_checkpoint(e) for e in events) or '-'}"
    if _without_history(twin.position()) != _without_history(step.match.position()):
        return f"{step.action} leads to another position under {parent.name}"
    return None


def focus(variant: Rules | str | os.PathLike[str], parent: Rules | str | os.PathLike[str], *,
          hands: int = 2, seeds: Iterable[int] = FOCUS_SEEDS) -> str:
    """The text of the first ``hands`` hands, in the seeded matches of ``seeds`` (in order), where
    ``variant``'s rules make a difference from ``parent``'s (:func:`difference`): each hand
    written in full, as :func:`playthrough` writes it, with the differences marked. The
    snapshot of a house variant: it shows what its rule does, and nothing its parent's
    snapshots already show.

    >>> text = focus("no-raise-back", "paulista", hands=1)
    >>> "≠ legal here, not under paulista: -; under paulista only: raise" in text
    True
    """
    rules, base = resolve_rules(variant), resolve_rules(parent)
    ours, theirs = render_rules(rules), render_rules(base)
    out = [f"focus {rules.name} ({rules.title}) against {base.name}", *focus_legend(rules),
           f"rules that differ from {base.name}:"]
    out.extend(f"  - {line}" for line in theirs if line not in ours)
    out.extend(f"  + {line}" for line in ours if line not in theirs)
    found = 0
    for seed in seeds:
        block: list[str] = []
        acts = False
        start = _first_dealer_difference(rules, base, seed)
        for step in _steps(rules, seed, 0, choose, probe=lambda m: difference(m, base)):
            if step.banner is not None:
                if acts:
                    out.extend(block)
                    found += 1
                    if found == hands:
                        break
                block, acts = ["", f"--- seed {seed}", *step.banner], False
            twin, why = step.before
            if start is not None:  # the match's first state: it starts otherwise
                why, start = start, None
            if why is None and twin is not None:
                why = _after(step, twin, base)
            block.extend(step.lines)
            if why is not None:
                block.append(f"    ≠ {why}")
                acts = True
        else:
            if acts:
                out.extend(block)
                found += 1
        if found == hands:
            break
    if found < hands:
        out.extend(["", f"found in {found} of the {hands} hands looked for"])
    return "\n".join(out) + "\n"


# -- pieces of the text ---------------------------------------------------------------------
def render_rules(rules: Rules) -> list[str]:
    """The resolved variant as sorted ``dotted.key: value`` lines (names and titles left out).

    >>> from engine import find_variant
    >>> [l for l in render_rules(find_variant("mineiro")) if l.startswith("betting.ladder")]
    ['betting.ladder: value=3 name=truco; value=6 name=seis; value=9 name=nove']
    """
    lines: list[str] = []

    def walk(prefix: str, value: Any) -> None:
        if isinstance(value, Mapping):
            for key in sorted(value):
                if not prefix and key in NOT_RULES:
                    continue
                walk(f"{prefix}.{key}" if prefix else str(key), value[key])
        else:
            lines.append(f"{prefix}: {_rule_value(value)}")

    walk("", rules.data)
    return lines


def _rule_value(value: Any) -> str:
    if isinstance(value, list):
        if all(isinstance(v, Mapping) for v in value) and value:
            return "; ".join(" ".join(f"{k}={_rule_value(v[k])}" for k in v) for v in value)
        return " ".join(_rule_value(v) for v in value) if value else "[]"
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def render_hand_banner(match: Match, banner: Mapping[str, Sequence[str]]) -> list[str]:
    """The lines that open a hand: the observation keys fixed for the whole hand (``banner``:
    each key's value for every seat; a value all seats share is written once) and the cards
    dealt to each seat."""
    hand = banner.get("hand_number", ("?",))
    head = f"=== hand {hand[0] if len(set(hand)) == 1 else '/'.join(hand)}"
    facts = [f"game {sum(match.games) + 1}"]
    per_seat: list[str] = []
    for key, values in banner.items():
        if key == "hand_number" and len(set(values)) == 1:
            continue
        label = "before" if key == "last_hand" else key
        if len(set(values)) == 1:
            if key == "last_hand":
                if values[0] != "-":
                    per_seat.append(f"{label}  {values[0]}")
            else:
                facts.append(f"{label} {values[0]}")
        else:
            per_seat.extend(f"{label}  seat {s}: {v}" for s, v in enumerate(values))
    dealt = "  ".join(f"{s}: {_cards(h)}" for s, h in enumerate(match.hand.dealt))
    return [" · ".join([head, *facts]), f"dealt   {dealt}", *per_seat]


def render_state(match: Match, number: int, views: Sequence[Mapping[str, str]]) -> list[str]:
    """One state: the engine's own view (the table with face-down cards shown, each seat's
    cards), the legal moves, the observation keys all seats share and, one line per seat, the
    cards it holds and what only that seat sees (its observed hand and legal moves are written
    only where they differ from the cards it holds and from its share of the legal moves
    above). Observation keys fixed for the hand are in its banner instead."""
    head = f"[{number}] {match.state} · round {match.round_no + 1}"
    if match.state == Phase.PLAY:
        head += f" · turn {match.turn}"
    head += f" · value {match.value}"
    if match.hand.pending is not None:
        seat, value, card = match.hand.pending
        named = f" with {card_pretty(card)}" if card is not None else ""
        head += f" · pending {value} {match.rules.step_name(value)} by {seat}{named}"
    table = "  ".join(f"{s}: {_FACE_DOWN if cov else ''}{card_pretty(c)}"
                      for s, c, cov in match.round.cards) or "-"
    common = {k: v for k, v in _common(views).items() if k not in _HAND_KEYS}
    shared = " · ".join(f"{k} {v}" for k, v in common.items() if v != "-")
    legal = match.legal_actions()
    lines = [head, f"    table   {table}", f"    legal   {render_actions(legal)}",
             f"    all see {shared or '-'}"]
    for seat, view in enumerate(views):
        holds = _cards(match.hand.hands[seat])
        mine = ", ".join(str(a) for a in legal if a.seat == seat) or "-"
        own = [f"{k} {v}" for k, v in view.items()
               if k not in common and k not in _HAND_KEYS
               and not (k == "hand" and v == holds) and not (k == "legal" and v == mine)]
        if "legal" not in common and view.get("legal") == mine != "-":
            own.append(f"legal {mine.count(', ') + 1} as listed")
        lines.append(f"    seat {seat} holds {holds}{' · ' if own else ''}{' · '.join(own)}")
    return lines


def render_observation(obs: Mapping[str, Any]) -> dict[str, str]:
    """An observation as short strings, keys in a fixed order (``seat`` and ``team`` left out:
    the line names the seat).

    >>> m = Match.new("paulista", seed=7)
    >>> render_observation(m.observation(0))["manilhas"]
    'J♦ J♠ J♥ J♣'
    """
    keys = [k for k in _KEY_ORDER if k in obs] + sorted(
        k for k in obs if k not in _KEY_ORDER and k not in ("seat", "team"))
    return {k: _obs_value(k, obs[k]) for k in keys}


def _obs_value(key: str, value: Any) -> str:
    if value is None:
        return "-"
    if key in ("hand", "manilhas"):
        return _names(value) if value else "none"
    if key == "vira":
        return card_pretty(parse_card(value))
    if key in ("score", "games"):
        return _pair(value)
    if key == "rounds":
        return "[" + " ".join("tie" if w is None else f"team {w}" for w in value) + "]"
    if key == "played":
        return _played(value)
    if key == "shown":
        return _shown(value)
    if key == "last_hand" and isinstance(value, Mapping):
        rest = {k: v for k, v in value.items()
                if k not in ("hand_number", "played", "rounds", "shown")}
        extra = f" · {json.dumps(rest, sort_keys=True, ensure_ascii=False)}" if rest else ""
        return (f"hand {value.get('hand_number')}: played {_played(value.get('played', []))}"
                f" · rounds {_obs_value('rounds', value.get('rounds', []))}"
                f" · shown {_shown(value.get('shown', []))}{extra}")
    if key == "partner_hands":
        return " ".join(f"{s}:[{_names(value[s])}]" for s in sorted(value))
    if key == "pending_raise":
        card = f" with {card_pretty(parse_card(value['card']))}" if "card" in value else ""
        return f"{value['value']} {value['name']} by {value['seat']}{card}"
    if key == "special":
        team = "" if value["team"] is None else f" (team {value['team']})"
        return f"{value['name']}{team}"
    if key == "legal":
        return ", ".join(map(str, value)) if value else "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, str)):
        return str(value)
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def render_checkpoint(event: Checkpoint) -> str:
    """A checkpoint in words.

    >>> render_checkpoint({"event": "hand", "winner": 1, "points": 3, "score": [0, 3]})
    'hand won by team 1 for 3 · score 0-3'
    """
    winner = event.get("winner")
    who = "tied" if winner is None else f"won by team {winner}"
    if event["event"] == "round":
        return f"round {who}"
    if event["event"] == "hand":
        return f"hand {who} for {event['points']} · score {_pair(event['score'])}"
    if event["event"] == "game":
        return f"game {who} · score {_pair(event['score'])} · games {_pair(event['games'])}"
    if event["event"] == "match":
        return f"match {who} · games {_pair(event['games'])}"
    return json.dumps(event, sort_keys=True, ensure_ascii=False)


def _common(views: Sequence[Mapping[str, str]]) -> dict[str, str]:
    """The keys every seat sees the same, in the views' order."""
    first = views[0]
    return {k: v for k, v in first.items() if all(view.get(k) == v for view in views[1:])}


def _played(played: Sequence[Mapping[str, Any]]) -> str:
    return " ".join(f"r{p['round']}:{p['seat']}:{_FACE_DOWN if p['covered'] else ''}"
                    f"{'??' if p['card'] is None else card_pretty(parse_card(p['card']))}"
                    for p in played) or "-"


def _shown(shown: Sequence[Mapping[str, Any]]) -> str:
    return " ".join(f"{s['seat']}:{card_pretty(parse_card(s['card']))}" for s in shown) or "-"


def render_actions(actions: Sequence[Action]) -> str:
    """Moves grouped for reading: the cards of moves alike (kind, seat, value, face down)
    after one label, groups in the order of the list.

    >>> render_actions([Action.play(1, "2s"), Action.play(1, "Kc"), Action.raise_to(1, 3)])
    'play 1: 2♠ K♣ · raise 1 3'
    """
    groups: dict[tuple[str, int, int | None, bool, bool | None], list[str]] = {}
    for a in actions:
        key = (a.kind, a.seat, a.value, a.covered, a.play_on)
        cards = groups.setdefault(key, [])
        if a.card is not None:
            cards.append(card_pretty(a.card))
    out = []
    for (kind, seat, value, covered, play_on), cards in groups.items():
        label = f"{kind} {seat}"
        if value is not None:
            label += f" {value}"
        if play_on is not None:
            label += " play" if play_on else " fold"
        if covered:
            label += " covered"
        out.append(f"{label}: {' '.join(cards)}" if cards else label)
    return " · ".join(out) or "-"


def _cards(cards: Sequence[int]) -> str:
    return " ".join(card_pretty(c) for c in cards) or "-"


def _names(names: Sequence[str]) -> str:
    return " ".join(card_pretty(parse_card(n)) for n in names)


def _pair(pair: Sequence[int]) -> str:
    return "-".join(str(x) for x in pair)
