"""Fuzzing as tests (issue 7, item 3): valid logs and variant files, mutated by hypothesis, get
either a result or the project's own error (:class:`~engine.errors.TrucoError`), never another
exception; through the CLI, exit 0 or 1 and never a traceback.

Each CI run tries a few thousand cases in bounded time. For a longer run, set
``TRUCO_FUZZ_EXAMPLES`` (the examples of *each* test)::

    TRUCO_FUZZ_EXAMPLES=200000 python -m pytest tests/test_fuzz.py -p no:cacheprovider \\
        --hypothesis-show-statistics

A failure prints the smallest input hypothesis found; add it to tests/test_hostile_logs.py or
tests/test_hostile_variants.py as a case once fixed.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine.cards import card_name
from engine.cli import main
from engine.errors import TrucoError
from engine.game import Match
from engine.logformat import record_random
from engine.replay import annotate, verify_bytes
from engine.resources import shipped_variants
from engine.variant import load_variant
from tests.conftest import CONFORMANCE

#: Examples per test: the default of each test, or TRUCO_FUZZ_EXAMPLES for a longer run.
LONG_RUN = int(os.environ.get("TRUCO_FUZZ_EXAMPLES", "0"))


def fuzz(default: int) -> Callable[[Any], Any]:
    """Hypothesis settings for a fuzz test: ``default`` examples in CI, no deadline."""
    return settings(max_examples=LONG_RUN or default, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# -- values a field may be changed to -------------------------------------------------------------
_ODD: list[Any] = [-1, 2**64 - 1, 2**64, 10**400, 1.0, 0.5, -0.0, 1e300, True, False, None, "", "x",
        "Kd", "8d", "Zz", "#1", "paulista", "mineiro", "x.yaml", "/etc/passwd", "sub/",
        [], [0, 0], [1, 0], [[]], [["Kd"]], {}, {"a": 1}]
# A copy of each: a list or mapping drawn twice must not be one object that mutations share.
VALUES = st.one_of(st.integers(-2, 15), st.sampled_from(_ODD), st.text(max_size=4),
                   st.sampled_from([card_name(c) for c in range(52)]),
                   st.lists(st.integers(0, 13), max_size=3)).map(copy.deepcopy)


# -- logs ------------------------------------------------------------------------------------------
def _base_logs() -> list[list[bytes]]:
    logs = [p.read_bytes() for p in sorted(CONFORMANCE.glob("*.jsonl"))]
    logs.append(record_random("mineiro", 3, unseeded=True).encode())
    logs.append(record_random("paulista", 4, deals=True).encode())
    return [data.splitlines() for data in logs]


BASE_LOGS = _base_logs()


def _change_field(line: bytes, key: str | None, value: Any, drop: bool) -> bytes:
    try:
        obj = json.loads(line)
    except ValueError:
        return line
    if not isinstance(obj, dict):
        return line
    if key is None or key not in obj:
        key = sorted(obj)[len(line) % len(obj)] if obj and key is None else (key or "x")
    if drop:
        obj.pop(key, None)
    else:
        obj[key] = value
    return json.dumps(obj, ensure_ascii=False).encode()


@st.composite
def mutated_logs(draw: st.DrawFn) -> bytes:
    """A valid log with 1 to 3 mutations: lines deleted, duplicated, swapped or replaced; a
    field changed to another value or type, dropped or added; bytes cut off the end."""
    lines = list(draw(st.sampled_from(BASE_LOGS)))
    keys = st.sampled_from(["event", "seat", "card", "value", "covered", "play", "winner",
                            "points", "score", "games", "dealer", "hands", "vira", "seed",
                            "variant", "truco_log", "players", "meta", "t", "extra"])
    for _ in range(draw(st.integers(1, 3))):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        j = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "field", "field", "field",
                                   "drop", "bytes"]))
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(j, lines[i])
        elif op == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "bytes":
            lines[i] = draw(st.binary(max_size=24))
        else:
            key = draw(st.one_of(st.none(), keys))
            lines[i] = _change_field(lines[i], key, draw(VALUES), drop=op == "drop")
    data = b"\n".join(lines) + b"\n"
    if draw(st.integers(0, 7)) == 0:
        data = data[: draw(st.integers(0, len(data)))]
    if draw(st.integers(0, 7)) == 0:
        data = data.replace(b"\n", b"\r\n")
    return data


def check_log(data: bytes, base: Path) -> None:
    """Lenient and strict verification and annotation agree, and raise only LogProblems."""
    result = verify_bytes(data, "fuzz.jsonl", base=base)
    event("log: " + ("invalid" if result.problems else "incomplete" if result.incomplete
                     else "valid"))
    for problem in result.problems:
        assert problem.file == "fuzz.jsonl" and problem.line is not None and problem.line >= 1
        assert str(problem).startswith(f"fuzz.jsonl:{problem.line}: ")
    try:
        strict = verify_bytes(data, "fuzz.jsonl", base=base, strict=True)
    except TrucoError as exc:
        assert result.problems and str(exc) == str(result.problems[0])
    else:
        assert not result.problems and str(strict.incomplete) == str(result.incomplete)
    try:
        text, replaced = annotate(data, "fuzz.jsonl", base=base)
    except TrucoError:
        assert any(p.kind != "checkpoint" for p in result.problems)
    else:
        # Only checkpoints that disagree are replaced: the annotated log is valid.
        assert all(p.kind == "checkpoint" for p in result.problems)
        assert len(replaced) == len(result.problems)
        again = verify_bytes(text.encode(), "fuzz.jsonl", base=base)
        assert again.valid, again.problems
        assert (again.incomplete is None) == (result.incomplete is None)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder for the fuzzed files (module-scoped: hypothesis runs many examples per test)."""
    return tmp_path_factory.mktemp("fuzz")


@fuzz(1200)
@given(mutated_logs())
def test_mutated_logs_get_a_result_or_a_log_problem(folder: Path, data: bytes) -> None:
    check_log(data, folder)


@fuzz(300)
@given(st.binary(max_size=300))
def test_random_bytes_get_a_result_or_a_log_problem(folder: Path, data: bytes) -> None:
    check_log(b'{"truco_log": 1, "variant": "paulista", "seed": 1}\n' + data, folder)
    check_log(data, folder)


# -- variant files ---------------------------------------------------------------------------------
BASE_VARIANTS = [yaml.safe_load(p.read_text(encoding="utf-8"))
                 for _, p in sorted(shipped_variants().items())]
BASE_TEXTS = [p.read_text(encoding="utf-8") for _, p in sorted(shipped_variants().items())]


def _paths(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _paths(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _paths(v, (*path, i))
    return out


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        data = data[part]
    return data


@st.composite
def mutated_variant_data(draw: st.DrawFn) -> str:
    """A shipped variant with 1 to 4 mutations of its data: keys dropped, added or retyped,
    values changed, list items added or removed; written back as YAML."""
    data = json.loads(json.dumps(draw(st.sampled_from(BASE_VARIANTS))))  # a deep copy
    for _ in range(draw(st.integers(1, 4))):
        paths = _paths(data)
        path = draw(st.sampled_from(paths))
        op = draw(st.sampled_from(["drop", "add", "set", "set", "append"]))
        target = _at(data, path)
        if op == "add" and isinstance(target, dict):
            target[draw(st.sampled_from(["extra", "players", "extends", "ladder", "mode"]))] = \
                draw(VALUES)
        elif op == "append" and isinstance(target, list):
            target.append(draw(VALUES) if not target
                          else copy.deepcopy(draw(st.sampled_from(target))))
        elif path and op == "drop":
            parent = _at(data, path[:-1])
            del parent[path[-1]]
        elif path:
            _at(data, path[:-1])[path[-1]] = draw(VALUES)
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


@st.composite
def mutated_variant_text(draw: st.DrawFn) -> bytes:
    """A shipped variant file with its text mutated: lines deleted, duplicated, swapped, a tab
    or a YAML fragment inserted, bytes cut off the end."""
    lines = draw(st.sampled_from(BASE_TEXTS)).splitlines(keepends=True)
    fragments = ["\t", "&a ", "*a", "---\n", "!!python/none ", "[", "{", "- ", ": ", "'",
                 "\ufeff", "1e400", "12.0", "\x00", "extends: x.yaml\n", "? [1]\n"]
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "insert"]))
        if op == "delete" and len(lines) > 1:
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            at = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:at] + draw(st.sampled_from(fragments)) + lines[i][at:]
    data = "".join(lines).encode("utf-8")
    if draw(st.integers(0, 5)) == 0:
        data = data[: draw(st.integers(0, len(data)))]
    return data


def check_variant(content: str | bytes, path: Path, seed: int) -> None:
    """Rules or a VariantError with a location; rules that load play a match's first moves
    without any error."""
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    try:
        rules = load_variant(path)
    except TrucoError as err:
        assert err.file is not None and err.line is not None and err.column is not None, err
        event("variant: refused")
        return
    event("variant: loaded and played")
    match = Match(rules, seed=seed)
    for step in range(100):
        if match.is_over:
            break
        legal = match.legal_actions()
        assert legal
        match.apply(legal[(seed + step) % len(legal)])


@fuzz(600)
@given(mutated_variant_data(), st.integers(0, 2**64 - 1))
def test_mutated_variant_data_gets_rules_or_a_variant_error(
    folder: Path, content: str, seed: int
) -> None:
    check_variant(content, folder / "fuzz.yaml", seed)


@fuzz(600)
@given(mutated_variant_text(), st.integers(0, 2**64 - 1))
def test_mutated_variant_text_gets_rules_or_a_variant_error(
    folder: Path, content: bytes, seed: int
) -> None:
    check_variant(content, folder / "fuzz.yaml", seed)


# -- through the command line ----------------------------------------------------------------------
def run_cli(*args: str) -> int:
    """Run ``truco ARGS``: exit 0 or 1, no traceback, no exception but SystemExit."""
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert "Traceback" not in result.output
    assert result.exit_code in (0, 1), result.output
    return result.exit_code


@fuzz(100)
@given(mutated_logs())
def test_cli_verify_and_replay_exit_0_or_1(folder: Path, data: bytes) -> None:
    path = folder / "cli.jsonl"
    path.write_bytes(data)
    valid = run_cli("verify", str(path)) == 0
    assert (run_cli("replay", str(path)) == 0) == valid
    run_cli("replay", "--checkpoints", str(path))


@fuzz(100)
@given(st.one_of(mutated_variant_data(), mutated_variant_text()))
def test_cli_variants_check_exits_0_or_1(folder: Path, content: str | bytes) -> None:
    path = folder / "cli.yaml"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    if run_cli("variants", "check", str(path)) == 0:
        run_cli("variants", "show", str(path))
