"""Replaying logs: verification through the engine, checkpoints, deals, annotation, replays/."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from engine.actions import Action, Deal
from engine.game import Match
from engine.logformat import dumps_event, record_random
from engine.logread import LogProblem
from engine.replay import annotate, strip_checkpoints, verify_bytes, verify_file
from engine.variant import find_variant
from tests.conftest import CONFORMANCE, REPO

REPLAYS = REPO / "replays"
EXAMPLES = sorted(CONFORMANCE.glob("*.jsonl"))
GOOD = sorted(REPLAYS.glob("*.jsonl"))
INVALID = sorted((REPLAYS / "invalid").glob("*.jsonl"))


def load_maker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_replays", REPLAYS / "make_replays.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def verify_text(text: str, name: str = "a.jsonl", base: Path | None = None) -> list[str]:
    result = verify_bytes(text.encode("utf-8"), name, base=base)
    return [str(p) for p in result.problems]


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


# -- the conformance examples and replays/ -------------------------------------------------------
@pytest.mark.parametrize("path", EXAMPLES + GOOD, ids=lambda p: p.name)
def test_every_example_and_replay_verifies_complete(path: Path) -> None:
    result = verify_file(path)
    assert [str(p) for p in result.problems] == []
    assert result.incomplete is None
    assert result.winner is not None


def test_replays_cover_every_shipped_variant() -> None:
    for variant in ("paulista", "mineiro", "mineiro-12"):
        names = {p.name for p in GOOD}
        for kind in ("seed1", "deals2", "special"):
            assert f"{variant}-{kind}.jsonl" in names
        seeded = lines_of(REPLAYS / f"{variant}-seed1.jsonl")
        assert "seed" in json.loads(seeded[0]) and not any('"deal"' in x for x in seeded)
        dealt = lines_of(REPLAYS / f"{variant}-deals2.jsonl")
        assert "seed" not in json.loads(dealt[0]) and '"event": "deal"' in dealt[1]


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_every_invalid_log_fails_with_its_expected_message(path: Path) -> None:
    expected = path.with_suffix(".expected").read_text(encoding="utf-8").rstrip("\n")
    result = verify_bytes(path.read_bytes(), path.name, base=path.parent)
    if path.name == "incomplete.jsonl":
        assert result.valid and result.incomplete is not None
        found = str(result.incomplete)
    else:
        assert not result.valid
        found = str(result.problems[0])
    if expected.endswith(" ..."):
        assert found.startswith(expected.removesuffix(" ...")), found
    else:
        assert found == expected
    if not result.valid:  # strict verification stops at the same first problem
        with pytest.raises(LogProblem) as info:
            verify_file(path, strict=True)
        assert str(info.value).endswith(found.split(":", 1)[1])


def test_make_replays_is_deterministic() -> None:
    maker = load_maker()
    for path in REPLAYS.glob("*-special.jsonl"):
        lines = lines_of(path)
        meta = json.loads(lines[0])["meta"]
        variant = json.loads(lines[0])["variant"]
        text, seen = maker._steered_match(variant, meta["steered_seed"])
        assert set(meta["shows"]) <= seen
        assert maker._with_meta(text, meta) == path.read_text(encoding="utf-8")
    good = {p.name: p.read_text(encoding="utf-8") for p in GOOD}
    for name, text in maker.invalid_logs(good).items():
        assert maker.encode(text) == (REPLAYS / "invalid" / name).read_bytes(), name
    for variant in ("paulista", "mineiro"):
        assert record_random(variant, 1, players=maker.PLAYERS) == good[f"{variant}-seed1.jsonl"]


def test_special_logs_show_their_special_hands() -> None:
    text = (REPLAYS / "mineiro-special.jsonl").read_text(encoding="utf-8")
    events = [json.loads(x) for x in text.splitlines()[1:]]
    decides = {e["play"] for e in events if e["event"] == "decide"}
    assert decides == {True, False}
    assert any(e["event"] == "raise" and e["value"] == 9 for e in events)
    paulista = [json.loads(x) for x in lines_of(REPLAYS / "paulista-special.jsonl")[1:]]
    assert any(e["event"] == "raise" and e["value"] == 12 for e in paulista)
    # the match ends with a penalised raise: a game checkpoint with no hand checkpoint
    assert [e["event"] for e in paulista[-3:]] == ["raise", "game", "match"]


# -- checkpoints ---------------------------------------------------------------------------------
def engine_annotation(path: Path) -> str:
    """The moves of a seeded log with the checkpoints Match computes, written independently
    of engine.replay."""
    lines = lines_of(path)
    header = json.loads(lines[0])
    match = Match.new(header["variant"], seed=header["seed"], dealer=header.get("dealer", 0))
    out = [lines[0]]
    for line in lines[1:]:
        event = json.loads(line)
        out.append(dumps_event(event))
        out.extend(dumps_event(cp) for cp in match.apply(Action.from_event(event)))
    return "\n".join(out) + "\n"


def test_checkpoints_of_the_moves_only_example_are_the_engines() -> None:
    path = CONFORMANCE / "paulista-seed303-moves-only.jsonl"
    text, replaced = annotate(path.read_bytes(), path.name)
    assert replaced == []
    assert text == engine_annotation(path)
    assert text.count("\n") > len(lines_of(path)) + 20
    assert verify_text(text) == []


@pytest.mark.parametrize("path", [p for p in EXAMPLES if "moves-only" not in p.name] + GOOD,
                         ids=lambda p: p.name)
def test_stripped_log_annotates_back_byte_for_byte(path: Path) -> None:
    original = path.read_text(encoding="utf-8")
    stripped = strip_checkpoints(original)
    assert stripped != original
    text, replaced = annotate(stripped.encode("utf-8"), path.name, base=path.parent)
    assert replaced == []
    assert text == original


def test_annotation_keeps_t_meta_and_replaces_wrong_checkpoints() -> None:
    log = record_random("paulista", 3).splitlines()
    moves = [json.loads(x) for x in log]
    moves[1]["t"] = 1.5
    moves[1]["meta"] = {"note": "é"}
    i = next(i for i, e in enumerate(moves) if e.get("event") == "round")
    moves[i] = {"winner": 1 - (moves[i]["winner"] or 0), "event": "round", "t": "x"}
    text = "\n".join(json.dumps(e, ensure_ascii=False) for e in moves) + "\n"
    annotated, replaced = annotate(text.encode("utf-8"), "a.jsonl")
    assert [p.line for p in replaced] == [i + 1]
    out = annotated.splitlines()
    assert out[1] == json.dumps(moves[1], ensure_ascii=False)
    assert out[i] == log[i]  # the engine's round checkpoint replaces the wrong one
    assert out[:i] + out[i + 1:] == [json.dumps(e, ensure_ascii=False) for e in moves[:i]] + \
        log[i + 1:]


def test_one_digit_of_one_hand_score_changed_fails_at_that_line() -> None:
    for path in (REPLAYS / "mineiro-seed1.jsonl", CONFORMANCE / "paulista-seed101.jsonl"):
        lines = lines_of(path)
        hands = [i for i, x in enumerate(lines) if '"event": "hand"' in x]
        for i in hands[:: max(1, len(hands) // 5)]:
            changed = lines[:]
            event = json.loads(lines[i])
            digit = str(event["score"][0])[-1]
            event["score"][0] = int(str(event["score"][0])[:-1] + str((int(digit) + 1) % 10))
            changed[i] = json.dumps(event)
            found = verify_text("\n".join(changed) + "\n", path.name)
            assert len(found) == 1
            assert found[0].startswith(f"{path.name}:{i + 1}: checkpoint mismatch: "), found


def test_checkpoints_are_optional_one_by_one() -> None:
    lines = lines_of(CONFORMANCE / "mineiro-seed202-deals.jsonl")
    checkpoints = [i for i, x in enumerate(lines) if json.loads(x).get("event") in
                   ("round", "hand", "game", "match")]
    for keep in range(3):
        dropped = {i for n, i in enumerate(checkpoints) if n % 3 != keep}
        kept = [x for i, x in enumerate(lines) if i not in dropped]
        assert verify_text("\n".join(kept) + "\n") == []


def test_checkpoint_order_repeats_and_strays() -> None:
    lines = lines_of(CONFORMANCE / "paulista-seed101.jsonl")
    i = next(i for i, x in enumerate(lines) if '"event": "hand"' in x)
    assert '"event": "round"' in lines[i - 1]
    swapped = lines[: i - 1] + [lines[i], lines[i - 1]] + lines[i + 1:]
    found = verify_text("\n".join(swapped) + "\n")
    assert found == [f"a.jsonl:{i + 1}: round checkpoint repeated or out of order: the move at "
                     f"line {i - 1} caused round, hand, in that order"]
    game = lines[:2] + ['{"event": "game", "winner": 0, "score": [0, 0], "games": [1, 0]}']
    assert verify_text("\n".join(game) + "\n") == [
        "a.jsonl:3: game checkpoint not caused by the move at line 2 (it caused none)"]
    first = lines[:1] + ['{"event": "round", "winner": 0}']
    assert verify_text("\n".join(first) + "\n")[0].startswith(
        "a.jsonl:2: round checkpoint not caused by a move")


# -- deals ---------------------------------------------------------------------------------------
def seeded_with_deals(variant: str, seed: int) -> list[str]:
    return record_random(variant, seed, deals=True).splitlines()


def test_seeded_deals_match_in_any_order_within_a_hand() -> None:
    lines = seeded_with_deals("paulista", 5)
    deals = [i for i, x in enumerate(lines) if '"event": "deal"' in x]
    assert len(deals) > 3
    for i in deals:
        d = json.loads(lines[i])
        d["hands"] = [list(reversed(h)) for h in d["hands"]]
        lines[i] = json.dumps(d)
    assert verify_text("\n".join(lines) + "\n") == []
    some = [x for n, x in enumerate(lines) if n not in deals[1::2]]  # deals optional per hand
    assert verify_text("\n".join(some) + "\n") == []


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(vira="Kc" if d["vira"] != "Kc" else "Kd"), "the vira is K"),
    (lambda d: d.update(dealer=(d["dealer"] + 1) % 4), "by rotation"),
    (lambda d: d["hands"].reverse(), "seat 0 holds"),
    (lambda d: d["hands"].pop(), "expected 4 hands, found 3"),
])
def test_seeded_deal_mismatches(change: object, message: str) -> None:
    lines = seeded_with_deals("paulista", 5)
    d = json.loads(lines[1])
    change(d)  # type: ignore[operator]
    lines[1] = json.dumps(d)
    found = verify_text("\n".join(lines) + "\n")
    assert len(found) == 1 and found[0].startswith("a.jsonl:2: deal mismatch: "), found
    assert message in found[0]


def test_a_deal_is_the_first_event_of_its_hand() -> None:
    lines = seeded_with_deals("mineiro", 5)
    moved = lines[:1] + lines[2:3] + lines[1:2] + lines[3:]
    assert verify_text("\n".join(moved) + "\n") == [
        "a.jsonl:3: a deal is the first event of its hand: this hand has events already"]
    twice = lines[:2] + lines[1:]
    assert verify_text("\n".join(twice) + "\n") == [
        "a.jsonl:3: a deal is the first event of its hand: this hand has events already"]


def test_unseeded_deals_are_checked_by_the_engine() -> None:
    lines = record_random("paulista", 8, unseeded=True).splitlines()
    d = json.loads(lines[1])
    d["vira"] = d["hands"][2][1]
    bad = lines[:1] + [json.dumps(d)] + lines[2:]
    assert verify_text("\n".join(bad) + "\n") == [f"a.jsonl:2: deal mismatch: {d['vira']} is "
                                                  "dealt twice"]
    d = json.loads(lines[1])
    d["hands"][0][0] = "8c"  # no 8 in the deck
    bad = lines[:1] + [json.dumps(d)] + lines[2:]
    assert "8c is not in this variant's deck" in verify_text("\n".join(bad) + "\n")[0]
    twice = lines[:2] + lines[1:]
    assert verify_text("\n".join(twice) + "\n") == [
        "a.jsonl:3: a deal is the first event of its hand: this hand was dealt already"]


def test_unseeded_replay_matches_match_deal() -> None:
    """A log of explicit deals replays as Match.new(seed=None) plus match.deal(Deal...)."""
    lines = [json.loads(x) for x in lines_of(REPLAYS / "mineiro-deals2.jsonl")]
    match = Match.new(find_variant("mineiro"), seed=None, dealer=lines[0]["dealer"])
    for e in lines[1:]:
        if e["event"] == "deal":
            match.deal(Deal.of(e["dealer"], e["hands"], e.get("vira")))
        elif e["event"] not in ("round", "hand", "game", "match"):
            match.apply(Action.from_event(e))
    result = verify_file(REPLAYS / "mineiro-deals2.jsonl")
    assert match.is_over and (result.winner, result.games) == (match.winner, match.games)


# -- the end of a log ----------------------------------------------------------------------------
def test_incomplete_and_after_the_end() -> None:
    lines = lines_of(REPLAYS / "paulista-seed1.jsonl")
    result = verify_bytes(("\n".join(lines[:10]) + "\n").encode(), "a.jsonl")
    assert result.valid and result.incomplete is not None
    assert str(result.incomplete).startswith("a.jsonl:10: incomplete: the log ends before the "
                                             "match is over (hand ")
    last_move = max(i for i, x in enumerate(lines) if '"seat"' in x)
    after = lines + ['{"event": "deal", "dealer": 0, "hands": [["4c"]]}']
    assert verify_text("\n".join(after) + "\n") == [
        f"a.jsonl:{len(lines) + 1}: deal after the match ended (at line {last_move + 1})"]


def test_lenient_collects_every_problem_strict_stops_at_the_first() -> None:
    lines = lines_of(REPLAYS / "paulista-seed1.jsonl")
    hands = [i for i, x in enumerate(lines) if '"event": "hand"' in x]
    broken = lines[:]
    for i in hands[:2]:
        broken[i] = broken[i].replace('"points": ', '"points": 1')
    broken.insert(hands[2], "{oops")
    text = "\n".join(broken) + "\n"
    found = verify_text(text)
    assert [int(x.split(":")[1]) for x in found] == [hands[0] + 1, hands[1] + 1, hands[2] + 1]
    with pytest.raises(LogProblem) as info:
        verify_bytes(text.encode(), "a.jsonl", strict=True)
    assert str(info.value) == found[0]


def test_illegal_move_stops_the_replay_but_not_the_reading() -> None:
    lines = lines_of(REPLAYS / "paulista-seed1.jsonl")
    bad = lines[:2] + ['{"event": "accept", "seat": 0}'] + lines[2:] + ["[]"]
    found = verify_text("\n".join(bad) + "\n")
    assert found[0].startswith("a.jsonl:3: illegal move [not_now]: accept 0: no raise is "
                               "waiting for an answer; legal: ")
    assert found[1:] == [f"a.jsonl:{len(bad)}: schema violation: expected an event (a JSON "
                         "object), found a list"]


# -- variants ------------------------------------------------------------------------------------
def test_variant_path_relative_to_the_log_and_its_fingerprint(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "house.yaml").write_text("extends: paulista\nmatch:\n  games_to_win: 2\n",
                                                   encoding="utf-8")
    logs = tmp_path / "logs"
    logs.mkdir()
    text = record_random(tmp_path / "rules" / "house.yaml", 4)
    header = json.loads(text.splitlines()[0])
    header["variant"] = "../rules/house.yaml"
    good = json.dumps(header) + "\n" + text.split("\n", 1)[1]
    (logs / "a.jsonl").write_text(good, encoding="utf-8")
    result = verify_file(logs / "a.jsonl")
    assert result.valid and result.incomplete is None and max(result.games or [0]) == 2
    header["variant_sha256"] = find_variant("paulista").fingerprint
    (logs / "b.jsonl").write_text(json.dumps(header) + "\n" + text.split("\n", 1)[1])
    found = [str(p) for p in verify_file(logs / "b.jsonl").problems]
    assert len(found) == 1 and "does not match the fingerprint" in found[0]
    header["variant"] = "../rules/missing.yaml"
    (logs / "c.jsonl").write_text(json.dumps(header) + "\n")
    found = [str(p) for p in verify_file(logs / "c.jsonl").problems]
    assert found[0].startswith(f"{logs / 'c.jsonl'}:1: no variant file at ")
    (tmp_path / "rules" / "bad.yaml").write_text("extends: paulista\ngame:\n  target: -1\n")
    header["variant"] = "../rules/bad.yaml"
    (logs / "d.jsonl").write_text(json.dumps(header) + "\n")
    found = [str(p) for p in verify_file(logs / "d.jsonl").problems]
    assert found[0].startswith(f"{logs / 'd.jsonl'}:1: variant '../rules/bad.yaml' is invalid: ")


def test_header_checks_against_the_variant() -> None:
    found = verify_text('{"truco_log": 1, "variant": "paulista", "seed": 1, "dealer": 4}\n')
    assert found == ["a.jsonl:1: bad header: dealer 4 is not a seat of this variant (0..3)"]
    found = verify_text('{"truco_log": 1, "variant": "paulista", "players": ["a", "b"]}\n')
    assert found == ["a.jsonl:1: bad header: players names 2 players, the variant seats 4"]


def test_recorded_logs_of_every_shipped_variant_verify() -> None:
    from engine.resources import shipped_variants

    for name in shipped_variants():
        for unseeded in (False, True):
            text = record_random(name, 11, dealer=1, unseeded=unseeded, deals=True)
            result = verify_bytes(text.encode(), name)
            assert result.valid and result.incomplete is None, (name, result.problems)
