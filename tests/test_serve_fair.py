"""Provably fair deals (issue 40): a table without a fixed seed draws a secret one, commits to
it before the first card, mixes in the person seats' entropy and reveals it at the end; `truco
verify` checks the reveal against the commitment and every deal against the seed."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from engine.cli import main
from engine.fairness import commitment, deal_seed, entropy_problem, reveal_problem
from engine.game import Match
from engine.replay.verify import verify_bytes, verify_file
from engine.serve import Limits
from engine.serve.fair import Seal
from engine.serve.store import Store
from engine.serve.table import HUMAN, Table
from engine.variant import load
from tests.serve_util import Client, Running, play_out, running

NONCE = "00" * 16


# -- the commitment and the mixing -------------------------------------------------------------
def test_the_commitment_is_sha256_of_the_seed_and_nonce_as_the_docs_say() -> None:
    import hashlib
    assert commitment(7, NONCE) == hashlib.sha256(b"7:" + NONCE.encode()).hexdigest()
    assert commitment(7, NONCE) == ("d04df26dd2ba3a72dae14a5d4131101086823580045c0254d431b4ac"
                                    "ec4a3d94")  # docs/log-format.md's test vector
    assert commitment(8, NONCE) != commitment(7, NONCE)
    assert commitment(7, "11" * 16) != commitment(7, NONCE)


def test_entropy_is_mixed_in_seat_order_and_changes_the_deal() -> None:
    import hashlib
    plain = deal_seed(7, ["", "", "", ""])
    assert plain == int.from_bytes(hashlib.sha256(b"7::::").digest()[:8], "big")
    assert plain == 3234201473667760003  # docs/log-format.md's test vector
    assert deal_seed(7, ["ab", "", "cd", ""]) == 1706756870899866780
    assert deal_seed(7, ["ab", "", "", ""]) != deal_seed(7, ["", "ab", "", ""]) != plain
    assert 0 <= deal_seed(2**64 - 1, ["f" * 64] * 4) < 2**64
    rules = load("paulista")
    hands = {str(Match(rules, seed=deal_seed(7, [e, "", "", ""])).hand.dealt)
             for e in ("", "01", "02", "03")}
    assert len(hands) == 4


def test_a_reveal_that_does_not_answer_the_commitment_says_why() -> None:
    c = commitment(7, NONCE)
    assert reveal_problem(c, 7, NONCE, [""] * 4, 4) is None
    assert "does not match the commitment" in str(reveal_problem(c, 8, NONCE, [""] * 4, 4))
    assert "one entry per seat (4)" in str(reveal_problem(c, 7, NONCE, [""] * 2, 4))
    assert entropy_problem("") and entropy_problem("AB") and entropy_problem(5)
    assert entropy_problem("a" * 65) and entropy_problem("ab") is None


def test_a_seal_takes_each_seat_s_first_entropy_before_the_deal_only() -> None:
    seal = Seal(7, NONCE, ["", "", "", ""])
    assert seal.give(1, "ab") is None and seal.give(1, "cd") is None
    assert seal.entropy == ["", "ab", "", ""]
    assert seal.give(2, "zz") is not None and seal.entropy[2] == ""
    seal.dealt = True
    assert seal.give(0, "ab") is not None and seal.entropy[0] == ""
    assert Seal.from_json(seal.to_json()) == seal


# -- the log: committed, revealed, verified ----------------------------------------------------
def _bots_log() -> tuple[str, Table]:
    table = Table.new("paulista", ["random"] * 4)  # no seed: a secret one, committed
    assert table.seal is not None and table.match.is_over
    return table.out.getvalue(), table


def test_a_table_without_a_seed_commits_and_reveals_and_its_log_verifies() -> None:
    text, table = _bots_log()
    lines = text.splitlines()
    header, last = json.loads(lines[0]), json.loads(lines[-1])
    assert table.seal is not None
    assert "seed" not in header and header["truco_log"] == 2
    assert header["seed_commitment"] == table.seal.commitment
    assert last == {"event": "reveal", "seed": table.seal.seed, "nonce": table.seal.nonce,
                    "entropy": ["", "", "", ""]}
    assert json.loads(lines[1])["event"] == "deal"
    result = verify_bytes(text.encode(), "g.jsonl")
    assert result.valid and result.incomplete is None


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def test_a_changed_reveal_is_invalid_at_its_line() -> None:
    text, table = _bots_log()
    lines = _lines(text)
    n = len(lines)
    reveal = json.loads(lines[-1])
    for change in ({"nonce": "11" * 16}, {"seed": (reveal["seed"] + 1) % 2**64},
                   {"entropy": ["ab", "", "", ""]}, {"entropy": [""] * 3}):
        bad = "".join(lines[:-1]) + json.dumps({**reveal, **change}) + "\n"
        problems = verify_bytes(bad.encode(), "g.jsonl").problems
        assert [(p.line, p.kind) for p in problems] == [(n, "reveal")], (change, problems)
    problems = verify_bytes(("".join(lines[:-1]) + json.dumps(
        {**reveal, "entropy": ["ab", "", "", ""]}) + "\n").encode(), "g.jsonl").problems
    assert "the deal at line 2 does not follow from the revealed seed" in problems[0].message


def test_a_reveal_before_the_end_or_with_lines_after_it_is_invalid(tmp_path: Path) -> None:
    text, table = _bots_log()
    lines = _lines(text)
    early = lines[:10] + [lines[-1]] + lines[10:-1]
    problems = verify_bytes("".join(early).encode(), "g.jsonl").problems
    assert [(p.line, p.kind) for p in problems] == [(11, "reveal")]
    assert "reveal before the match is over" in problems[0].message
    after = lines + ['{"event": "round", "winner": 0}\n']
    problems = verify_bytes("".join(after).encode(), "g.jsonl").problems
    assert [(p.line, p.kind) for p in problems] == [(len(lines) + 1, "after_end")]
    path = tmp_path / "early.jsonl"
    path.write_text("".join(early), encoding="utf-8")
    result = CliRunner().invoke(main, ["verify", str(path)])
    assert result.exit_code == 1, result.output
    assert f"{path}:11: reveal before the match is over" in result.output
    assert "Traceback" not in result.output


def test_a_committed_log_without_its_reveal_is_incomplete_and_deals_from_its_lines() -> None:
    text, _ = _bots_log()
    result = verify_bytes("".join(_lines(text)[:-1]).encode(), "g.jsonl")
    assert result.valid and result.incomplete is not None
    assert "not revealed yet" in result.incomplete.message
    half = "".join(_lines(text)[:3])  # the header, the deal, a move
    result = verify_bytes(half.encode(), "g.jsonl")
    assert result.valid and result.incomplete is not None


def test_bad_commitment_headers_and_stray_reveals_are_refused_never_a_traceback() -> None:
    c = commitment(7, NONCE)
    cases = {
        json.dumps({"truco_log": 2, "variant": "paulista", "seed": 7, "seed_commitment": c}):
            "has no seed",
        json.dumps({"truco_log": 1, "variant": "paulista", "seed_commitment": c}):
            "needs log format version 2",
        json.dumps({"truco_log": 2, "variant": "paulista", "seed_commitment": "AB"}):
            "seed_commitment",
    }
    for header, words in cases.items():
        problems = verify_bytes((header + "\n").encode(), "g.jsonl").problems
        assert problems and problems[0].line == 1 and words in problems[0].message, problems
    stray = ('{"truco_log": 2, "variant": "paulista", "seed": 7}\n'
             '{"event": "reveal", "seed": 7, "nonce": "' + NONCE + '", "entropy": []}\n')
    problems = verify_bytes(stray.encode(), "g.jsonl").problems
    assert problems and problems[0].line == 2  # the schema: entropy needs a seat
    stray = stray.replace('"entropy": []', '"entropy": ["", "", "", ""]')
    problems = verify_bytes(stray.encode(), "g.jsonl").problems
    assert [(p.line, p.kind) for p in problems] == [(2, "reveal")]
    assert "no seed_commitment" in problems[0].message
    v1 = stray.replace('"truco_log": 2', '"truco_log": 1')
    assert "needs log format version 2" in verify_bytes(v1.encode(), "g.jsonl").problems[0].message


# -- through the server --------------------------------------------------------------------------
def test_fairness_end_to_end_a_table_of_bots_through_the_server(tmp_path: Path) -> None:
    with running(tmp_path, fixed_seeds=False) as server:
        status, body = server.post("/api/tables", {"variant": "paulista",
                                                   "seats": ["easy", "medium", "easy", "easy"]})
        assert status == 201, body
        table = body["table"]
        status, log = server.get(f"/t/{table}/log")
        assert status == 200  # a table of bots plays out at once
    path = tmp_path / "served.jsonl"
    path.write_bytes(log)
    result = CliRunner().invoke(main, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    lines = log.decode().splitlines(keepends=True)
    reveal = json.loads(lines[-1])
    assert reveal["event"] == "reveal" and "seed" not in json.loads(lines[0])
    changed = "".join(lines[:-1]) + json.dumps({**reveal, "nonce": "ab" * 16}) + "\n"
    path.write_text(changed, encoding="utf-8")
    result = CliRunner().invoke(main, ["verify", str(path)])
    assert result.exit_code == 1 and f"{path}:{len(lines)}: reveal does not match" in result.output
    path.write_text("".join(lines[:5] + lines[-1:] + lines[5:-1]), encoding="utf-8")
    result = CliRunner().invoke(main, ["verify", str(path)])
    assert result.exit_code == 1 and f"{path}:6: reveal before the match is over" in result.output


def test_only_a_table_of_bots_takes_a_seed_unless_the_operator_allows_it(tmp_path: Path) -> None:
    with running(tmp_path, fixed_seeds=False) as server:
        status, body = server.post("/api/tables", {"variant": "paulista", "seed": 3,
                                                   "seats": ["human", "easy", "easy", "easy"]})
        assert status == 400 and body["error"] == "seed" and "fixed-seeds" in body["message"]
        status, body = server.post("/api/tables", {"variant": "paulista", "seed": 3,
                                                   "seats": ["easy"] * 4})
        assert status == 201
        status, log = server.get(f"/t/{body['table']}/log")
        assert json.loads(log.splitlines()[0])["seed"] == 3  # as before: a seeded log


def _people(server: Running) -> tuple[dict[str, Any], Client, Client]:
    status, body = server.post("/api/tables", {"variant": "paulista",
                                               "seats": ["human", "human", "easy", "easy"]})
    assert status == 201, body
    a = server.join(body["seats"][0]["link"], entropy="ab" * 32)
    assert a.state["obs"]["hand"] == [] and a.state["obs"]["phase"] == "deal"  # waits for b
    b = server.join(body["seats"][1]["link"], entropy="0123")
    return body, a, b


def test_the_seed_reaches_no_client_before_the_end_and_the_entropy_is_mixed_in(
        tmp_path: Path) -> None:
    with running(tmp_path, Limits(rate=1000, burst=2000), fixed_seeds=False) as server:
        body, a, b = _people(server)
        table = body["table"]
        watcher = server.join(body["spectator"])
        status, _ = server.get(f"/t/{table}/log")
        assert status == 409  # the log holds every hand: not before the end
        assert a.hello["seed_commitment"] == b.hello["seed_commitment"]
        assert a.hello["fixed_seed"] is False
        final = play_out([a, b])
        reveal = final["reveal"]
        watcher.fresh()
        status, log = server.get(f"/t/{table}/log")
    assert reveal["entropy"] == ["ab" * 32, "0123", "", ""]
    assert commitment(int(reveal["seed"]), reveal["nonce"]) == a.hello["seed_commitment"]
    header = json.loads(log.splitlines()[0])
    assert header["seed_commitment"] == a.hello["seed_commitment"]
    assert verify_bytes(log, "g.jsonl").valid
    secrets = [reveal["seed"], reveal["nonce"], reveal["deal_seed"]]
    assert all(isinstance(s, str) for s in secrets)  # exact in a page's JavaScript
    for client in (a, b, watcher):
        end = next(i for i, t in enumerate(client.received) if json.loads(t).get("over"))
        before = "".join(client.received[:end])
        assert not [s for s in secrets if s in before]
        assert all(s in client.received[end] for s in secrets)


def test_a_bad_entropy_is_refused_and_the_join_stands(tmp_path: Path) -> None:
    with running(tmp_path, fixed_seeds=False) as server:
        status, body = server.post("/api/tables", {"variant": "paulista",
                                                   "seats": ["human", "easy", "easy", "easy"]})
        ws = server.ws(body["table"])
        token = body["seats"][0]["link"].split("#k=")[1]
        ws.send(json.dumps({"type": "join", "token": token, "entropy": "not hex"}))
        seen = [json.loads(ws.recv(timeout=30)) for _ in range(3)]
        ws.close()
    assert [m["type"] for m in seen] == ["hello", "error", "state"]
    assert seen[1]["code"] == "entropy" and "hex" in seen[1]["message"]
    assert seen[2]["obs"]["hand"]  # dealt all the same, with no entropy of seat 0


def test_a_sealed_table_read_back_after_a_restart_deals_on_from_its_secret(
        tmp_path: Path) -> None:
    store = Store(tmp_path)
    table = store.create("paulista", [HUMAN, "random", HUMAN, "random"])
    assert table.seal is not None and not table.seal.dealt
    assert "seal" in json.loads((tmp_path / table.id / "table.json").read_text())
    assert table.joined(0, "aa")[0] is False  # seat 2 not there yet: no deal
    assert table.joined(2, "bb")[0] is True
    table.run_bots()
    rng = random.Random(5)
    for _ in range(6):  # the deal is the secret's: a match may end (a raise to 12 taken)
        if table.match.is_over:
            break
        seat = table.awaited()[0]
        table.submit(seat, str(rng.choice(table.match.legal_actions(seat))))
    hands = [list(h) for h in table.match.hand.hands]
    again = Store(tmp_path).load_all()[0]
    assert again.seal == table.seal and [list(h) for h in again.match.hand.hands] == hands
    while not again.match.is_over:
        seat = again.awaited()[0]
        again.submit(seat, str(rng.choice(again.match.legal_actions(seat))))
    result = verify_file(tmp_path / table.id / "game.jsonl")
    assert result.valid and result.incomplete is None
    last = json.loads((tmp_path / table.id / "game.jsonl").read_text().splitlines()[-1])
    assert last["event"] == "reveal" and last["entropy"] == ["aa", "", "bb", ""]


@pytest.mark.parametrize("variant", ["mineiro", "gauderio"])
def test_other_variants_commit_and_verify(variant: str) -> None:
    table = Table.new(variant, ["random"] * load(variant).players)
    assert verify_bytes(table.out.getvalue().encode(), "g.jsonl").valid


def test_the_first_deal_waits_for_every_person_seat_past_the_seat_timeout(
        tmp_path: Path) -> None:
    """Issue 40, defect 3 at a sealed table: no bot plays a seat its person never opened,
    so the first deal waits for every person seat, past ``--seat-timeout``; a friend who
    opens the link late finds the match waiting, then dealt."""
    seats = ["easy", "human", "easy", "human"]
    with running(tmp_path, Limits(seat_timeout=0.2), fixed_seeds=False) as server:
        status, late = server.post("/api/tables", {"variant": "paulista", "seats": seats})
        assert status == 201, late
        server.join(late["seats"][0]["link"], entropy="aa").close()  # seat 1; not seat 3
        status, left = server.post("/api/tables", {"variant": "paulista", "seats": [
            "medium", "human", "medium", "easy"]})  # its one person joins, deals, leaves
        watcher = server.join(left["spectator"])
        server.join(left["seats"][0]["link"]).close()
        while not watcher.state["seats"][1]["standin"]:  # a seat left: stood in past the wait
            watcher.next_state()
        waiting = server.join(late["spectator"]).state  # ...the sealed table still waits
        assert waiting["moves"] == 0 and waiting["obs"]["phase"] == "deal"
        assert not any(s["standin"] for s in waiting["seats"])
        friend = server.join(late["seats"][1]["link"], entropy="bb")  # seat 3, late
        assert friend.state["obs"]["hand"] and friend.state["seats"][3]["standin"] is False
        assert not [m for m in friend.state["recent"] if m["seat"] == 3]


def test_replay_checkpoints_writes_a_committed_log_again_with_its_reveal() -> None:
    from engine.replay.annotate import annotate, strip_checkpoints
    text, _ = _bots_log()
    assert annotate(text.encode(), "g.jsonl")[0] == text
    assert verify_bytes(strip_checkpoints(text).encode(), "g.jsonl").valid


def test_a_table_whose_seal_does_not_answer_its_log_is_not_picked_up(tmp_path: Path) -> None:
    store = Store(tmp_path)
    table = store.create("paulista", [HUMAN, "random", "random", "random"])
    table.joined(0, "aa")
    table.run_bots()
    meta_path = tmp_path / table.id / "table.json"
    meta = json.loads(meta_path.read_text())
    meta["seal"]["seed"] = (meta["seal"]["seed"] + 1) % 2**64
    meta_path.write_text(json.dumps(meta))
    again = Store(tmp_path)
    assert again.load_all() == []
    assert "does not answer its log's seed_commitment" in again.problems[0]
