"""The cut as data, a card taken at the cut that the cutter may refuse (issue 42,
``cut.refusable``, the ``take`` kind): the 4 of ouros, seen by the cutter alone, kept or
refused (docs/rules.md, "The cut")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import WriteFile
from helpers import act, assert_illegal, legal

from engine import Match
from engine.actions import Action
from engine.bots.base import make_bot
from engine.errors import PositionError, VariantError
from engine.logformat import record_random
from engine.replay import verify_file
from engine.simulate import play_match
from engine.tui import render_table
from engine.variant import load

FOUR = "cut-refusable-four"
#: A seed whose first shuffle has the 4 of ouros at the bottom of the deck, and one without.
AT_BOTTOM, NOT_AT_BOTTOM = 3, 2


def test_a_cut_that_takes_the_four_of_ouros_waits_for_the_cutter() -> None:
    m = Match.new(FOUR, seed=AT_BOTTOM)
    act(m, "cut 3 bottom")
    assert m.state == "take" and legal(m) == ["take 3 keep", "take 3 refuse"]
    assert m.to_act() == [3] and not any(m.hand.hands)


def test_truco_plays_table_shows_the_taken_cards_to_the_cutter_alone() -> None:
    """The kind's state says its line at the table (``KindState.table``): tui names no kind."""
    m = Match.new(FOUR, seed=AT_BOTTOM)
    act(m, "cut 3 bottom")
    said = {s: render_table(m.observation(s), title="T", target=12, rules=m.rules)
            for s in range(m.players)}
    assert "Your cut takes: 4♦" in said[3]
    assert not any("Your cut takes" in said[s] for s in (0, 1, 2))


@pytest.mark.parametrize("cut", ["bottom", "partner"])
def test_keep_deals_as_the_cut_would_without_the_rule(cut: str) -> None:
    m, plain = Match.new(FOUR, seed=AT_BOTTOM), Match.new("cut", seed=AT_BOTTOM)
    act(m, f"cut 3 {cut}")
    act(m, "take 3 keep")
    act(plain, f"cut 3 {cut}")
    assert (m.state, m.hand.hands, m.hand.vira) == ("play", plain.hand.hands, plain.hand.vira)
    assert m.rng is not None and plain.rng is not None and m.rng.state == plain.rng.state


def test_refuse_deals_a_corte_seco_and_the_next_hands_do_not_change() -> None:
    m, plain = Match.new(FOUR, seed=AT_BOTTOM), Match.new("cut", seed=AT_BOTTOM)
    act(m, "cut 3 bottom")
    act(m, "take 3 refuse")
    act(plain, "cut 3 seco")
    assert (m.state, m.hand.hands, m.hand.vira) == ("play", plain.hand.hands, plain.hand.vira)
    assert m.rng is not None and plain.rng is not None and m.rng.state == plain.rng.state


@pytest.mark.parametrize(("seed", "cut"), [(NOT_AT_BOTTOM, "bottom"), (AT_BOTTOM, "burn"),
                                           (AT_BOTTOM, "seco")])
def test_a_cut_that_takes_no_refusable_card_deals_at_once(seed: int, cut: str) -> None:
    m, plain = Match.new(FOUR, seed=seed), Match.new("cut", seed=seed)
    act(m, f"cut 3 {cut}")
    act(plain, f"cut 3 {cut}")
    assert (m.state, m.hand.hands) == ("play", plain.hand.hands)


def test_only_the_cutter_keeps_or_refuses_and_only_while_the_cut_waits() -> None:
    m = Match.new(FOUR, seed=AT_BOTTOM)
    assert assert_illegal(m, "take 3 keep").code == "cut_pending"
    act(m, "cut 3 bottom")
    assert assert_illegal(m, "take 0 keep", "seat 3 cut this hand").code == "not_the_cutter"
    assert assert_illegal(m, "cut 3 seco").code == "take_pending"


def test_the_taken_card_is_seen_by_the_cutter_alone(write: WriteFile) -> None:
    m = Match.new(FOUR, seed=AT_BOTTOM)
    act(m, "cut 3 bottom")
    assert m.observation(3)["take"] == {"cut": "bottom", "cards": ["4d"]}
    assert m.observation(0)["take"] == {"cut": "bottom", "cards": None}
    fours = str(write("fours.yaml", f"name: fours\nextends: {FOUR}\n"
                                    "cut:\n  refusable: [4c, 4d, 4h, 4s]\n"))
    held: dict[str, dict[str, object]] = {}
    for seed in range(400):  # two first hands whose cut takes two different fours
        m = Match.new(fours, seed=seed)
        act(m, "cut 3 bottom")
        if m.state == "take":
            held.setdefault(m.observation(3)["take"]["cards"][0], m.position())
        if len(held) == 2:
            break
    one, other = held.values()
    assert {k for k in one if one[k] != other[k]} == {"rng", "take"}  # the hidden card alone
    a, b = Match.from_position(fours, one), Match.from_position(fours, other)
    for seat in range(3):
        assert a.observation(seat) == b.observation(seat)
    assert a.observation(3) != b.observation(3)


def test_a_position_waiting_for_the_take_goes_on_as_the_match() -> None:
    m = Match.new(FOUR, seed=AT_BOTTOM)
    act(m, "cut 3 bottom")
    again = Match.from_position(FOUR, m.position())
    assert (again.state, legal(again)) == ("take", legal(m))
    act(m, "take 3 refuse")
    act(again, "take 3 refuse")
    assert again.position() == m.position()


@pytest.mark.parametrize(("change", "says"), [
    ({"take": {"cut": "bottom", "cards": ["5d"]}}, "expected the cards the seed's shuffle"),
    ({"take": {"cut": "burn", "cards": ["4d"]}}, "'burn' is not one of"),
    ({"take": None}, "expected take, found none"),
    ({"state": "cut"}, "exactly in state take"),
])
def test_a_position_with_a_wrong_take_is_refused(change: dict[str, object], says: str) -> None:
    m = Match.new(FOUR, seed=AT_BOTTOM)
    act(m, "cut 3 bottom")
    position = {**m.position(), **change}
    if change.get("take", 0) is None:
        del position["take"]
    with pytest.raises(PositionError, match=says) as info:
        Match.from_position(FOUR, position)
    if "burn" not in says:  # the schema refuses a cut that takes nothing
        assert info.value.code == "bad_take"


def test_a_take_is_written_read_and_logged() -> None:
    a = Action.parse("take 3 refuse")
    assert str(a) == "take 3 refuse" and Action.from_event(a.to_event()) == a
    assert a.to_event() == {"event": "take", "seat": 3, "keep": False}


@pytest.mark.parametrize("seed", [1, 10])  # a keep, a refuse
def test_a_log_with_a_kept_or_refused_four_verifies(tmp_path: Path, seed: int) -> None:
    for how in ({}, {"deals": True}, {"unseeded": True}):
        log = record_random(FOUR, seed, **how)
        assert ('"event": "take"' in log) != bool(how.get("unseeded"))  # no seed: no take
        path = tmp_path / "four.jsonl"
        path.write_text(log, encoding="utf-8")
        assert not verify_file(path).problems
        assert log == record_random(FOUR, seed, **how)


@pytest.mark.parametrize("seed", [1, 10])
def test_a_log_whose_keep_or_refuse_is_changed_fails(tmp_path: Path, seed: int) -> None:
    lines = record_random(FOUR, seed, deals=True).splitlines()
    at = next(i for i, line in enumerate(lines) if '"event": "take"' in line)
    event = json.loads(lines[at])
    lines[at] = json.dumps({**event, "keep": not event["keep"]})
    path = tmp_path / "tampered.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    problems = verify_file(path).problems
    assert problems and problems[0].line == at + 2  # the deal after it, 1-based


@pytest.mark.parametrize("bot", ["random", "heuristic", "search:30"])
def test_bots_keep_or_refuse_and_play_to_the_end(bot: str) -> None:
    rules = load(FOUR)
    m = Match(rules, seed=AT_BOTTOM)
    act(m, "cut 3 bottom")
    bots = [make_bot(bot, rules, s) for s in range(4)]
    move = bots[3].choose(m.observation(3), m.legal_actions())
    assert str(move) in ("take 3 keep", "take 3 refuse")
    m.apply(move)
    play_match(m, bots)
    assert m.is_over and m.winner is not None


@pytest.mark.parametrize(("text", "says"), [
    ("extends: paulista\ncut:\n  refusable: [4d]\n", "bottom or partner among cut.choices"),
    ("extends: cut\ncut:\n  choices: [seco, burn]\n  refusable: [4d]\n", "no cut takes"),
    ("extends: gauderio\ncut:\n  allowed: true\n  refusable: [4d]\n", "no flor"),
])
def test_a_refusable_card_no_cut_can_take_is_refused(write: WriteFile, text: str,
                                                     says: str) -> None:
    path = write("bad-refusable.yaml", "name: bad-refusable\n" + text)
    with pytest.raises(VariantError, match=says):
        load(str(path))


def test_the_environment_offers_keep_and_refuse_to_the_cutter() -> None:
    env = pytest.importorskip("engine.env", reason="the optional extra [rl]")
    e = env.raw_env(FOUR)
    e.reset(seed=AT_BOTTOM)
    names = [e.action_name(i) for i in e.legal_indices()]
    e.step(e.legal_indices()[names.index("cut bottom")])
    assert e.agent_selection == e.possible_agents[3]
    assert [e.action_name(i) for i in e.legal_indices()] == ["take keep", "take refuse"]
    e.step(e.legal_indices()[1])
    assert e.match is not None and e.match.state == "play"
    assert [str(a) for a in e.history] == ["cut 3 bottom", "take 3 refuse"]


def test_the_environment_shows_the_taken_card_to_the_cutter_alone(write: WriteFile) -> None:
    env = pytest.importorskip("engine.env", reason="the optional extra [rl]")
    fours = str(write("fours.yaml", f"name: fours\nextends: {FOUR}\n"
                                    "cut:\n  refusable: [4c, 4d, 4h, 4s]\n"))
    vectors: dict[str, list[object]] = {}
    for seed in range(400):  # two first hands whose cut takes two different fours
        e = env.raw_env(fours)
        e.reset(seed=seed)
        names = [e.action_name(i) for i in e.legal_indices()]
        e.step(e.legal_indices()[names.index("cut bottom")])
        assert e.match is not None
        if e.match.state == "take":
            card = e.match.observation(3)["take"]["cards"][0]
            vectors.setdefault(card, [e.observe(a)["observation"] for a in e.possible_agents])
        if len(vectors) == 2:
            break
    one, other = vectors.values()
    for seat in range(3):
        assert (one[seat] == other[seat]).all()  # type: ignore[union-attr]
    assert not (one[3] == other[3]).all()  # type: ignore[union-attr]
    assert one[3].sum() == one[0].sum() + 1  # type: ignore[union-attr]
