"""Envido in logs (docs/log-format.md, "Version 2: side bets"): the calls and answers are
moves, the declarations and crediting checkpoints; truco verify catches a wrong settlement at
its line, truco replay shows the calls, the declared points and the cards shown."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import deal, match, parse_action

from engine.logformat import Recorder, record_random
from engine.logversion import event_needs, log_needs, rules_need
from engine.replay import annotate, verify_bytes
from engine.transcript import transcript

VARIANT = "gauderio-sem-flor"  # the deals hold flores: the envido is GH12's here
DATA = Path(__file__).parent


def _log(seed: int) -> bytes:
    return record_random(VARIANT, seed).encode()


def _find(seeds: range, event: str) -> tuple[bytes, int]:
    """A recorded log with a line of ``event``, and that line's number (1-based)."""
    for seed in seeds:
        lines = _log(seed).splitlines()
        for k, line in enumerate(lines):
            if json.loads(line).get("event") == event:
                return b"\n".join(lines) + b"\n", k + 1
    raise AssertionError(f"no {event} in these seeds")


def test_an_envido_log_is_version_2_and_verifies() -> None:
    data = _log(1)
    assert json.loads(data.splitlines()[0])["truco_log"] == 2
    events = [json.loads(line)["event"] for line in data.splitlines()[1:]]
    assert {"envido", "side_bet"} <= set(events)
    result = verify_bytes(data, "a.jsonl", base=DATA)
    assert result.valid, result.problems
    assert rules_need(match(VARIANT).rules) == 2
    assert event_needs({"event": "quero", "seat": 1})[0] == 2
    assert log_needs([{"event": "side_show", "seat": 1, "cards": ["7h"]}]) == 2


def test_a_wrong_envido_settlement_is_caught_at_its_line() -> None:
    data, line = _find(range(1, 40), "side_bet")
    lines = data.splitlines()
    bet = json.loads(lines[line - 1])
    bet["points"] += 1
    bet["score"][bet["winner"]] += 1
    lines[line - 1] = json.dumps(bet).encode()
    result = verify_bytes(b"\n".join(lines) + b"\n", "a.jsonl", base=DATA)
    first = result.problems[0]
    assert (first.kind, first.line) == ("checkpoint", line)


def test_a_wrong_declaration_is_caught_at_its_line() -> None:
    data, line = _find(range(1, 40), "side_declare")
    lines = data.splitlines()
    said = json.loads(lines[line - 1])
    said["points"] = 34 if said["points"] is None else None
    lines[line - 1] = json.dumps(said).encode()
    result = verify_bytes(b"\n".join(lines) + b"\n", "a.jsonl", base=DATA)
    assert (result.problems[0].kind, result.problems[0].line) == ("checkpoint", line)


def test_a_version_1_log_refuses_envido() -> None:
    data = _log(1).replace(b'"truco_log": 2', b'"truco_log": 1', 1)
    result = verify_bytes(data, "a.jsonl", base=DATA)
    assert result.problems and "version 2" in result.problems[0].message


def test_replay_shows_calls_declarations_and_cards_shown() -> None:
    m = match(VARIANT, dealer=3)
    out = io.StringIO()
    rec = Recorder(m, out, variant=VARIANT)
    rec.deal(deal(3, "4c 7h 6h | 7d 2d Kc | 6c Qc 3s | Ah Qh 4s"))
    for text in ("play 0 4c", "raise 1 2", "envido 2 envido", "envido 3 falta envido",
                 "quero 0"):  # at 0-0 the falta wins the game (G29, G46)
        rec.apply(parse_action(text))
    text = transcript(out.getvalue().encode(), "a.jsonl", base=DATA)
    assert "seat 2 calls: envido" in text and "seat 3 calls: falta envido" in text
    assert 'seat 0 says "33"' in text and 'seat 1 says "são boas"' in text
    assert "seat 0 says: quero" in text
    assert "envido (envido - falta envido, accepted): team 0 (seat 0, seat 2) wins 24 points" \
        in text  # at 0-0 the falta is the whole target (G29)
    assert "seat 0 shows 7♥ 6♥" in text


def test_truco_play_offers_envido_in_portuguese_and_tells_the_declarations() -> None:
    from click.testing import CliRunner

    from engine.cli import main

    result = CliRunner().invoke(main, ["play", "--variant", "gauderio", "--seat", "1",
                                       "--seed", "3"], input="envido\n" + "a\n" * 40)
    out = result.output
    assert "envido (2; não quero gives 1)" in out and "real envido (3; não quero gives 1)" in out
    assert "falta envido (the falta (24); não quero gives 1)" in out and "you call ENVIDO" in out
    assert "Envido: not called · your points" in out
    assert "QUERO" in out or "NÃO QUERO" in out


def test_truco_play_parses_quero_and_nao_quero_by_name() -> None:
    from engine.cli.play_cmd import parse_move

    m = match(VARIANT, deal(3, "4c 7h 6h | 7d 2d Kc | 6c Qc 3s | Ah Qh 4s"), dealer=3)
    m.apply(parse_action("envido 0 envido"))
    legal = m.legal_actions(1)
    texts = [str(a) for a in legal]
    assert str(parse_move("quero", legal, texts, m.rules)) == "quero 1"
    assert str(parse_move("não quero", legal, texts, m.rules)) == "nao_quero 1"
    assert str(parse_move("real envido", legal, texts, m.rules)) == "envido 1 real envido"


def test_simulate_prints_the_side_bets_table() -> None:
    from engine.cli.simulate_cmd import format_statistics
    from engine.simulate import run_simulation

    text = format_statistics(run_simulation(VARIANT, games=3, seed=1,
                                            bots=["heuristic", "heuristic"]))
    assert "side bet" in text and "won by mão's team" in text and "\nenvido " in text


def _two_shows() -> list[bytes]:
    """A Gaudério log whose hand ends with two ``side_show`` lines of three cards each (two
    flores compared, both shown: G41), as lines."""
    m = match("gauderio", dealer=3)
    out = io.StringIO()
    rec = Recorder(m, out, variant="gauderio")
    rec.deal(deal(3, "4d 5d 6s | Kc 5c 2c | Kh 4h 3h | 3d 6c 7d"))
    for text in ("play 0 4d", "flor 1 flor", "flor 2 flor", "concede 1"):
        rec.apply(parse_action(text))
    lines = out.getvalue().encode().splitlines()
    assert [json.loads(line).get("event") for line in lines].count("side_show") == 2
    return lines


def _shows_edited(edit: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]) -> bytes:
    """The log of :func:`_two_shows` with its ``side_show`` lines replaced by ``edit``'s."""
    lines = _two_shows()
    at = [k for k, line in enumerate(lines) if b'"side_show"' in line]
    shows = edit([json.loads(lines[k]) for k in at])
    out = lines[:at[0]] + [json.dumps(s).encode() for s in shows] + lines[at[-1] + 1:]
    return b"\n".join(out) + b"\n"


def test_side_show_cards_and_lines_verify_in_any_order() -> None:
    """docs/log-format.md: a show's cards are a set, and the side_show lines of one move may
    come in any order; the engine writes its own order (and annotate keeps it)."""
    def reorder(shows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{**s, "cards": s["cards"][::-1]} for s in shows[::-1]]

    data = _shows_edited(reorder)
    result = verify_bytes(data, "a.jsonl", base=DATA)
    assert result.valid, result.problems
    text, replaced = annotate(data, "a.jsonl", base=DATA)
    assert replaced == []
    written = [json.loads(line) for line in text.splitlines() if '"side_show"' in line]
    assert [s["seat"] for s in written] == [1, 2]  # the engine's order of the lines


@pytest.mark.parametrize("edit", [
    lambda s: [{**s[0], "cards": ["5c", "2c", "Qc"]}, s[1]],  # a card not shown
    lambda s: [{**s[0], "cards": ["5c", "5c", "2c"]}, s[1]],  # a card twice, one left out
    lambda s: [{**s[0], "cards": ["5c", "2c"]}, s[1]],  # a card left out
    lambda s: [s[0], {**s[1], "seat": 1}],  # one seat twice
    lambda s: [s[0], {**s[1], "seat": 3}],  # a seat that shows nothing
], ids=["wrong card", "card twice", "card missing", "seat twice", "wrong seat"])
def test_a_wrong_side_show_is_caught_in_any_order(
        edit: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]) -> None:
    result = verify_bytes(_shows_edited(edit), "a.jsonl", base=DATA)
    assert not result.valid and result.problems[0].kind == "checkpoint"


def test_annotate_keeps_each_of_several_checkpoints_of_one_kind() -> None:
    """A move that causes several checkpoints of one kind (side_declare, side_show): a log
    annotated again is the same log (each line kept, not the last of its kind for all)."""
    data = b"\n".join(_two_shows()) + b"\n"
    text, replaced = annotate(data, "a.jsonl", base=DATA)
    assert replaced == [] and text.encode() == data
    data = _log(1)
    assert data.count(b'"side_declare"') > 1
    assert annotate(data, "a.jsonl", base=DATA)[0].encode() == data
