"""The championship's archive: one folder that anyone can check at home.

::

    championship.json     the definition: title, variant, format, rounds, best_of, seeding,
                          seed, the teams in registration order
    variant.yaml          a house variant's resolved rules (a shipped variant goes by its name)
    variant-late.yaml     with a late_start time rule: the late games' variant (the rules,
                          match.start_score the rule's); each game's "late" says which it had,
                          its "made" when its table was made (checked against round 1's start)
    rounds/round-01.json  each round: its pairings, each pairing's games (a log's file and
                          result, a log cut at the deadline, or a walkover, a forfeit, an
                          abandoned table) and winner
    logs/TABLE.jsonl      every table's log (TABLE: r01-m001-g1, round, pairing, game)
    standings.json        the standings, with the tie-breaks
    manifest.json         the SHA-256 of every other file

Every file is JSON written the same way (two spaces of indent, keys in a fixed order, UTF-8):
the same championship gives byte-identical archives. :func:`write_archive` fills the folder
atomically (:func:`engine.fileio.atomic_folder`). :func:`verify_archive` checks the manifest,
then plays the championship again from its definition: each round paired by the rules and
compared with its file, each log replayed as ``truco verify`` does (the fair deal's reveal
included), each result and the standings recomputed and compared with the files. Every
difference is reported with the file it is in.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import re
import shutil
import tempfile
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.championship.core import LATE_FILE, VARIANT_FILE, Championship, Clock
from engine.championship.model import ChampionshipError, Definition
from engine.fileio import atomic_folder, atomic_write_text, current_umask
from engine.reading import open_regular, read_regular

MANIFEST = "manifest.json"
#: The names an archive may hold (any other file is reported).
_NAMES = re.compile(r"^(championship\.json|variant(-late)?\.yaml|standings\.json|manifest\.json|"
                    r"rounds/round-\d{2,4}\.json|logs/r\d{2,4}-m\d{3}-g\d{1,2}\.jsonl)$")
#: The largest file an archive's reader takes, in bytes.
MAX_FILE = 32 << 20


def dumps(data: Any) -> bytes:
    """The archive's JSON: two spaces of indent, UTF-8, a final newline."""
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def round_file(number: int) -> str:
    return f"rounds/round-{number:02d}.json"


def archive_files(c: Championship) -> dict[str, bytes]:
    """Every file of ``c``'s archive, by path, the manifest last."""
    files: dict[str, bytes] = {"championship.json": dumps(c.current_definition().to_dict())}
    if c.variant_yaml is not None:
        files[VARIANT_FILE] = c.variant_yaml.encode("utf-8")
    if c.late_yaml is not None:
        files[LATE_FILE] = c.late_yaml.encode("utf-8")
    for number in range(1, len(c.rounds) + 1):
        files[round_file(number)] = dumps(c.round_data(number))
    for table in sorted(c.logs):
        files[f"logs/{table}.jsonl"] = c.logs[table]
    files["standings.json"] = dumps(standings_data(c))
    files[MANIFEST] = dumps({"archive": 1, "sha256": {
        name: hashlib.sha256(data).hexdigest() for name, data in sorted(files.items())}})
    return files


def standings_data(c: Championship) -> dict[str, Any]:
    """``standings.json``: where the championship stands, and the table."""
    return {"title": c.definition.title, "format": c.definition.fmt,
            "rounds": c.total_rounds if c.order else 0, "rounds_paired": len(c.rounds),
            "over": c.is_over, "standings": c.standings()}


def write_archive(c: Championship, path: str | os.PathLike[str], *,
                  replace: bool = False) -> Path:
    """Write ``c``'s archive into the folder ``path``, whole or not at all: a new or empty
    folder, or with ``replace`` one that holds an archive and nothing else (how a server
    keeps a championship in progress: each recorded table, the folder written again).
    Anything else in the way: :class:`FileExistsError`, and it is left as it is."""
    files = archive_files(c)
    target = Path(path)
    if replace and target.is_dir() and any(target.iterdir()):
        foreign = [n for n in _listing(target) if not _NAMES.match(n)]
        if foreign or not (target / MANIFEST).is_file():
            raise FileExistsError(17, f"it holds {(foreign or ['no ' + MANIFEST])[0]}: not a "
                                  "championship's archive, left as it is", str(target))
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp",
                                    dir=target.parent))
        old = tmp.with_name(tmp.name[:-4] + ".old.tmp")
        try:
            _fill(tmp, files)
            os.replace(target, old)
            os.replace(tmp, target)
        except BaseException:
            if old.exists() and not target.exists():
                os.replace(old, target)
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        shutil.rmtree(old, ignore_errors=True)
        return target
    with atomic_folder(path) as made:
        _fill(made, files)
    return target


def _fill(folder: Path, files: dict[str, bytes]) -> None:
    """Write the archive's files (UTF-8 text, every one: JSON, YAML, verified logs) into the
    new folder."""
    for name, data in files.items():
        where = folder / name
        where.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(where, data.decode("utf-8"))
    os.chmod(folder, 0o777 & ~current_umask())


def load_archive(path: str | os.PathLike[str], now: Clock | None = None) -> Championship:
    """The championship an archive holds, played again from its logs, as it stood (a round
    in progress included): how a server reads back a championship after a restart. Raises
    :class:`ChampionshipError` with every problem of the archive
    (:func:`verify_archive`); ``now``: its clock from here on."""
    problems, c = check_archive(path, now)
    if problems or c is None:
        raise ChampionshipError("\n".join(problems) or f"{path}: no championship")
    return c


# -- verifying -------------------------------------------------------------------------------
def _listing(root: Path) -> dict[str, Path]:
    """The files under ``root`` by their ``/``-separated path (links are not followed)."""
    out: dict[str, Path] = {}
    for folder, dirs, names in os.walk(root):
        dirs.sort()
        for name in sorted(names):
            full = Path(folder) / name
            out[full.relative_to(root).as_posix()] = full
    return out


#: One file of an archive: a function that reads its bytes, at most ``MAX_FILE + 1``.
Reader = Callable[[], bytes]
#: The most files a zipped archive may hold.
MAX_MEMBERS = 100_000


def _folder_readers(root: Path) -> dict[str, Reader]:
    return {name: functools.partial(read_regular, str(path), MAX_FILE)
            for name, path in _listing(root).items()}


def _zip_readers(zf: zipfile.ZipFile) -> dict[str, Reader]:
    """The members of a zipped archive (folders left out), each read within the limit (a
    member that says it is small but inflates larger is cut at the limit, then refused)."""
    infos = [i for i in zf.infolist()[:MAX_MEMBERS + 1] if not i.is_dir()]
    if len(infos) > MAX_MEMBERS:
        raise ChampionshipError(f"more than {MAX_MEMBERS} files: not a championship's archive")

    def reader(info: zipfile.ZipInfo) -> bytes:
        if info.file_size > MAX_FILE:
            return b"\0" * (MAX_FILE + 1)  # refused by its size, never inflated
        with zf.open(info) as f:
            return f.read(MAX_FILE + 1)

    out: dict[str, Reader] = {}
    for info in infos:
        name = info.filename
        out[name if name not in out else f"{name} (a second time)"] = functools.partial(
            reader, info)
    return out


def zip_bytes(c: Championship) -> bytes:
    """``c``'s archive as one zip file: the same files, sorted, dated 1980-01-01 (a zip's
    earliest date), so the same championship gives the same bytes."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in sorted(archive_files(c).items()):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    return out.getvalue()


def write_zip(c: Championship, path: str | os.PathLike[str]) -> Path:
    """Write ``c``'s archive as the zip file ``path`` (which must not exist), atomically."""
    target = Path(path)
    if os.path.lexists(target):
        raise FileExistsError(17, "it exists: a zipped archive is written only as a new file",
                              str(target))
    data = zip_bytes(c)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                               dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~current_umask())
        os.replace(tmp, target)
    except BaseException:
        os.unlink(tmp)
        raise
    return target


class _Check:
    """The problems found in one archive, each naming its file."""

    def __init__(self, files: dict[str, Reader], label: str) -> None:
        self.label = label
        self.problems: list[str] = []
        self.files = files

    def say(self, name: str, message: str) -> None:
        self.problems.append(f"{self.label}/{name}: {message}")

    def read(self, name: str) -> bytes | None:
        reader = self.files.get(name)
        if reader is None:
            self.say(name, "missing")
            return None
        try:
            data = reader()
        except (OSError, zipfile.BadZipFile, zlib.error, EOFError) as exc:
            self.say(name, f"cannot read it: {getattr(exc, 'strerror', None) or exc}")
            return None
        if len(data) > MAX_FILE:
            self.say(name, f"larger than {MAX_FILE >> 20} MiB")
            return None
        return data

    def json(self, name: str) -> Any:
        data = self.read(name)
        if data is None:
            return None
        try:
            return json.loads(data.decode("utf-8"))
        except ValueError as exc:
            self.say(name, f"not JSON: {exc}")
            return None


def verify_archive(path: str | os.PathLike[str]) -> list[str]:
    """Every problem of the archive at ``path`` (a folder, or a ``.zip`` of one), each line
    naming its file; an empty list when everything agrees."""
    return check_archive(path)[0]


def check_archive(path: str | os.PathLike[str], now: Clock | None = None
                  ) -> tuple[list[str], Championship | None]:
    """:func:`verify_archive`'s problems, and the championship played again (``None`` where
    its definition could not be read)."""
    label = os.fspath(path).rstrip("/") or "/"
    if Path(path).is_dir():
        return _check_files(_folder_readers(Path(path)), label, now)
    try:
        with open_regular(os.fspath(path)) as f, zipfile.ZipFile(f) as zf:
            return _check_files(_zip_readers(zf), label, now)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError) as exc:
        return [f"{label}: not a folder or a zip file: {exc}"], None


def _check_files(files: dict[str, Reader], label: str, now: Clock | None = None
                 ) -> tuple[list[str], Championship | None]:
    check = _Check(files, label)
    _check_manifest(check)
    before = len(check.problems)
    c, stopped = _replay(check, now)
    if stopped is not None:  # what follows the problem cannot be recomputed
        check.problems.append(f"{check.label}: nothing after {stopped} is checked: the "
                              "pairings after it depend on it")
    elif c is not None and len(check.problems) == before:
        _compare(check, c)
    return check.problems, c


def _compare(check: _Check, c: Championship) -> None:
    """Each JSON file of the archive against the one recomputed, and any round or log the
    rounds do not describe."""
    expected = archive_files(c)
    for name, data in expected.items():
        if name == MANIFEST or name not in check.files or not (
                name.endswith(".json") or name == LATE_FILE):
            continue
        found = check.read(name)
        if found is not None and found != data:
            check.say(name, "differs from what the logs and the definition give: "
                      + _first_difference(data, found))
    for name in sorted(set(check.files) - set(expected)):
        if name.startswith(("rounds/", "logs/")):
            check.say(name, "not part of the championship the rounds describe")


def _first_difference(expected: bytes, found: bytes) -> str:
    want = expected.decode("utf-8").splitlines()
    got = found.decode("utf-8", "replace").splitlines()
    for number, (a, b) in enumerate(zip(want, got, strict=False), 1):
        if a != b:
            return f"line {number}: expected {a.strip()[:120]!r}, found {b.strip()[:120]!r}"
    return f"expected {len(want)} lines, found {len(got)}"


def _check_manifest(check: _Check) -> None:
    for name in sorted(check.files):
        if not _NAMES.match(name):
            check.say(name, "not a file an archive holds")
    manifest = check.json(MANIFEST)
    if manifest is None:
        return
    digests = manifest.get("sha256") if isinstance(manifest, dict) else None
    if not isinstance(digests, dict):
        check.say(MANIFEST, 'expected {"archive": 1, "sha256": {FILE: DIGEST, ...}}')
        return
    for name in sorted(check.files):
        if name != MANIFEST and name not in digests and _NAMES.match(name):
            check.say(name, f"not in {MANIFEST}")
    for name, digest in sorted(digests.items()):
        if not isinstance(name, str) or not _NAMES.match(name):
            check.say(MANIFEST, f"lists {str(name)[:80]!r}, not a file an archive holds")
            continue
        if name not in check.files:
            check.say(name, f"missing (listed in {MANIFEST})")
            continue
        data = check.read(name)
        if data is not None and hashlib.sha256(data).hexdigest() != digest:
            check.say(name, f"its SHA-256 is {hashlib.sha256(data).hexdigest()}, "
                      f"{MANIFEST} says {str(digest)[:64]}")


def _replay(check: _Check, now: Clock | None) -> tuple[Championship | None, str | None]:
    """The championship played again from the archive's definition, rounds and logs
    (``None`` where its definition cannot be read), and the round file where the replay
    stopped on a problem (``None``: it went through)."""
    data = check.json("championship.json")
    if data is None:
        return None, None
    try:
        definition = Definition.from_dict(data)
        text = None
        if definition.variant == VARIANT_FILE:
            raw = check.read(VARIANT_FILE)
            text = None if raw is None else raw.decode("utf-8", "replace")
        c = Championship.from_definition(definition, text, now)
    except ChampionshipError as exc:
        check.say("championship.json", str(exc))
        return None, None
    number = 0
    while round_file(number + 1) in check.files and number < c.total_rounds:
        number += 1
        if not _replay_round(check, c, number):
            return c, round_file(number)
    return c, None


def _replay_round(check: _Check, c: Championship, number: int) -> bool:
    """Pair round ``number`` again and record its games from the archive; whether it went
    through (else the problem is said, and the rounds after it are not replayed)."""
    name = round_file(number)
    data = check.json(name)
    pairings = data.get("pairings") if isinstance(data, dict) else None
    if not isinstance(pairings, list):
        if data is not None:
            check.say(name, 'expected {"round": N, "pairings": [...]}')
        return False
    try:
        made = c.pair_next_round()
    except ChampionshipError as exc:
        check.say(name, str(exc))
        return False
    if number == 1 and c.definition.late_start is not None:
        started = data.get("started")
        if not isinstance(started, (int, float)) or isinstance(started, bool):
            check.say(name, f"started: expected when the first round started (seconds), "
                      f"found {str(started)[:40]!r}")
            return False
        c.started = started
    for p, given in zip(made, pairings + [None] * (len(made) - len(pairings)), strict=False):
        teams = given.get("teams") if isinstance(given, dict) else None
        if teams != list(p.teams):
            check.say(name, f"pairing {p.number}: {_teams(teams)}, the pairing rules give "
                      f"{_teams(list(p.teams))}")
            return False
        games = given.get("games", []) if isinstance(given, dict) else []
        if not _record_games(check, c, name, p.number, games if isinstance(games, list) else []):
            return False
    if len(pairings) > len(made):
        check.say(name, f"{len(pairings)} pairings, the pairing rules give {len(made)}")
        return False
    return True


def _teams(teams: Any) -> str:
    if not isinstance(teams, list):
        return "no teams"
    return " v ".join(repr(t)[:60] for t in teams) + (" (a bye)" if len(teams) == 1 else "")


def _record_games(check: _Check, c: Championship, name: str, pairing: int,
                  games: list[Any]) -> bool:
    """Record a pairing's games as the round file lists them (each log read from the
    archive and replayed); whether all went through."""
    for game in games:
        spec = next((t for t in c.tables() if t.pairing == pairing), None)
        table = game.get("table") if isinstance(game, dict) else None
        if isinstance(table, str) and c.definition.late_start is not None:
            made = game.get("made") if isinstance(game, dict) else None
            c.given_late(table, isinstance(game, dict) and game.get("late") is True,
                         made if _is_time(made) else None)
            spec = next((t for t in c.tables() if t.pairing == pairing), None)
        if spec is None or table != spec.table:
            want = "no more games" if spec is None else f"table {spec.table}"
            check.say(name, f"pairing {pairing}: {str(table)[:40]!r}, expected {want}")
            return False
        kind = game.get("result")
        try:
            if kind in ("log", "deadline"):  # a log, or one cut at the deadline
                if not _given_late(check, c, name, pairing, game):
                    return False
                log = f"logs/{table}.jsonl"
                data = check.read(log)
                if data is None:
                    return False
                served = game.get("log_table")
                c.record_log(table, data, name=f"{check.label}/{log}",
                             log_table=served if isinstance(served, str) else None,
                             cut=kind == "deadline")
                if not _made_in_time(check, c, name, pairing, game):
                    return False
            elif kind == "forfeit":
                winner = game.get("winner")
                loser = [t for t in spec.teams if t != winner]
                c.record_outcome(table, "forfeit", loser[0] if len(loser) == 1 else None)
            else:
                c.record_outcome(table, str(kind), game.get("winner"))
        except ChampionshipError as exc:
            text = str(exc)
            if not text.startswith(check.label):
                text = f"{check.label}/{name}: pairing {pairing}: {text}"
            check.problems.append(text)
            return False
    return True


def _given_late(check: _Check, c: Championship, name: str, pairing: int,
                game: dict[str, Any]) -> bool:
    """Whether a played game's ``late`` is as the championship needs: true or false with a
    ``late_start`` time rule (its log checked against that variant), absent without one."""
    late = game.get("late")
    if c.definition.late_start is None:
        return True  # a "late" here differs from the round recomputed: reported there
    if not isinstance(late, bool):
        check.say(name, f"pairing {pairing}: {game.get('table')}: late: expected true or "
                  f"false (the championship has a late_start), found {str(late)[:40]!r}")
        return False
    before = [g for r in c.rounds[:-1] for p in r for g in p.games]
    before += c.rounds[-1][pairing - 1].games
    if not late and any(g.late for g in before):  # time runs one way
        check.say(name, f"pairing {pairing}: {game.get('table')}: late: false, but a table "
                  "made before it was late")
        return False
    return True


def _is_time(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _made_in_time(check: _Check, c: Championship, name: str, pairing: int,
                  game: dict[str, Any]) -> bool:
    """Whether a played game's ``late`` is what the time rule gives for when its table was
    ``made`` (seconds, against round 1's ``started``); a game without ``made`` (an archive
    from before it was recorded) is not checked."""
    rule, made, late = c.definition.late_start, game.get("made"), game.get("late")
    if rule is None or made is None or c.started is None:
        return True
    if not _is_time(made):
        check.say(name, f"pairing {pairing}: {game.get('table')}: made: expected when the "
                  f"table was made (seconds), found {str(made)[:40]!r}")
        return False
    if late is not (made - c.started >= rule.after_minutes * 60):
        check.say(name, f"pairing {pairing}: {game.get('table')}: late: {json.dumps(late)}, "
                  f"but the table was made {(made - c.started) / 60:g} minutes after round 1 "
                  f"started (late_start.after_minutes: {rule.after_minutes})")
        return False
    return True
