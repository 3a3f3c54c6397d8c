"""``truco replay LOG --html FILE --analysis A.json`` checks A.json before it draws anything
(issue 39): strict JSON (no NaN, nesting bounded), every value the page reads of the type and
range it needs, the analysis tied to the very log it was made of by the log's digest
(``log_sha256``); each problem is ``truco: A.json: ...``, exit 1, no page written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from engine.cli import main
from engine.logformat import record_random
from engine.replay import strip_checkpoints
from tests.conftest import REPO

LOG = REPO / "replays" / "paulista-seed1.jsonl"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout + result.stderr


@pytest.fixture(scope="module")
def analysis(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("a") / "a.json"
    assert run("analyze", str(LOG), "-p", "2", "--json", "-o", str(out))[0] == 0
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return data


def _refused(tmp_path: Path, text: str, says: str, log: Path = LOG) -> None:
    path = tmp_path / "a.json"
    path.write_text(text, encoding="utf-8")
    page = tmp_path / "page.html"
    code, out = run("replay", str(log), "--html", str(page), "--analysis", str(path))
    assert code == 1, out
    assert f"truco: {path}: " in out and says in out, out
    assert "Traceback" not in out and not page.exists()


def _changed(analysis: dict[str, Any], k: int, key: str, value: Any) -> str:
    data = json.loads(json.dumps(analysis))
    decision = next(d for d in data["decisions"] if d["best"] is not None and d["mark"])
    if k >= 0:
        decision["moves"][k][key] = value
    else:
        decision[key] = value
    return json.dumps(data)


def test_the_analysis_of_the_log_draws_its_page(tmp_path: Path,
                                                analysis: dict[str, Any]) -> None:
    assert analysis["analysis"] == 2 and len(analysis["log_sha256"]) == 64
    path = tmp_path / "a.json"
    path.write_text(json.dumps(analysis), encoding="utf-8")
    code, out = run("replay", str(LOG), "--html", str(tmp_path / "p.html"), "--analysis",
                    str(path))
    assert code == 0, out


def test_a_nesting_200000_deep_is_refused(tmp_path: Path) -> None:
    """It was a RecursionError traceback."""
    _refused(tmp_path, "[" * 200_000 + "]" * 200_000, "not JSON (arrays and objects nested")


def test_nan_in_a_win_is_refused(tmp_path: Path, analysis: dict[str, Any]) -> None:
    """It gave exit 0 and a page whose script stopped."""
    _refused(tmp_path, _changed(analysis, 0, "win", 0.5).replace('"win": 0.5', '"win": NaN', 1),
             "not JSON (NaN is not valid JSON)")


@pytest.mark.parametrize(("k", "key", "value", "says"), [
    (-1, "legal", 3, ".legal: expected a list of moves, found 3"),
    (-1, "loss", "0.2", ".loss: expected a number from -1 to 1, found '0.2'"),
    (-1, "mark", "big blunder", ".mark: expected one of 'blunder', 'mistake', 'inaccuracy' or "
                                "null, found 'big blunder'"),
    (0, "win", 2, ".moves[0].win: expected a number from 0 to 1, found 2"),
    (0, "win", True, ".moves[0].win: expected a number from 0 to 1, found True"),
    (-1, "best", 99, ".best: expected the index of a legal move"),
    (-1, "seat", 7, ".seat: expected a whole number from 0 to 3, found 7"),
    (-1, "played", "play 9 Zz", ".played: expected one of"),
])
def test_a_value_the_page_cannot_draw_is_refused(tmp_path: Path, analysis: dict[str, Any],
                                                 k: int, key: str, value: Any,
                                                 says: str) -> None:
    """A decision whose legal was a number gave a traceback; a string loss and a mark with a
    space gave exit 0 and a broken page."""
    _refused(tmp_path, _changed(analysis, k, key, value), says)


def test_a_mark_name_that_is_not_a_word_is_refused(tmp_path: Path,
                                                   analysis: dict[str, Any]) -> None:
    data = json.loads(json.dumps(analysis))
    data["marks"]["x y"] = 0.5
    _refused(tmp_path, json.dumps(data), "marks.x y: expected a mark's name")


def test_an_analysis_of_format_1_is_refused(tmp_path: Path, analysis: dict[str, Any]) -> None:
    data = {k: v for k, v in analysis.items() if k != "log_sha256"}
    data["analysis"] = 1
    _refused(tmp_path, json.dumps(data), "format 1 names no digest of its log")


def test_the_analysis_of_another_log_with_the_same_seed_and_other_cards_is_refused(
        tmp_path: Path) -> None:
    """Two unseeded logs (no seed, the same header) of other cards, cut after the first
    moves: every decision line of one is a move line of the other, which the variant, seed
    and lines alone let through."""
    logs = []
    for seed in (1, 2):
        text = "\n".join(strip_checkpoints(record_random("paulista", seed, unseeded=True))
                         .splitlines()[:6]) + "\n"
        logs.append(tmp_path / f"{seed}.jsonl")
        logs[-1].write_text(text, encoding="utf-8")
    assert logs[0].read_text().splitlines()[0] == logs[1].read_text().splitlines()[0]
    out = tmp_path / "one.json"
    assert run("analyze", str(logs[0]), "-p", "1", "--json", "-o", str(out))[0] == 0
    assert json.loads(out.read_text())["decisions"]
    _refused(tmp_path, out.read_text(), "the analysis is of another log: its log_sha256 is",
             log=logs[1])


def test_the_analysis_of_a_log_naming_its_variant_by_file_is_accepted(tmp_path: Path) -> None:
    """It was refused: the viewer compared the variant's name with the header's path."""
    shutil.copy(REPO / "variants" / "paulista.yaml", tmp_path / "mine.yaml")
    (tmp_path / "logs").mkdir()
    log = tmp_path / "logs" / "g.jsonl"
    code, out = run("record", "--variant", str(tmp_path / "mine.yaml"), "--seed", "3", "--out",
                    str(log))
    assert code == 0, out
    assert json.loads(log.read_text().splitlines()[0])["variant"] == "../mine.yaml"
    lines = log.read_text().splitlines()[:12]
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    a = tmp_path / "a.json"
    assert run("analyze", str(log), "-p", "1", "--json", "-o", str(a))[0] == 0
    code, out = run("replay", str(log), "--html", str(tmp_path / "p.html"), "--analysis", str(a))
    assert code == 0, out
