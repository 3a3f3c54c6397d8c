"""``truco serve`` over a real websocket (issue 29): a uvicorn server on a loopback port and
the ``websockets`` client. Every refusal (a bad token, malformed, oversized, out-of-turn and
wrong-seat messages, a spectator's move, a client sending too fast) gets an error message and
changes nothing; a reconnect gets its seat's position; a restarted server picks its tables up
from their logs; an empty seat is played by a bot after the wait; a whole match's log
verifies."""

from __future__ import annotations

import contextlib
import gc
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO
from helpers import processes_running
from websockets.exceptions import ConnectionClosed

from engine.replay.verify import verify_file
from engine.serve import Limits
from engine.serve.table import Table
from tests.serve_util import Client, Running, play_out, running


@pytest.fixture
def server(tmp_path: Path) -> Any:
    with running(tmp_path / "data") as r:
        yield r


def _two_humans(server: Running, seed: int = 1) -> tuple[dict[str, Any], Client, Client]:
    table = server.table("paulista", ["human", "human", "medium", "easy"], seed=seed)
    return table, server.join(table["seats"][0]["link"]), server.join(table["seats"][1]["link"])


def _to_move(a: Client, b: Client) -> tuple[Client, Client]:
    """The client whose move is awaited, and the other one."""
    a.fresh()
    b.fresh()
    return (a, b) if a.state["legal"] else (b, a)


def test_a_bad_token_is_refused_and_the_connection_closed(server: Running) -> None:
    table = server.table("paulista", ["human", "easy", "easy", "easy"])
    ws = server.join(table["seats"][0]["link"]).ws  # a good one works
    ws.close()
    bad = server.ws(table["table"])
    bad.send(json.dumps({"type": "join", "token": "not-a-token"}))
    assert json.loads(bad.recv(timeout=10))["code"] == "bad_token"
    with pytest.raises(ConnectionClosed):
        bad.recv(timeout=10)


def test_the_first_message_must_be_a_join(server: Running) -> None:
    table = server.table("paulista", ["human", "easy", "easy", "easy"])
    ws = server.ws(table["table"])
    ws.send(json.dumps({"type": "move", "move": "play 1 4c"}))
    assert json.loads(ws.recv(timeout=10))["code"] == "join_first"


def test_malformed_messages_are_refused_and_change_nothing(server: Running) -> None:
    _, a, b = _two_humans(server)
    mover, _ = _to_move(a, b)
    before = mover.state
    for text, code in [("not json", "malformed"), ("[1, 2]", "malformed"),
                       ('{"no": "type"}', "malformed"), (b"\x00\x01", "malformed"),
                       ('{"type": "shout"}', "unknown_type"),
                       ('{"type": "move", "move": 7}', "malformed"),
                       ('{"type": "move", "move": "play"}', "malformed")]:
        mover.sent(text)
        assert mover.error()["code"] == code, text
    assert mover.fresh() == before


def test_an_oversized_message_is_refused_and_changes_nothing(server: Running) -> None:
    _, a, b = _two_humans(server)
    mover, _ = _to_move(a, b)
    before = mover.state
    mover.sent(json.dumps({"type": "move", "move": before["legal"][0]["move"],
                           "padding": "x" * 5000}))
    assert mover.error()["code"] == "too_large"
    assert mover.fresh() == before


def test_out_of_turn_and_wrong_seat_moves_are_refused(server: Running) -> None:
    _, a, b = _two_humans(server)
    mover, waiting = _to_move(a, b)
    before = mover.state
    card = waiting.state["obs"]["hand"][0]
    seat = waiting.hello["seat"]
    waiting.sent(json.dumps({"type": "move", "move": f"play {seat} {card}"}))
    assert waiting.error()["code"] == "not_your_turn"
    # a move in the name of the seat whose turn it is, from the other seat's connection
    waiting.sent(json.dumps({"type": "move", "move": before["legal"][0]["move"]}))
    assert waiting.error()["code"] == "not_your_seat"
    # a card the mover does not hold
    other = next(c for c in ("4c", "7h", "As", "7d", "3s") if c not in before["obs"]["hand"])
    mover.sent(json.dumps({"type": "move", "move": f"play {mover.hello['seat']} {other}"}))
    assert mover.error()["code"] == "card_not_held"
    assert mover.fresh() == before


def test_a_spectator_makes_no_moves_and_sees_no_hand(server: Running) -> None:
    table, a, b = _two_humans(server)
    mover, _ = _to_move(a, b)
    watcher = server.join(table["spectator"])
    assert watcher.hello["seat"] is None and watcher.state["obs"]["hand"] is None
    watcher.sent(json.dumps({"type": "move", "move": mover.state["legal"][0]["move"]}))
    assert watcher.error()["code"] == "spectator"
    assert mover.fresh()["moves"] == mover.state["moves"]


def test_a_client_sending_too_fast_is_throttled(tmp_path: Path) -> None:
    """Issue 40 (11): a run of messages sent too fast is answered once, not once each, and a
    client that goes on is disconnected after ``refused`` refusals in a row."""
    # One token in 100 s: however slow the machine, no token comes back during the test.
    with running(tmp_path, Limits(rate=0.01, burst=3, refused=5)) as server:
        table = server.table("paulista", ["human", "easy", "easy", "easy"])
        client = server.join(table["seats"][0]["link"])
        # Exactly the burst and the refusals: the server closes after the last of them, so a
        # ninth message could meet a closed socket on a fast server.
        for _ in range(3 + 5):
            client.sent(json.dumps({"type": "state"}))
        answers = []
        with pytest.raises(ConnectionClosed):
            while True:
                answers.append(client.next())
        assert [m["type"] for m in answers[:3]] == ["state"] * 3  # the burst is read
        assert [m.get("code") for m in answers[3:]] == ["too_fast", "flood"]
        assert client.ws.close_code == 1008


def test_a_dropped_connection_reconnects_to_its_seat_with_the_position(server: Running) -> None:
    table, a, b = _two_humans(server)
    mover, _ = _to_move(a, b)
    mover.sent(json.dumps({"type": "move", "move": mover.state["legal"][0]["move"]}))
    after = mover.fresh()
    mover.close()
    seat = mover.hello["seat"]
    again = server.join(table["seats"][seat]["link"])
    assert again.hello["seat"] == seat
    assert again.state["obs"] == after["obs"]


def test_a_restarted_server_picks_up_its_tables_from_their_logs(tmp_path: Path) -> None:
    with running(tmp_path) as server:
        table, a, b = _two_humans(server, seed=5)
        for _ in range(6):
            mover, _ = _to_move(a, b)
            mover.sent(json.dumps({"type": "move", "move": mover.state["legal"][0]["move"]}))
            mover.fresh()  # answered after the move is made
        kept = {c.hello["seat"]: c.fresh() for c in (a, b)}
        a.close()
        b.close()
    with running(tmp_path) as server:
        for seat, state in kept.items():
            back = server.join(table["seats"][seat]["link"])
            assert back.state["obs"] == state["obs"]
            assert back.state["moves"] == state["moves"]
            assert back.state["recent"] == state["recent"] != []  # rebuilt from the log


def test_an_empty_seat_is_played_by_a_bot_after_the_wait(tmp_path: Path) -> None:
    with running(tmp_path, Limits(seat_timeout=0.2)) as server:
        table = server.table("paulista", ["medium", "human", "medium", "easy"], seed=2)
        watcher = server.join(table["spectator"])
        server.join(table["seats"][0]["link"]).close()  # joined once, then left
        start = watcher.state["moves"]
        while watcher.state["moves"] == start:  # the stand-in bot plays seat 1
            watcher.next_state()
        assert watcher.state["seats"][1]["standin"] is True
        person = server.join(table["seats"][0]["link"])  # back at the seat: it is theirs
        assert person.hello["seat"] == 1
        assert person.fresh()["seats"][1]["standin"] is False


def _play_out(server: Running, clients: list[Client]) -> dict[str, Any]:
    return play_out(clients)


def test_a_whole_match_through_the_server_writes_a_log_that_verifies(tmp_path: Path) -> None:
    with running(tmp_path) as server:
        table, a, b = _two_humans(server, seed=11)
        status, _ = server.get(f"/t/{table['table']}/log")
        assert status == 409  # not before the end: the log holds the seed
        final = _play_out(server, [a, b])
        assert final["winner"] in (0, 1)
        status, log = server.get(f"/t/{table['table']}/log")
        assert status == 200
        on_disk = tmp_path / table["table"] / "game.jsonl"
        assert on_disk.read_bytes() == log
        result = verify_file(on_disk)
        assert result.problems == [] and not result.incomplete
        status, page = server.get(f"/t/{table['table']}/replay")
        assert status == 200 and b'id="truco-data"' in page


def test_a_house_variant_s_problems_name_its_line_and_column(server: Running) -> None:
    text = "extends: paulista\nscoring:\n  target: -3\n"
    status, body = server.post("/api/tables", {"upload": {"name": "casa.yaml", "text": text},
                                               "seats": ["human"] * 4})
    assert status == 400
    assert body["problems"][0].startswith("casa.yaml:2:1: scoring: unknown key")
    good = "extends: paulista\nname: casa\n"
    status, body = server.post("/api/tables", {"upload": {"name": "casa.yaml", "text": good},
                                               "seats": ["human", "easy", "easy", "easy"]})
    assert status == 201, body
    assert server.join(body["seats"][0]["link"]).hello["variant"] == "variant.yaml"


def test_bad_requests_are_refused(server: Running) -> None:
    assert server.post("/api/tables", {"variant": "paulista", "seats": ["human"]})[0] == 400
    assert server.post("/api/tables", {"variant": "paulista",
                                       "seats": ["root"] * 4})[0] == 400
    assert server.post("/api/tables", {"variant": "nope", "seats": ["human"] * 4})[0] == 400
    assert server.get("/t/nosuch")[0] == 404


def test_a_raise_out_of_turn_is_offered_before_a_bot_s_card(tmp_path: Path) -> None:
    """M3 (Mineiro): before a bot's card, a person present who may raise is offered it; the
    card waits for the raise or a pass."""
    with running(tmp_path) as server:
        table = server.table("mineiro", ["human", "easy", "easy", "easy"], seed=3)
        me = server.join(table["seats"][0]["link"])
        passed = raised = 0
        for _ in range(3000):
            state = me.fresh()
            if state["over"] or (passed and raised):
                break
            offered = [m for m in state["legal"] if m["kind"] == "pass"]
            if offered:
                assert state["obs"]["turn"] != 0  # a bot's card waits
                raises = [m["move"] for m in state["legal"] if m["kind"] == "raise"]
                assert raises
                move = offered[0]["move"] if not passed else raises[0]
                me.sent(json.dumps({"type": "move", "move": move}))
                after = me.fresh()
                assert after["moves"] > state["moves"]
                if move.startswith("pass"):
                    passed += 1
                else:
                    assert any(r["seat"] == 0 and r["kind"] == "raise" for r in after["recent"])
                    raised += 1
            elif state["legal"]:
                plain = [m for m in state["legal"] if m["kind"] != "raise"]
                me.sent(json.dumps({"type": "move", "move": (plain or state["legal"])[0]["move"]}))
        assert passed and raised
        log = tmp_path / table["table"] / "game.jsonl"
        assert verify_file(log).problems == []


def test_truco_serve_refuses_a_taken_port_and_a_bad_bot(tmp_path: Path) -> None:
    import socket

    from click.testing import CliRunner

    from engine.cli import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--port", str(port), "--data",
                                           str(tmp_path)])
    assert result.exit_code == 1
    assert f"cannot listen on 127.0.0.1:{port}" in result.output
    result = CliRunner().invoke(main, ["serve", "--bot", "nameless"])
    assert result.exit_code == 2 and "expected NAME=COMMAND" in result.output


def test_a_table_that_cannot_be_read_back_is_told_and_the_others_kept(tmp_path: Path) -> None:
    with running(tmp_path) as server:
        table = server.table("paulista", ["human", "easy", "easy", "easy"])
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "table.json").write_text("{}", encoding="utf-8")
    with running(tmp_path) as server:
        state = server.join(table["seats"][0]["link"]).state
        assert state["seats"][0]["player"] == "human"
        problems = server.server.config.app.state.server.store.problems
        assert len(problems) == 1 and "broken" in problems[0]


def test_a_connection_that_never_joins_is_closed(tmp_path: Path) -> None:
    with running(tmp_path, Limits(join=0.3)) as server:
        table = server.table("paulista", ["human", "easy", "easy", "easy"])
        ws = server.ws(table["table"])
        assert json.loads(ws.recv(timeout=10))["code"] == "join_first"
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=10)


def _bot_program(tmp_path: Path) -> tuple[dict[str, str], str]:
    """examples/bots/first.py under a path of this test's own (to find its processes)."""
    script = tmp_path / "serve-first-bot.py"
    script.write_bytes((REPO / "examples" / "bots" / "first.py").read_bytes())
    return {"first": f"cmd:{sys.executable} {script}"}, str(script)


def test_no_bot_program_outlives_its_table(tmp_path: Path) -> None:
    """A table's bot programs are ended when its match ends, and those of a table still in
    play when the server stops."""
    bots, marker = _bot_program(tmp_path)
    try:
        with running(tmp_path / "data", bot_commands=bots) as server:
            over = server.table("paulista", ["first", "easy", "first", "medium"], seed=4)
            watcher = server.join(over["spectator"])
            assert watcher.state["over"]  # bots only: played out as the table was made
            assert processes_running(marker) == []
            table = server.table("paulista", ["human", "first", "easy", "first"], seed=4)
            me = server.join(table["seats"][0]["link"])
            assert not me.state["over"] and me.state["moves"] > 0  # a bot program played
            assert processes_running(marker) != []
        assert processes_running(marker) == []
    finally:
        for pid in processes_running(marker):  # this test's own only (not to leave them)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _closed_message(server: Running, table: str, token: str) -> dict[str, Any]:
    """A connection to ``table``: the ``closed`` error it is told (after its hello and
    states, or at once), then its end."""
    ws = server.ws(table)
    with contextlib.suppress(ConnectionClosed):  # a closed table's socket may close first
        ws.send(json.dumps({"type": "join", "token": token}))
    while True:
        msg = json.loads(ws.recv(timeout=30))
        if msg["type"] == "error":
            with pytest.raises(ConnectionClosed):
                ws.recv(timeout=10)
            return msg


def _table_freed(table: str, guard_s: float = 120.0) -> bool:
    """Whether the :class:`Table` ``table`` leaves memory (waited for: the server's handler of
    the connection just closed may still hold it for a moment on a busy machine; the guard is
    far above that)."""
    deadline = time.monotonic() + guard_s
    while True:
        gc.collect()
        if not [o for o in gc.get_objects() if type(o) is Table and o.id == table]:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def test_a_finished_table_leaves_memory_and_its_log_stays_served(tmp_path: Path) -> None:
    with running(tmp_path, Limits(linger=0.2)) as server:
        body = server.table("paulista", ["easy", "medium", "easy", "medium"], seed=9)
        table, token = body["table"], body["spectator"].split("#k=")[1]
        told = _closed_message(server, table, token)  # open when the table closed, or later
        assert told["code"] == "closed" and f"/t/{table}/log" in told["message"]
        app = server.server.config.app.state.server
        assert table not in app.tables and table not in app.conns
        assert _table_freed(table), "the finished table is still in memory"
        status, log = server.get(f"/t/{table}/log")
        assert status == 200 and log == (tmp_path / table / "game.jsonl").read_bytes()
        assert verify_file(tmp_path / table / "game.jsonl").incomplete is None
        for path in (f"/t/{table}/replay", f"/t/{table}"):  # the page: the replay, redirected
            status, page = server.get(path)
            assert status == 200 and b'id="truco-data"' in page, path
        playing = server.table("paulista", ["human", "easy", "easy", "easy"])
        assert server.get(f"/t/{playing['table']}/log")[0] == 409
    with running(tmp_path) as server:  # a restart leaves it on disk, still served
        assert table not in server.server.config.app.state.server.tables
        assert server.get(f"/t/{table}/log") == (200, log)
        assert _closed_message(server, table, token)["code"] == "closed"
        assert server.join(playing["seats"][0]["link"]).state["over"] is False
