"""``truco play`` of Gaudério's side bets as its players say them (issue 25): the proof of a
declaration told as such, never as a raise; declarations by the players' names."""

from __future__ import annotations

import io
from collections.abc import Sequence

import pytest
from helpers import deal, match

from engine import Action, Match
from engine.bots.base import Observation
from engine.cli.play_cmd import _Game, _Stop, describe, seat_names


class _First:
    """A bot that always makes the first legal move."""

    name = "first"

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        return legal_actions[0]


def _run(m: Match, answers: str, capsys: pytest.CaptureFixture[str]) -> str:
    """The person at seat 0 answers ``answers`` (the bots make their first move) until the
    hand's end, or until the answers end (then :class:`_Stop` is raised)."""
    names = seat_names(["human", "first", "first", "first"])
    _Game(m, 0, {s: _First() for s in (1, 2, 3)}, "Gaudério", None, io.StringIO(answers),
          names).run()
    return capsys.readouterr().out


def test_G32_a_flor_shown_at_the_end_is_no_raise(capsys: pytest.CaptureFixture[str]) -> None:
    m = match("gauderio", deal(0, "Qs 2s 3s | 4c 5d 6h | 4d 5h 6c | 7h Kd Jc"))
    out = _run(m, "a\n" * 3, capsys)  # sing the flor, then play the strongest cards
    assert "raised with" not in out
    assert "  shown for the flor: you Q♠ (cavalo de espadas)\n" in out


def test_G30_declarations_are_said_by_the_players_names(
        capsys: pytest.CaptureFixture[str]) -> None:
    m = match("gauderio", deal(0, "Qs 2s 3s | 4c 5c 6c | 4d 5h 6h | 7h Kd Jc"))
    with pytest.raises(_Stop):
        _run(m, "a\n", capsys)  # Bot 1 sings flor, you sing yours: compared
    out = capsys.readouterr().out
    assert '  Bot 1 (first): "35"\n  you: "25"\n' in out
    assert "seat 1" not in out


def test_G37_the_envido_is_annulled_once_a_flor_is_sung(
        capsys: pytest.CaptureFixture[str]) -> None:
    m = match("gauderio", deal(0, "Qs 2s 3s | 4c 5c 6c | 4d 5h 6h | 7h Kd Jc"))
    with pytest.raises(_Stop):
        _run(m, "", capsys)
    out = capsys.readouterr().out
    assert "Envido: annulled by the flor sung (G37)" in out
    assert "Envido: not called" not in out


def test_G28_G40_side_bet_menus_say_their_stakes_and_what_a_refusal_gives(
        capsys: pytest.CaptureFixture[str]) -> None:
    m = match("gauderio", deal(0, "4s 5d 6h | 4c 5h 6c | 4d 5c Kh | 7h Kd Jc"))
    with pytest.raises(_Stop):
        _run(m, "", capsys)
    out = capsys.readouterr().out
    assert "  f) envido (2; não quero gives 1)\n" in out
    assert "  h) falta envido (the falta (24); não quero gives 1)\n" in out  # G29 at 0-0
    m = match("gauderio", deal(0, "Qs 2s 3s | 4c 5c 6c | 4d 5h 6h | 7h Kd Jc"))
    with pytest.raises(_Stop):
        _run(m, "", capsys)
    out = capsys.readouterr().out
    assert "  c) contra-flor (6; não quero gives 3 a flor)\n" in out
    assert "  b) com flor me achico / é boa (concede the flor: 3 a flor)\n" in out


def test_G38_an_uncontested_flor_is_sung_in_play_and_replay(
        capsys: pytest.CaptureFixture[str]) -> None:
    m = match("gauderio", deal(0, "Qs 2s 3s | 4c 5d 6h | 4d 5h 6c | 7h Kd Jc"))
    out = _run(m, "a\n" * 3, capsys)
    assert "  → flor (flor, sung) won by us for 3" in out
    assert "Flor: flor sung: us scored 3" in out
    assert "refused" not in out


def test_G18_G20_the_tables_words_for_every_move_in_play_and_replay() -> None:
    from engine.logformat import Recorder
    from engine.transcript import transcript

    m = Match.new("gauderio", seed=1)
    rules = m.rules
    names = seat_names(["human", "heuristic", "heuristic", "heuristic"])
    assert describe(Action.concede(1), rules, 0, names=names) == \
        "Bot 1 (heuristic) says VOU AO BARALHO"
    assert describe(Action.accept(0), rules, 0, names=names) == "you say QUERO"
    assert describe(Action.fold(2), rules, 0, names=names) == "Bot 2 (heuristic) says NÃO QUERO"
    out = io.StringIO()
    rec = Recorder(m, out, variant="gauderio", players=names)
    rec.apply(Action.concede(m.turn))
    text = transcript(out.getvalue().encode(), "g.jsonl")
    assert "says: vou ao baralho" in text and "corre" not in text
