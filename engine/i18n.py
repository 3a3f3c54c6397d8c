"""Messages for people in their language: gettext catalogs, made and read with Babel.

The catalogs are ``engine/locales/<locale>/LC_MESSAGES/truco.po`` (English is the source:
a message's id is its English text). They are read and compiled in memory the first time a
language is used (Babel's ``read_po`` and ``write_mo``, then the standard library's
``gettext.GNUTranslations``): the ``.po`` file is the one source, nothing compiled is kept
beside it to fall out of step, and the wheel carries the ``.po`` files as package data.

The language is chosen by :func:`choose`: ``--lang`` (a global ``truco`` option), else
``TRUCO_LANG``, else the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``); English where nothing
asks otherwise. Only what people read is translated: ``--json`` output, logs, error codes and
the bot protocol stay as they are.

``qps`` is a test locale, not offered to players: every message passed through the catalog
comes back marked (``⟦...⟧``), so a test can find text that never went through it.

>>> with using("pt-BR"):
...     print(gettext("you accept"), ngettext("{n} decision", "{n} decisions", 2).format(n=2))
você aceita 2 decisões
>>> with using(PSEUDO):
...     gettext("you accept")
'⟦you accept⟧'
"""

from __future__ import annotations

import gettext as _gettext
import html
import io
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib import resources
from typing import Any

DOMAIN = "truco"
ENGLISH = "en"
#: The languages offered, by their tag (BCP 47), with the catalog's locale (``None``: the
#: source language, no catalog).
LANGUAGES: dict[str, str | None] = {"en": None, "pt-BR": "pt_BR"}
#: The pseudo-localising test locale.
PSEUDO = "qps"
MARKS = ("⟦", "⟧")
ENV = "TRUCO_LANG"


#: Each language offered, named in its own words (an unknown ``--lang`` lists them so).
NAMES = {"en": "English", "pt-BR": "português do Brasil"}


class LanguageError(ValueError):
    """A language asked for (``--lang``, ``TRUCO_LANG``) that has no catalog: ``where`` it
    was asked for, its ``value``; the message is English, :meth:`said` in the language spoken
    now (:func:`fallback`'s, when a command is told of it).

    >>> with using("pt-BR"):
    ...     LanguageError("--lang", "xx").said()
    "--lang 'xx': idioma desconhecido; o truco fala en (English) e pt-BR (português do Brasil)"
    """

    def __init__(self, where: str, value: str) -> None:
        self.where, self.value = where, value
        with using(ENGLISH):
            super().__init__(self.said())

    def said(self) -> str:
        offered = [f"{lang} ({NAMES[lang]})" for lang in LANGUAGES]
        return gettext("{where} {value}: no such language; truco speaks {languages} and "
                       "{last}").format(where=self.where, value=repr(self.value),
                                        languages=", ".join(offered[:-1]), last=offered[-1])


def tag(text: str) -> str | None:
    """The language tag that ``text`` names (``pt-BR``, ``pt_BR.UTF-8``, ``pt``, ``en_US``,
    ``C``), or ``None`` for a language with no catalog.

    >>> tag("pt_BR.UTF-8"), tag("pt"), tag("C"), tag("en_GB"), tag("fr_FR"), tag("qps")
    ('pt-BR', 'pt-BR', 'en', 'en', None, 'qps')
    """
    base = text.strip().split(".")[0].split("@")[0].replace("_", "-").lower()
    if base in ("c", "posix", ""):
        return ENGLISH
    if base == PSEUDO:
        return PSEUDO
    lang = base.split("-")[0]
    if lang == "en":
        return ENGLISH
    if lang == "pt":  # the one Portuguese offered: Brazil's
        return "pt-BR"
    return None


def choose(option: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``option`` (``--lang``), else ``TRUCO_LANG``, else the locale's
    (``LC_ALL``, ``LC_MESSAGES``, ``LANG``: a language with no catalog is English); an option
    or ``TRUCO_LANG`` naming a language with no catalog is a :class:`LanguageError`.

    >>> choose(None, {"LANG": "pt_BR.UTF-8"}), choose("en", {"TRUCO_LANG": "pt-BR"})
    ('pt-BR', 'en')
    >>> choose(None, {"LANG": "fr_FR.UTF-8"}), choose(None, {})
    ('en', 'en')
    """
    env = os.environ if environ is None else environ
    for where, value in (("--lang", option), (ENV, env.get(ENV))):
        if value:
            found = tag(value)
            if found is None:
                raise LanguageError(where, value)
            return found
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if env.get(name):
            return tag(env[name]) or ENGLISH
    return ENGLISH


def fallback(environ: Mapping[str, str] | None = None) -> str:
    """The language to say in that a language asked for has none (:class:`LanguageError`):
    ``TRUCO_LANG``'s where it names one, else the locale's (English where nothing asks).

    >>> fallback({"TRUCO_LANG": "xx", "LANG": "pt_BR.UTF-8"}), fallback({"TRUCO_LANG": "en"})
    ('pt-BR', 'en')
    """
    env = os.environ if environ is None else environ
    asked = env.get(ENV)
    found = tag(asked) if asked else None
    return found or choose(None, {k: v for k, v in env.items() if k != ENV})


def _po_text(locale: str) -> bytes:
    path = resources.files("engine") / "locales" / locale / "LC_MESSAGES" / f"{DOMAIN}.po"
    return path.read_bytes()


@cache
def catalog(locale: str) -> Any:
    """The Babel catalog (``babel.messages.catalog.Catalog``) of ``locale`` (``pt_BR``)."""
    from babel.messages.pofile import read_po

    return read_po(io.BytesIO(_po_text(locale)), locale=locale, domain=DOMAIN)


class _Pseudo(_gettext.NullTranslations):
    """The test locale: every message of the catalog marked, in its English form; a message
    the catalog lacks (a string passed to :func:`gettext` that has no entry) is left as it
    is, so that it shows as untranslated."""

    def __init__(self) -> None:
        super().__init__()
        self.known = {m.id[0] if isinstance(m.id, tuple) else m.id
                      for m in catalog(LANGUAGES["pt-BR"] or "") if m.id}

    def gettext(self, message: str) -> str:
        if message not in self.known:
            return message
        return f"{MARKS[0]}{message}{MARKS[1]}"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        said = msgid1 if n == 1 else msgid2  # a plural entry is known by its singular
        return f"{MARKS[0]}{said}{MARKS[1]}" if msgid1 in self.known else said

    def pgettext(self, context: str, message: str) -> str:
        return self.gettext(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return self.ngettext(msgid1, msgid2, n)


@cache
def translations(lang: str) -> _gettext.NullTranslations:
    """The translations of ``lang`` (a tag of :data:`LANGUAGES`, or :data:`PSEUDO`)."""
    if lang == PSEUDO:
        return _Pseudo()
    locale = LANGUAGES[lang]
    if locale is None:
        return _gettext.NullTranslations()
    from babel.messages.mofile import write_mo

    compiled = io.BytesIO()
    write_mo(compiled, catalog(locale))
    compiled.seek(0)
    return _gettext.GNUTranslations(compiled)


_CURRENT: ContextVar[str] = ContextVar("truco_lang", default=ENGLISH)


def current() -> str:
    """The language spoken now (:func:`use`, :func:`using`)."""
    return _CURRENT.get()


def use(lang: str) -> None:
    """Speak ``lang`` from now on (in this context: a thread or task keeps its own)."""
    translations(lang)  # a broken catalog fails here, before anything is said
    _CURRENT.set(lang)


@contextmanager
def using(lang: str) -> Iterator[None]:
    """Speak ``lang`` inside the ``with`` block."""
    token = _CURRENT.set(lang)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def gettext(message: str) -> str:
    """``message`` (its English text, the catalog's id) in the language spoken now, in the
    words of a team of the seats a team has now (:func:`team_seats`)."""
    said = translations(_CURRENT.get())
    context = team_context(_SEATS.get())
    if context is not None and message in TEAM_MESSAGES:
        told = said.pgettext(context, message)
        if told != message:
            return told
    return said.gettext(message)


# -- a team's word, by its seats -----------------------------------------------------------
#: Portuguese names a team by its seats: a player (``jogador``, one seat: one-on-one, three
#: players), a ``dupla`` (two), an ``equipe`` (three or more: six and twelve players). A
#: message said of a team is the catalog's entry for a dupla, and has an entry in each of
#: these contexts for the other sizes (``team_context``), chosen by :func:`team_seats`.
ONE_SEAT, MORE_SEATS = "one seat a team", "three or more seats a team"
_SEATS: ContextVar[int] = ContextVar("truco_team_seats", default=2)


def team_context(seats: int) -> str | None:
    """The catalog's context of a message said of a team of ``seats`` (``None``: two, the
    message's own entry)."""
    return None if seats == 2 else ONE_SEAT if seats == 1 else MORE_SEATS


def use_team_seats(seats: int) -> None:
    """Speak of teams of ``seats`` seats from now on (in this context, as :func:`use`)."""
    _SEATS.set(seats)


@contextmanager
def team_seats(seats: int) -> Iterator[None]:
    """Speak of teams of ``seats`` seats inside the ``with`` block.

    >>> with using("pt-BR"), team_seats(1):
    ...     gettext("The match is over: team {team} won.").format(team=1)
    'O jogo acabou: o jogador 1 ganhou.'
    >>> with using("pt-BR"), team_seats(3):
    ...     gettext("The match is over: team {team} won.").format(team=1)
    'O jogo acabou: a equipe 1 ganhou.'
    """
    token = _SEATS.set(seats)
    try:
        yield
    finally:
        _SEATS.reset(token)


def nmark(singular: str, plural: str) -> tuple[str, str]:
    """A message with plural forms marked for the catalog and said later by :func:`ngettext`
    (``babel.cfg`` names this keyword)."""
    return singular, plural


def tmark(context: str, message: str) -> str:
    """``message`` marked for the catalog in ``context`` (a team's size, :func:`team_context`):
    ``babel.cfg`` names this keyword, so ``pybabel extract`` keeps every form."""
    return message


def tnmark(context: str, singular: str, plural: str) -> str:
    """A message with plural forms (:func:`ngettext`'s) marked as :func:`tmark` marks one;
    known by its ``singular`` in :data:`TEAM_MESSAGES`."""
    return singular


#: The messages said of a team, each marked in the contexts of the other sizes.
TEAM_MESSAGES = frozenset((
    tnmark("one seat a team", "Teams: {teams} · ladder {ladder} · {target} points a game, "
                              "{games} game to win", "Teams: {teams} · ladder {ladder} · "
                              "{target} points a game, {games} games to win"),
    tnmark("three or more seats a team", "Teams: {teams} · ladder {ladder} · {target} points a "
                                         "game, {games} game to win", "Teams: {teams} · ladder "
                                         "{ladder} · {target} points a game, {games} games to "
                                         "win"),
    tmark("one seat a team", "A flor sung by one team only is not accepted: nobody answers it "
                             "(G38)."),
    tmark("one seat a team", "Seat {seat} (team {team}): "),
    tmark("one seat a team", "Team {team} ({seats})"),
    tmark("one seat a team", "The match is over: team {team} won."),
    tmark("one seat a team", "Won by the mão's team: of the accepted calls."),
    tmark("one seat a team", "a team cannot raise twice in a row (C10)"),
    tmark("one seat a team", "for team {team}"),
    tmark("one seat a team", "games, hands and points won per team"),
    tmark("one seat a team", "match win rate per team with its 95% Wilson interval"),
    tmark("one seat a team", "mão's team rate"),
    tmark("one seat a team", "mão's team rate any"),
    tmark("one seat a team", "mão's team rate, contested or not"),
    tmark("one seat a team", "no raise while your team is winning the hand "
                             "(betting.no_raise_when_winning)"),
    tmark("one seat a team", "only the challenged team may raise back (C9, G17)"),
    tmark("one seat a team", "other team {n}"),
    tmark("one seat a team", "round {n}: team {team}"),
    tmark("one seat a team", "team at score {n}"),
    tmark("one seat a team", "team {team}"),
    tmark("one seat a team", "team {team} ({bots}, seats {seats})"),
    tmark("one seat a team", "team {team} ({seats})"),
    tmark("one seat a team", "team {team} match win rate"),
    tmark("one seat a team", "team {team} wins ({who}, {card})"),
    tmark("one seat a team", "team {team} wins {points}"),
    tmark("one seat a team", "team {team} {n}"),
    tmark("one seat a team", "team {team} {score}"),
    tmark("one seat a team", "the match in {file} is over: team {team} won"),
    tmark("one seat a team", "won by mão's team"),
    tmark("one seat a team", "won by mão's team any"),
    tmark("one seat a team", "won by other team"),
    tmark("one seat a team", "won by team 0"),
    tmark("one seat a team", "won by team 1"),
    tmark("one seat a team", "won by team at score"),
    tmark("one seat a team", "won by team {team}"),
    tmark("one seat a team", "won by the mão's team"),
    tmark("one seat a team", "won by the mão's team, contested or not"),
    tmark("one seat a team", "won by the other team"),
    tmark("one seat a team", "won by the team at score"),
    tmark("one seat a team", "{name} (seat {seat}, team {team}): no decision"),
    tmark("one seat a team", "{name} (seat {seat}, team {team}): {decisions}, accuracy "
                             "{accuracy}%, best move {best} times, mean loss {loss}; {counts}"),
    tmark("three or more seats a team", "A flor sung by one team only is not accepted: nobody "
                                        "answers it (G38)."),
    tmark("three or more seats a team", "Seat {seat} (team {team}): "),
    tmark("three or more seats a team", "Team {team} ({seats})"),
    tmark("three or more seats a team", "The match is over: team {team} won."),
    tmark("three or more seats a team", "Won by the mão's team: of the accepted calls."),
    tmark("three or more seats a team", "a team cannot raise twice in a row (C10)"),
    tmark("three or more seats a team", "for team {team}"),
    tmark("three or more seats a team", "games, hands and points won per team"),
    tmark("three or more seats a team", "match win rate per team with its 95% Wilson interval"),
    tmark("three or more seats a team", "mão's team rate"),
    tmark("three or more seats a team", "mão's team rate any"),
    tmark("three or more seats a team", "mão's team rate, contested or not"),
    tmark("three or more seats a team", "no raise while your team is winning the hand "
                                        "(betting.no_raise_when_winning)"),
    tmark("three or more seats a team", "only the challenged team may raise back (C9, G17)"),
    tmark("three or more seats a team", "other team {n}"),
    tmark("three or more seats a team", "round {n}: team {team}"),
    tmark("three or more seats a team", "team at score {n}"),
    tmark("three or more seats a team", "team {team}"),
    tmark("three or more seats a team", "team {team} ({bots}, seats {seats})"),
    tmark("three or more seats a team", "team {team} ({seats})"),
    tmark("three or more seats a team", "team {team} match win rate"),
    tmark("three or more seats a team", "team {team} wins ({who}, {card})"),
    tmark("three or more seats a team", "team {team} wins {points}"),
    tmark("three or more seats a team", "team {team} {n}"),
    tmark("three or more seats a team", "team {team} {score}"),
    tmark("three or more seats a team", "the match in {file} is over: team {team} won"),
    tmark("three or more seats a team", "won by mão's team"),
    tmark("three or more seats a team", "won by mão's team any"),
    tmark("three or more seats a team", "won by other team"),
    tmark("three or more seats a team", "won by team 0"),
    tmark("three or more seats a team", "won by team 1"),
    tmark("three or more seats a team", "won by team at score"),
    tmark("three or more seats a team", "won by team {team}"),
    tmark("three or more seats a team", "won by the mão's team"),
    tmark("three or more seats a team", "won by the mão's team, contested or not"),
    tmark("three or more seats a team", "won by the other team"),
    tmark("three or more seats a team", "won by the team at score"),
    tmark("three or more seats a team", "{name} (seat {seat}, team {team}): no decision"),
    tmark("three or more seats a team", "{name} (seat {seat}, team {team}): {decisions}, accuracy "
                                        "{accuracy}%, best move {best} times, mean loss {loss}; "
                                        "{counts}"),
))


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message that fits the number ``n``, in the language spoken now (in the
    words of a team of the seats a team has now, as :func:`gettext`).

    >>> with using("pt-BR"), team_seats(1):
    ...     ngettext("Teams: {teams} · ladder {ladder} · {target} points a game, {games} game "
    ...              "to win", "Teams: {teams} · ladder {ladder} · {target} points a game, "
    ...              "{games} games to win", 2)
    'Jogadores: {teams} · escada {ladder} · {target} pontos a partida, {games} partidas para ganhar'
    """
    said = translations(_CURRENT.get())
    context = team_context(_SEATS.get())
    if context is not None and singular in TEAM_MESSAGES:
        told = said.npgettext(context, singular, plural, n)
        if told not in (singular, plural):
            return told
    return said.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in ``context`` (one English word that two meanings share), translated."""
    return translations(_CURRENT.get()).pgettext(context, message)


_ = gettext


def mark(message: str) -> str:
    """``message`` marked for the catalog but translated later (where it is shown)."""
    return message


@cache
def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", template)
    return re.compile("".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)"
                              for i, p in enumerate(parts)), re.DOTALL)


class Said(str):
    """English text made from a message of the catalog (``template``) and its ``fields``,
    which can be said again in another language (:meth:`again`): for a message one layer
    writes in English (a variant's problem, read by programs) and another shows to people. A
    field that is itself a :class:`Said` is said again with it.

    >>> said = Said.of("expected {n} cards, found {found}", n=3, found=Said.of("none"))
    >>> with using("pt-BR"):
    ...     said, said.again()
    ('expected 3 cards, found none', 'expected 3 cards, found nenhuma')
    """

    template: str
    fields: dict[str, object]

    @classmethod
    def of(cls, template: str, /, **fields: object) -> Said:
        """``template`` (marked for the catalog where it is written) with ``fields``."""
        said = cls(template.format(**fields))
        said.template, said.fields = template, fields
        return said

    def again(self) -> str:
        """The text in the language spoken now."""
        fields = {k: v.again() if isinstance(v, Said) else v for k, v in self.fields.items()}
        return gettext(self.template).format(**fields)


def retell(message: str, templates: Iterable[str],
           field: Callable[[str, str], str] | None = None) -> str | None:
    """``message``, English text made from one of ``templates`` (messages of the catalog) by
    another layer, said again in the language spoken now: the first template it fits, its
    fields as found (each passed through ``field(name, value)`` when given); ``None`` when
    no template fits.

    >>> with using("pt-BR"):
    ...     retell("'x' is not a valid integer.", ["{value} is not a valid integer."])
    "'x' não é um número inteiro válido."
    """
    for template in templates:
        found = fields_of(message, template)
        if found is not None:
            fields = {k: field(k, v) if field else v for k, v in found.items()}
            return gettext(template).format(**fields)
    return None


def fields_of(message: str, template: str) -> dict[str, str] | None:
    """The fields of ``message`` as ``template`` made it (``None``: it did not).

    >>> fields_of("at most 3 item(s)", "at most {n} item(s)")
    {'n': '3'}
    """
    found = _pattern(template).fullmatch(message)
    return None if found is None else found.groupdict()


#: A decimal point between digits (``4.4``, ``+12.5%``), not a dot of a name (``a.jsonl``).
_POINT = re.compile(r"(?<=\d)\.(?=\d)")


def decimal(text: str) -> str:
    """``text``, numbers as Python writes them (``4.4``, ``+12.5%``, ``0.244 ± 0.000``), with
    the decimal sign of the language spoken now, from Babel's locale data (a comma in pt-BR);
    English (and the test locale) as it is, byte for byte. For numbers shown to people only:
    ``--json``, logs and pages' data keep the point.

    >>> with using("pt-BR"):
    ...     decimal("4.4"), decimal("+12.5% (0.244 ± 0.000)"), number(0.5, ".3f")
    ('4,4', '+12,5% (0,244 ± 0,000)', '0,500')
    >>> decimal("4.4"), number(0.5, ".3f")
    ('4.4', '0.500')
    """
    locale = LANGUAGES.get(_CURRENT.get())
    if locale is None or "." not in text:
        return text
    from babel.numbers import get_decimal_symbol

    return _POINT.sub(get_decimal_symbol(locale), text)


def grouped(value: int) -> str:
    """A whole number with its thousands grouped as the language spoken now groups them
    (Babel's locale data: a point in pt-BR), English as ``f"{value:,}"`` writes it.

    >>> grouped(1048576)
    '1,048,576'
    >>> with using("pt-BR"):
    ...     grouped(1048576)
    '1.048.576'
    """
    text = f"{value:,}"
    locale = LANGUAGES.get(_CURRENT.get())
    if locale is None or "," not in text:
        return text
    from babel.numbers import get_group_symbol

    return text.replace(",", get_group_symbol(locale))


def number(value: float, spec: str = "") -> str:
    """``format(value, spec)`` in the language spoken now (:func:`decimal`)."""
    return decimal(format(value, spec))


def person(mine: bool, you: str, other: str, **fields: object) -> str:
    """A sentence in its person: ``you`` (already translated) where the seat spoken of is the
    reader's own, else ``other``; both formatted with ``fields`` (``who``: the seat's name).
    Two messages, never one with a verb ending added, so "you calls" cannot be written."""
    return (you if mine else other).format(**fields)


def catalog_json(lang: str, used: str | None = None) -> dict[str, Any]:
    """The catalog of ``lang`` for a page's script: ``{"lang", "plural", "messages"}``, each
    message by its English id (a context's as ``context\\x04id``), a plural message as the
    list of its forms; ``plural`` is the catalog's plural expression in C syntax (``n > 1``),
    ``messages`` empty for English; with ``used`` (a page's script), only the messages whose
    English text it holds (the page stays small)."""
    if lang == PSEUDO:  # every message marked, in its English forms
        known = {m.id if isinstance(m.id, str) else m.id[0]: m.id
                 for m in catalog(LANGUAGES["pt-BR"] or "") if m.id}
        return {"lang": lang, "plural": "n != 1", "messages": {
            k: [f"{MARKS[0]}{i}{MARKS[1]}" for i in v] if isinstance(v, tuple)
            else f"{MARKS[0]}{v}{MARKS[1]}" for k, v in known.items()
            if used is None or k in _script_messages(used) or k in used}}
    locale = LANGUAGES.get(lang)
    if locale is None:
        return {"lang": lang, "plural": "n != 1", "messages": {}}
    cat = catalog(locale)
    wanted = _script_messages(used) if used is not None else frozenset()
    messages: dict[str, Any] = {}
    for msg in cat:
        key = msg.id[0] if isinstance(msg.id, tuple) else msg.id
        if not msg.id or not msg.string or (used is not None and key not in wanted
                                            and key not in used):
            continue
        if msg.context:
            key = f"{msg.context}\x04{key}"
        messages[key] = list(msg.string) if isinstance(msg.string, tuple) else msg.string
    return {"lang": lang, "plural": cat.plural_expr, "messages": messages}


@cache
def _script_messages(script: str) -> frozenset[str]:
    """The messages a page's script passes to ``_()`` and ``ngettext()`` (Babel's reading of
    JavaScript: string literals joined, escapes read)."""
    from babel.messages.extract import extract_javascript

    found = extract_javascript(io.BytesIO(script.encode("utf-8")),
                               {"_": None, "ngettext": (1, 2)}, [], {})
    return frozenset(m if isinstance(m, str) else m[0] for _line, _f, m, _c in found)


#: A message in a page's HTML template: ``{{ the English text }}``.
_HTML_MARK = re.compile(r"\{\{\s*(.+?)\s*\}\}", re.DOTALL)


def localize_html(template: str) -> str:
    """A page's template with each ``{{ message }}`` in the language spoken now (HTML-escaped,
    ``$`` doubled for :class:`string.Template`), and its ``<html lang>`` the language's.

    >>> with using("pt-BR"):
    ...     localize_html('<html lang="en"><b>{{ the table }}</b>')
    '<html lang="pt-BR"><b>a mesa</b>'
    """
    def said(found: re.Match[str]) -> str:
        words = " ".join(found.group(1).split())
        return html.escape(gettext(words), quote=True).replace("$", "$$")

    page = _HTML_MARK.sub(said, template)
    return page.replace('<html lang="en">', f'<html lang="{current()}">', 1)


def extract_html(fileobj: Any, keywords: Any, comment_tags: Any,
                 options: Any) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extractor of a page template's ``{{ message }}`` marks (``babel.cfg``)."""
    text = fileobj.read().decode("utf-8")
    for found in _HTML_MARK.finditer(text):
        line = text.count("\n", 0, found.start()) + 1
        yield line, "_", " ".join(found.group(1).split()), []
