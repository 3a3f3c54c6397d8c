"""Where a variant is read from, and what it extends: a reference (a shipped name or a path)
as a file, the folders a variant may be read from (:func:`trusted_variants_only`), and the
``extends`` chain read file by file and laid over its parents (mappings merge, lists and
scalars replace)."""

from __future__ import annotations

import contextlib
import difflib
import os
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from engine.errors import VariantError
from engine.resources import shipped_variants
from engine.variant.reader import MAX_NODES, VARIANT_SUFFIXES, KeyPath, _Doc, read_yaml

MAX_EXTENDS = 16


def looks_like_path(ref: str) -> bool:
    """Whether a variant reference names a file (``.yaml``/``.yml``, or with a folder in it)
    rather than a shipped variant."""
    return ref.endswith(VARIANT_SUFFIXES) or "/" in ref or os.sep in ref


#: The folders variant files may be read from (:func:`trusted_variants_only`); None: any.
_TRUSTED: ContextVar[tuple[Path, ...] | None] = ContextVar("trusted_variant_folders",
                                                           default=None)


@contextlib.contextmanager
def trusted_variants_only(folders: Iterable[str | os.PathLike[str]] = ()) -> Iterator[None]:
    """Within the block, a variant named by a path (in a log's header, in ``extends``, at
    any depth) is read only when the file it names, links resolved, is inside one of
    ``folders``; a shipped variant's name is always read. Anything else is refused unread
    (:class:`VariantError`, it is not even looked for): the policy for logs received from
    others (``truco verify --trusted-variants-only``).

    >>> with trusted_variants_only():
    ...     resolve_source("../../etc/passwd.yaml")
    Traceback (most recent call last):
    engine.errors.VariantError: ../../etc/passwd.yaml is not a trusted variant: only shipped \
variants are read
    """
    token = _TRUSTED.set(tuple(Path(os.path.realpath(f)) for f in folders))
    try:
        yield
    finally:
        _TRUSTED.reset(token)


def trusted_folders() -> tuple[Path, ...] | None:
    """The folders of :func:`trusted_variants_only` in force here, or None (any file)."""
    return _TRUSTED.get()


def _check_trusted(candidate: Path) -> None:
    folders = _TRUSTED.get()
    if folders is None:
        return
    real = Path(os.path.realpath(candidate))
    if not any(real.is_relative_to(f) for f in folders):
        under = (" and files under " + ", ".join(map(str, folders))) if folders else ""
        raise VariantError(f"{candidate} is not a trusted variant: only shipped variants"
                           f"{under} are read")


def resolve_source(ref: str, base: Path | None = None) -> Path:
    """A variant reference as a file: a shipped name (``paulista``) or a path (relative to
    ``base``, the folder of the file that names it; only inside the trusted folders under
    :func:`trusted_variants_only`). Raises :class:`VariantError`."""
    shipped = shipped_variants()
    path_like = looks_like_path(ref)
    if not path_like and ref in shipped:
        return shipped[ref]
    candidate = Path(ref) if base is None else base / ref
    if path_like:
        _check_trusted(candidate)
    # a name that is no shipped one: under trust, no file is even looked for
    if path_like or (_TRUSTED.get() is None and candidate.exists()):
        if not candidate.exists():
            raise VariantError(f"no variant file at {candidate}")
        if not candidate.is_dir() and candidate.suffix not in VARIANT_SUFFIXES:
            # Never read (and quote in errors) a file that is not a variant: /etc/passwd...
            raise VariantError(f"{candidate} is not a variant file: expected a name ending in "
                               ".yaml or .yml")
        real = Path(os.path.realpath(candidate))
        if real.is_file() and real.suffix not in VARIANT_SUFFIXES:  # devices: read_yaml
            raise VariantError(f"{candidate} is a link to {real}, which is not a variant "
                               "file: expected a name ending in .yaml or .yml (it is not read)")
        return candidate
    raise VariantError(f"unknown variant {ref!r}: expected a shipped name "
                       f"({_closest(ref, shipped)}) or a path to a .yaml file")


def _resolve(path: Path, chain: list[Path], display: str | None = None,
             budget: int = MAX_NODES) -> _Doc:
    doc = read_yaml(path, display, budget=budget)
    parent_ref = doc.data.get("extends")
    if parent_ref is None:
        return doc
    m = doc.marks[("extends",)]

    def error(message: str) -> VariantError:
        return VariantError(message, file=doc.file, line=m.line, column=m.column, path="extends")

    if not isinstance(parent_ref, str) or not parent_ref:
        raise error(f"expected the name or path of a parent variant, found {parent_ref!r}")
    try:
        parent_path = resolve_source(parent_ref, path.parent)
    except VariantError as exc:
        raise error(exc.message) from None
    if parent_path.is_dir():
        raise error(f"{parent_ref!r} is a directory, not a variant file")
    resolved = parent_path.resolve()
    if resolved in chain:
        cycle = " -> ".join(p.name for p in chain + [resolved])
        raise error(f"extends cycle: {cycle}")
    if len(chain) >= MAX_EXTENDS:
        raise error(f"more than {MAX_EXTENDS} levels of extends")
    parent = _resolve(parent_path, chain + [resolved], budget=budget - doc.nodes)
    if isinstance(parent.data.get("special_hands"), list) and isinstance(
            doc.data.get("special_hands"), dict):
        sm = doc.key_marks[("special_hands",)]
        raise VariantError(
            f"the parent ({parent_ref}) writes its special hands as a list, which a mapping "
            "cannot change (lists replace): expected the whole list of special hands, found a "
            "mapping", file=doc.file, line=sm.line, column=sm.column, path="special_hands")
    return _overlay(parent, doc)


#: Mappings that an empty mapping in a child drops whole, instead of changing nothing: the
#: schema's "absent or empty: none" (``side_bets: {}``, no side bet).
_EMPTY_DROPS = (("side_bets",),)


def _overlay(parent: _Doc, child: _Doc) -> _Doc:
    """The parent with the child's keys laid over it: mappings merge, lists and scalars replace
    (and an empty mapping of :data:`_EMPTY_DROPS` drops the parent's). A variant's name, title
    and description are its own, never inherited."""
    data = _merge(parent.data, child.data)
    for own in ("name", "title", "description", "$schema"):
        if own in child.data:
            data[own] = child.data[own]
        else:
            data.pop(own, None)
    dropped = [p for p in _EMPTY_DROPS if _get(child.data, p) == {}]
    for path in dropped:  # as if absent (one level: the top-level key)
        data.pop(path[0], None)
    marks = dict(parent.marks)
    key_marks = dict(parent.key_marks)
    # A list or scalar of the child replaces the parent's whole subtree there: drop its marks.
    replaced = [p for p in child.marks if p and not isinstance(_get(child.data, p), dict)]
    replaced += dropped
    for table in (marks, key_marks):
        for stale in [q for q in table if any(len(q) > len(p) and q[: len(p)] == p
                                              for p in replaced)]:
            del table[stale]
    marks.update(child.marks)
    key_marks.update(child.key_marks)
    return _Doc(data, marks, key_marks, child.file, parent.nodes + child.nodes)


def _merge(base: Any, over: Any) -> Any:
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for key, value in over.items():
            out[key] = _merge(base[key], value) if key in base else value
        return out
    return over


def _get(data: Any, path: KeyPath) -> Any:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _closest(name: str, shipped: Iterable[str]) -> str:
    """The shipped names nearest to a mistyped ``name`` (difflib), for its error message:
    ``did you mean paulista?``; else where to find them all.

    >>> _closest("paulistaa", ["paulista", "mineiro", "gauderio"])
    'did you mean paulista? truco variants list names them all'
    """
    near = difflib.get_close_matches(name, list(shipped), n=3, cutoff=0.6)
    said = f"did you mean {' or '.join(near)}? " if near else ""
    return said + "truco variants list names them all"
