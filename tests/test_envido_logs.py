"""Envido in logs (docs/log-format.md, "Version 2: side bets"): the calls and answers are
moves, the declarations and crediting checkpoints; truco verify catches a wrong settlement at
its line, truco replay shows the calls, the declared points and the cards shown."""

from __future__ import annotations

import io
import json
from pathlib import Path

from helpers import deal, match, parse_action

from engine.logformat import Recorder, record_random
from engine.logversion import event_needs, log_needs, rules_need
from engine.replay import verify_bytes
from engine.transcript import transcript

VARIANT = "gauderio"
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
    assert "envido (side bet)" in out and "real envido (side bet)" in out
    assert "falta envido (side bet)" in out and "you call ENVIDO" in out
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
