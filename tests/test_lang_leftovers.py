"""What was left of issue 43: an unknown language's message, a rule's own consistency check,
``truco bot check``'s report, plural counts and decimal commas, each in Brazilian Portuguese,
and the English byte for byte as it was."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from engine import i18n
from engine.cli import main

#: No language asked by the environment but ``extra``'s (CliRunner's ``None`` removes one).
QUIET = {"TRUCO_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": "C.UTF-8"}


def run(*args: str, **extra: str | None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), env={**QUIET, **extra}, prog_name="truco")
    return result.exit_code, result.output


OFFERED_EN = "truco speaks en (English) and pt-BR (português do Brasil)"
OFFERED_PT = "o truco fala en (English) e pt-BR (português do Brasil)"


@pytest.mark.parametrize(("args", "env", "last"), [
    (["--lang", "xx", "simulate"], {},
     f"Error: --lang 'xx': no such language; {OFFERED_EN}"),
    (["--lang", "xx", "simulate"], {"LANG": "pt_BR.UTF-8"},
     f"Erro: --lang 'xx': idioma desconhecido; {OFFERED_PT}"),
    (["--lang=fr_FR", "variants", "list"], {"TRUCO_LANG": "pt-BR"},
     f"Erro: --lang 'fr_FR': idioma desconhecido; {OFFERED_PT}"),
    (["variants", "list"], {"TRUCO_LANG": "klingon", "LANG": "pt_BR.UTF-8"},
     f"Erro: TRUCO_LANG 'klingon': idioma desconhecido; {OFFERED_PT}"),
    (["variants", "list"], {"TRUCO_LANG": "klingon"},
     f"Error: TRUCO_LANG 'klingon': no such language; {OFFERED_EN}"),
])
def test_an_unknown_language_is_told_in_the_environment_s_with_every_language_exit_2(
        args: list[str], env: dict[str, str], last: str) -> None:
    code, out = run(*args, **env)
    assert code == 2 and "Traceback" not in out
    assert out.rstrip("\n").splitlines()[-1] == last
    first = "Uso: truco" if last.startswith("Erro:") else "Usage: truco"
    assert out.startswith(first)


def test_the_language_error_itself_stays_english() -> None:
    with i18n.using("pt-BR"):
        exc = i18n.LanguageError("--lang", "xx")
    assert str(exc) == f"--lang 'xx': no such language; {OFFERED_EN}"
