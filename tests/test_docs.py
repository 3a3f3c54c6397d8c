"""The examples in the README and in the docstrings of the foundation modules run as written."""

from __future__ import annotations

import doctest
import json
import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO
from helpers import doctests

from engine.cli import main
from engine.protocol.external import end_all


def test_readme_python_example_runs() -> None:
    result = doctest.testfile(str(REPO / "README.md"), module_relative=False)
    assert result.attempted >= 2 and result.failed == 0


@pytest.mark.parametrize("module", ["engine", "engine.cards", "engine.shuffle", "engine.errors",
                                    "engine.variant", "engine.actions", "engine.game",
                                    "engine.logformat", "engine.replay", "engine.observation",
                                    "engine.replay.replayer", "engine.replay.verify",
                                    "engine.replay.annotate", "engine.logread",
                                    "engine.logcheck", "engine.strictjson",
                                    "engine.tui", "engine.words", "engine.position",
                                    "engine.fileio", "engine.payload", "engine.logschema",
                                    "engine.variant.extends", "engine.schemas",
                                    "engine.checkpoint", "engine.serve", "engine.serve.table",
                                    "engine.serve.store", "engine.cli.faults", "engine.machine",
                                    "engine.moves.quick"])
def test_module_docstring_examples_run(module: str) -> None:
    result = doctests(module)
    assert result.attempted >= 1 and result.failed == 0


def _anchors(markdown: str) -> set[str]:
    """The heading anchors GitHub makes for a page (lower case, punctuation dropped)."""
    import re

    anchors = set()
    fence = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fence = not fence
        elif not fence and line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            anchors.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return anchors


@pytest.mark.parametrize("page", ["README.md", *sorted(
    str(p.relative_to(REPO)) for p in (REPO / "docs").glob("*.md"))])
def test_every_relative_link_of_the_docs_resolves(page: str) -> None:
    import re

    path = REPO / page
    text = path.read_text(encoding="utf-8")
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        missing = not linked.exists()
        if missing or (anchor and linked.suffix == ".md"
                       and anchor not in _anchors(linked.read_text(encoding="utf-8"))):
            broken.append(target)
    assert broken == []


def test_the_readme_is_a_tour_not_a_manual() -> None:
    assert len((REPO / "README.md").read_text(encoding="utf-8").splitlines()) < 450


def test_the_readme_ten_line_bot_passes_check_and_plays_its_tournament(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's external bot, as written: ten lines, truco bot check passes it, and the
    README's tournament command plays it."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    bot = readme.split("saved as `mybot.py`", 1)[1].split("```python\n", 1)[1]
    bot = bot.split("```", 1)[0]
    assert len(bot.splitlines()) == 10
    (tmp_path / "mybot.py").write_text(bot, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TRUCO_BOT_STDERR", str(tmp_path / "stderr"))
    (line,) = [x for x in readme.splitlines() if x.startswith("truco tournament")
               and "mybot.py" in x]
    python = f"{sys.executable} mybot.py"  # python3 as this test's interpreter
    args = [a.replace("python3 mybot.py", python) for a in shlex.split(line)[1:]]
    try:
        check = CliRunner().invoke(main, ["bot", "check", python, "--decisions", "40"])
        assert check.exit_code == 0, check.output
        result = CliRunner().invoke(main, [*args, "--json"])
    finally:
        end_all()
    assert result.exit_code == 0, result.output
    pairings = json.loads(result.stdout)["pairings"]
    assert pairings[0]["a"] == f"cmd:{python}" and pairings[0]["matches"] == 20


def test_the_viewers_page_size_is_what_docs_viewer_md_says(tmp_path: Path) -> None:
    """docs/viewer.md's "a whole Paulista match is X to Y KB" holds for the shipped replays."""
    import re

    text = " ".join((REPO / "docs" / "viewer.md").read_text(encoding="utf-8").split())
    low, high = map(int, re.search(r"a whole Paulista match is (\d+) to (\d+) KB",
                                   text).groups())  # type: ignore[union-attr]
    sizes = []
    for log in sorted((REPO / "replays").glob("paulista-*.jsonl")):
        page = tmp_path / f"{log.stem}.html"
        result = CliRunner().invoke(main, ["replay", str(log), "--html", str(page)])
        assert result.exit_code == 0, result.output
        sizes.append(page.stat().st_size)
    assert len(sizes) == 3
    assert all(low * 1000 <= size <= high * 1000 for size in sizes), sizes
