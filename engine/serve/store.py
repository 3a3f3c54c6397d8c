"""Where ``truco serve`` keeps its tables: one folder a table under ``--data``.

``DIR/ID/table.json`` holds the seats and the SHA-256 of each token (never the tokens),
``DIR/ID/game.jsonl`` the game's log, rewritten atomically after every move (a reader, or a
crash, sees the log before the move or after it, never half of it), and ``DIR/ID/variant.yaml``
an uploaded house variant, which the log's header names beside it (so ``truco verify
DIR/ID/game.jsonl`` reads it). A restarted server replays each log, strictly, onto a fresh
match: nothing played is lost. A finished table that left memory (``"over": true`` in its
``table.json``) stays on disk only: its log is read from there when asked for.

>>> import tempfile
>>> store = Store(Path(tempfile.mkdtemp()))
>>> t = store.create("paulista", ["human", "random", "random", "random"], seed=3)
>>> store.load_all()[0].moves == t.moves
True
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
from pathlib import Path
from typing import Any

from engine.actions import Action, Deal
from engine.errors import LogError, TrucoError, VariantError
from engine.fileio import atomic_write_text
from engine.game import Checkpoint, Match
from engine.logread import MAX_FILE_BYTES, LogItem
from engine.reading import read_regular
from engine.replay import Visitor, replay
from engine.resources import shipped_variants
from engine.rules import Rules
from engine.serve.fair import Seal
from engine.serve.table import HUMAN, Refusal, Table, resume
from engine.variant import load, trusted_variants_only
from engine.variant.told import told_lines
from engine.viewer import replay_page

#: The name an uploaded house variant is kept under, beside its table's log.
HOUSE_FILE = "variant.yaml"
#: The largest house variant file taken (bytes).
MAX_VARIANT_BYTES = 200_000
_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_HASH = re.compile(r"^[0-9a-f]{64}$")
#: The largest ``table.json`` read back (bytes): a few hundred, as written.
MAX_META_BYTES = 65_536
#: The bot levels a table's seats may be given, as ``truco play --level`` names them.
LEVELS = {"easy": "random", "medium": "heuristic", "hard": "search:200"}


class TableFileError(ValueError):
    """A table's folder that does not hold what the server wrote (read back at a restart)."""


class _Moves(Visitor):
    """A log's match as its header starts it, and its moves and (unseeded) deals."""

    def __init__(self) -> None:
        self.start: Match | None = None
        self.variant: object = None
        self.players: object = None
        self.steps: list[Action | Deal] = []
        self.commitment: str | None = None

    def header(self, item: LogItem, match: Match) -> None:
        self.start = match.clone()
        self.variant = item.data.get("variant")
        self.players = item.data.get("players")
        self.commitment = item.data.get("seed_commitment")

    def hand(self, match: Match, deal: LogItem | None) -> None:
        if deal is not None and match.rng is None:  # the deal line dealt the hand
            d = deal.data
            self.steps.append(Deal.of(d["dealer"], d["hands"], d.get("vira")))

    def move(self, item: LogItem, action: Action, match: Match,
             checkpoints: list[Checkpoint]) -> None:
        self.steps.append(action)


def check_house(text: str, name: str, folder: Path) -> Rules:
    """An uploaded house variant, written to ``folder/variant.yaml`` and loaded there; only
    shipped variants may be extended (no other file of the server is read). A
    :class:`VariantError` names ``name`` (the uploaded file's name) at each
    ``line:column``."""
    if len(text.encode("utf-8")) > MAX_VARIANT_BYTES:
        raise VariantError(f"a variant file is at most {MAX_VARIANT_BYTES} bytes", file=name)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / HOUSE_FILE
    atomic_write_text(path, text)
    try:
        with trusted_variants_only([folder]):
            return load(path, fresh=True)
    except VariantError as exc:
        raise _renamed(exc, path, name) from None


def _renamed(exc: VariantError, path: Path, name: str) -> VariantError:
    """The loader's error with the server's paths left out: the uploaded file as ``name``."""

    folders = {str(path.parent), os.path.realpath(path.parent)}

    def said(text: str) -> str:
        told = text
        for folder in sorted(folders, key=len, reverse=True):  # the longest first
            told = told.replace(folder + "/" + HOUSE_FILE, name).replace(folder + "/", "")
            told = told.replace(folder, "the upload's folder")
        return text if told == text else told  # unchanged: as it was (a rule's Said)

    problems = [VariantError(said(e.message), file=None if e.file is None else said(e.file),
                             line=e.line, column=e.column, path=e.path)
                for e in (exc.errors or [exc])]
    return VariantError(problems[0].message, errors=problems, file=problems[0].file,
                        line=problems[0].line, column=problems[0].column, path=problems[0].path)


def shipped(variant: object) -> Rules:
    """The shipped variant named ``variant``, and nothing else: no file of the server is
    read, and the refusal is the same whatever the name (it tells nothing of the server's
    files)."""
    names = shipped_variants()
    if not isinstance(variant, str) or variant not in names:
        raise VariantError("not a shipped variant; expected one of "
                           f"{', '.join(sorted(names))}, or an upload", path="variant")
    with trusted_variants_only():  # a shipped variant extends shipped ones only
        return load(variant)


def variant_errors(exc: VariantError) -> list[str]:
    """Every problem of a variant, one ``file:line:column: path: message`` a line, in the
    language spoken now (:func:`engine.variant.told.told_lines`)."""
    return told_lines(exc)


class Store:
    """The tables' folders under ``root``."""

    def __init__(self, root: Path, *, bot_commands: dict[str, str] | None = None) -> None:
        root.mkdir(parents=True, exist_ok=True)
        self.root = Path(os.path.realpath(root))  # one spelling, left out of every refusal
        self.bot_commands = bot_commands or {}

    def _saver(self, table_id: str, seal: Seal | None = None) -> Any:
        """What writes the table's log; a sealed table's secret (its entropy) is written to
        its ``table.json`` first whenever it changed, so that the log's deals can always be
        dealt again from it."""
        path = self.root / table_id / "game.jsonl"
        kept = [None if seal is None else seal.to_json()]

        def save(text: str) -> None:
            if seal is not None and seal.to_json() != kept[0]:
                meta = _read_meta(self.root / table_id) or {}
                meta["seal"] = kept[0] = seal.to_json()
                atomic_write_text(self.root / table_id / "table.json",
                                  json.dumps(meta, indent=1) + "\n")
            atomic_write_text(path, text)

        return save

    def create(self, variant: str, players: list[str], *, seed: int | None = None,
               house: tuple[str, str] | None = None,
               names: list[str | None] | None = None,
               hashes: dict[int, str] | None = None) -> Table:
        """A new table of the shipped ``variant``, or of ``house`` (an uploaded file's name
        and text), saved at once; ``names``: the players' names (``None``: the default);
        ``hashes``: each person seat's token hash, where the tokens are made elsewhere (a
        championship's team keys): the table then holds no plain token."""
        table_id = secrets.token_urlsafe(6)
        while (self.root / table_id).exists() or not table_id[0].isalnum():
            table_id = secrets.token_urlsafe(6)
        folder = self.root / table_id
        folder.mkdir(parents=True)
        try:
            if house is not None:
                rules: Rules | str = check_house(house[1], house[0], folder)
                label = HOUSE_FILE
            else:
                rules = shipped(variant)
                label = variant
            table = Table.new(rules, players, seed=seed, table_id=table_id, label=label,
                              bot_commands=self.bot_commands, names=names)
            if hashes is not None:
                if set(hashes) != set(table.hashes):
                    raise Refusal("seats", "a token hash for each person seat")
                table.hashes, table.tokens = dict(hashes), {}
        except (TrucoError, Refusal):
            _remove(folder)
            raise
        # "seed" is the bots' seed (the deals' too at a table of a fixed seed); "seal" the
        # secret seed a table without a fixed one committed to (never sent to a client)
        meta = {"id": table_id, "variant": label, "seed": table.bots_seed,
                "players": players, "tokens": {str(s): h for s, h in table.hashes.items()},
                "spectator": table.spectator_hash}
        if table.seal is not None:
            meta["seal"] = table.seal.to_json()
        atomic_write_text(folder / "table.json", json.dumps(meta, indent=1) + "\n")
        table.save = self._saver(table_id, table.seal)
        table.saved = -1
        table.write_log()
        return table

    def load_all(self) -> list[Table]:
        """Every table under the root, rebuilt from its log (a folder that cannot be read
        back is skipped; :attr:`problems` says why)."""
        self.problems: list[str] = []
        #: The person seats each table read back had played (timed as joined seats).
        self.moved: dict[str, set[int]] = {}
        tables = []
        for folder in sorted(self.root.iterdir()):
            if folder.is_symlink() or not folder.is_dir() or not _ID.match(folder.name):
                continue
            try:
                meta = _read_meta(folder)
                if meta is not None and meta.get("over") is not True:  # closed: on disk only
                    tables.append(self._load(folder, meta))
            except (TrucoError, OSError, ValueError, KeyError, TypeError,
                    AttributeError, RecursionError) as exc:
                self.problems.append(f"{folder.name}: {exc}")
        return tables

    def close(self, table: Table, ended: str | None = None) -> None:
        """A finished table leaves memory: its ``table.json`` says so (``"over": true``), so
        that its log is given from the folder (:meth:`closed_log`) and a restart leaves it
        there. ``ended``: why a table closed before its match ended (a championship's
        ``walkover``, ``forfeit`` or ``abandoned``), kept as ``"ended"``."""
        folder = self.root / table.id
        if folder.is_symlink() or not (folder / "table.json").is_file():  # not of this folder
            return
        meta = _read_meta(folder) or {}
        meta["over"] = True
        if ended is not None:
            meta["ended"] = ended
        atomic_write_text(folder / "table.json", json.dumps(meta, indent=1) + "\n")

    def ended(self, table_id: str) -> str | None:
        """Why the closed table ``table_id`` closed before its match ended, or ``None``."""
        if self.closed_log(table_id) is None:
            return None
        with contextlib.suppress(OSError, ValueError, RecursionError):
            why = (_read_meta(self.root / table_id) or {}).get("ended")
            return why if isinstance(why, str) else None
        return None

    def closed_log(self, table_id: str) -> Path | None:
        """The log of the closed table ``table_id`` (finished, out of memory), or ``None``."""
        folder = self.root / table_id
        if not _ID.match(table_id) or folder.is_symlink() or \
                not (folder / "game.jsonl").is_file():
            return None
        try:
            meta = _read_meta(folder)
        except (OSError, ValueError, RecursionError):
            return None
        return folder / "game.jsonl" if meta is not None and meta.get("over") is True \
            and meta.get("id") == table_id else None

    def house_text(self, table_id: str) -> str:
        """The uploaded house variant of the table ``table_id`` (``OSError`` if it has none)."""
        path = self.root / table_id / HOUSE_FILE
        if not _ID.match(table_id) or (self.root / table_id).is_symlink():
            raise FileNotFoundError(table_id)
        data = read_regular(path, MAX_VARIANT_BYTES)
        if len(data) > MAX_VARIANT_BYTES:
            raise TableFileError(f"{table_id}: {HOUSE_FILE} is over {MAX_VARIANT_BYTES} bytes")
        return data.decode("utf-8")

    def replay_html(self, table_id: str, log: str) -> str:
        """The replay page of a table's log, whose header may name only a shipped variant or
        the table's own house file (the log is on disk: it is read as any log received)."""
        folder = self.root / table_id
        with trusted_variants_only([folder]):
            return replay_page(log.encode("utf-8"), "game.jsonl", base=folder)[0]

    def read_log(self, path: Path) -> str:
        """A table's log as text: a regular file, at most a log's size (``engine.reading``)."""
        data = read_regular(path, MAX_FILE_BYTES)
        if len(data) > MAX_FILE_BYTES:
            raise TableFileError(f"{path.parent.name}: the log is over {MAX_FILE_BYTES} bytes")
        return data.decode("utf-8")

    def _load(self, folder: Path, meta: dict[str, Any]) -> Table:
        """The table of ``folder`` read back: ``table.json`` checked against what the API
        allows, the folder's name and the log's header (a restart trusts nothing more)."""
        log = self.read_log(folder / "game.jsonl")
        visitor = _Moves()
        with trusted_variants_only([folder]):
            replayer = replay(log.encode("utf-8"), "game.jsonl", visitor, folder)
        match = visitor.start
        if replayer.rules is None or match is None:
            raise LogError("no variant", file="game.jsonl", line=1)
        players, hashes = self._checked(folder.name, meta, match.rules.players)
        if meta.get("variant") != visitor.variant:
            raise TableFileError(f"table.json: variant {meta.get('variant')!r} is not the "
                                 f"log's ({visitor.variant!r})")
        names = visitor.players  # as the log's header says them (a seat named on joining too)
        if not isinstance(names, list) or len(names) != len(players) or \
                not all(isinstance(n, str) for n in names):
            raise LogError("players: a name a seat", file="game.jsonl", line=1)
        steps = visitor.steps
        seal = _seal(meta, len(players))
        if (seal and seal.commitment) != visitor.commitment:  # its deals are not the seal's
            raise LogError("the table's seal does not answer its log's seed_commitment",
                           file="game.jsonl", line=1)
        if seal is not None:  # the log's deals are the secret seed's: it deals on
            seal.dealt = any(isinstance(s, Deal) for s in steps)
            steps = [s for s in steps if isinstance(s, Action)]
            if seal.dealt:
                match = Match(match.rules, seed=seal.deal_seed(), dealer=match.dealer)
        recent = resume(match, steps)  # the page's recent moves, as they were
        table = Table(folder.name, match, str(visitor.variant), players, hashes,
                      meta["spectator"], bots_seed=int(meta["seed"]),
                      save=self._saver(folder.name, seal), log=log,
                      bot_commands=self.bot_commands, recent=recent, names=names, seal=seal)
        table.moves = table.saved = sum(isinstance(s, Action) for s in visitor.steps)
        self.moved[table.id] = {s.seat for s in visitor.steps if isinstance(s, Action)
                                and s.seat in hashes}
        table.run_bots()  # a bot's move the crash cut short
        return table

    def _checked(self, name: str, meta: dict[str, Any], seats: int
                 ) -> tuple[list[str], dict[int, str]]:
        """The players and token hashes of ``table.json``, as the API could have made them."""
        if meta.get("id") != name:
            raise TableFileError(f"table.json: id {str(meta.get('id'))[:80]!r} is not the "
                                 "folder's name")
        players = meta.get("players")
        allowed = {HUMAN, *LEVELS.values(), *self.bot_commands}
        if not isinstance(players, list) or len(players) != seats or \
                not all(isinstance(p, str) and p in allowed for p in players):
            raise TableFileError(f"table.json: players: {seats} of {', '.join(sorted(allowed))}")
        tokens = meta.get("tokens")
        humans = {str(s) for s, p in enumerate(players) if p == HUMAN}
        if not isinstance(tokens, dict) or set(tokens) != humans or \
                not all(isinstance(h, str) and _HASH.match(h) for h in tokens.values()):
            raise TableFileError("table.json: tokens: a SHA-256 for each person seat")
        spectator = meta.get("spectator")
        if not isinstance(spectator, str) or not _HASH.match(spectator):
            raise TableFileError("table.json: spectator: a SHA-256")
        return players, {int(s): h for s, h in tokens.items()}


    def remove(self, table_id: str) -> None:
        """Take away the folder of ``table_id`` (a table no person joined, reclaimed)."""
        folder = self.root / table_id
        if _ID.match(table_id) and not folder.is_symlink():
            with contextlib.suppress(OSError):
                _remove(folder)


def _read_meta(folder: Path) -> dict[str, Any] | None:
    """A folder's ``table.json`` (a regular file, bounded), or ``None`` where there is none."""
    path = folder / "table.json"
    if not path.exists():
        return None
    data = read_regular(path, MAX_META_BYTES)
    if len(data) > MAX_META_BYTES:
        raise TableFileError(f"table.json: over {MAX_META_BYTES} bytes")
    meta = json.loads(data)
    if not isinstance(meta, dict):
        raise TableFileError("table.json: not a JSON object")
    return meta


def _seal(meta: dict[str, Any], seats: int) -> Seal | None:
    """The secret seed ``table.json`` keeps for a table without a fixed one (``"seal"``), or
    ``None``: its seed, nonce and one entropy a seat."""
    if "seal" not in meta:
        return None
    data = meta["seal"]
    if not isinstance(data, dict) or not isinstance(data.get("entropy"), list) or \
            len(data["entropy"]) != seats:
        raise TableFileError(f"table.json: seal: a seed, a nonce and {seats} entropies")
    return Seal.from_json(data)


def _remove(folder: Path) -> None:
    if folder.is_dir():
        for p in folder.iterdir():
            p.unlink()
        folder.rmdir()


__all__ = ["HOUSE_FILE", "HUMAN", "LEVELS", "Store", "TableFileError", "check_house",
           "shipped", "variant_errors"]
