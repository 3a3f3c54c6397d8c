"""Illegal moves carry structured reasons (IllegalMoveError.move, .why, .code), so that
programs need not parse messages."""

from __future__ import annotations

import pytest

from engine import Action, IllegalMoveError, Match
from engine.errors import Why
from engine.moves.concede import concedes
from engine.moves.play import plays
from engine.moves.raising import raises
from engine.shuffle import SplitMix64


def _refusal(m: Match, move: object) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as info:
        m.apply(move)  # type: ignore[arg-type]
    return info.value


def test_a_refusal_names_the_move_its_reason_in_words_and_its_code() -> None:
    m = Match.new("paulista", seed=1)
    accept = Action.accept(m.turn)
    err = _refusal(m, accept)
    assert err.move is accept
    assert err.code == "not_now"
    assert err.why == "no raise is waiting for an answer"
    assert str(err).startswith(f"{accept}: {err.why}; legal: ")
    assert err.legal == m.legal_actions()


@pytest.mark.parametrize(("move", "code"), [
    ("play 1 4c", "not_a_move"),
    (Action.fold(7), "no_such_seat"),
    (Action.decide(0, True), "not_in_variant"),  # Paulista has no decision (M5 is Mineiro's)
])
def test_each_refusal_of_the_match_has_its_code(move: object, code: str) -> None:
    assert _refusal(Match.new("paulista", seed=1), move).code == code


def test_a_move_refused_for_what_the_match_waits_for_says_what_it_waits_for() -> None:
    m = Match.new("paulista", seed=1)
    m.apply(Action.raise_to(m.turn, 3))
    assert _refusal(m, Action.play(m.turn, m.hands[m.turn][0])).code == "answer_pending"
    mineiro = Match.new("mineiro", seed=None)
    mineiro.score = [10, 0]  # M5: the mão de dez's decision comes first
    from engine import Deal
    mineiro.deal(Deal.of(0, [["4c", "7h", "As"], ["3d", "2d", "Kd"], ["5c", "6c", "Qc"],
                             ["Jh", "Kh", "5s"]]))
    assert mineiro.state == "decide"
    assert _refusal(mineiro, Action.play(1, "3d")).code == "decision_pending"
    no_back = Match.new("no-raise-back", seed=1)
    no_back.apply(Action.raise_to(no_back.turn, 3))
    challenged = (no_back.turn + 1) % 4
    assert _refusal(no_back, Action.raise_to(challenged, 6)).code == "no_raise_back"


def test_a_finished_match_refuses_everything_as_over() -> None:
    m = Match.new("one-on-one", seed=2)
    while not m.is_over:
        m.apply(m.legal_actions()[0])
    assert _refusal(m, Action.play(0, 0)).code == "match_over"


def test_why_is_the_reason_in_words_with_a_code() -> None:
    why = Why("not_your_turn", "it is seat 2's turn")
    assert why == "it is seat 2's turn" and why.code == "not_your_turn"
    assert IllegalMoveError("x", why=why).code == "not_your_turn"
    assert IllegalMoveError("x").code == "illegal"


@pytest.mark.parametrize("variant", ["paulista", "mineiro", "concede", "both-refuse",
                                     "special-hands-list", "leader-face-up", "raiser-must-beat",
                                     "raiser-must-kill",
                                     "three-players"])
def test_every_refusal_of_a_rule_has_its_own_code(variant: str) -> None:
    """Every move of the variant's move table that is refused, in every state of seeded
    matches, is refused with a code (never the catch-all ``illegal``): programs can tell the
    reasons apart without reading the words."""
    seen: set[str] = set()
    for seed in range(3):
        m = Match.new(variant, seed=seed)
        every = [a for row in (*plays(m).face_up, *plays(m).covered) for a in row]
        n = range(m.players)
        every += [*raises(m).moves.values(), *(Action.accept(s) for s in n),
                  *(Action.fold(s) for s in n),
                  *(Action.decide(s, p) for s in n for p in (True, False)), *concedes(m.players)]
        choose = SplitMix64(seed)
        while not m.is_over:
            legal = m.legal_actions()
            for action in every[::7]:
                if action not in legal:
                    try:
                        m.clone().apply(action)
                    except IllegalMoveError as err:
                        assert err.code != "illegal", str(err)
                        seen.add(err.code)
            m.apply(legal[choose.bounded(len(legal))])
    assert {"not_your_turn", "card_not_held", "not_now"} <= seen


def test_docs_list_every_code_the_engine_gives_and_no_other() -> None:
    """docs/error-codes.md lists every code the engine's sources give a refusal, once."""
    import re

    from conftest import REPO

    from engine.moves import PHASES

    source = "\n".join(p.read_text(encoding="utf-8") for p in (REPO / "engine").rglob("*.py"))
    given = set(re.findall(r'Why\(\s*"([a-z_]+)"', source))
    given |= {p.pending for p in PHASES.values() if p.pending} | {"not_now", "not_in_variant"}
    doc = (REPO / "docs" / "error-codes.md").read_text(encoding="utf-8")
    listed = re.findall(r"^\| `([a-z_]+)` \|", doc, flags=re.MULTILINE)
    assert len(listed) == len(set(listed)), "a code is listed twice"
    assert set(listed) == given
