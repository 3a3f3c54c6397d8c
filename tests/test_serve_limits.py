"""``truco serve`` at its limits (issue 40, defects 3 to 7, 10, 11 and the limits it asks
for), tried as they were found: scripts over loopback, only to 127.0.0.1, bounded in count.
Each limit is a documented default (docs/serve.md, Faults and limits); a client's bad input
gets a refusal and never a traceback in the server's log."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from engine import i18n
from engine.replay.verify import verify_file
from engine.serve import Limits
from engine.serve.table import HUMAN, Table
from tests.serve_util import Client, Running, raw_socket, read_all, running


def _post_from(server: Running, source: str, body: dict[str, Any]) -> int:
    s = raw_socket(server, source)
    data = json.dumps(body).encode()
    s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              b"Content-Length: " + str(len(data)).encode() + b"\r\n\r\n" + data)
    status = int(read_all(s).split(b" ", 2)[1])
    s.close()
    return status


def _waits_for_close(client: Client) -> list[dict[str, Any]]:
    got = []
    with pytest.raises(ConnectionClosed):
        while True:
            got.append(client.next())
    return got


def test_a_seat_never_joined_is_not_played_by_a_bot(tmp_path: Path) -> None:
    """Defect 3: the seat timeout runs from when the seat's person left, not from the
    table's creation: a friend who opens the link late finds the seat waiting."""
    with running(tmp_path, Limits(seat_timeout=0.2)) as server:
        late = server.table("paulista", ["medium", "human", "medium", "easy"], seed=2)
        left = server.table("paulista", ["medium", "human", "medium", "easy"], seed=2)
        watcher = server.join(left["spectator"])
        server.join(left["seats"][0]["link"]).close()
        start = watcher.state["moves"]
        while watcher.state["moves"] == start:  # the seat left is played past the wait...
            watcher.next_state()
        friend = server.join(late["seats"][0]["link"])  # ...the one never joined waits
        assert friend.state["legal"] and friend.state["seats"][1]["standin"] is False
        assert friend.state["moves"] == start


def test_one_client_cannot_fill_the_lobby(tmp_path: Path) -> None:
    """Defect 4: one client address may hold ``client_tables`` tables in play; another
    address may still create one."""
    body = {"variant": "paulista", "seats": ["human", "easy", "easy", "easy"]}
    with running(tmp_path, Limits(client_tables=3)) as server:
        assert [_post_from(server, "127.0.0.1", body) for _ in range(4)] == [201] * 3 + [429]
        assert _post_from(server, "127.0.0.2", body) == 201
        status, answer = server.post("/api/tables", body)
        assert status == 429 and answer["error"] == "too_many_tables"


@pytest.mark.parametrize("restart", [False, True])
def test_a_table_nobody_joins_is_reclaimed(tmp_path: Path, restart: bool) -> None:
    """Defect 4: a table no person joined within ``unjoined`` seconds is removed (folder
    too), also one read back by a restart; a spectator is not a person joining."""
    limits = Limits(unjoined=0.3)
    with running(tmp_path, None if restart else limits) as server:
        table = server.table("paulista", ["human", "easy", "easy", "easy"])
        if restart:
            server.server.should_exit = True
    with running(tmp_path, limits) as server:
        watcher = server.join(table["spectator"])
        assert _waits_for_close(watcher)[-1]["code"] == "closed"
        assert not (tmp_path / table["table"]).exists()
        assert server.get(f"/t/{table['table']}")[0] == 404


def test_a_joined_table_is_not_reclaimed(tmp_path: Path) -> None:
    with running(tmp_path, Limits(unjoined=0.3, seat_timeout=None)) as server:
        table = server.table("paulista", ["human", "easy", "human", "easy"])
        server.join(table["seats"][0]["link"]).close()
        other = server.table("paulista", ["human", "easy", "easy", "easy"])
        assert _waits_for_close(server.join(other["spectator"]))[-1]["code"] == "closed"
        assert server.get(f"/t/{table['table']}")[0] == 200  # swept past its wait: kept


def test_one_link_takes_a_bounded_number_of_connections(tmp_path: Path) -> None:
    """Defect 11: 50 connections on one spectator link were all served; now ``link`` are."""
    with running(tmp_path, Limits(link=3)) as server:
        table = server.table("paulista", ["human", "easy", "easy", "easy"])
        watchers = [server.join(table["spectator"]) for _ in range(3)]
        extra = server.ws(table["table"])
        extra.send(json.dumps({"type": "join", "token": table["spectator"].split("#k=")[1]}))
        assert json.loads(extra.recv(timeout=30))["code"] == "too_many_connections"
        with pytest.raises(ConnectionClosed):
            extra.recv(timeout=30)
        assert extra.close_code == 4429
        watchers[0].close()
        seat = server.join(table["seats"][0]["link"])  # a seat's link counts apart
        assert seat.hello["seat"] == 0


def test_a_request_s_headers_and_body_have_a_deadline(tmp_path: Path,
                                                      capfd: pytest.CaptureFixture[str]) -> None:
    """Defect 5: a half-open request is closed after ``header`` seconds, a slow body is
    answered 408 after ``body_time``, and a client that goes away mid-body leaves no
    traceback in the server's log."""
    with running(tmp_path, Limits(header=0.3, body_time=0.3)) as server:
        half = raw_socket(server)
        half.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # never the blank line
        assert read_all(half) == b""
        slow = raw_socket(server)
        slow.sendall(b"POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
        answer = read_all(slow)
        assert b" 408 " in answer.split(b"\r\n")[0] and b"too_slow" in answer
        gone = raw_socket(server)
        gone.sendall(b"POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
        gone.close()
        assert server.get("/")[0] == 200
    assert "Traceback" not in capfd.readouterr().err


def test_connections_are_bounded_per_client(tmp_path: Path) -> None:
    """Defect 5: 1,100 half-open requests made the server unreachable (too many open
    files); now one address holds at most ``client_connections``, and each closes after
    ``header`` seconds: another client is served meanwhile."""
    with running(tmp_path, Limits(client_connections=5, header=30)) as server:
        held = [raw_socket(server) for _ in range(5)]
        for s in held:
            s.sendall(b"GET / HTTP/1.1\r\n")
        refused = raw_socket(server)
        assert read_all(refused) == b""  # closed at once
        other = raw_socket(server, "127.0.0.2")
        other.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert b" 200 " in read_all(other).split(b"\r\n")[0]
        for s in held:
            s.close()


def test_deep_nesting_is_refused_and_the_connection_kept(tmp_path: Path,
                                                        capfd: pytest.CaptureFixture[str]) -> None:
    """Defect 6: JSON nested 960 levels (under the size limits) is refused on the websocket
    (the connection stays) and by the API (400, not 500)."""
    nested = "[" * 960 + "]" * 960
    with running(tmp_path) as server:
        table = server.table("paulista", ["human", "easy", "easy", "easy"])
        client = server.join(table["seats"][0]["link"])
        before = client.fresh()
        client.sent('{"type": "state", "x": ' + nested + "}")
        assert client.error()["code"] == "malformed"
        assert client.fresh() == before
        for path in ("/api/check", "/api/tables"):
            req = urllib.request.Request(server.base + path, nested.encode(),
                                         {"Content-Type": "application/json"})
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(req, timeout=30)
            assert refused.value.code == 400
    assert "RecursionError" not in capfd.readouterr().err


def test_a_lone_surrogate_is_refused(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """Defect 7: ``"token": "\\ud800"`` is refused, not a dropped connection; in an upload's
    text it is a 400, not a 500."""
    with running(tmp_path) as server:
        table = server.table("paulista", ["human", "easy", "easy", "easy"])
        ws = server.ws(table["table"])
        ws.send('{"type": "join", "token": "\\ud800"}')
        assert json.loads(ws.recv(timeout=30))["code"] == "malformed"
        ws.send(json.dumps({"type": "join", "token": table["seats"][0]["link"].split("#k=")[1]}))
        assert json.loads(ws.recv(timeout=30))["type"] == "hello"  # still open, and joins
        for path in ("/api/check", "/api/tables"):
            status, answer = server.post(path, {"upload": {"name": "x.yaml",
                                                           "text": "title: \ud800\n"},
                                                **({"seats": ["easy"] * 4}
                                                   if path == "/api/tables" else {})})
            assert status == 400 and "surrogate" in answer["message"]
    assert "Traceback" not in capfd.readouterr().err


def test_the_api_refuses_what_it_does_not_take(tmp_path: Path) -> None:
    """Defect 10: unknown keys, ``variant`` with ``upload``, an upload's text that is not a
    string: each a clear 400."""
    seats = {"seats": ["easy"] * 4}
    with running(tmp_path) as server:
        for body, code in [({"variant": "paulista", "colour": "red", **seats}, "unknown_key"),
                           ({"variant": "paulista", "upload": {"text": "x: 1"}, **seats},
                            "variant"),
                           ({"upload": {"name": "a.yaml", "text": 7}, **seats}, "upload"),
                           ({"upload": {"name": "a.yaml", "text": ["x"]}, **seats}, "upload"),
                           ({**seats}, "variant")]:
            for path in ("/api/check", "/api/tables"):
                sent = body if path == "/api/tables" else {
                    k: v for k, v in body.items() if k != "seats"}
                status, answer = server.post(path, sent)
                assert (status, answer["error"]) == (400, code), (path, body, answer)
                assert "directory" not in answer["message"]


def test_players_have_names(tmp_path: Path) -> None:
    """Also: names given at the lobby are every client's, the log's header's, and kept by a
    restart; a name over 24 characters or with a control character is refused."""
    names = ["Ana <b>", None, "Bia", None]
    with running(tmp_path) as server:
        for bad in (["x" * 25, None, None, None], ["a\nb", None, None, None], ["Ana"]):
            status, answer = server.post("/api/tables", {"variant": "paulista", "seats": [
                "human", "easy", "human", "easy"], "names": bad})
            assert (status, answer["error"]) == (400, "names")
        status, table = server.post("/api/tables", {"variant": "paulista", "seats": [
            "human", "easy", "human", "easy"], "names": names})
        assert status == 201
        client = server.join(table["seats"][0]["link"])
        shown = ["Ana <b>", "Bot 1 (random)", "Bia", "Bot 3 (random)"]
        assert client.hello["names"] == shown
        assert [s["name"] for s in client.state["seats"]] == shown
        header = json.loads((tmp_path / table["table"] / "game.jsonl").read_text()
                            .splitlines()[0])
        assert header["players"] == shown
    with running(tmp_path) as server:
        assert server.join(table["seats"][1]["link"]).hello["names"] == shown


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_the_moves_panel_speaks_the_menu_s_words(lang: str) -> None:
    """Issue 40 (12): the moves panel says what the buttons say (``aceito``, ``coberta``,
    not ``accept``, ``a card face down``), in either language (issue 43), and each move
    carries its hand (the page draws a line between hands)."""
    i18n.use(lang)
    table = Table.new("paulista", [HUMAN] * 4, seed=4)
    said: dict[str, str] = {}
    for _ in range(60):
        seat = table.awaited()[0]
        legal = json.loads(table.message(seat))["legal"]
        pick = next((m for kind in ("accept", "raise") for m in legal if m["kind"] == kind),
                    None) or next((m for m in legal if m["covered"]), legal[0])
        said.setdefault(pick["kind"] + ("-covered" if pick["covered"] else ""),
                        pick["label"].split(" (")[0])
        table.submit(seat, pick["move"])
        if {"accept", "play-covered"} <= set(said):
            break
    recent = json.loads(table.message(None))["recent"]
    seen = {(m["kind"], m["covered"]): m["text"] for m in recent}
    assert seen[("accept", False)] == said["accept"] == "aceito"
    assert seen[("play", True)] == "coberta"
    assert all(isinstance(m["hand"], int) for m in recent)


def test_a_person_names_their_seat_on_joining(tmp_path: Path) -> None:
    """Also (names): a seat the lobby left unnamed is named by its person, on joining or by
    a ``name`` message, once; every client and the log's header say it, a restart keeps it,
    and the log still verifies."""
    with running(tmp_path) as server:
        table = server.table("paulista", ["human", "easy", "human", "easy"])
        token = table["seats"][0]["link"].split("#k=")[1]
        ana = Client.__new__(Client)
        ana.ws, ana.asked, ana.received = server.ws(table["table"]), 0, []
        ana.sent(json.dumps({"type": "join", "token": token, "name": "Ana"}))
        assert ana.next()["type"] == "hello"
        assert ana.next_state()["seats"][0]["name"] == "Ana"
        bia = server.join(table["seats"][1]["link"])
        for bad in ("a\nb", "x" * 25, 7, ""):
            bia.sent(json.dumps({"type": "name", "name": bad}))
            assert bia.error()["code"] == "name"
        bia.sent(json.dumps({"type": "name", "name": "Bia"}))
        assert [s["name"] for s in bia.next_state()["seats"]][::2] == ["Ana", "Bia"]
        bia.sent(json.dumps({"type": "name", "name": "Other"}))
        assert bia.error()["code"] == "named"
        watcher = server.join(table["spectator"])
        watcher.sent(json.dumps({"type": "name", "name": "Eve"}))
        assert watcher.error()["code"] == "name"
        log = tmp_path / table["table"] / "game.jsonl"
        assert json.loads(log.read_text().splitlines()[0])["players"][::2] == ["Ana", "Bia"]
        assert verify_file(log).problems == []
    with running(tmp_path) as server:
        assert server.join(table["seats"][0]["link"]).hello["names"][::2] == ["Ana", "Bia"]


def test_a_restart_times_the_seats_its_log_shows_played(tmp_path: Path) -> None:
    """Defect 3 across a restart: a seat whose person had played is timed from the restart
    (then the stand-in plays it); the table is not taken for one nobody joined."""
    with running(tmp_path) as server:
        table = server.table("paulista", ["human", "easy", "easy", "easy"], seed=2)
        person = server.join(table["seats"][0]["link"])
        person.sent(json.dumps({"type": "move", "move": person.state["legal"][0]["move"]}))
        person.next_state()
        while not person.state["legal"]:  # the bots' moves, up to the person's again
            person.next_state()
        moved = person.state["moves"]
    with running(tmp_path, Limits(seat_timeout=0.2, unjoined=0.2)) as server:
        watcher = server.join(table["spectator"])
        while watcher.state["moves"] == moved:  # the stand-in plays the seat played before
            watcher.next_state()
        assert watcher.state["seats"][0]["standin"] is True
        assert server.get(f"/t/{table['table']}")[0] == 200  # not reclaimed as unjoined


def test_one_client_creates_a_bounded_number_of_tables_an_hour(tmp_path: Path) -> None:
    """Defect 4: a table of bots only is over at once (never in play), so creations are
    counted too: ``client_creations`` a ``window`` from one address."""
    body = {"variant": "paulista", "seats": ["easy"] * 4}
    with running(tmp_path, Limits(client_creations=3)) as server:
        assert [_post_from(server, "127.0.0.1", body) for _ in range(4)] == [201] * 3 + [429]
        assert _post_from(server, "127.0.0.2", body) == 201
