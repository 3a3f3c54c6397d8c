"""A variant's problems in the reader's language, for the pages that show them to people (the
lobby of ``truco serve``, a house variant uploaded or chosen).

The loader writes its problems in English (``truco variants validate``'s ``--json``, logs and
programs read them so). Here each problem's message is said again through the catalog by the
templates below: the loader's own frame and commonest messages (invalid YAML, unknown and
missing keys, a value of the wrong type, size or range, an unknown variant, what the server
refuses of an upload), with the words they are made of (``an integer``, ``a list``, ``at most
3``...); a count in its plural form (:data:`COUNTED`: ``at most 3 items``, ``1 item``, in
English too, where the loader's own English says ``item(s)``). A rule's own consistency check
(``engine.variant.checks`` and the move kinds' checks) writes its sentence as a
:class:`~engine.i18n.Said`, a template of the catalog and its fields, said again as it is. The
location (``file:line:column``) and the key path stay as they are. What stays English: the YAML
parser's description of a syntax error, and a schema keyword no template names (JSON Schema's
own words).

>>> from engine.i18n import using
>>> with using("pt-BR"):
...     told("expected an integer, found \\"seven\\"")
'esperava-se um número inteiro, encontrado "seven"'
"""

from __future__ import annotations

from collections.abc import Callable

from engine.errors import TrucoError, VariantError
from engine.i18n import Said, _, fields_of, mark, ngettext, retell

#: The loader's messages (engine.variant.reader, .messages, .extends; engine.serve.store), a
#: quoted ``{name!r}`` as ``{name}``; the more particular first.
TEMPLATES: tuple[str, ...] = (
    mark("invalid YAML: {problem}"),
    mark("not UTF-8: byte {byte} cannot be decoded"),
    mark("empty file: expected a mapping of variant keys"),
    mark("expected a mapping of variant keys at the top level, found a {kind}"),
    mark("unknown key {key}; expected one of: {keys}"),
    mark("missing key {key} ({description}); a variant that extends nothing must state every "
         "rule"),
    mark("unknown variant {name}: expected a shipped name ({names}) or a path to a .yaml file"),
    mark("unknown variant {name}: expected a shipped name ({names})"),
    mark("expected {expected}, found {found}"),
    mark("a variant file is at most {n} bytes"),
    mark("not a shipped variant; expected one of {names}, or an upload"),
)
#: What a value is (``expected {expected}``, ``found a {kind}``, ``found {found}``).
WORDS = frozenset((
    mark("an integer"), mark("a string"), mark("a boolean (true or false)"), mark("a list"),
    mark("a mapping"), mark("a number"), mark("mapping"), mark("list"), mark("scalar"),
    mark("no repeated items"), mark("a non-empty string"),
))
#: What a schema keyword asked for (``expected {expected}``).
EXPECTED: tuple[str, ...] = (
    mark("one of {values}"), mark("at least {n}"), mark("at most {n}"),
    mark("a string matching {pattern}"),
)

#: The loader's messages that count (its English, which programs read, says ``item(s)``), each
#: with the field that counts (a number, or a list of keys) and its forms: said again in the
#: plural form of the count, in English too (``1 item``, ``3 items``).
COUNTED: dict[str, tuple[str, Callable[[int], str]]] = {
    "not a variant file: none of its {n} top-level key(s) is a variant key (like extends or "
    "players); nothing of it is quoted": ("n", lambda n: ngettext(
        "not a variant file: its {n} top-level key is not a variant key (like extends or "
        "players); nothing of it is quoted",
        "not a variant file: none of its {n} top-level keys is a variant key (like extends or "
        "players); nothing of it is quoted", n)),
    "missing key(s): {keys}": ("keys", lambda n: ngettext(
        "missing key: {keys}", "missing keys: {keys}", n)),
    "expected at most {n} item(s), found {found}": ("n", lambda n: ngettext(
        "expected at most {n} item, found {found}", "expected at most {n} items, found {found}",
        n)),
    "expected at most {n} key(s), found {found}": ("n", lambda n: ngettext(
        "expected at most {n} key, found {found}", "expected at most {n} keys, found {found}",
        n)),
}
#: What a schema keyword that counts asked for (``expected {expected}``), as :data:`COUNTED`.
EXPECTED_COUNTED: dict[str, tuple[str, Callable[[int], str]]] = {
    "at least {n} item(s)": ("n", lambda n: ngettext("at least {n} item", "at least {n} items",
                                                     n)),
    "at most {n} item(s)": ("n", lambda n: ngettext("at most {n} item", "at most {n} items", n)),
    "at most {n} key(s)": ("n", lambda n: ngettext("at most {n} key", "at most {n} keys", n)),
}

#: Where the shipped names are (``unknown variant {name}: expected a shipped name ({names})``).
CLOSEST: tuple[str, ...] = (
    mark("did you mean {near}? truco variants list names them all"),
    mark("truco variants list names them all"),
)


def _counted(message: str, counted: dict[str, tuple[str, Callable[[int], str]]],
             field: Callable[[str, str], str] = lambda _name, value: value) -> str | None:
    """``message`` said again in the plural form of its count where it is one of ``counted``
    (``None`` where it is none)."""
    for template, (count, forms) in counted.items():
        found = fields_of(message, template)
        if found is not None:
            value = found[count]
            n = int(value) if value.isdigit() else len(value.split(", "))
            return forms(n).format(**{k: field(k, v) for k, v in found.items()})
    return None


def _word(text: str) -> str:
    """A value's words (``an integer``, ``a list or a mapping``, ``at least 2``) translated;
    anything else (a quoted value, a key) as it is."""
    if text in WORDS:
        return _(text)
    kinds = text.split(" or ")
    if len(kinds) > 1 and all(k in WORDS for k in kinds):
        return _(" or ").join(_(k) for k in kinds)
    return _counted(text, EXPECTED_COUNTED) or retell(text, EXPECTED) or text


def told(message: str) -> str:
    """One problem's message in the language spoken now (as it is where no template fits)."""
    if isinstance(message, Said):  # a rule's own check: its template and fields
        return message.again()
    def field(name: str, value: str) -> str:
        if name == "names":
            return retell(value, CLOSEST) or value
        return _word(value) if name in ("expected", "found", "kind") else value

    said = _counted(message, COUNTED, field) or retell(message, TEMPLATES, field)
    return message if said is None else said


def told_lines(exc: VariantError) -> list[str]:
    """Every problem of ``exc``, one ``file:line:column: path: message`` a line, each message
    in the language spoken now (:func:`told`)."""
    return [str(TrucoError(told(e.message), file=e.file, line=e.line, column=e.column,
                           path=e.path)) for e in exc.errors]
