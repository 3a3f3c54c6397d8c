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

import json
import re
import secrets
from pathlib import Path
from typing import Any

from engine.actions import Action, Deal
from engine.errors import LogError, TrucoError, VariantError
from engine.fileio import atomic_write_text
from engine.game import Checkpoint, Match
from engine.logread import LogItem
from engine.replay import Visitor, replay
from engine.rules import Rules
from engine.serve.fair import Seal
from engine.serve.table import HUMAN, Refusal, Table, resume
from engine.variant import load, trusted_variants_only

#: The name an uploaded house variant is kept under, beside its table's log.
HOUSE_FILE = "variant.yaml"
#: The largest house variant file taken (bytes).
MAX_VARIANT_BYTES = 200_000
_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class _Moves(Visitor):
    """A log's match as its header starts it, and its moves and (unseeded) deals."""

    def __init__(self) -> None:
        self.start: Match | None = None
        self.steps: list[Action | Deal] = []
        self.commitment: str | None = None

    def header(self, item: LogItem, match: Match) -> None:
        self.start = match.clone()
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
        raise VariantError(f"{name}: a variant file is at most {MAX_VARIANT_BYTES} bytes")
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

    def said(e: Exception) -> str:
        return str(e).replace(str(path), name).replace(
            str(path.parent) + "/", "").replace(str(path.parent), "the upload's folder")

    problems = [said(e) for e in (getattr(exc, "errors", None) or [exc])]
    return VariantError(problems[0], errors=[VariantError(p) for p in problems])


def variant_errors(exc: VariantError) -> list[str]:
    """Every problem of a variant, one ``file:line:column: message`` a line."""
    return [str(e) for e in (getattr(exc, "errors", None) or [exc])]


class Store:
    """The tables' folders under ``root``."""

    def __init__(self, root: Path, *, bot_commands: dict[str, str] | None = None) -> None:
        self.root = root
        self.bot_commands = bot_commands or {}
        root.mkdir(parents=True, exist_ok=True)

    def _saver(self, table_id: str, seal: Seal | None = None) -> Any:
        """What writes the table's log; a sealed table's secret (its entropy) is written to
        its ``table.json`` first whenever it changed, so that the log's deals can always be
        dealt again from it."""
        path = self.root / table_id / "game.jsonl"
        kept = [None if seal is None else seal.to_json()]

        def save(text: str) -> None:
            if seal is not None and seal.to_json() != kept[0]:
                meta_path = self.root / table_id / "table.json"
                meta = json.loads(meta_path.read_text(encoding="utf-8"))
                meta["seal"] = kept[0] = seal.to_json()
                atomic_write_text(meta_path, json.dumps(meta, indent=1) + "\n")
            atomic_write_text(path, text)

        return save

    def create(self, variant: str, players: list[str], *, seed: int | None = None,
               house: tuple[str, str] | None = None) -> Table:
        """A new table of the shipped ``variant``, or of ``house`` (an uploaded file's name
        and text), saved at once."""
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
                rules = load(variant)
                label = variant
            table = Table.new(rules, players, seed=seed, table_id=table_id, label=label,
                              bot_commands=self.bot_commands)
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
        tables = []
        for folder in sorted(p for p in self.root.iterdir() if p.is_dir()):
            if not _ID.match(folder.name) or not (folder / "table.json").is_file():
                continue
            try:
                meta = json.loads((folder / "table.json").read_text(encoding="utf-8"))
                if meta.get("over") is not True:  # a closed table stays on disk only
                    tables.append(self._load(folder, meta))
            except (TrucoError, OSError, ValueError, KeyError, TypeError,
                    AttributeError) as exc:
                self.problems.append(f"{folder}: {exc}")
        return tables

    def close(self, table: Table) -> None:
        """A finished table leaves memory: its ``table.json`` says so (``"over": true``), so
        that its log is given from the folder (:meth:`closed_log`) and a restart leaves it
        there."""
        folder = self.root / table.id
        if not (folder / "table.json").is_file():  # a table not of this folder
            return
        meta = json.loads((folder / "table.json").read_text(encoding="utf-8"))
        meta["over"] = True
        atomic_write_text(folder / "table.json", json.dumps(meta, indent=1) + "\n")

    def closed_log(self, table_id: str) -> Path | None:
        """The log of the closed table ``table_id`` (finished, out of memory), or ``None``."""
        folder = self.root / table_id
        if not _ID.match(table_id) or not (folder / "game.jsonl").is_file():
            return None
        try:
            meta = json.loads((folder / "table.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return folder / "game.jsonl" if isinstance(meta, dict) and meta.get("over") is True \
            else None

    def _load(self, folder: Path, meta: dict[str, Any]) -> Table:
        log_path = folder / "game.jsonl"
        data = log_path.read_bytes()
        visitor = _Moves()
        with trusted_variants_only([folder]):
            replayer = replay(data, str(log_path), visitor, folder)
        match = visitor.start
        if replayer.rules is None or match is None:
            raise LogError("no variant", file=str(log_path), line=1)
        steps = visitor.steps
        seal = Seal.from_json(meta["seal"]) if "seal" in meta else None
        if (seal and seal.commitment) != visitor.commitment:  # its deals are not the seal's
            raise LogError("the table's seal does not answer its log's seed_commitment",
                           file=str(log_path), line=1)
        if seal is not None:  # the log's deals are the secret seed's: it deals on
            seal.dealt = any(isinstance(s, Deal) for s in steps)
            steps = [s for s in steps if isinstance(s, Action)]
            if seal.dealt:
                match = Match(match.rules, seed=seal.deal_seed(), dealer=match.dealer)
        recent = resume(match, steps)  # the page's recent moves, as they were
        players = [str(p) for p in meta["players"]]
        table = Table(meta["id"], match, meta["variant"], players,
                      {int(s): str(h) for s, h in meta["tokens"].items()}, meta["spectator"],
                      bots_seed=int(meta["seed"]), save=self._saver(meta["id"], seal),
                      log=data.decode("utf-8"), bot_commands=self.bot_commands,
                      recent=recent, seal=seal)
        table.moves = table.saved = sum(isinstance(s, Action) for s in visitor.steps)
        table.run_bots()  # a bot's move the crash cut short
        return table


def _remove(folder: Path) -> None:
    if folder.is_dir():
        for p in folder.iterdir():
            p.unlink()
        folder.rmdir()


__all__ = ["HOUSE_FILE", "HUMAN", "Store", "check_house", "variant_errors"]
