"""What verification keeps between logs: the plans of lines met before, the variant files named
by headers, the fingerprints. Each answers exactly as the uncached way does."""

from __future__ import annotations

import io
import os
import random
from pathlib import Path

import pytest

from engine import replay as replay_module
from engine.logformat import record_random
from engine.logread import (
    KEEP_LINE_BYTES,
    MAX_LINE_BYTES,
    LogItem,
    LogProblem,
    log_lines,
    read_line,
    read_log,
)
from engine.replay import Collector, Replayer, resolve_variant, verify_bytes, verify_file
from engine.replay import fast as replay_fast
from engine.variant import load_variant
from tests.conftest import CONFORMANCE, REPO

LOGS = sorted(CONFORMANCE.glob("*.jsonl")) + sorted((REPO / "replays").glob("**/*.jsonl"))


# -- the lines of a log: bytes and streams alike -------------------------------------------------
def _edge_inputs() -> list[bytes]:
    out = [b"", b"\n", b"\r\n", b"\r", b"a", b"a\n", b"a\r\n", b"a\r\r\n", b"a\nb", b"\n\n\nx",
           b"a\r\nb\r\n\r\n"]
    for extra in range(-2, 6):
        long = b"x" * (MAX_LINE_BYTES + extra)
        out += [long, long + b"\n", long + b"\r\n", long + b"\r", b"a\n" + long + b"\nb\n",
                long[:-1] + b"\r" + b"\n", b"y" * 3 + long]
    return out


@pytest.mark.parametrize("data", _edge_inputs(), ids=lambda d: f"{len(d)}:{d[-3:]!r}")
def test_log_lines_of_bytes_are_those_of_a_stream(data: bytes) -> None:
    def shown(x: bytes | LogProblem) -> object:
        return str(x) if isinstance(x, LogProblem) else x

    from_bytes = [shown(x) for x in log_lines(data, "a.jsonl")]
    assert from_bytes == [shown(x) for x in log_lines(io.BytesIO(data), "a.jsonl")]
    assert from_bytes == [shown(x) for x in log_lines([data[:7], data[7:]], "a.jsonl")]


# -- a replay from plans is the replay from items ------------------------------------------------
def _variants_of(data: bytes, rng: random.Random) -> list[bytes]:
    """The log and damaged copies of it: lines dropped, doubled, swapped, changed, blanked."""
    lines = data.splitlines(keepends=True)
    out = [data]
    for _ in range(6):
        ls = lines[:]
        i, j = rng.randrange(len(ls)), rng.randrange(len(ls))
        how = rng.randrange(6)
        if how == 0:
            del ls[i]
        elif how == 1:
            ls.insert(i, ls[j])
        elif how == 2:
            ls[i], ls[j] = ls[j], ls[i]
        elif how == 3:
            ls[i] = ls[i].replace(b"1", b"2", 1)
        elif how == 4:
            ls[i] = b"\n"
        else:
            ls = ls[:i]
        out.append(b"".join(ls))
    return out


def _outcome(r: Replayer, visitor: Collector) -> tuple[object, ...]:
    m = r.match
    return ([p.as_dict() for p in visitor.problems], r.lines, r.stopped,
            None if r.incomplete is None else r.incomplete.as_dict(),
            None if m is None else (m.hand_number, m.score, m.games, m.winner, m.state))


def test_a_replay_from_plans_answers_as_a_replay_from_items() -> None:
    rng = random.Random(11)
    datas = [p.read_bytes() for p in LOGS]
    datas += [record_random("paulista", seed).encode() for seed in range(3)]
    datas += [record_random("mineiro", 5, unseeded=True).encode()]
    checked = 0
    for data in datas:
        for variant in _variants_of(data, rng):
            for _ in range(2):  # the second time, every good line has its plan
                fast, slow = Collector(), Collector()
                a = Replayer("a.jsonl", None, fast)
                a.run_source(variant)
                b = Replayer("a.jsonl", None, slow)
                b.run(read_log(variant, "a.jsonl"))
                assert _outcome(a, fast) == _outcome(b, slow)
                checked += 1
    assert checked > 100


# -- variant files named by headers --------------------------------------------------------------
CHILD = "name: mine\nextends: parent.yaml\ngame:\n  target: {target}\n"
PARENT = "name: parent\nextends: paulista\nbetting:\n  initial_value: {value}\n"


def _files(tmp_path: Path, target: int = 15, value: int = 1) -> Path:
    (tmp_path / "parent.yaml").write_text(PARENT.format(value=value), encoding="utf-8")
    child = tmp_path / "mine.yaml"
    child.write_text(CHILD.format(target=target), encoding="utf-8")
    return child


def test_a_changed_variant_file_is_loaded_again(tmp_path: Path) -> None:
    child = _files(tmp_path, target=15)
    assert resolve_variant("mine.yaml", tmp_path).target == 15
    assert resolve_variant("mine.yaml", tmp_path).target == 15  # kept
    before = child.stat().st_mtime_ns
    child.write_text(CHILD.format(target=14), encoding="utf-8")
    os.utime(child, ns=(before, before))  # the same size and time: only the bytes changed
    assert resolve_variant("mine.yaml", tmp_path).target == 14


def test_a_changed_parent_of_a_variant_file_is_loaded_again(tmp_path: Path) -> None:
    _files(tmp_path, value=1)
    assert resolve_variant("mine.yaml", tmp_path).initial_value == 1
    (tmp_path / "parent.yaml").write_text(PARENT.format(value=2), encoding="utf-8")
    assert resolve_variant("mine.yaml", tmp_path).initial_value == 2


def test_a_variant_file_that_turns_bad_is_refused_and_then_read_again(tmp_path: Path) -> None:
    child = _files(tmp_path)
    good = resolve_variant("mine.yaml", tmp_path)
    child.write_text("name: mine\nextends: parent.yaml\ngame:\n  target: ten\n", encoding="utf-8")
    with pytest.raises(Exception, match="target"):
        resolve_variant("mine.yaml", tmp_path)
    child.write_text(CHILD.format(target=15), encoding="utf-8")
    assert resolve_variant("mine.yaml", tmp_path) == good


def test_a_kept_variant_cannot_be_changed_through_a_caller(tmp_path: Path) -> None:
    _files(tmp_path)
    fresh = load_variant("mine.yaml", base=tmp_path)
    first = resolve_variant("mine.yaml", tmp_path)
    first.data["game"]["target"] = 99  # a caller's own copy
    first.data["betting"]["ladder"].clear()
    again = resolve_variant("mine.yaml", tmp_path)
    assert again is not first
    assert again.data == fresh.data
    assert again.fingerprint == fresh.fingerprint
    assert again == fresh


def test_a_log_verifies_against_the_variant_file_as_it_is_now(tmp_path: Path) -> None:
    child = _files(tmp_path)
    log = tmp_path / "a.jsonl"
    log.write_text(record_random(child, 3, log_dir=tmp_path), encoding="utf-8")
    assert verify_file(log).valid
    assert verify_file(log).valid
    child.write_text(CHILD.format(target=14), encoding="utf-8")
    problems = verify_file(log).problems
    assert problems and "variant_sha256" in problems[0].message


def test_the_log_folder_is_found_only_for_a_variant_file(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    _files(tmp_path)
    log = tmp_path / "a.jsonl"
    log.write_text(record_random(tmp_path / "mine.yaml", 3, log_dir=tmp_path), encoding="utf-8")
    monkeypatch.chdir(REPO)  # the header's path is relative to the log's folder, not this one
    assert verify_file(log).valid
    named = verify_bytes(log.read_bytes(), "a.jsonl")  # no folder: the current one
    assert [p.kind for p in named.problems] == ["variant"]


def test_fingerprints_are_the_variants_own(tmp_path: Path) -> None:
    _files(tmp_path)
    for ref, base in (("paulista", None), ("mineiro", None), ("mine.yaml", tmp_path)):
        rules, fingerprint = replay_module.header_rules(ref, base)
        assert fingerprint == rules.fingerprint == load_variant(ref, base=base).fingerprint


def test_only_short_lines_are_kept() -> None:
    short = b'{"event": "fold", "seat": 1}'
    long = b'{"event": "fold", "seat": 1, "meta": {"note": "' + b"x" * KEEP_LINE_BYTES + b'"}}'
    assert isinstance(item := read_line(short, 2), LogItem) and item.raw == short
    assert isinstance(item := read_line(long, 2), LogItem) and item.raw is None
    header = b'{"truco_log": 1, "variant": "paulista", "seed": 7}\n'
    play = b'{"event": "play", "seat": 1, "card": "2h", "t": "' + b"x" * KEEP_LINE_BYTES + b'"}'
    for _ in range(2):
        assert verify_bytes(header + play + b"\n", "a.jsonl").valid
    assert play not in replay_fast.PLANS
