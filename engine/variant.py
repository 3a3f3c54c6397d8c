"""Loading variant files: YAML with positions, ``extends`` overlays, JSON Schema validation and
a semantic pass, into an immutable :class:`~engine.rules.Rules`.

Every problem is a :class:`~engine.errors.VariantError` naming ``file:line:column``, the key
path, what was expected and what was found. Loading is ``yaml.safe_load``-safe (no Python
tags), refuses duplicate keys (PyYAML would keep the last one silently) and YAML aliases
(no "billion laughs"), and bounds the file's size and nesting.

>>> rules = load_variant("paulista")
>>> rules.players, rules.ladder[0].name, rules.games_to_win
(4, 'truco', 1)
"""

from __future__ import annotations

import contextlib
import copy
import difflib
import itertools
import json
import os
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, TypeGuard

import jsonschema
import yaml
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from engine.cards import RANKS, canonical_deck, card_name, parse_card
from engine.errors import VariantError
from engine.reading import read_regular
from engine.resources import shipped_variants
from engine.rules import (
    NOT_RULES,
    Rules,
    rules_from_data,
    special_hands_from_data,
    with_defaults,
)
from engine.rules import variant_schema as variant_schema  # re-exported: it lived here

MAX_FILE_BYTES = 1 << 20  # 1 MiB: a variant is a few hundred bytes
MAX_DEPTH = 32
MAX_EXTENDS = 16
#: Values (scalars, lists and mappings, keys included) in a variant and the files it extends,
#: counted while the YAML is read: the largest shipped variant has 348. Reading YAML costs
#: about 50 us a value (88,000 card_names keys in a 1 MiB file took 9 s), so a file is read no
#: further than this.
MAX_NODES = 10_000
#: Problems of one variant listed, at most (sorted by position); a last line counts the others.
MAX_PROBLEMS = 20

KeyPath = tuple[str | int, ...]


@dataclass(frozen=True)
class Mark:
    """A position in a file, 1-based."""

    file: str
    line: int
    column: int


def render_path(path: KeyPath) -> str:
    """``("betting", "ladder", 1, "value")`` as ``betting.ladder[1].value``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


# ---------------------------------------------------------------------------------------------
# YAML with positions
# ---------------------------------------------------------------------------------------------
class _PathError(yaml.composer.ComposerError):
    """A problem found while composing, at the value ``key_path`` names."""

    def __init__(self, problem: str, key_path: KeyPath, mark: yaml.Mark) -> None:
        super().__init__(None, None, problem, mark)
        self.key_path = key_path


class _AliasError(_PathError):
    """An alias (``*name``) where a value should be; ``key_path`` says which value."""

    def __init__(self, key_path: KeyPath, mark: yaml.Mark) -> None:
        super().__init__("YAML aliases (*name) are not allowed in variant files; write the "
                         "value out", key_path, mark)


class _TooManyValues(_PathError):
    """More values than :data:`MAX_NODES` (the file is valid YAML, but no variant)."""


class _Loader(yaml.SafeLoader):
    """A SafeLoader that refuses aliases (and so alias bombs) while composing, counts the
    values it composes against a budget (:data:`MAX_NODES`), and knows the key path of the
    node it is composing."""

    def __init__(self, stream: str, budget: int = MAX_NODES) -> None:
        super().__init__(stream)
        self.key_path: list[str | int] = []
        self.depth = 0
        self.nodes = 0
        self.budget = budget

    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        # PyYAML passes the key node as ``index`` for a mapping's value, None for the key
        # itself, and the position for a sequence item.
        part: object = index
        if isinstance(part, ScalarNode):
            part = str(part.value)
        pushed = parent is not None and isinstance(part, (str, int))
        if pushed:
            self.key_path.append(part)  # type: ignore[arg-type]
        self.depth += 1
        self.nodes += 1
        try:
            if self.check_event(AliasEvent):
                event = self.peek_event()  # type: ignore[no-untyped-call]
                raise _AliasError(tuple(self.key_path), event.start_mark)
            if self.depth > MAX_DEPTH + 1:
                event = self.peek_event()  # type: ignore[no-untyped-call]
                raise yaml.composer.ComposerError(
                    None, None, f"nesting deeper than {MAX_DEPTH} levels", event.start_mark)
            if self.nodes > self.budget:
                event = self.peek_event()  # type: ignore[no-untyped-call]
                raise _TooManyValues(
                    f"more than {MAX_NODES} values in the variant and the files it extends "
                    "(keys, items, scalars: a variant has a few hundred); read no further",
                    tuple(self.key_path), event.start_mark)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1
            if pushed:
                self.key_path.pop()


@dataclass
class _Doc:
    data: dict[str, Any]
    marks: dict[KeyPath, Mark]  # where each value starts
    key_marks: dict[KeyPath, Mark]  # where each mapping key starts
    file: str
    nodes: int = 0  # the values read (this file's, with those of the files it extends)


def _mark(file: str, m: yaml.Mark | None) -> Mark:
    return Mark(file, (m.line + 1) if m else 1, (m.column + 1) if m else 1)


def _start(file: str) -> dict[str, Any]:
    """The location of a problem with the whole file: its first line and column."""
    return {"file": file, "line": 1, "column": 1}


def read_yaml(path: Path, display: str | None = None, *, budget: int = MAX_NODES) -> _Doc:
    """Read one variant file into plain data with the position of every key and value; more
    than ``budget`` values is an error (:data:`MAX_NODES`)."""
    file = display or str(path)
    try:
        if path.is_dir():
            raise VariantError("is a directory, not a variant file", **_start(file))
        if path.exists() and not path.is_file():
            raise VariantError("not a regular file (a device or a pipe?): expected a variant "
                               "file", **_start(file))
        real = Path(os.path.realpath(path))
        if path.exists() and real.suffix not in VARIANT_SUFFIXES:
            # passwd.yaml -> /etc/passwd: the name the link gives is not what it names
            raise VariantError(f"a link to {real}, which is not a variant file: expected a "
                               "name ending in .yaml or .yml (it is not read)", **_start(file))
        size = path.stat().st_size
        with path.open("rb") as f:  # bounded: the file may grow while it is read
            raw = f.read(MAX_FILE_BYTES + 1)
        size = max(size, len(raw))
        if size > MAX_FILE_BYTES:
            raise VariantError(f"file is {size} bytes; a variant file may have at most "
                               f"{MAX_FILE_BYTES}", **_start(file))
    except OSError as exc:
        raise VariantError(f"cannot read: {exc.strerror or exc}", **_start(file)) from None
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]  # a UTF-8 byte order mark, as some editors write
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise VariantError(f"not UTF-8: byte 0x{raw[exc.start]:02x} cannot be decoded",
                           file=file, line=line, column=column) from None
    try:
        loader = _Loader(text, budget)
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow, like NUL
        line = text.count("\n", 0, exc.position) + 1
        column = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        raise VariantError(f"invalid YAML: character U+{exc.character:04X} is not allowed",
                           file=file, line=line, column=column) from None
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = _mark(file, exc.problem_mark or exc.context_mark)
        problem = " ".join(p for p in (exc.context, exc.problem) if p)
        if "expected a single document" in problem:
            problem = "expected a single YAML document, found several (---)"
        elif "'\\t'" in problem:
            problem += " (YAML indents with spaces, not tabs)"
        key_path = render_path(exc.key_path) if isinstance(exc, _PathError) else None
        what = problem if isinstance(exc, _TooManyValues) else f"invalid YAML: {problem}"
        raise VariantError(what, file=file, line=mark.line, column=mark.column,
                           path=key_path) from None
    except yaml.YAMLError as exc:
        raise VariantError(f"invalid YAML: {exc}", **_start(file)) from None
    except RecursionError:
        raise VariantError("invalid YAML: nesting too deep", **_start(file)) from None
    finally:
        nodes = loader.nodes
        loader.dispose()
    if node is None:
        raise VariantError("empty file: expected a mapping of variant keys", file=file, line=1,
                           column=1)
    doc = _Doc({}, {}, {}, file, nodes)
    if not isinstance(node, MappingNode):
        m = _mark(file, node.start_mark)
        raise VariantError(f"expected a mapping of variant keys at the top level, found a "
                           f"{_node_kind(node)}", file=file, line=m.line, column=m.column)
    _refuse_if_no_variant_key(node, file)
    doc.data = _build(node, (), doc, _Loader(""))
    return doc


def _refuse_if_no_variant_key(node: MappingNode, file: str) -> None:
    """A mapping none of whose top-level keys is a variant's is some other file (a
    configuration, ``/etc/shadow`` named ``x.yaml``): it is refused as not a variant, and
    nothing of it is quoted (its keys and values are nobody's business)."""
    known = variant_schema()["properties"]
    keys = [k for k, _ in node.value]
    if keys and not any(isinstance(k, ScalarNode) and k.value in known for k in keys):
        raise VariantError(f"not a variant file: none of its {len(keys)} top-level key(s) is "
                           "a variant key (like extends or players); nothing of it is quoted",
                           **_start(file))


def _node_kind(node: Node) -> str:
    if isinstance(node, MappingNode):
        return "mapping"
    return "list" if isinstance(node, SequenceNode) else "scalar"


#: The only YAML types a variant holds. Anything else (``!!python/object``, ``!!binary``,
#: ``!!set``, dates...) is refused, even where the safe loader would build it.
_PLAIN_TAGS = {f"tag:yaml.org,2002:{t}" for t in ("null", "bool", "int", "float", "str", "map",
                                                  "seq")}


def _check_tag(node: Node, path: KeyPath, doc: _Doc) -> None:
    if node.tag not in _PLAIN_TAGS:
        m = _mark(doc.file, node.start_mark)
        tag = node.tag.replace("tag:yaml.org,2002:", "!!")
        raise VariantError(f"the YAML tag {tag} is not allowed: expected plain strings, numbers, "
                           "booleans, lists and mappings", file=doc.file, line=m.line,
                           column=m.column, path=render_path(path))


def _build(node: Node, path: KeyPath, doc: _Doc, constructor: _Loader) -> Any:
    doc.marks[path] = _mark(doc.file, node.start_mark)
    _check_tag(node, path, doc)
    if len(path) > MAX_DEPTH:
        m = doc.marks[path]
        raise VariantError(f"nesting deeper than {MAX_DEPTH} levels", file=doc.file,
                           line=m.line, column=m.column, path=render_path(path))
    if isinstance(node, MappingNode):
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            km = _mark(doc.file, key_node.start_mark)
            key = None
            if isinstance(key_node, ScalarNode):
                _check_tag(key_node, path, doc)
                key = _scalar(key_node, path, doc, constructor)
            if not isinstance(key, str):
                found = repr(key) if isinstance(key_node, ScalarNode) else \
                    f"a {_node_kind(key_node)}"
                raise VariantError(f"keys must be strings, found {found}", file=doc.file,
                                   line=km.line, column=km.column, path=render_path(path))
            if key in out:
                first = doc.key_marks[path + (key,)]
                raise VariantError(f"duplicate key {key!r} (first at line {first.line})",
                                   file=doc.file, line=km.line, column=km.column,
                                   path=render_path(path + (key,)))
            doc.key_marks[path + (key,)] = km
            out[key] = _build(value_node, path + (key,), doc, constructor)
        return out
    if isinstance(node, SequenceNode):
        return [_build(item, path + (i,), doc, constructor) for i, item in enumerate(node.value)]
    return _scalar(node, path, doc, constructor)


def _scalar(node: Node, path: KeyPath, doc: _Doc, constructor: _Loader) -> Any:
    try:
        return constructor.construct_object(node, deep=True)
    except yaml.MarkedYAMLError as exc:
        m = _mark(doc.file, exc.problem_mark or node.start_mark)
        raise VariantError(f"invalid value: {exc.problem}", file=doc.file, line=m.line,
                           column=m.column, path=render_path(path)) from None
    except (ValueError, OverflowError) as exc:
        m = _mark(doc.file, node.start_mark)
        if "digits" in str(exc):  # Python's own limit on integer digits
            exc = ValueError("an integer with more than 4300 digits")
        raise VariantError(f"invalid value: {exc}", file=doc.file, line=m.line,
                           column=m.column, path=render_path(path)) from None


# ---------------------------------------------------------------------------------------------
# extends
# ---------------------------------------------------------------------------------------------
#: What the name of a variant file ends with.
VARIANT_SUFFIXES = (".yaml", ".yml")


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


# ---------------------------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------------------------
def _is_int(_checker: Any, value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@cache
def _validator() -> Any:
    # YAML integers only: jsonschema's "integer" accepts 12.0, which the rules cannot count with.
    checker = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_int)
    strict = jsonschema.validators.extend(jsonschema.Draft202012Validator, type_checker=checker)
    return strict(variant_schema())


def _where(doc: _Doc, path: KeyPath, key: bool = False) -> dict[str, Any]:
    """The location of ``path`` (its key when ``key``), or of its nearest ancestor."""
    probe = path
    while True:
        m = (doc.key_marks.get(probe) if key else None) or doc.marks.get(probe)
        if m is not None or not probe:
            break
        probe = probe[:-1]
    m = m or Mark(doc.file, 1, 1)
    return {"file": m.file, "line": m.line, "column": m.column, "path": render_path(path)}


_TYPE_WORDS = {"integer": "an integer", "string": "a string", "boolean": "a boolean (true or "
               "false)", "array": "a list", "object": "a mapping", "number": "a number"}


def _expected(validator: str, value: Any) -> str | None:
    """What a failed JSON Schema keyword asked for, in the words of a YAML file."""
    if validator == "enum":
        return "one of " + ", ".join(json.dumps(x) for x in value)
    if validator == "type":
        if isinstance(value, list):  # a key of several forms (special_hands, a ladder value)
            return " or ".join(_TYPE_WORDS.get(v, f"a value of type {v}") for v in value)
        return _TYPE_WORDS.get(value, f"a value of type {value}")
    words = {"minimum": f"at least {value}", "maximum": f"at most {value}",
             "pattern": f"a string matching {value}", "minItems": f"at least {value} item(s)",
             "maxItems": f"at most {value} item(s)", "uniqueItems": "no repeated items",
             "maxProperties": f"at most {value} key(s)",
             "minLength": "a non-empty string"}
    return words.get(validator)


def _found(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= 60 else text[:57] + "..."


def _size_errors(doc: _Doc) -> list[VariantError]:
    """Every list longer than its schema's ``maxItems`` and mapping with more keys than its
    ``maxProperties``, found by a walk of the data beside the schema before the schema is
    validated: the validator would report each item of a list that is too long (16,000
    ``special_hands: [{}, ...]`` made 64,000 errors and 290 MB). Inside a list or mapping
    that is too large nothing is looked at."""
    schema = variant_schema()
    out: list[VariantError] = []

    def walk(data: Any, sub: dict[str, Any], path: KeyPath) -> None:
        ref = sub.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            sub = schema["$defs"][ref.removeprefix("#/$defs/")]
        if isinstance(data, list):
            most = sub.get("maxItems")
            if most is not None and len(data) > most:
                out.append(VariantError(f"expected at most {most} item(s), found {len(data)}",
                                        **_where(doc, path)))
                return
            items = sub.get("items")
            if isinstance(items, dict):
                for i, item in enumerate(data):
                    walk(item, items, path + (i,))
        elif isinstance(data, dict):
            most = sub.get("maxProperties")
            if most is not None and len(data) > most:
                out.append(VariantError(f"expected at most {most} key(s), found {len(data)}",
                                        **_where(doc, path)))
                return
            properties = sub.get("properties", {})
            others = sub.get("additionalProperties")
            for key, value in data.items():
                inner = properties.get(key, others)
                if isinstance(inner, dict):
                    walk(value, inner, path + (key,))

    walk(doc.data, schema, ())
    return out


def _schema_errors(doc: _Doc) -> Iterator[VariantError]:
    raw = list(_validator().iter_errors(doc.data))
    # A value of the wrong type also fails its enum or pattern: report the type alone.
    mistyped = {tuple(e.absolute_path) for e in raw if e.validator == "type"}
    for err in raw:
        path: KeyPath = tuple(err.absolute_path)
        found = err.instance
        v = err.validator
        if path in mistyped and v != "type":
            continue
        if v == "additionalProperties":
            allowed = sorted(err.schema.get("properties", {}))
            for key in sorted(set(found) - set(allowed)):
                yield VariantError(f"unknown key {key!r}; expected one of: {', '.join(allowed)}",
                                   **_where(doc, path + (key,), key=True))
            continue
        if v == "required":
            missing = [k for k in err.validator_value if k not in found]
            yield VariantError(f"missing key(s): {', '.join(missing)}", **_where(doc, path))
            continue
        expected = _expected(str(v), err.validator_value)
        if expected is None:
            yield VariantError(err.message, **_where(doc, path))
        else:
            yield VariantError(f"expected {expected}, found {_found(found)}", **_where(doc, path))


def _missing_errors(
    doc: _Doc, schema: dict[str, Any], path: KeyPath = ()
) -> Iterator[VariantError]:
    """A variant that extends nothing states every rule: each schema property must be there,
    but the labels (:data:`~engine.rules.NOT_RULES`) and a key with a ``default``, which the
    loader fills in (:func:`~engine.rules.with_defaults`)."""
    data = _get(doc.data, path)
    if not isinstance(data, dict):
        return
    for key, sub in schema.get("properties", {}).items():
        sub_path = path + (key,)
        if "default" in sub or (not path and key in NOT_RULES):
            continue
        if key not in data:
            # Located at the mapping that should hold it; the path names the key itself.
            yield VariantError(f"missing key {key!r} ({sub.get('description', '')}); a variant "
                               "that extends nothing must state every rule",
                               **_where(doc, sub_path))
        elif "properties" in sub and isinstance(data[key], dict):
            # an object (or, special_hands, the mapping of a key that may also be a list)
            yield from _missing_errors(doc, sub, sub_path)


def _semantic_errors(doc: _Doc, d: dict[str, Any]) -> Iterator[VariantError]:
    """What the schema cannot say: cross-key consistency, of ``d``, the document's data with
    the schema's defaults filled in (where a key's being written matters, ``doc`` says)."""

    def err(path: KeyPath, message: str, also: tuple[KeyPath, ...] = ()) -> VariantError:
        # A rule that ties several keys is reported at ``path``, unless only one of the
        # ``also`` keys was written in the file being loaded: the user changed that one.
        for p in (path, *also):
            if _where(doc, p)["file"] == doc.file:
                return VariantError(message, **_where(doc, p))
        return VariantError(message, **_where(doc, path))

    yield from _deck_errors(d, err)
    bet = d["betting"]
    target = d["game"]["target"]
    previous = bet["initial_value"]
    last = len(bet["ladder"]) - 1
    for i, step in enumerate(bet["ladder"]):
        value = step["value"]
        worth = step["worth"]
        named = value in ("game", "match")
        if named and worth is not None:
            yield err(("betting", "ladder", i, "worth"), f"expected worth only on a step with a "
                      f"numeric value (value: {value} is worth the {value} already), found "
                      f"worth: {worth}", (("betting", "ladder", i, "value"),))
        elif worth is not None and value < target:
            yield err(("betting", "ladder", i, "value"), f"a step worth the {worth} scores at "
                      f"least the game: expected a value of at least game.target ({target}), "
                      f"found {value}", (("betting", "ladder", i, "worth"), ("game", "target")))
        if named or worth is not None:  # worth the game (or the match)
            what = value if named else worth
            if i != last:
                yield err(("betting", "ladder", i, "value" if named else "worth"),
                          f"expected the step worth the {what} last in the ladder, found it at "
                          f"step {i + 1} of {last + 1}")
        if named:
            value = target  # its value is the target
        if value <= previous:
            hint = ""
            if named:
                hint = (f"; to follow a step of {previous}, give it a value of its own with "
                        f"worth: {{value: {previous + 1}, name: {step['name']}, worth: "
                        f"{step['value']}}}")
            what = (f"a step worth the {step['value']} (game.target, {target}){hint}"
                    if named else f"{value}")
            yield err(("betting", "ladder", i, "value"), f"the ladder must increase: expected "
                      f"more than {previous}, found {what}",
                      (("betting", "initial_value"), ("game", "target")))
        previous = value
    names = [s["name"] for s in bet["ladder"]]
    for i, name in enumerate(names):
        if name in names[:i]:
            yield err(("betting", "ladder", i, "name"), f"step name {name!r} is used twice")
    for i, rnd in enumerate(bet["refused_card_shown_in_rounds"]):
        if rnd > d["cards_per_player"]:
            yield err(("betting", "refused_card_shown_in_rounds", i), f"there is no round {rnd}")
    yield from _answer_errors(d, err)
    if d["covered_cards"]["from_round"] > d["cards_per_player"]:
        yield err(("covered_cards", "from_round"), "there is no such round")
    if d["rounds"]["tied_round_leader"] == "mao" and d["cards_per_player"] <= 3:
        # C7: a tie after a round won decides the hand; a tie in round 1 (or rounds 1 and 2)
        # leaves the mão leading under every rule
        yield err(("rounds", "tied_round_leader"), "with 3 cards or fewer the round after a "
                  "tie is led by the mão anyway: expected cards_per_player of at least 4 for "
                  "tied_round_leader: mao, found " + str(d["cards_per_player"]),
                  (("cards_per_player",),))
    play = d["play"]
    for key in ("leader_face_up", "no_cover_after_tie"):
        if play[key] and not d["covered_cards"]["allowed"]:
            yield err(("play", key), f"play.{key} constrains covered cards: expected "
                      "covered_cards.allowed: true, found false",
                      (("covered_cards", "allowed"),))
    if play["highest_after_tied_first"] and d["cards_per_player"] < 3:
        yield err(("play", "highest_after_tied_first"), "after a tied first round each player "
                  "has one card left: expected cards_per_player of at least 3, found "
                  f"{d['cards_per_player']}", (("cards_per_player",),))
    for key in ("raiser_must_beat", "raiser_must_kill"):
        if play[key] and not bet["ladder"]:
            yield err(("play", key), f"play.{key} constrains raises: expected a "
                      "betting.ladder with a step, found none", (("betting", "ladder"),))
    players = d["players"]
    if d["teams"]:
        seen: dict[int, int] = {}
        for t, seats in enumerate(d["teams"]):
            for i, seat in enumerate(seats):
                if seat >= players:
                    yield err(("teams", t, i), f"expected a seat 0..{players - 1}, found {seat}",
                              (("players",),))
                elif seat in seen:
                    yield err(("teams", t, i), f"seat {seat} is in team {seen[seat]} already")
                else:
                    seen[seat] = t
        missing = [s for s in range(players) if s not in seen]
        if missing:
            yield err(("teams",), f"every seat plays for a team: seat{'s' * (len(missing) > 1)} "
                      f"{', '.join(map(str, missing))} {'are' if len(missing) > 1 else 'is'} "
                      "in none", (("players",),))
    elif players % 2:
        yield err(("players",), f"{players} players cannot sit as two teams in alternate seats: "
                  "expected teams (three players each for himself: [[0], [1], [2]])")
    yield from _special_errors(d, err, lambda path: path in doc.marks)
    yield from _side_bet_errors(d, err)


def _special_errors(d: dict[str, Any], err: Callable[..., VariantError],
                    stated: Callable[[KeyPath], bool]) -> Iterator[VariantError]:
    """The special hands' cross-key checks: thresholds below the target, keys that have no
    effect in their entry (a decider, fold points or partners' cards shown without a decision,
    a raise penalty where raises are not penalised), and entries of the list that can never
    apply because earlier ones always match first. ``stated(path)``: whether a file wrote the
    key (``d`` has the defaults filled in)."""
    target = d["game"]["target"]
    special = d["special_hands"]
    if isinstance(special, dict):
        for kind in ("one_team", "both_teams"):
            hand = special[kind]
            if hand["enabled"] and hand["from_score"] >= target:
                yield err(("special_hands", kind, "from_score"), f"expected special_hands."
                          f"{kind}.from_score below game.target, found {hand['from_score']} and "
                          f"{target}", (("game", "target"),))
        one = special["one_team"]
        if stated(("special_hands", "one_team", "decider")) and not one["decision"]:
            yield err(("special_hands", "one_team", "decider"), "special_hands.one_team.decider "
                      "has no effect without a decision: expected decision: true, found false",
                      (("special_hands", "one_team", "decision"),))
        return
    names: dict[str, int] = {}
    for i, e in enumerate(special):
        at: KeyPath = ("special_hands", i)
        when = e["when"]
        lo, hi = when["from_score"], when["to_score"]
        if lo >= target:
            yield err((*at, "when", "from_score"), f"expected special_hands[{i}].when.from_score "
                      f"below game.target, found {lo} and {target}", (("game", "target"),))
        if hi is not None and not lo <= hi < target:
            yield err((*at, "when", "to_score"), f"expected special_hands[{i}].when.to_score from "
                      f"from_score ({lo}) to below game.target ({target}), found {hi}")
        if e["name"] in names:
            yield err((*at, "name"), f"special hand name {e['name']!r} is used twice (first "
                      f"special_hands[{names[e['name']]}])")
        names.setdefault(e["name"], i)
        if e["decision"]:
            if when["teams"] != "exactly_one":
                yield err((*at, "decision"), f"a decision needs one team at the score: expected "
                          f"when.teams exactly_one, found {when['teams']}")
            if not stated((*at, "fold_points")):
                yield err((*at,), f"special_hands[{i}] has a decision: expected fold_points "
                          "(what the other team scores on a fold), found none")
        else:
            for key in ("decider", "fold_points", "show_partner_cards"):
                if stated((*at, key)):
                    yield err((*at, key), f"special_hands[{i}].{key} has no effect without a "
                              "decision: expected decision: true, found "
                              f"{'false' if stated((*at, 'decision')) else 'no decision'}")
        if e["raises"] == "penalised" and not stated((*at, "raise_penalty")):
            yield err((*at, "raises"), f"special_hands[{i}] penalises raises: expected "
                      "raise_penalty (team_at_score, other_team), found none")
        if e["raises"] != "penalised" and stated((*at, "raise_penalty")):
            yield err((*at, "raise_penalty"), f"special_hands[{i}].raise_penalty has no effect "
                      f"with raises: {e['raises']}: expected raises: penalised")
    yield from _shadowed(special, target, len(d["teams"]) or 2, err)


def _shadowed(special: list[dict[str, Any]], target: int, teams: int,
              err: Callable[..., VariantError]) -> Iterator[VariantError]:
    """Entries that never apply: at every score where one holds, an earlier entry holds (the
    first match wins). The scores are tried by class: a team's score matters only by which
    entries' ranges hold it, so one score per class of the ranges' bounds is enough."""
    hands = special_hands_from_data(special)
    bounds = {0}
    for h in hands:
        bounds.add(h.from_score)
        if h.to_score is not None:
            bounds.add(h.to_score + 1)
    scores = sorted(b for b in bounds if b < target)
    if len(scores) ** teams > 50_000:  # too many to try: refuse exact duplicates only
        seen: dict[tuple[Any, ...], int] = {}
        for i, h in enumerate(hands):
            key = (h.teams, h.from_score, h.to_score)
            if key in seen:
                yield err(("special_hands", i, "when"), f"special_hands[{i}] ({h.name}) never "
                          f"applies: special_hands[{seen[key]}] has the same condition")
            seen.setdefault(key, i)
        return
    holds = [[h.team_for(score)[0] for h in hands]
             for score in itertools.product(scores, repeat=teams)]
    for i, h in enumerate(hands):
        where = [row for row in holds if row[i]]
        if not where:
            yield err(("special_hands", i, "when"), f"special_hands[{i}] ({h.name}) never "
                      f"applies: no score below game.target ({target}) meets its condition")
        elif all(any(row[:i]) for row in where):
            alone = [j for j in range(i) if all(row[j] for row in where)]
            if alone:
                by = f"special_hands[{alone[0]}] ({hands[alone[0]].name}) holds"
            else:
                by = "earlier entries hold (" + ", ".join(
                    f"special_hands[{j}]" for j in range(i) if any(row[j] for row in where)) + ")"
            yield err(("special_hands", i, "when"), f"special_hands[{i}] ({h.name}) never "
                      f"applies: wherever it holds, {by} and the first that holds is the hand's")


_Err = Callable[..., VariantError]


def _deck_errors(d: dict[str, Any], err: _Err) -> Iterator[VariantError]:
    """C2, C5 and the manilhas: the deck's cards against the keys that name cards or ranks."""
    deck_map = d["deck"]
    ranks = deck_map["ranks"]
    by_ranks = set(canonical_deck(ranks))
    minus, plus = deck_map["minus"], deck_map["plus"]
    for i, card in enumerate(minus):
        if parse_card(card) not in by_ranks:
            yield err(("deck", "minus", i), f"deck.minus: expected a card of the ranks "
                      f"{' '.join(ranks)}, found {card}, which is not in the deck to remove",
                      (("deck", "ranks"),))
    for i, card in enumerate(plus):
        if parse_card(card) in by_ranks:
            yield err(("deck", "plus", i), f"deck.plus: expected a card outside the ranks "
                      f"{' '.join(ranks)}, found {card}, which the ranks put in already",
                      (("deck", "ranks"),))
    extra = deck_map["extra"]
    cards = set(canonical_deck(ranks, (parse_card(c) for c in minus),
                               (parse_card(c) for c in plus), (parse_card(x) for x in extra)))
    names = {card_name(c) for c in cards}
    for rank in ranks:
        if not any(n[0] == rank for n in names):
            yield err(("deck", "minus"), f"deck.minus removes every card of rank {rank}: "
                      "expected it left out of deck.ranks instead", (("deck", "ranks"),))
    deck_ranks = set(ranks) | {c[0] for c in plus}
    if set(d["ranking"]) != deck_ranks:
        extra_ranks = sorted(set(d["ranking"]) - deck_ranks, key=RANKS.index)
        missing = sorted(deck_ranks - set(d["ranking"]), key=RANKS.index)
        yield err(("ranking",), "the ranking must list exactly the deck's ranks"
                  + (f"; not in the deck: {' '.join(extra_ranks)}" if extra_ranks else "")
                  + (f"; missing: {' '.join(missing)}" if missing else ""),
                  (("deck", "ranks"), ("deck", "plus")))
    for name, entry in extra.items():
        above = entry["above"]
        if above != "manilhas" and above not in d["ranking"] and above not in extra:
            what = "an extra card" if above.startswith("X") else "a rank"
            yield err(("deck", "extra", name, "above"), f"deck.extra.{name}.above: expected a "
                      f"rank of the ranking, an extra card of deck.extra or manilhas, found "
                      f"{above}, {what} not in the deck")
    for name in extra:  # an extra card above itself, or above one that is above it
        seen, above = [name], extra[name]["above"]
        while above in extra and above not in seen:
            seen.append(above)
            above = extra[above]["above"]
        if above in seen:
            yield err(("deck", "extra", name, "above"), "deck.extra: the extra cards are each "
                      f"above the other: {' above '.join(seen + [above])}")
    where = f"(ranks {' '.join(ranks)}" + (", minus" if minus else "") + \
        (", plus" if plus else "") + (", extra" if extra else "") + ")"
    also = (("deck", "ranks"), ("deck", "minus"), ("deck", "plus"), ("deck", "extra"))
    man = d["manilhas"]
    mode = man["mode"]
    # A list or a card a file writes is never empty: empty is the default, left out.
    if mode == "vira" and not man["suit_order"]:
        yield err(("manilhas",),
                  "mode vira needs suit_order (P2), the manilhas' suits weakest first")
    if mode == "fixed":
        if not man["cards"]:
            yield err(("manilhas",), "mode fixed needs cards (M1), the manilhas weakest first")
        for i, card in enumerate(man["cards"]):
            if card not in names:
                yield err(("manilhas", "cards", i), f"manilha {card} is not in the deck "
                          f"{where}", also)
    if mode == "vira_suit":
        yield from _vira_suit_errors(man, deck_ranks, names, where, also, err)
    else:
        for key in ("ranks", "stand_in"):
            if man[key] not in ([], None):
                yield err(("manilhas", key), f"manilhas.{key} has no effect with mode {mode}: "
                          f"expected mode vira_suit, or no {key}", (("manilhas", "mode"),))
    for card in d["card_names"]:
        if card not in names:
            yield err(("card_names", card), f"{card} is not in the deck {where}", also)
    has_vira = mode in ("vira", "vira_suit")
    needed = d["players"] * d["cards_per_player"] + (1 if has_vira else 0)
    if needed > len(cards):
        yield err(("deck", "ranks"), f"expected a deck of at least {needed} cards for "
                  f"{d['players']} players" + (" and the vira" if has_vira else "")
                  + f", found {len(cards)} {where}",
                  (("deck", "minus"), ("players",), ("cards_per_player",)))


def _vira_suit_errors(man: dict[str, Any], deck_ranks: set[str], names: set[str], where: str,
                      also: tuple[KeyPath, ...], err: _Err) -> Iterator[VariantError]:
    """Mode vira_suit (house): its ranks, the stand-in for a vira that is one of them, and the
    fixed manilhas below them (truco de amostra), against the deck and each other."""
    ranks = man["ranks"]
    if not ranks:
        yield err(("manilhas",), "mode vira_suit needs ranks, the ranks whose cards of "
                  "the vira's suit are the manilhas, weakest first")
    for i, rank in enumerate(ranks):
        if rank not in deck_ranks:
            yield err(("manilhas", "ranks", i), f"manilhas.ranks: expected a rank of the "
                      f"deck, found {rank} {where}", also)
    stand_in = man["stand_in"]
    if stand_in is not None:
        if stand_in in ranks:
            yield err(("manilhas", "stand_in"), f"manilhas.stand_in stands in for a vira of "
                      f"manilhas.ranks: expected a rank not among them, found {stand_in}",
                      (("manilhas", "ranks"),))
        elif stand_in not in deck_ranks:
            yield err(("manilhas", "stand_in"), f"manilhas.stand_in: expected a rank of the "
                      f"deck, found {stand_in} {where}", also)
    for i, card in enumerate(man["cards"]):
        if card not in names:
            yield err(("manilhas", "cards", i), f"manilha {card} is not in the deck {where}",
                      also)
        elif card[0] in ranks or card[0] == stand_in:
            key = "ranks" if card[0] in ranks else "stand_in"
            yield err(("manilhas", "cards", i), f"manilhas.cards: {card} is of the rank "
                      f"{card[0]} of manilhas.{key}: with a vira of its suit it would be a "
                      "manilha twice; expected a card of another rank",
                      (("manilhas", key), ("manilhas", "mode")))


def _answer_errors(d: dict[str, Any], err: Callable[..., VariantError]
                   ) -> Iterator[VariantError]:
    """Who acts for a team (C9 house rules) and conceding: keys that would have no effect."""
    bet = d["betting"]
    ladder = bool(bet["ladder"])
    players = d["players"]
    sizes = ([len(t) for t in d["teams"]] if d["teams"]
             else [players // 2, players - players // 2])
    team_size = max(sizes)  # the largest team: a whole team's refusal needs two players
    opponents = players - min(sizes)  # the most players a raise is put to
    if bet["answered_by"] != "challenged_team":
        if not ladder:
            yield err(("betting", "answered_by"), "expected no answered_by without a ladder "
                      "(no raise is ever answered), found next_seat", (("betting", "ladder"),))
        elif opponents < 2:
            yield err(("betting", "answered_by"), f"expected challenged_team with "
                      f"{players} players (one opponent: the next seat is the only one who "
                      "may answer), found next_seat", (("players",),))
    if bet["refusal"] != "one_player":
        if not ladder:
            yield err(("betting", "refusal"), "expected no refusal without a ladder (no raise "
                      "is ever refused), found whole_team", (("betting", "ladder"),))
        elif team_size < 2:
            yield err(("betting", "refusal"), f"expected one_player with {d['players']} "
                      "players (a team of one: its one fold is the whole team's), found "
                      "whole_team", (("players",),))
    if bet["raise_back"] is False and len(bet["ladder"]) < 2:
        yield err(("betting", "raise_back"), f"expected no raise_back with a ladder of "
                  f"{len(bet['ladder'])} step(s) (no raise back exists), found false",
                  (("betting", "ladder"),))
    concede = d["concede"]
    allowed = concede["allowed"]
    if concede["instead_of_answer"]:
        if not allowed:
            yield err(("concede", "instead_of_answer"), "expected concede.allowed: true with "
                      "instead_of_answer (conceding is off), found concede.allowed false",
                      (("concede", "allowed"),))
        elif not ladder:
            yield err(("concede", "instead_of_answer"), "expected no instead_of_answer "
                      "without a ladder (no raise is ever answered), found true",
                      (("betting", "ladder"),))
    if concede["in_special_hands"]:
        specials = d["special_hands"]
        if not allowed:
            yield err(("concede", "in_special_hands"), "expected concede.allowed: true with "
                      "in_special_hands (conceding is off), found concede.allowed false",
                      (("concede", "allowed"),))
        elif not any(specials[k]["enabled"] for k in ("one_team", "both_teams")):
            yield err(("concede", "in_special_hands"), "expected an enabled special hand "
                      "with in_special_hands (special_hands.*.enabled are all false), found "
                      "true", (("special_hands",),))


def _side_bet_errors(d: dict[str, Any], err: Callable[..., VariantError]
                     ) -> Iterator[VariantError]:
    """Side bets (G22-G32): chains of calls the bet has, a chain whose prefix is not a chain,
    a refusal that would pay a falta, a window in a round that does not exist, precedence
    over a truco that closes the bet."""
    for name, bet in d["side_bets"].items():
        at: KeyPath = ("side_bets", name)
        missing = [k for k in ("calls", "chains") if k not in bet]
        if missing:
            yield err(at, f"expected the bet's {' and '.join(missing)} (G27, G28), found "
                          "none")
            continue
        calls = bet["calls"]
        chains = {tuple(c["calls"]): c for c in bet["chains"]}
        for i, chain in enumerate(bet["chains"]):
            seq = tuple(chain["calls"])
            for j, call in enumerate(seq):
                if call not in calls:
                    yield err((*at, "chains", i, "calls", j), f"expected one of the bet's calls "
                              f"({', '.join(calls)}), found {call!r}", ((*at, "calls"),))
            if list(chains).index(seq) != i:
                yield err((*at, "chains", i, "calls"), f"the chain {' - '.join(seq)} is "
                          "listed twice")
            if len(seq) > 1 and seq[:-1] not in chains:
                yield err((*at, "chains", i, "calls"), f"expected the chain without its last "
                          f"call ({' - '.join(seq[:-1])}) listed too (a chain is made call by "
                          "call), found it missing")
            elif (len(seq) > 1 and "refused" not in chain and bet.get("kind") != "flor"
                  and chains[seq[:-1]]["accepted"] == "falta"):
                yield err((*at, "chains", i), "expected refused: the chain without its last "
                          "call is worth the falta, which a refusal cannot pay (G28)")
        if not any(len(c["calls"]) == 1 for c in bet["chains"]):
            yield err((*at, "chains"), "expected at least one chain of a single call (the "
                      "first call), found none")
        window = bet.get("window", {})
        if window.get("round", 1) > d["cards_per_player"]:
            yield err((*at, "window", "round"), f"there is no round {window['round']} with "
                      f"{d['cards_per_player']} cards", (("cards_per_player",),))
        truco = bet.get("truco", {})
        if truco.get("closes", "accepted") == "called" and truco.get("precedence", True):
            yield err((*at, "truco", "precedence"), "expected precedence: false with closes: "
                      "called (a truco called closes the bet: nobody may start it instead of "
                      "answering), found true", ((*at, "truco", "closes"),))
        if bet.get("open_fold_penalty", 0) and not d["concede"]["allowed"]:
            yield err((*at, "open_fold_penalty"), "expected concede.allowed: true with "
                      "open_fold_penalty (nobody goes to the baralho), found concede.allowed "
                      "false", (("concede", "allowed"),))
        yield from _pieces_errors(d, at, bet, err)
        yield from _flor_errors(d, name, bet, err)


def _pieces_errors(d: dict[str, Any], at: KeyPath, bet: dict[str, Any],
                   err: Callable[..., VariantError]) -> Iterator[VariantError]:
    """House (truco de amostra): pieces need a vira, and points that count the bonus."""
    pts = bet.get("points", {})
    pieces = pts.get("pieces", {}).get("values", {})
    mode = d["manilhas"]["mode"]
    if pieces and mode not in ("vira", "vira_suit"):
        yield err((*at, "points", "pieces"), f"the pieces are cards of the vira's suit: "
                  f"expected manilhas.mode vira or vira_suit, found {mode}",
                  (("manilhas", "mode"),))
    bonus = pts.get("same_suit_bonus", 20)
    for rank, points in pieces.items():
        if points < bonus:
            yield err((*at, "points", "pieces", "values", rank), f"a piece's points count the "
                      f"same_suit_bonus: expected at least {bonus}, found {points}",
                      ((*at, "points", "same_suit_bonus"),))


#: The keys and stakes only a flor bet has (G37-G40).
_FLOR_ONLY = ("per_flor", "kills", "timing")
_FLOR_STAKES = ("flores", "falta_plus_flores")


def _flor_errors(d: dict[str, Any], name: str, bet: dict[str, Any],
                 err: Callable[..., VariantError]) -> Iterator[VariantError]:
    """Flor (G33-G41): its keys on an envido, a choice settled at once that is a raise, a
    raise nobody can refuse, a plain song that is not settled at once, bets it kills that do
    not exist, a flor with fewer than three cards each, two flores."""
    at: KeyPath = ("side_bets", name)
    flor = bet.get("kind", "envido") == "flor"
    if not flor:
        for key in _FLOR_ONLY:
            if key in bet:
                yield err((*at, key), f"expected {key} only on a flor (kind: flor, G37-G40), "
                          "found it on an envido", ((*at, "kind"),))
        if bet.get("reveal") == "scored":
            yield err((*at, "reveal"), "expected winner or nothing on an envido (scored is "
                      "the flores', G41), found scored", ((*at, "kind"),))
    for i, chain in enumerate(bet["chains"]):
        cat: KeyPath = (*at, "chains", i)
        if not flor:
            if "at_once" in chain:
                yield err((*cat, "at_once"), "expected at_once only on a flor's chain (G39), "
                          "found it on an envido's", ((*at, "kind"),))
            if chain["accepted"] in _FLOR_STAKES or chain.get("refused") in _FLOR_STAKES:
                yield err(cat, "expected a number or falta on an envido's chain (flores "
                          f"stakes are a flor's, G40), found {chain['accepted']!r}",
                          ((*at, "kind"),))
            continue
        if "at_once" in chain and len(chain["calls"]) > 1:
            yield err((*cat, "at_once"), "expected at_once only on a choice (a chain of one "
                      "call, G39): a raise over a choice is answered, found it on "
                      f"{' - '.join(chain['calls'])}")
        elif "at_once" in chain and "refused" in chain:
            yield err((*cat, "refused"), "expected no refused on a choice settled at once "
                      "(nobody answers it, G39), found one", ((*cat, "at_once"),))
        elif "at_once" not in chain and "refused" not in chain:
            yield err((*cat, "refused"), "expected refused on a flor's raise (what the raiser "
                      "scores when it is refused, G40), found none")
    if not flor:
        return
    first = bet["calls"][0]
    plain = next((c for c in bet["chains"] if c["calls"] == [first]), None)
    if plain is None or plain.get("at_once") != "compare":
        yield err((*at, "chains"), f"expected the first call ({first}, every holder's plain "
                  "song) as a chain of one settled at_once: compare (G39), found "
                  f"{'none' if plain is None else plain.get('at_once', 'a raise')}",
                  ((*at, "calls"),))
    for j, other in enumerate(bet.get("kills", [])):
        if other == name or other not in d["side_bets"]:
            yield err((*at, "kills", j), f"expected another side bet of the variant "
                      f"({', '.join(n for n in d['side_bets'] if n != name) or 'none'}),"
                      f" found {other!r}")
    if d["cards_per_player"] < 3:
        yield err(at, f"a flor is three cards of one suit (G34): expected cards_per_player 3 "
                  f"or more, found {d['cards_per_player']}", (("cards_per_player",),))
    flores = [n for n, b in d["side_bets"].items()
              if b.get("kind") == "flor" and b.get("played", True)]
    if len(flores) > 1 and name == flores[1]:
        yield err(at, f"expected one flor, found {len(flores)} ({', '.join(flores)})")


# ---------------------------------------------------------------------------------------------
# the public entry points
# ---------------------------------------------------------------------------------------------
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
            errors = errors[:MAX_PROBLEMS] + [VariantError(
                f"{more} more problem{'s' * (more != 1)} not listed (the first "
                f"{MAX_PROBLEMS} are)", file=doc.file)]
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


def _closest(name: str, shipped: Iterable[str]) -> str:
    """The shipped names nearest to a mistyped ``name`` (difflib), for its error message:
    ``did you mean paulista?``; else where to find them all.

    >>> _closest("paulistaa", ["paulista", "mineiro", "gauderio"])
    'did you mean paulista? truco variants list names them all'
    """
    near = difflib.get_close_matches(name, list(shipped), n=3, cutoff=0.6)
    said = f"did you mean {' or '.join(near)}? " if near else ""
    return said + "truco variants list names them all"


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
