"""The move kinds registry (engine.moves): one module per kind, each declaring its trigger,
judge, effect, transitions, lister, refusals and the variant keys it reads."""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers import reached_by_hand

from engine import Action, Match, find_variant
from engine.machine import build_machine
from engine.moves import HAND_ENDS, KINDS, MoveKind, load_kinds
from engine.moves.bets import AT_HAND_END
from engine.moves.scoring import HandEnd, hooks_in_order
from engine.resources import schema_path

SCHEMA: dict[str, Any] = json.loads(schema_path("variant").read_text(encoding="utf-8"))


def _schema_at(path: str) -> dict[str, Any] | None:
    node: dict[str, Any] | None = SCHEMA
    for part in path.split("."):
        if node is None:
            return None
        node = node.get("properties", {}).get(part)
    return node


def test_every_kind_is_registered_once_with_its_module() -> None:
    kinds = load_kinds()
    assert {"deal", "decide", "play", "raise", "accept", "fold"} <= set(kinds)
    orders = [k.order for k in kinds.values()]
    assert len(set(orders)) == len(orders), "two kinds list their moves at the same place"
    for name, kind in kinds.items():
        assert isinstance(kind, MoveKind) and kind.name == name
        assert kind.not_now, f"{name} says nothing when it is not a move"


@pytest.mark.parametrize("name", sorted(KINDS))
def test_a_kinds_keys_are_in_the_variant_schema(name: str) -> None:
    for key in KINDS[name].keys:
        node = _schema_at(key)
        assert node is not None, f"{name} reads {key}, which the schema does not have"
        assert node.get("description"), f"{key} has no description"


@pytest.mark.parametrize("variant", ["paulista", "mineiro", "one-on-one", "classic-mineiro"])
def test_the_machine_has_the_triggers_of_the_kinds_the_variant_has(variant: str) -> None:
    rules = find_variant(variant)
    machine = build_machine(rules)
    have = {k.name for k in KINDS.values() if k.enabled(rules)}
    assert set(machine.events) == have


def test_a_kind_the_variant_turns_off_is_refused_in_its_words() -> None:
    """Paulista has no decision (M5 is Mineiro's): decide has no trigger at all, and the
    match refuses it with the kind's own reason."""
    m = Match.new("paulista", seed=1)
    assert "decide" not in build_machine(m.rules).events
    from engine import IllegalMoveError
    with pytest.raises(IllegalMoveError, match="no decision is awaited"):
        m.apply(Action.decide(m.turn, True))


def test_each_listed_kind_tells_and_offers_its_moves_in_truco_play() -> None:
    """How truco play offers a move and tells it lives with its kind (MoveKind.tell/menu)."""
    from engine.cli.play_cmd import describe, menu_entry

    for name, kind in KINDS.items():
        if kind.lister or kind.listing:  # the chance step (deal) is nobody's move
            assert kind.tell is not None and kind.menu is not None, name
    rules = find_variant("paulista")
    play = Action.play(0, "7h")
    assert describe(play, rules, 0) == "you play 7♥"
    assert describe(play, rules, 0, position=2) == "you play card #2: 7♥"  # P6, blind
    assert menu_entry(play, rules, 2) == "play card #2"
    assert menu_entry(Action.accept(1), rules, None) == "aceito (accept)"
    assert describe(Action.decide(1, False), rules, 0) == "seat 1 decides to fold the hand"


def test_every_kind_with_moves_declares_its_payload_to_action() -> None:
    """A kind's module declares what its moves carry (issue 27): every kind a player moves
    with is a kind Action knows, and Action knows no kind that no module declared."""
    from engine.actions import kinds

    listed = {name for name, kind in KINDS.items() if kind.lister or kind.listing}
    assert {n for n, k in KINDS.items() if k.payload is not None} == listed
    assert set(kinds()) == listed | {"pass"}  # the pass: a bot's view (M3), raising.py's


def test_every_phase_of_a_machine_is_a_kinds_and_says_who_moves_there() -> None:
    """Who moves in each state is declared by the kind awaited there (issue 27): every state
    a shipped variant's machine rests in (but ``deal`` and ``match_over``) is a declared
    phase, and its movers are the seats with a legal move (in ``play``, the seat to play;
    the others may only raise out of turn, M3)."""
    import random

    from engine.bots import movers
    from engine.moves import PHASES
    from engine.resources import shipped_variants

    seen: set[str] = set()
    for variant in sorted(shipped_variants()):
        states = set(build_machine(find_variant(variant)).states)
        assert states - {"deal", "match_over"} <= set(PHASES), variant
        for seed in range(2):
            m, rng = Match.new(variant, seed=seed), random.Random(seed)
            while not m.is_over:
                seen.add(m.state)
                who, can = movers(m), m.to_act()
                assert len(set(who)) == len(who) and set(who) <= set(can), (variant, m.state)
                if m.state != "play":
                    assert set(who) == set(can), (variant, m.state, who, can)
                legal = m.legal_actions()
                calm = [a for a in legal if a.kind != "raise"] if seed else []
                m.apply(rng.choice(calm or legal))
    for phase, m in reached_by_hand().items():  # the explicit exemptions: rare phases
        assert movers(m) == m.to_act(), phase
        seen.add(m.state)
    assert seen == set(PHASES)


def test_the_end_of_hand_hooks_are_the_variants_kinds_once_each_in_a_fixed_order() -> None:
    """Side bets are credited at the end of a hand through a hook the side-bet kinds declare
    (outcome and scoring never name them): a variant runs the hooks of the kinds it has, each
    once however many kinds declare it, by the order of the first kind that does, then by
    name; no two hooks share a name."""
    kinds = load_kinds()
    assert {k.name for k in kinds.values() if k.hand_end is not None} == {"envido", "flor"}
    assert HAND_ENDS == {"side_bets": AT_HAND_END}
    assert Match.new("paulista", seed=1).moves.hand_ends == ()
    assert Match.new("gauderio", seed=1).moves.hand_ends == (AT_HAND_END,)
    later = HandEnd("later", AT_HAND_END.rule, AT_HAND_END.apply)
    first = HandEnd("first", AT_HAND_END.rule, AT_HAND_END.apply)
    declared = [(9, later), (6, AT_HAND_END), (9, AT_HAND_END), (6, first)]
    assert hooks_in_order(declared) == (first, AT_HAND_END, later)
    assert hooks_in_order(reversed(declared)) == (first, AT_HAND_END, later)
    twin = HandEnd("side_bets", AT_HAND_END.rule, AT_HAND_END.apply)
    with pytest.raises(ValueError, match="two end-of-hand hooks"):
        hooks_in_order([(6, AT_HAND_END), (9, twin)])


def test_the_phases_are_one_str_enum_whose_values_are_the_state_names() -> None:
    """The machine's states are :class:`engine.state.Phase` (issue 27): a ``str`` enum whose
    values are the names logs, positions and observations always showed, ``repr`` included;
    the kinds declare every phase but the machine's own ``deal`` and ``match_over``, and the
    enum has the phases code outside their kind names (a house kind's phase, ``confirm``, is
    its module's own string)."""
    from engine.moves import PHASES, all_phases
    from engine.resources import shipped_variants
    from engine.state import PLAY, Phase

    names = set(all_phases())
    for variant in sorted(shipped_variants()):
        assert set(build_machine(find_variant(variant)).states) <= names, variant
    assert all_phases() == (Phase.DEAL, *PHASES, Phase.MATCH_OVER)
    assert {phase.value for phase in Phase} <= names
    assert {"confirm", "take"} <= set(PHASES) - set(Phase)
    assert Phase.PLAY == "play" == PLAY and type(PLAY) is str
    assert repr(Phase.BET_ANSWER) == "'bet_answer'" and f"{Phase.SING}" == "sing"
    assert json.dumps({"phase": Phase.MATCH_OVER}) == '{"phase": "match_over"}'
    m = Match.new("paulista", seed=1)
    assert m.state == Phase.PLAY and type(m.state) is str
