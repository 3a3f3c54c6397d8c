"""The game in the player's language (issue 43): the language's choice (``--lang``,
``TRUCO_LANG``, the locale), the catalogs (every message of the code in them, every entry
translated, the same fields in both languages), and what programs read unchanged."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from click.testing import CliRunner
from conftest import REPO
from helpers import doctests

import engine.i18n
from engine import i18n
from engine.cli import main

PO = REPO / "engine" / "locales" / "pt_BR" / "LC_MESSAGES" / "truco.po"
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
            "mark": None, "nmark": (1, 2)}

def test_the_module_examples_run() -> None:
    result = doctests(engine.i18n)
    assert result.attempted >= 4 and result.failed == 0


#: As ``babel.cfg`` maps them: the modules, the pages' scripts and their templates' marks.
METHODS = [("**.py", "python"), ("**/assets/*.js", "javascript"),
           ("**/assets/*.html", "engine.i18n:extract_html")]


def _code_messages() -> set[str | tuple[str, str]]:
    """Every message the code passes through the catalog (Babel's extractors, as
    ``pybabel extract -F babel.cfg -k mark`` reads them)."""
    found: set[str | tuple[str, str]] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
            str(REPO / "engine"), method_map=METHODS, keywords=KEYWORDS):
        found.add(message if isinstance(message, str) else (message[0], message[1]))
    return found


def _catalog() -> list:  # type: ignore[type-arg]
    with PO.open("rb") as f:
        return [m for m in read_po(f, locale="pt_BR") if m.id]


def test_every_message_of_the_code_is_in_the_catalog_and_nothing_else() -> None:
    code = _code_messages()
    catalog = {m.id if isinstance(m.id, str) else tuple(m.id) for m in _catalog()}
    missing = sorted(map(str, code - catalog))
    stale = sorted(map(str, catalog - code))
    assert not missing, f"not in {PO.name} (pybabel update, docs/development.md): {missing}"
    assert not stale, f"in {PO.name} but no longer in the code: {stale}"


def _fields(text: str) -> set[str]:
    return {f for _lit, f, _spec, _conv in string.Formatter().parse(text) if f is not None}


def test_every_catalog_entry_is_translated_with_the_same_fields() -> None:
    for m in _catalog():
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        assert all(forms), f"untranslated in pt-BR: {m.id!r}"
        assert not m.fuzzy, f"fuzzy in pt-BR: {m.id!r}"
        for form in forms:
            assert _fields(form) == _fields(ids[-1]), f"{m.id!r}: {form!r} has other fields"


@pytest.mark.parametrize(("option", "environ", "expected"), [
    (None, {}, "en"),
    (None, {"LANG": "pt_BR.UTF-8"}, "pt-BR"),
    (None, {"LANG": "en_US.UTF-8", "LC_ALL": "pt_BR.UTF-8"}, "pt-BR"),
    (None, {"LANG": "de_DE.UTF-8"}, "en"),
    (None, {"TRUCO_LANG": "pt-BR", "LANG": "en_US.UTF-8"}, "pt-BR"),
    ("en", {"TRUCO_LANG": "pt-BR"}, "en"),
    ("pt-BR", {}, "pt-BR"),
    ("pt_br", {}, "pt-BR"),
])
def test_the_language_is_chosen_by_option_then_truco_lang_then_the_locale(
        option: str | None, environ: dict[str, str], expected: str) -> None:
    assert i18n.choose(option, environ) == expected


def test_a_language_with_no_catalog_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    result = CliRunner().invoke(main, ["--lang", "fr", "variants", "list"])
    assert result.exit_code == 2 and "--lang 'fr': no such language" in result.output
    assert "Traceback" not in result.output
    monkeypatch.setenv("TRUCO_LANG", "klingon")
    result = CliRunner().invoke(main, ["variants", "list"])
    assert result.exit_code == 2 and "TRUCO_LANG 'klingon'" in result.output


def test_the_catalog_as_json_for_a_page() -> None:
    data = i18n.catalog_json("pt-BR")
    assert data["lang"] == "pt-BR" and data["plural"]
    assert data["messages"]["you accept"] == "você aceita"
    assert data["messages"]["resumed {file} after {n} move"][0].endswith("{n} jogada")
    assert json.loads(json.dumps(data, ensure_ascii=False)) == data
    assert i18n.catalog_json("en")["messages"] == {}


def test_the_log_is_the_same_in_every_language(tmp_path: Path) -> None:
    logs = []
    for lang in ("en", "pt-BR"):
        log = tmp_path / f"{lang}.jsonl"
        result = CliRunner().invoke(main, ["--lang", lang, "play", "--variant", "paulista",
                                           "--seed", "3", "--bots", "random", "--log",
                                           str(log)], input="a\n" * 400)
        assert result.exit_code == 0, result.output
        logs.append(log.read_bytes())
    assert logs[0] == logs[1]
    assert b'"players": ["you", "Bot 1 (random)"' in logs[0]


def test_json_output_is_the_same_in_every_language(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    CliRunner().invoke(main, ["play", "--variant", "mineiro", "--seed", "5", "--bots", "random",
                              "--log", str(log)], input="a\n" * 400)
    outs = [CliRunner().invoke(main, ["--lang", lang, "verify", str(log), "--json"]).output
            for lang in ("en", "pt-BR")]
    assert outs[0] == outs[1] and json.loads(outs[0])
