"""Loading variant files: YAML with positions, ``extends`` overlays, JSON Schema validation and
a semantic pass, into an immutable :class:`~engine.rules.Rules`.

Every problem is a :class:`~engine.errors.VariantError` naming ``file:line:column``, the key
path, what was expected and what was found. Loading is ``yaml.safe_load``-safe (no Python
tags), refuses duplicate keys (PyYAML would keep the last one silently) and YAML aliases
(no "billion laughs"), and bounds the file's size and nesting.

The steps are modules of this package: :mod:`~engine.variant.reader` (one file's YAML, with
positions), :mod:`~engine.variant.extends` (references, trusted folders, the ``extends``
overlay), :mod:`~engine.variant.messages` (the schema's verdict in a YAML file's words) and
:mod:`~engine.variant.checks` (the cross-key checks, a module per block); this one holds the
entry points and the cache.

>>> rules = load_variant("paulista")
>>> rules.players, rules.ladder[0].name, rules.games_to_win
(4, 'truco', 1)
"""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, TypeGuard

from engine.errors import VariantError
from engine.i18n import Said, mark
from engine.reading import read_regular
from engine.resources import shipped_variants
from engine.rules import Rules, rules_from_data
from engine.schemas import variant_schema, with_defaults
from engine.variant.checks import _semantic_errors
from engine.variant.extends import (
    MAX_EXTENDS,
    _closest,
    _resolve,
    looks_like_path,
    resolve_source,
    trusted_folders,
    trusted_variants_only,
)
from engine.variant.messages import _missing_errors, _schema_errors, _size_errors
from engine.variant.reader import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_NODES,
    VARIANT_SUFFIXES,
    KeyPath,
    Mark,
    read_yaml,
    render_path,
)
from engine.variant.special_checks import _shadowed as _shadowed  # tests/test_special_hands.py

__all__ = [
    "MAX_DEPTH", "MAX_EXTENDS", "MAX_FILE_BYTES", "MAX_NODES", "MAX_PROBLEMS",
    "VARIANT_SUFFIXES", "KeyPath", "Mark", "VariantError", "find_variant", "is_shipped_name",
    "load", "load_ref", "load_variant", "looks_like_path", "read_yaml", "render_path",
    "resolve_source", "resolved_document", "root_variants", "trusted_folders",
    "trusted_variants_only", "variant_files", "variant_schema",
]

#: Problems of one variant listed, at most (sorted by position); a last line counts the others.
MAX_PROBLEMS = 20


def load(ref: str | os.PathLike[str], *, base: Path | None = None,
         fresh: bool = False) -> Rules:
    """The one loader: a variant as a command line, a log header, ``extends`` or a program
    names it. ``ref`` is a shipped name, loaded once per process, or a path to a YAML file
    (a string relative to ``base``, the folder of the file that names it, else to the working
    folder; a :class:`~os.PathLike` as it is). A variant file is loaded again only when it, or
    a file it extends, has changed since it was loaded here last; each caller gets its own
    copy of its rules (their ``data`` too), so what one does to them never reaches another.
    ``fresh``: read and check the files now, and keep nothing.

    Raises :class:`~engine.errors.VariantError` with every problem found.

    >>> load("mineiro") is load("mineiro"), load("mineiro-12").top_value
    (True, 12)
    """
    if fresh:
        return _read(ref, base)
    kept = _CACHE.get(ref) if type(ref) is str else None  # a shipped name loaded before
    if kept is not None:
        return kept
    if is_shipped_name(ref):
        return _shipped(ref)
    return _kept_file(ref, base)


def _read(ref: str | os.PathLike[str], base: Path | None) -> Rules:
    """Load, resolve and validate a variant from its files (no cache)."""
    path = resolve_source(str(ref), base) if isinstance(ref, str) else Path(ref)
    shipped = {p.resolve(): n for n, p in shipped_variants().items()}
    doc = _resolve(path, [path.resolve()], display=None)
    doc.data.setdefault("name", shipped.get(path.resolve(), path.stem))
    errors = _size_errors(doc)  # first: the schema's validator is slow on a large list
    if not errors:
        errors = list(_schema_errors(doc))
    if not errors:
        errors = list(_missing_errors(doc, variant_schema()))
    if not errors:  # the defaults filled in after extends, before the cross-key checks
        errors = list(_semantic_errors(doc, with_defaults(doc.data)))
    if errors:
        errors = list({str(e): e for e in errors}.values())
        errors.sort(key=lambda e: (e.file or "", e.line or 0, e.column or 0))
        if len(errors) > MAX_PROBLEMS:
            more = len(errors) - MAX_PROBLEMS
            errors = errors[:MAX_PROBLEMS] + [VariantError(Said.of(
                mark("{more} more problem not listed (the first {first} are)") if more == 1
                else mark("{more} more problems not listed (the first {first} are)"),
                more=more, first=MAX_PROBLEMS), file=doc.file)]
        raise VariantError(errors[0].message, errors=errors, file=errors[0].file,
                           line=errors[0].line, column=errors[0].column, path=errors[0].path)
    return rules_from_data(doc.data, source=str(path))


def load_variant(ref: str | os.PathLike[str], *, base: Path | None = None) -> Rules:
    """Load, resolve and validate a variant, now: a shipped name or a path to a YAML file.
    Deprecated: :func:`load` (``load(ref, base=base, fresh=True)``).

    >>> load_variant("mineiro-12").top_value
    12
    """
    return load(ref, base=base, fresh=True)


def load_ref(ref: str | os.PathLike[str], *, base: Path | None = None) -> Rules:
    """A variant as a log header, a command line or ``extends`` names it. Deprecated:
    :func:`load`, which it is.

    >>> load_ref("mineiro") is load_ref("mineiro")
    True
    """
    return load(ref, base=base)


def find_variant(name: str) -> Rules:
    """A shipped variant by name, loaded once per process. Deprecated: :func:`load`, which
    also takes paths (this one refuses any name but a shipped one)."""
    if not is_shipped_name(name):
        raise VariantError(f"unknown variant {name!r}: expected a shipped name "
                           f"({_closest(name, shipped_variants())})")
    return _shipped(name)


@cache
def root_variants() -> tuple[str, ...]:
    """The shipped variants that extend nothing (the families: every other shipped variant
    states only what it changes in one of them), by name.

    >>> root_variants()
    ('gauderio', 'mineiro', 'paulista')
    """
    return tuple(sorted(name for name, path in shipped_variants().items()
                        if read_yaml(path).data.get("extends") is None))


def is_shipped_name(ref: object) -> TypeGuard[str]:
    """Whether ``ref`` names a shipped variant (a string that is no path and a shipped
    variant's name), as :func:`load` and a log header read it.

    >>> is_shipped_name("mineiro"), is_shipped_name("./mineiro.yaml"), is_shipped_name("nope")
    (True, False, False)
    """
    return isinstance(ref, str) and not looks_like_path(ref) and ref in shipped_variants()


def variant_files(ref: str, base: Path | None = None) -> list[Path]:
    """The files a variant is read from: the file ``ref`` names (relative to ``base``) and
    every file it extends, in order, as absolute paths with links resolved (a shipped
    variant's own file too). It stops quietly where the chain breaks: the loader says why.
    What a command writes is never one of them.

    >>> [p.name for p in variant_files("mineiro-12")]
    ['mineiro-12.yaml', 'mineiro.yaml']
    """
    out: list[Path] = []
    try:
        path = resolve_source(ref, base)
        while len(out) <= MAX_EXTENDS and not path.is_dir():
            real = path.resolve()
            if real in out:
                break
            out.append(real)
            parent = read_yaml(path).data.get("extends")
            if not isinstance(parent, str) or not parent:
                break
            path = resolve_source(parent, path.parent)
    except VariantError:
        pass
    return out


# ---------------------------------------------------------------------------------------------
# the cache: shipped variants once per process, variant files while their bytes are the same
# ---------------------------------------------------------------------------------------------
#: Shipped variants by name (shipped files do not change).
_CACHE: dict[str, Rules] = {}


def _shipped(name: str) -> Rules:
    rules = _CACHE.get(name)
    if rules is None:
        rules = _CACHE[name] = _read(name, None)
    return rules


@dataclass(frozen=True)
class _Loaded:
    rules: Rules  # never handed out: callers get a copy
    files: tuple[tuple[str, bytes], ...]  # every file read to load it, with its bytes then


# Variant files, by (reference, folder, working folder, trusted folders): used while every file
# the loader read holds the same bytes (each is read again: a changed file, or a changed parent,
# is loaded again); a variant loaded without the trust policy is checked again under it.
# Bounded.
_FILES: dict[tuple[str, bool, str, str, str], _Loaded] = {}
_FILES_MAX = 64


def _kept_file(ref: str | os.PathLike[str], base: Path | None) -> Rules:
    """A variant file's rules, from :data:`_FILES` while its files are unchanged: a copy (its
    ``data`` too), so that what a caller does to them never reaches another."""
    key = (os.fspath(ref), isinstance(ref, str), str(base), os.getcwd(),
           str(trusted_folders()))
    loaded = _FILES.get(key)
    if loaded is None or any(_file_bytes(f) != b for f, b in loaded.files):
        files = _variant_files(ref, base)
        rules = _read(ref, base)
        rules.fingerprint  # noqa: B018 - computed once, kept with the rules (and copies)
        if files is None or any(_file_bytes(f) != b for f, b in files):
            # A file changed while the loader read it, or cannot be read plainly: not kept.
            _FILES.pop(key, None)
            return rules  # no one else gets these
        if len(_FILES) >= _FILES_MAX:
            _FILES.clear()
        loaded = _FILES[key] = _Loaded(rules, files)
    rules = copy.copy(loaded.rules)
    object.__setattr__(rules, "data", copy.deepcopy(loaded.rules.data))
    return rules


def _file_bytes(path: str) -> bytes | None:
    """A regular file's bytes (``None`` for anything else, or a file over the limit)."""
    try:
        data = read_regular(path, MAX_FILE_BYTES)
    except OSError:
        return None
    return data if len(data) <= MAX_FILE_BYTES else None


def _variant_files(ref: str | os.PathLike[str],
                   base: Path | None) -> tuple[tuple[str, bytes], ...] | None:
    """The variant file ``ref`` and every file it extends, with their bytes (``None`` where
    the loader would fail, or a file is not plainly readable: such a variant is not kept)."""
    out: list[tuple[str, bytes]] = []
    try:
        path = resolve_source(ref, base) if isinstance(ref, str) else Path(ref)
        while len(out) <= MAX_EXTENDS:
            data = _file_bytes(str(path))
            if data is None:
                return None
            out.append((os.path.abspath(path), data))
            parent = read_yaml(path).data.get("extends")
            if parent is None:
                return tuple(out)
            if not isinstance(parent, str) or not parent:
                return None
            path = resolve_source(parent, path.parent)
    except Exception:  # noqa: BLE001 - whatever it is, the loader says it; nothing is kept
        return None
    return None


def resolved_document(data: dict[str, Any]) -> dict[str, Any]:
    """A resolved variant as a stand-alone variant file: no ``extends``, the name, title and
    description first, then every rule in the schema's order (what ``truco variants show``
    prints, and what the bot protocol sends a bot)."""
    order = ["name", "title", "description", *variant_schema()["properties"]]
    keys = [k for k in order if k in data and k not in ("extends", "$schema")]
    return {k: data[k] for k in keys}
