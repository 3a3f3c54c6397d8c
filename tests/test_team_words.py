"""A team named by its seats in Portuguese (issue 43, engine.i18n.team_context): a player
(jogador) where a team is one seat (one-on-one, three players), a dupla where it is two, an
equipe where it is three or more (six and twelve players), in the terminal, the transcript, the
tables of simulate and the pages; English says "team" for all."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from click.testing import CliRunner
from conftest import REPO

from engine import i18n
from engine.cli import main

PO = REPO / "engine" / "locales" / "pt_BR" / "LC_MESSAGES" / "truco.po"


def _entries() -> dict[tuple[str | None, str], str]:
    """Each entry's text by its context and id (a plural entry's: its singular, its forms
    joined)."""
    with PO.open("rb") as f:
        return {(m.context, m.id if isinstance(m.id, str) else m.id[0]):
                m.string if isinstance(m.string, str) else " | ".join(m.string)
                for m in read_po(f) if m.id}


def test_every_message_said_of_a_dupla_has_a_player_s_and_an_equipe_s_form() -> None:
    entries = _entries()
    duplas = {i for (c, i), s in entries.items() if c is None and re.search(r"\bdupla", s, re.I)}
    assert duplas == set(i18n.TEAM_MESSAGES)
    for message in duplas:
        one = entries[i18n.ONE_SEAT, message]
        more = entries[i18n.MORE_SEATS, message]
        assert not re.search(r"dupla|equipe", one, re.I), one  # a player: jogador, or "se"
        assert re.search(r"equipe", more, re.I) and not re.search(r"dupla", more, re.I)


def test_the_pages_script_names_the_same_contexts() -> None:
    script = (REPO / "engine" / "viewer" / "assets" / "i18n.js").read_text(encoding="utf-8")
    assert f'"{i18n.ONE_SEAT}"' in script and f'"{i18n.MORE_SEATS}"' in script
    page = i18n.catalog_json("pt-BR", (REPO / "engine" / "serve" / "assets" / "table.js")
                             .read_text(encoding="utf-8"))["messages"]
    assert page[f"{i18n.ONE_SEAT}\x04The match is over: team {{team}} won."] == (
        "O jogo acabou: o jogador {team} ganhou.")


@pytest.mark.parametrize(("variant", "word"), [
    ("one-on-one", "jogador"), ("paulista", "dupla"), ("gauderio-trios", "equipe")])
def test_simulate_s_table_names_the_teams_by_their_seats(variant: str, word: str) -> None:
    result = CliRunner().invoke(main, ["--lang", "pt-BR", "simulate", "-v", variant, "-n", "1",
                                       "--seed", "1"])
    assert result.exit_code == 0, result.output
    head = result.output.splitlines()[2].split()
    assert head == [word, "0", word, "1"]
    english = CliRunner().invoke(main, ["simulate", "-v", variant, "-n", "1", "--seed", "1"])
    assert english.output.splitlines()[2].split() == ["team", "0", "team", "1"]


def test_a_one_on_one_transcript_speaks_of_players_and_the_next_command_of_duplas(
        tmp_path: Path) -> None:
    runner = CliRunner()
    made = runner.invoke(main, ["simulate", "-v", "one-on-one", "-n", "1", "--seed", "1",
                                "--logs", str(tmp_path / "logs")])
    assert made.exit_code == 0, made.output
    log = next((tmp_path / "logs").glob("*.jsonl"))
    said = runner.invoke(main, ["--lang", "pt-BR", "replay", str(log)]).output
    assert "rodada 1: o jogador 0 ganha" in said and "dupla" not in said
    paulista = str(REPO / "replays" / "paulista-seed1.jsonl")
    said = runner.invoke(main, ["--lang", "pt-BR", "replay", paulista]).output
    assert "a dupla" in said and "jogador" not in said


def test_english_and_a_dupla_are_as_before() -> None:
    with i18n.using("pt-BR"):
        assert i18n.gettext("team {team}") == "dupla {team}"
    for seats in (1, 2, 3, 6):
        with i18n.team_seats(seats):
            assert i18n.gettext("team {team}") == "team {team}"
