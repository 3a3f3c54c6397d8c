"""The replay viewer in the reader's language (issue 43): ``truco --lang pt-BR replay LOG
--html`` draws the page, its steps' words (the transcript's) and the analysis's marks in
Portuguese, the table's words as they are; in the test locale ``qps`` every word the page
holds went through the catalog; in English the transcript is what it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO
from test_play_pseudo import _table_words, unmarked

from engine import i18n
from engine.cli import main
from engine.transcript import transcript
from engine.viewer import replay_page
from tests.test_serve_language import OWN_WORDS, unmarked_page
from tests.test_viewer import _payload

LOGS = ["paulista-special.jsonl", "mineiro-special.jsonl", "gauderio-seed1.jsonl"]


def _texts(page: str) -> list[str]:
    """Every step's words: its move (and the move as a seat that may not see its card reads
    it) and its checkpoints."""
    out: list[str] = []
    for step in _payload(page)["steps"]:
        out += [step[k] for k in ("tx", "tm") if step.get(k)]
        out += step.get("cp", [])
    return out


def test_the_page_and_its_steps_speak_portuguese() -> None:
    data = (REPO / "replays" / "mineiro-special.jsonl").read_bytes()
    with i18n.using("pt-BR"):
        page, problem = replay_page(data, "mineiro-special.jsonl")
    assert problem is None and '<html lang="pt-BR">' in page
    assert ">Placar <" in page and ">Esta mão<" in page and "semente 4" in page
    texts = "\n".join(_texts(page))
    assert "Bia truca: truco (3) com 4♠" in texts and "Caio joga A♠ (espadilha)" in texts
    assert " plays " not in texts and "wins" not in texts
    assert '"Hand {n}":"Mão {n}"' in page  # the script's catalog


@pytest.mark.parametrize("log", LOGS)
def test_every_word_of_the_viewer_goes_through_the_catalog(log: str) -> None:
    data = (REPO / "replays" / log).read_bytes()
    with i18n.using(i18n.PSEUDO):
        page, _problem = replay_page(data, log)
    info = _payload(page)["info"]
    words = sorted({*OWN_WORDS, *_table_words(info["variant"]), *info["names"], log},
                   key=len, reverse=True)
    assert unmarked_page(page, words) == []
    bad = unmarked("\n".join(_texts(page)), words)
    assert bad == [], bad[:20]


def test_the_english_transcript_is_what_it_was() -> None:
    """The transcript's sentences as they were before they went through the catalog (a
    line of each kind of sentence of the shipped replays)."""
    text = transcript((REPO / "replays" / "gauderio-seed1.jsonl").read_bytes(), "g.jsonl")
    for line in ("Truco Gaudério (gauderio) · seed 1 · first dealer", "Teams: team 0 (",
                 "Hand 1 · dealer ", "  round 1: team ", "  hand: team ",
                 " wins 1 point · score ", "Match: team "):
        assert line in text, line


def test_truco_replay_html_in_portuguese(tmp_path: Path) -> None:
    out = tmp_path / "jogo.html"
    result = CliRunner().invoke(main, ["--lang", "pt-BR", "replay",
                                       str(REPO / "replays" / "paulista-seed1.jsonl"),
                                       "--html", str(out)])
    assert result.exit_code == 0, result.output
    assert '<html lang="pt-BR">' in out.read_text(encoding="utf-8")
