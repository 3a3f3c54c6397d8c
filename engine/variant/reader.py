"""Reading one variant file: YAML into plain data with the ``file:line:column`` of every key
and value, ``yaml.safe_load``-safe (no Python tags), refusing duplicate keys (PyYAML would keep
the last one silently) and YAML aliases (no "billion laughs"), and bounding the file's size,
its nesting and the values it holds."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from engine.errors import VariantError
from engine.schemas import variant_schema

MAX_FILE_BYTES = 1 << 20  # 1 MiB: a variant is a few hundred bytes
MAX_DEPTH = 32
#: Values (scalars, lists and mappings, keys included) in a variant and the files it extends,
#: counted while the YAML is read: the largest shipped variant has 348. Reading YAML costs
#: about 50 us a value (88,000 card_names keys in a 1 MiB file took 9 s), so a file is read no
#: further than this.
MAX_NODES = 10_000
#: What the name of a variant file ends with.
VARIANT_SUFFIXES = (".yaml", ".yml")

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

