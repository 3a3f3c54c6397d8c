"""The command line's own usage messages and help headings in the reader's language (issue 43,
engine/cli/usage.py): click's words said through the catalog, exit 2 kept, English as it was."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO
from helpers import doctests

import engine.cli.usage
from engine import i18n
from engine.cli import main
from engine.cli.usage import TEMPLATES, told


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), env=env, prog_name="truco")
    return result.exit_code, result.output


def test_the_module_examples_run() -> None:
    result = doctests(engine.cli.usage)
    assert result.attempted >= 1 and result.failed == 0


def test_an_unknown_option_is_told_in_portuguese_exit_2() -> None:
    code, out = run("--lang", "pt-BR", "simulate", "--nope")
    assert code == 2
    assert out.splitlines()[:2] == ["Uso: truco simulate [OPTIONS]",
                                    "Veja 'truco simulate --help' para ajuda."]
    assert "Erro: Não existe a opção '--nope'. Você quis dizer '--force'?" in out
    assert not re.search(r"Usage|Error|No such|Try ", out)


def test_english_is_as_click_says_it() -> None:
    code, out = run("simulate", "--nope")
    assert code == 2
    assert out == ("Usage: truco simulate [OPTIONS]\nTry 'truco simulate --help' for help.\n\n"
                   "Error: No such option '--nope'. Did you mean '--force'?\n")


@pytest.mark.parametrize(("args", "said"), [
    (["verify"], "Erro: Falta o argumento 'PATH...'."),
    (["simulate", "--seed", "x"],
     "Erro: Valor inválido para '--seed' / '-s': 'x' não é um número inteiro válido."),
    (["simulate", "--seed"], "Erro: A opção '--seed' precisa de um valor."),
    (["nope"], "Erro: Não existe o comando 'nope'."),
    (["variants", "nope"], "Erro: Não existe o comando 'nope'."),
    (["--nope"], "Erro: Não existe a opção '--nope'."),
    (["simulate", "-v", "paulista", "x"], "Erro: Argumento a mais, não esperado (x)"),
])
def test_usage_errors_in_portuguese(args: list[str], said: str) -> None:
    code, out = run(*args, env={"TRUCO_LANG": "pt-BR"})
    assert code == 2
    assert out.rstrip("\n").splitlines()[-1] == said


def test_the_help_headings_in_portuguese() -> None:
    code, out = run("--lang", "pt-BR", "variants", "--help")
    assert code == 0
    assert out.startswith("Uso: truco variants [OPTIONS] COMMAND [ARGS]...")
    assert "Opções:" in out and "Comandos:" in out and "Mostra esta mensagem e sai." in out
    assert "Options:" not in out and "Show this message" not in out
    english = run("variants", "--help")[1]
    assert english.startswith("Usage: truco variants") and "Options:" in english


@pytest.mark.parametrize("template", TEMPLATES)
def test_every_template_is_found_again_and_translated(template: str) -> None:
    fields = dict.fromkeys(re.findall(r"\{(\w+)\}", template), "'x'")
    english = template.format(**fields)
    with i18n.using("pt-BR"):
        said = told(english)
    assert said != english and "'x'" in said or not fields
    assert said == i18n.translations("pt-BR").gettext(template).format(**fields)


def test_a_file_that_exists_is_refused_in_portuguese(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    out.write_text("kept\n", encoding="utf-8")
    replay = sorted((REPO / "replays").glob("*.jsonl"))[0]
    code, said = run("--lang", "pt-BR", "replay", "--out", str(out), str(replay))
    assert code == 2 and out.read_text(encoding="utf-8") == "kept\n"
    assert said.rstrip("\n").splitlines()[-1] == (
        f"Erro: Valor inválido para --out: {out} já existe; use --force para substituí-lo")


#: The commands' own refusals and notices (issue 43): each as a command line (``{replay}``: a
#: stored replay, ``{tmp}``: a fresh folder), its exit code, and its last line in pt-BR and in
#: English (English as it always was, byte for byte).
OWN = [
    (["record", "-v", "paulista"], 2,
     "Erro: --seed é obrigatório (ou --unseeded, que sorteia a partir da semente 0)",
     "Error: --seed is required (or --unseeded, which draws from seed 0)"),
    (["verify", "{tmp}/nowhere"], 2,
     "Erro: Valor inválido para PATH: arquivo ou pasta inexistente: {tmp}/nowhere",
     "Error: Invalid value for PATH: no such file or folder: {tmp}/nowhere"),
    (["replay", "--analysis", "{tmp}/a.json", "{replay}"], 2,
     "Erro: --analysis anota a página do --html: informe também --html FILE",
     "Error: --analysis annotates the --html page: give --html FILE too"),
    (["tournament", "-v", "paulista", "--bots", "heuristic"], 2,
     "Erro: Valor inválido para --bots: informe dois robôs ou mais, cada um uma só vez",
     "Error: Invalid value for --bots: give two bots or more, each once"),
    (["position", "--at", "999999", "{replay}"], 2,
     "Erro: --at 999999: o registro tem as linhas 1 a {lines}",
     "Error: --at 999999: the log has lines 1 to {lines}"),
    (["replay", "--html", "{tmp}/p.html", "--analysis", "{tmp}/a.json", "{replay}"], 1,
     "truco: {tmp}/a.json: não é JSON (não é UTF-8 no byte 0)",
     "truco: {tmp}/a.json: not JSON (not UTF-8 at byte 0)"),
]


@pytest.mark.parametrize(("args", "code", "pt", "en"), OWN, ids=lambda x: None)
def test_the_commands_own_refusals_in_portuguese_and_english_as_before(
        tmp_path: Path, args: list[str], code: int, pt: str, en: str) -> None:
    (tmp_path / "a.json").write_bytes(b"\xff\n")
    replay = sorted((REPO / "replays").glob("*.jsonl"))[0]
    fields = {"tmp": str(tmp_path), "replay": str(replay),
              "lines": str(len(replay.read_bytes().splitlines()))}
    line = [a.format(**fields) for a in args]
    for lang, said in (("pt-BR", pt), ("en", en)):
        got, out = run("--lang", lang, *line)
        assert (got, out.rstrip("\n").splitlines()[-1]) == (code, said.format(**fields))
    assert not (tmp_path / "p.html").exists()


def test_a_file_kind_is_said_in_portuguese(tmp_path: Path) -> None:
    from engine.fileio import not_replaceable

    (tmp_path / "d").mkdir()
    with i18n.using("pt-BR"):
        assert not_replaceable(tmp_path / "d") == "é uma pasta, não um arquivo comum"
    assert not_replaceable(tmp_path / "d") == "it is a folder, not a regular file"
