"""What was left of issue 43: an unknown language's message, a rule's own consistency check,
``truco bot check``'s report, plural counts and decimal commas, each in Brazilian Portuguese,
and the English byte for byte as it was."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from conftest import REPO

from engine import i18n
from engine.cli import main

#: No language asked by the environment but ``extra``'s (CliRunner's ``None`` removes one).
QUIET = {"TRUCO_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": "C.UTF-8"}


def run(*args: str, **extra: str | None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), env={**QUIET, **extra}, prog_name="truco")
    return result.exit_code, result.output


REPLAY = "replays/paulista-deals2.jsonl"
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


def _report() -> object:
    from engine.protocol.check import Report, _identity

    report = Report()
    report.add(i18n._("handshake"), True, _identity(
        {"name": "x", "author": "y", "options": [{"name": "level", "type": "spin",
                                                  "default": 3, "min": 1, "max": 5}]}))
    report.add(i18n._("quit"), False, i18n._("still running 2 s after quit"))
    return report


def test_bot_check_s_lines_in_portuguese_and_english_as_before(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.protocol.check

    with i18n.using("pt-BR"):
        said = _report().lines()  # type: ignore[attr-defined]
    assert said == ["ok      apresentação: id 'x' de 'y', opções: level (spin, padrão 3, 1 a 5), "
                    "protocolo 1, pronto",
                    "FALHOU  saída (quit): ainda rodando 2 s depois do quit"]
    assert _report().lines() == [  # type: ignore[attr-defined]
        "ok      handshake: id 'x' by 'y', options: level (spin, default 3, 1 to 5), "
        "protocol 1, ready", "FAILED  quit: still running 2 s after quit"]
    monkeypatch.setattr(engine.protocol.check, "check", lambda *a, **k: _report())
    code, out = run("--lang", "pt-BR", "bot", "check", "python3 bot.py")
    assert code == 1 and out.splitlines()[-1] == "python3 bot.py: FALHOU"
    assert out.splitlines()[0].startswith("ok      apresentação: id 'x' de 'y'")
    code, out = run("bot", "check", "python3 bot.py")
    assert code == 1 and out.splitlines()[-1] == "python3 bot.py: FAILED"
    assert out.splitlines()[0].startswith("ok      handshake: id 'x' by 'y'")


@pytest.mark.parametrize(("lang", "n", "head"), [
    ("pt-BR", 1, "paulista: 1 jogo, semente 1, robôs por lugar:"),
    ("pt-BR", 2, "paulista: 2 jogos, semente 1, robôs por lugar:"),
    ("en", 1, "paulista: 1 match, seed 1, bots by seat:"),
    ("en", 2, "paulista: 2 matches, seed 1, bots by seat:"),
])
def test_simulate_s_count_takes_its_plural_form(lang: str, n: int, head: str) -> None:
    code, out = run("--lang", lang, "simulate", "-v", "paulista", "--matches", str(n),
                    "--seed", "1")
    assert code == 0 and out.startswith(head + " heuristic, random")


def test_compare_s_count_takes_its_plural_form() -> None:
    code, out = run("--lang", "pt-BR", "compare", "paulista", "mineiro", "--matches", "1",
                    "--seed", "1")
    assert code in (0, 1) and out.startswith("paulista contra mineiro: 1 jogo cada, semente 1")


def test_analyze_s_playouts_take_their_plural_form(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    code, out = run("--lang", "pt-BR", "analyze", "--playouts", "1", REPLAY)
    assert code == 0 and out.startswith(
        "Análise de replays/paulista-deals2.jsonl (paulista, cartas do registro): 21 decisões, "
        "1 simulação por jogada\n")
    code, out = run("analyze", "--playouts", "1", REPLAY)
    assert code == 0 and ": 21 decisions, 1 playout a move\n" in out.splitlines(True)[0]
