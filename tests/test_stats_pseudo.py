"""Every word of ``truco simulate`` and ``truco compare`` goes through the message catalog
(issue 43): their text tables and their pages, made in the pseudo-localising test locale
(``--lang qps``: every message marked ⟦...⟧), leave nothing unmarked but numbers, the
variants' and bots' names and the table's own words (see ``tests/test_play_pseudo.py``); and
in English they stay as they were (the docs' examples, compared by
``tests/test_docs_commands.py``)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_play_pseudo import _table_words, unmarked

from engine.cli import main

#: Names that are data or programs, the same in every language.
NAMES = ["heuristic", "random", "truco simulate", "truco compare", "truco:", "variant_sha256",
         "no-covered-cards", "gauderio-sem-flor", "p", "html"]


def _text_of(page: str) -> str:
    """What a reader sees of ``page``: its text and its charts' labels, a line each."""
    page = re.sub(r"<style>.*?</style>", " ", page, flags=re.S)
    page = re.sub(r"\b[0-9a-f]{12}…", " ", page)  # a digest's head
    return "\n".join(html.unescape(t).strip() for t in re.split(r"<[^>]*>", page)
                     if t.strip())


def _words(*variants: str) -> list[str]:
    words = {w for v in variants for w in _table_words(v)} | set(NAMES)
    return sorted(words, key=len, reverse=True)


def _run(args: list[str], folder: Path) -> str:
    """The command's output in the test locale, the folder of its files taken out."""
    result = CliRunner().invoke(main, ["--lang", "qps", *args])
    assert result.exit_code in (0, 1), result.output  # compare: 1 when a statistic differs
    return result.output.replace(str(folder), " ")


@pytest.mark.parametrize("variant", ["paulista", "mineiro", "gauderio"])
def test_every_word_of_simulate_goes_through_the_catalog(variant: str, tmp_path: Path) -> None:
    page = tmp_path / "stats.html"
    seen = _run(["simulate", "-v", variant, "-n", "6", "--seed", "1", "--html", str(page)],
                tmp_path)
    words = _words(variant)
    bad = unmarked(seen, words) + unmarked(_text_of(page.read_text(encoding="utf-8")), words)
    assert not bad, "\n".join(bad[:30])
    assert "⟦" in seen and 'lang="qps"' in page.read_text(encoding="utf-8")


@pytest.mark.parametrize("a, b", [("paulista", "variants/house/no-covered-cards.yaml"),
                                  ("gauderio", "variants/house/gauderio-sem-flor.yaml")])
def test_every_word_of_compare_goes_through_the_catalog(a: str, b: str, tmp_path: Path) -> None:
    page = tmp_path / "compare.html"
    text = _run(["compare", a, b, "--matches", "6", "--seed", "1", "--html", str(page)],
                tmp_path)
    words = _words(a, b)
    bad = unmarked(text, words) + unmarked(_text_of(page.read_text(encoding="utf-8")), words)
    assert not bad, "\n".join(bad[:30])
    assert "⟦" in text


def test_the_tables_read_in_portuguese() -> None:
    result = CliRunner().invoke(main, ["--lang", "pt-BR", "simulate", "-v", "mineiro", "-n",
                                       "4", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "jogos ganhos" in result.output and "mãos por partida" in result.output
    assert "matches won" not in result.output


def test_every_word_of_tournament_goes_through_the_catalog(tmp_path: Path) -> None:
    text = _run(["tournament", "-v", "mineiro", "-b", "random,heuristic,search:4", "-n", "2",
                 "--seed", "1"], tmp_path)
    bad = unmarked(text, _words("mineiro") + ["search"])
    assert not bad, "\n".join(bad)
    assert "⟦" in text
