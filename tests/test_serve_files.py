"""``truco serve`` and the server's own files (issue 40, defects 1, 8, 9, 13 and 14), tried
as they were found: over loopback against a real server. A client names only shipped
variants (no other file is read, and a refusal does not tell whether one exists), no refusal
shows a server path, an upload table's log verifies as served, and a restart trusts nothing
of a table's folder beyond what the API could have written: its ``table.json`` is checked
against the folder's name and the log's header, its files are read bounded, regular files
only."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.replay.verify import verify_file
from tests.serve_util import Running, running

SECRET = "s3cr3t-DB-PASSWORD"
HOUSE = "extends: paulista\ntitle: Our house\n"


def _refusal(server: Running, path: str, body: dict[str, Any]) -> tuple[int, str]:
    status, answer = server.post(path, body)
    return status, json.dumps(answer)


def test_a_variant_is_a_shipped_name_never_a_server_file(tmp_path: Path) -> None:
    """Defect 1: ``variant`` naming a file of the server (absolute, relative, variant-shaped
    or not, existing or not) is refused alike, unread, and nothing of it is quoted."""
    secrets = tmp_path / "secrets"
    secrets.mkdir()
    (secrets / "creds.yml").write_text(f"players: {SECRET}\npassword: {SECRET}\n")
    (secrets / "house.yaml").write_text(HOUSE)
    with running(tmp_path / "data") as server:
        answers = set()
        for name in [str(secrets / "creds.yml"), str(secrets / "house.yaml"),
                     str(secrets / "none.yml"), "../secrets/creds.yml", "../secrets/house.yaml",
                     "../secrets/none.yaml", "no-such-variant"]:
            for path, extra in (("/api/check", {}), ("/api/tables", {"seats": ["easy"] * 4})):
                status, text = _refusal(server, path, {"variant": name, **extra})
                assert status == 400, (name, path, text)
                assert SECRET not in text and "password" not in text
                answers.add(text)
        assert len(answers) == 1, answers  # the same words: no file's existence is told
        status, _ = server.post("/api/tables", {"variant": "mineiro", "seats": ["easy"] * 4})
        assert status == 201


def test_a_refusal_shows_no_server_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Defect 8: the data folder given as a relative path (as found) and an upload that
    names files outside its folder: the refusals name the upload, never a server path."""
    monkeypatch.chdir(tmp_path)
    with running(Path("data")) as server:
        for extends in ("/etc/hosts.yaml", "../other.yaml", "sub/x.yaml", "variant.yaml"):
            for path in ("/api/check", "/api/tables"):
                status, text = _refusal(server, path, {
                    "upload": {"name": "ours.yaml", "text": f"extends: {extends}\n"},
                    **({"seats": ["easy"] * 4} if path == "/api/tables" else {})})
                assert status == 400, text
                assert str(tmp_path) not in text and os.path.realpath(tmp_path) not in text
                assert "ours.yaml" in text, text


def test_an_upload_table_s_log_verifies_as_served(tmp_path: Path) -> None:
    """Defect 9: the log of an upload table names ``variant.yaml``; the server serves it
    beside the log (``/t/ID/variant.yaml``), and the two saved together verify."""
    with running(tmp_path / "data") as server:
        status, table = server.post("/api/tables", {"upload": {"name": "ours.yaml",
                                                               "text": HOUSE},
                                                    "seats": ["easy"] * 4, "seed": 5})
        assert status == 201, table
        status, log = server.get(f"/t/{table['table']}/log")
        assert status == 200
        status, variant = server.get(f"/t/{table['table']}/variant.yaml")
        assert status == 200 and variant.decode() == HOUSE
    saved = tmp_path / "downloads"
    saved.mkdir()
    (saved / f"truco-{table['table']}.jsonl").write_bytes(log)
    (saved / "variant.yaml").write_bytes(variant)
    result = verify_file(saved / f"truco-{table['table']}.jsonl")
    assert result.problems == [], result.problems


def _made(tmp_path: Path) -> tuple[Path, dict[str, Any], dict[str, Any]]:
    """Two tables in play on a server that then stopped: their folders under ``data``."""
    data = tmp_path / "data"
    with running(data) as server:
        one = server.table("paulista", ["human", "easy", "human", "easy"])
        two = server.table("paulista", ["human", "easy", "easy", "easy"])
    return data, one, two


def _edit(folder: Path, **changes: Any) -> None:
    meta = json.loads((folder / "table.json").read_text())
    meta.update(changes)
    (folder / "table.json").write_text(json.dumps(meta))


def _restart(data: Path) -> tuple[set[str], list[str]]:
    """The tables a restarted server picks up, and the problems it tells."""
    with running(data) as server:
        state = server.server.config.app.state.server
        return set(state.tables), list(state.store.problems)


def test_a_restart_runs_no_program_a_table_file_names(tmp_path: Path) -> None:
    """Defect 13: a ``players`` entry the API does not offer (``cmd:PROGRAM``) is not run."""
    data, one, two = _made(tmp_path)
    marker = tmp_path / "ran"
    program = f"cmd:{sys.executable} -c \"open('{marker}', 'w')\""
    _edit(data / one["table"], players=["human", program, "human", "easy"])
    tables, problems = _restart(data)
    assert tables == {two["table"]}
    assert not marker.exists()
    assert len(problems) == 1 and "players" in problems[0] and str(data) not in problems[0]


@pytest.mark.parametrize("table_id", ["../escaped", "other"])
def test_a_restart_checks_a_table_s_id_against_its_folder(tmp_path: Path,
                                                          table_id: str) -> None:
    """Defect 13: ``id`` naming another place (``../escaped``) or another table is refused:
    nothing is written outside the folder, and the other table keeps its own link."""
    data, one, two = _made(tmp_path)
    _edit(data / one["table"], id=two["table"] if table_id == "other" else table_id)
    with running(data) as server:
        state = server.server.config.app.state.server
        assert set(state.tables) == {two["table"]}
        client = server.join(two["seats"][0]["link"])  # the other table's link still opens it
        assert client.hello["seat"] == 0
        client.sent(json.dumps({"type": "move", "move": client.state["legal"][0]["move"]}))
        assert client.next_state()["moves"] > 0
    assert not (tmp_path / "escaped").exists()
    assert not (data / "escaped").exists()


def test_a_restart_takes_the_variant_from_the_log(tmp_path: Path) -> None:
    """Defect 13: a ``variant`` that is not the log header's is refused (it would be what
    ``hello`` shows)."""
    data, one, two = _made(tmp_path)
    _edit(data / one["table"], variant="mineiro")
    tables, problems = _restart(data)
    assert tables == {two["table"]}
    assert len(problems) == 1 and "variant" in problems[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_restart_reads_regular_files_only_and_bounded(tmp_path: Path) -> None:
    """Defect 14: a FIFO as a table's log or ``table.json`` does not hang the restart, a
    link to ``/dev/zero`` is not read without end: each is told, the others picked up."""
    data = tmp_path / "data"
    with running(data) as server:
        made = [server.table("paulista", ["human", "easy", "easy", "easy"]) for _ in range(4)]
    ids = [t["table"] for t in made]
    (data / ids[0] / "game.jsonl").unlink()
    os.mkfifo(data / ids[0] / "game.jsonl")
    (data / ids[1] / "table.json").unlink()
    os.mkfifo(data / ids[1] / "table.json")
    if os.path.exists("/dev/zero"):
        (data / ids[2] / "game.jsonl").unlink()
        (data / ids[2] / "game.jsonl").symlink_to("/dev/zero")
    tables, problems = _restart(data)
    assert tables == {ids[3]} | (set() if os.path.exists("/dev/zero") else {ids[2]})
    assert len(problems) == (3 if os.path.exists("/dev/zero") else 2), problems
    assert all("not a regular file" in p for p in problems), problems


def test_a_closed_table_s_replay_reads_no_file_its_log_names(tmp_path: Path) -> None:
    """A closed table's log is read from disk: its header may name only a shipped variant or
    the table's own house file; the replay page reads and quotes nothing else."""
    (tmp_path / "creds.yml").write_text(f"players: {SECRET}\n")
    data = tmp_path / "data"
    with running(data) as server:
        table = server.table("paulista", ["easy"] * 4)
    folder = data / table["table"]
    _edit(folder, over=True)
    lines = (folder / "game.jsonl").read_text().splitlines(keepends=True)
    header = json.loads(lines[0])
    header["variant"] = str(tmp_path / "creds.yml")
    (folder / "game.jsonl").write_text(json.dumps(header) + "\n" + "".join(lines[1:]))
    with running(data) as server:
        status, page = server.get(f"/t/{table['table']}/replay")
        assert status == 200 and SECRET.encode() not in page
