"""Championships (issue 46) played to the end by bot teams, their archives written and verified
at home: a Swiss of 32 teams over 5 rounds, a knockout of 16 teams best of 3, a house
variant's; results only from verified logs (walkovers, forfeits, abandoned tables recorded as
such); a tampered log, standing or pairing caught, naming its file."""

from __future__ import annotations

import hashlib
import json
import re
import shlex
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from helpers import doctests

from engine.championship import (
    Championship,
    ChampionshipError,
    archive_files,
    load_archive,
    write_archive,
)
from engine.championship.archive import write_zip
from engine.championship.offline import play_all, play_table
from engine.cli import main
from engine.logformat import record_random


def _teams(c: Championship, n: int, bot: str = "random") -> Championship:
    for i in range(1, n + 1):
        c.register({"name": f"Team {i}", "players": [], "bot": bot})
    c.close()
    return c


@pytest.fixture(scope="module")
def swiss(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Swiss of 32 random-bot teams over 5 rounds, played and archived."""
    c = _teams(Championship.create("paulista", fmt="swiss", rounds=5, seed=7), 32)
    play_all(c)
    assert c.is_over and len(c.logs) == 5 * 16
    return write_archive(c, tmp_path_factory.mktemp("swiss") / "copa")


def _copy(archive: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(archive, tmp_path / archive.name))


def _rewrite(archive: Path, name: str, data: bytes, *, manifest: bool = True) -> None:
    """Change a file of the archive; with ``manifest``, its digest too (so that only the
    recomputation can catch it)."""
    (archive / name).write_bytes(data)
    if manifest:
        m = json.loads((archive / "manifest.json").read_text(encoding="utf-8"))
        m["sha256"][name] = hashlib.sha256(data).hexdigest()
        (archive / "manifest.json").write_text(json.dumps(m, indent=2) + "\n", encoding="utf-8")


def _edit(archive: Path, name: str) -> Any:
    """A JSON file of the archive, to change and give back to :func:`_put`."""
    return json.loads((archive / name).read_text(encoding="utf-8"))


def _put(archive: Path, name: str, data: Any) -> None:
    _rewrite(archive, name, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode())


def _verify(archive: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["championship", "verify", str(archive)])
    return result.exit_code, result.output


def test_a_swiss_of_32_teams_over_5_rounds_verifies(swiss: Path) -> None:
    code, out = _verify(swiss)
    assert code == 0, out
    assert out.endswith("ok, 5 rounds, 80 logs verified; the pairings and standings agree\n")
    standings = json.loads((swiss / "standings.json").read_text(encoding="utf-8"))
    assert standings["over"] and len(standings["standings"]) == 32
    assert sum(row["points"] for row in standings["standings"]) == 80  # a point a table


def test_a_knockout_of_16_teams_best_of_3_verifies(tmp_path: Path) -> None:
    c = _teams(Championship.create("mineiro", fmt="knockout", best_of=3, seed=3), 16)
    play_all(c)
    rounds = [c.round_data(n)["pairings"] for n in range(1, 5)]
    assert [len(r) for r in rounds] == [8, 4, 2, 1]
    for pairing in (p for r in rounds for p in r):
        winner = pairing["winner"]
        assert sum(g["winner"] == winner for g in pairing["games"]) == 2  # best of 3
        assert 2 <= len(pairing["games"]) <= 3
    assert c.standings()[0]["team"] == rounds[-1][0]["winner"]
    archive = write_archive(c, tmp_path / "taça")
    assert _verify(archive)[0] == 0


def test_the_same_definition_and_seed_give_byte_identical_archives() -> None:
    made = []
    for _ in range(2):
        c = _teams(Championship.create("paulista", fmt="round-robin", seed=11), 5)
        play_all(c)
        made.append(archive_files(c))
    assert made[0] == made[1]


def test_a_house_variant_travels_in_the_archive(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("extends: paulista\nmatch:\n  games_to_win: 2\n", encoding="utf-8")
    c = _teams(Championship.create(house, fmt="knockout", seed=1), 3)
    play_all(c)
    archive = write_archive(c, tmp_path / "archive")
    house.unlink()  # checked at home: the archive holds the rules
    assert (archive / "variant.yaml").is_file()
    assert _verify(archive)[0] == 0
    result = CliRunner().invoke(main, ["verify", str(archive / "logs")])
    assert result.exit_code == 0 and "invalid" in result.output  # "N logs: N valid, 0 invalid"


# -- tampering --------------------------------------------------------------------------------
def _tamper_log(archive: Path) -> str:
    name = "logs/r03-m004-g1.jsonl"
    lines = (archive / name).read_bytes().split(b"\n")
    reveal = json.loads(lines[-2])
    reveal["seed"] += 1  # another seed than the one committed to
    lines[-2] = json.dumps(reveal).encode()
    _rewrite(archive, name, b"\n".join(lines))
    return f"{name}:56: reveal does not match the commitment"


def _tamper_digest(archive: Path) -> str:
    name = "logs/r01-m001-g1.jsonl"
    _rewrite(archive, name, (archive / name).read_bytes() + b"\n", manifest=False)
    return f"{name}: its SHA-256 is"


def _tamper_standing(archive: Path) -> str:
    data = _edit(archive, "standings.json")
    first, second = data["standings"][0], data["standings"][1]
    first["team"], second["team"] = second["team"], first["team"]
    _put(archive, "standings.json", data)
    return "standings.json: differs from what the logs and the definition give"


def _tamper_pairing(archive: Path) -> str:
    data = _edit(archive, "rounds/round-02.json")
    a, b = data["pairings"][0]["teams"], data["pairings"][1]["teams"]
    a[1], b[1] = b[1], a[1]
    _put(archive, "rounds/round-02.json", data)
    return "rounds/round-02.json: pairing 1: "


def _tamper_result(archive: Path) -> str:
    data = _edit(archive, "rounds/round-05.json")
    pairing = data["pairings"][0]
    loser = [t for t in pairing["teams"] if t != pairing["winner"]][0]
    pairing["winner"] = pairing["games"][0]["winner"] = loser
    _put(archive, "rounds/round-05.json", data)
    return "rounds/round-05.json: differs"


@pytest.mark.parametrize("tamper", [_tamper_log, _tamper_digest, _tamper_standing,
                                    _tamper_pairing, _tamper_result],
                         ids=lambda f: f.__name__.removeprefix("_tamper_"))
def test_a_tampered_archive_is_caught_naming_the_file(swiss: Path, tmp_path: Path,
                                                      tamper: Any) -> None:
    """A log (its digest updated: only the replay catches it), a log's bytes (the manifest
    catches it), a standing, a pairing, a result in a round file."""
    archive = _copy(swiss, tmp_path)
    said = tamper(archive)
    code, out = _verify(archive)
    assert code == 1
    assert f"{archive}/{said}" in out, out


def test_a_missing_or_extra_file_is_named(swiss: Path, tmp_path: Path) -> None:
    archive = _copy(swiss, tmp_path)
    (archive / "logs/r02-m003-g1.jsonl").unlink()
    (archive / "notes.txt").write_text("hello", encoding="utf-8")
    code, out = _verify(archive)
    assert code == 1
    assert f"{archive}/logs/r02-m003-g1.jsonl: missing" in out
    assert f"{archive}/notes.txt: not a file an archive holds" in out


def test_verify_usage_errors_exit_2(tmp_path: Path) -> None:
    assert _verify(tmp_path / "nowhere")[0] == 2


# -- results only from verified logs ----------------------------------------------------------
def _small() -> Championship:
    return _teams(Championship.create("paulista", fmt="swiss", rounds=2, best_of=3, seed=5),
                  4)


def test_walkovers_forfeits_and_abandoned_tables_are_recorded_as_such(tmp_path: Path) -> None:
    c = _small()
    c.pair_next_round()
    one, two = c.tables()
    c.record_outcome(one.table, "walkover", one.teams[1])
    c.record_outcome(two.table, "abandoned")
    two = c.tables()[0]
    c.record_outcome(two.table, "forfeit", two.teams[0])
    games = [g for p in c.round_data(1)["pairings"] for g in p["games"]]
    assert [g["result"] for g in games] == ["walkover", "abandoned", "forfeit"]
    assert all("score" not in g for g in games)  # never a score
    c.pair_next_round()
    for spec in c.tables():
        c.record_outcome(spec.table, "abandoned")
    while c.tables():
        spec = c.tables()[0]
        c.record_log(spec.table, play_table(c, spec))
    assert c.is_over
    archive = write_archive(c, tmp_path / "a")
    assert _verify(archive)[0] == 0


def test_every_game_abandoned_gives_no_point() -> None:
    c = _small()
    c.pair_next_round()
    while c.tables():
        c.record_outcome(c.tables()[0].table, "abandoned")
    assert {row["points"] for row in c.standings()} == {0}
    assert {row["drawn"] for row in c.standings()} == {1}


def test_a_log_that_is_not_the_tables_is_refused() -> None:
    c = _small()
    c.pair_next_round()
    one, two = c.tables()
    log = play_table(c, one)
    with pytest.raises(ChampionshipError, match="not table"):
        c.record_log(two.table, log)
    other = record_random("mineiro", 7).encode()
    with pytest.raises(ChampionshipError, match="variant_sha256"):
        c.record_log(one.table, other)
    cut = b"\n".join(log.split(b"\n")[:20]) + b"\n"
    with pytest.raises(ChampionshipError, match="incomplete"):
        c.record_log(one.table, cut)
    broken = log.replace(b'"event": "play", "seat": 1', b'"event": "play", "seat": 2', 1)
    with pytest.raises(ChampionshipError, match=r"logs/r01-m001-g1\.jsonl:\d+:"):
        c.record_log(one.table, broken)
    with pytest.raises(ChampionshipError, match="not being played"):
        c.record_log("r09-m001-g1", log)
    assert not c.logs and all(not p.games for p in c.rounds[0])
    assert c.record_log(one.table, log).kind == "log"


def test_the_cli_runs_a_championship_and_refuses_bad_usage(tmp_path: Path) -> None:
    runner = CliRunner()
    run = ["championship", "run", "-v", "paulista"]
    args = [*run, str(tmp_path / "liga"), "--format", "round-robin",
            "--team", "Zaps", "--team", "Copas", "--team", "Ouros", "--seed", "2"]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "3 tables over 3 rounds" in result.output
    assert runner.invoke(main, args).exit_code == 2  # the folder holds an archive now
    bad = runner.invoke(main, [*run, str(tmp_path / "x"), "--team",
                               "\x1b[2Jwipe", "--team", "b", "--format", "knockout"])
    assert bad.exit_code == 2 and "\x1b" not in bad.output and "control" in bad.output
    twice = runner.invoke(main, [*run, str(tmp_path / "y"), "--team", "a",
                                 "--team", "A", "--format", "knockout"])
    assert twice.exit_code == 2 and "registered already" in twice.output
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()


@pytest.mark.parametrize("module", ["model", "pairing", "offline", "standings"])
def test_the_examples_of_the_docstrings_hold(module: str) -> None:
    assert doctests(f"engine.championship.{module}").failed == 0


def test_the_api_example_of_the_docs_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / "championship.md").read_text(
        encoding="utf-8")
    code = page.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "docs/championship.md", "exec"), {})  # noqa: S102 - the page's own code
    team, problems = capsys.readouterr().out.splitlines()
    assert team in ("Os Zaps", "Copas", "Espadilhas") and problems == "[]"


def test_the_commands_of_the_portuguese_page_run(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/pt-BR/championship.md (docs/championship.md's run by tests/test_docs_commands.py):
    its ``truco`` commands in this process, the others in ``sh``, each with the exit code its
    comment says (``# sai com 1``)."""
    repo = Path(__file__).resolve().parent.parent
    page = (repo / "docs" / "pt-BR" / "championship.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", page, re.S)
    shutil.copytree(repo / "variants", tmp_path / "variants")
    monkeypatch.chdir(tmp_path)
    commands = [line for block in blocks for line in block.splitlines() if line.strip()]
    assert len(commands) >= 6
    for line in commands:
        said = re.search(r"# sai com (\d)", line)
        expected = int(said.group(1)) if said else 0
        if line.startswith("truco "):
            code = CliRunner().invoke(main, shlex.split(line, comments=True)[1:]).exit_code
        else:
            code = subprocess.run(["sh", "-c", line], check=False, timeout=60).returncode
        assert code == expected, line


def test_a_championship_in_progress_is_read_back_from_its_folder(tmp_path: Path) -> None:
    """A server's restart: the archive written after each table, read back as it stood
    (registration open, a round half played), and played on to the same end."""
    folder = tmp_path / "copa"
    c = Championship.create("paulista", fmt="swiss", rounds=2, best_of=3, seed=9)
    c.register({"name": "Zaps", "players": [], "bot": "random"})
    write_archive(c, folder)
    c = load_archive(folder)
    assert list(c.teams) == ["zaps"] and not c.order  # registration still open
    for name in ("Copas", "Ouros", "Espadas", "Paus"):
        c.register({"name": name, "players": [], "bot": "random"})
    c.close()
    c.pair_next_round()
    spec = c.tables()[0]
    c.record_log(spec.table, play_table(c, spec))
    c.record_outcome(c.tables()[1].table, "abandoned")
    write_archive(c, folder, replace=True)
    back = load_archive(folder)
    assert archive_files(back) == archive_files(c)
    assert [t.table for t in back.tables()] == [t.table for t in c.tables()]
    play_all(back)
    play_all(c)
    assert archive_files(back) == archive_files(c)


def test_a_folder_that_is_no_archive_is_never_replaced(tmp_path: Path) -> None:
    c = _teams(Championship.create("paulista", fmt="knockout"), 2)
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "mine.txt").write_text("keep me", encoding="utf-8")
    with pytest.raises(FileExistsError):
        write_archive(c, tmp_path / "notes", replace=True)
    assert (tmp_path / "notes" / "mine.txt").read_text(encoding="utf-8") == "keep me"
    tampered = write_archive(c, tmp_path / "a")
    (tampered / "standings.json").write_text("{}", encoding="utf-8")
    with pytest.raises(ChampionshipError, match="standings.json"):
        load_archive(tampered)


def test_a_zipped_archive_is_the_same_files_and_verifies(swiss: Path, tmp_path: Path) -> None:
    c = load_archive(swiss)
    first = write_zip(c, tmp_path / "copa.zip")
    assert write_zip(c, tmp_path / "again.zip").read_bytes() == first.read_bytes()
    with zipfile.ZipFile(first) as zf:
        assert {n: zf.read(n) for n in zf.namelist()} == archive_files(c)
    assert _verify(first) == (0, f"{first}: ok, 5 rounds, 80 logs verified; the pairings and "
                                 "standings agree\n")
    with pytest.raises(FileExistsError):
        write_zip(c, first)


def test_a_hostile_zip_is_refused_naming_its_member(tmp_path: Path) -> None:
    path = tmp_path / "evil.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("../../etc/passwd", b"x")
        zf.writestr("standings.json", b"\0" * (40 << 20))  # inflates past the limit
        zf.writestr("manifest.json", json.dumps({"sha256": {"standings.json": "0" * 64}}))
    code, out = _verify(path)
    assert code == 1
    assert f"{path}/../../etc/passwd: not a file an archive holds" in out
    assert f"{path}/standings.json: larger than 32 MiB" in out
    assert f"{path}/championship.json: missing" in out
    (tmp_path / "junk.zip").write_bytes(b"not a zip")
    assert _verify(tmp_path / "junk.zip") == (
        1, f"{tmp_path / 'junk.zip'}: not a folder or a zip file: File is not a zip file\n"
           f"{tmp_path / 'junk.zip'}: 1 problem: the archive does not agree\n")


def test_a_log_under_a_servers_table_id_is_recorded_with_it(tmp_path: Path) -> None:
    c = _teams(Championship.create("paulista", fmt="knockout", seed=4), 2)
    c.pair_next_round()
    spec = c.tables()[0]
    log = play_table(c, spec).replace(f'"table": "{spec.table}"'.encode(), b'"table": "Xy12_ab"')
    with pytest.raises(ChampionshipError, match="not table"):
        c.record_log(spec.table, log)
    with pytest.raises(ChampionshipError, match="log_table"):
        c.record_log(spec.table, log, log_table="../x")
    assert c.record_log(spec.table, log, log_table="Xy12_ab").log_table == "Xy12_ab"
    assert c.round_data(1)["pairings"][0]["games"][0]["log_table"] == "Xy12_ab"
    assert _verify(write_archive(c, tmp_path / "a"))[0] == 0
