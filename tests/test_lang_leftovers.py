"""What was left of issue 43: an unknown language's message, a rule's own consistency check,
``truco bot check``'s report, plural counts and decimal commas, each in Brazilian Portuguese,
and the English byte for byte as it was."""

from __future__ import annotations

import ast
import pickle
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest
import rich.progress
from click.testing import CliRunner
from conftest import REPO

import engine.cli.analyze_cmd
import engine.cli.options
import engine.cli.simulate_cmd
import engine.protocol.check
from engine import i18n
from engine.cli import main
from engine.errors import VariantError
from engine.protocol.check import Report, identity
from engine.serve.store import check_house, variant_errors

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
    report = Report()
    report.add(i18n._("handshake"), True, identity(
        {"name": "x", "author": "y", "options": [{"name": "level", "type": "spin",
                                                  "default": 3, "min": 1, "max": 5}]}))
    report.add(i18n._("quit"), False, i18n._("still running 2 s after quit"))
    return report


def test_bot_check_s_lines_in_portuguese_and_english_as_before(
        monkeypatch: pytest.MonkeyPatch) -> None:
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


#: A rule's own consistency checks (issue 43): a house variant, its first problem as the loader
#: writes it (for programs, ``--json``: unchanged) and as a Portuguese reader is told it.
CHECKS = [
    ("cut:\n  allowed: false\n  refusable: [Ac]\n",
     "casa.yaml:5:14: cut.refusable: expected cut.allowed: true and bottom or partner among "
     "cut.choices with refusable cards (no cut takes a card), found allowed: false, choices: "
     "seco, burn, bottom, partner",
     "casa.yaml:5:14: cut.refusable: esperava-se cut.allowed: true e bottom ou partner entre "
     "cut.choices com cartas recusáveis (nenhum corte pega carta), encontrado allowed: false, "
     "choices: seco, burn, bottom, partner"),
    ("betting:\n  ladder:\n    - {value: 3, name: truco}\n    - {value: 12, name: doze}\n"
     "    - {value: game, name: jogo}\n",
     "casa.yaml:7:15: betting.ladder[2].value: the ladder must increase: expected more than 12, "
     "found a step worth the game (game.target, 12); to follow a step of 12, give it a value of "
     "its own with worth: {value: 13, name: jogo, worth: game}",
     "casa.yaml:7:15: betting.ladder[2].value: a escada deve subir: esperava-se mais de 12, "
     "encontrado um degrau que vale game (game.target, 12); para vir depois de um degrau de 12, "
     "dê a ele um valor próprio com worth: {value: 13, name: jogo, worth: game}"),
    ("deck:\n  extra:\n    X1: {above: X2}\n    X2: {above: X1}\n",
     "casa.yaml:5:17: deck.extra.X1.above: deck.extra: the extra cards are each above the "
     "other: X1 above X2 above X1",
     "casa.yaml:5:17: deck.extra.X1.above: deck.extra: as cartas extras estão cada uma acima "
     "da outra: X1 acima de X2 acima de X1"),
    ("special_hands:\n  - {name: a, when: {teams: any, from_score: 5}, value: 3, raises: illegal}"
     "\n  - {name: b, when: {teams: any, from_score: 7, to_score: 8}, value: 3, raises: illegal}"
     "\n",
     "casa.yaml:5:21: special_hands[1].when: special_hands[1] (b) never applies: wherever it "
     "holds, special_hands[0] (a) holds and the first that holds is the hand's",
     "casa.yaml:5:21: special_hands[1].when: special_hands[1] (b) nunca vale: onde quer que ela "
     "valha, vale special_hands[0] (a), e a primeira que vale é a da mão"),
    ("betting:\n  raise_back: false\n  ladder:\n    - {value: 3, name: truco}\n",
     "casa.yaml:4:15: betting.raise_back: expected no raise_back where the ladder has fewer "
     "than two steps (it has 1; no raise back exists), found false",
     "casa.yaml:4:15: betting.raise_back: esperava-se nenhum raise_back onde a escada tem menos "
     "de dois degraus (ela tem 1; não existe repique), encontrado false"),
    ("players: 3\n",
     "casa.yaml:3:10: players: 3 players cannot sit as two teams in alternate seats: expected "
     "teams (three players each for himself: [[0], [1], [2]])",
     "casa.yaml:3:10: players: 3 jogadores não se sentam como duas equipes em lugares "
     "alternados: esperava-se teams (três jogadores, cada um por si: [[0], [1], [2]])"),
]


@pytest.mark.parametrize(("body", "english", "portuguese"), CHECKS, ids=lambda x: None)
def test_a_rule_s_own_check_is_told_in_portuguese_in_the_lobby_and_variants_check(
        body: str, english: str, portuguese: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    text = "extends: paulista\nname: casa\n" + body
    with pytest.raises(VariantError) as caught:
        check_house(text, "casa.yaml", tmp_path / "upload")
    assert str(caught.value).splitlines()[0] == variant_errors(caught.value)[0] == english
    with i18n.using("pt-BR"):
        assert variant_errors(caught.value)[0] == portuguese
    monkeypatch.chdir(tmp_path)
    (tmp_path / "casa.yaml").write_text(text, encoding="utf-8")
    for lang, said in (("pt-BR", portuguese), ("en", english)):
        code, out = run("--lang", lang, "variants", "check", "casa.yaml")
        assert code == 1 and out.splitlines()[0] == said


def _check_templates() -> list[str]:
    """Every template a rule's own check writes: ``err(path, mark("..."), ...)`` in engine/."""
    found = []
    for path in sorted((REPO / "engine").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "err":
                found += [n.args[0].value for n in ast.walk(node.args[1])
                          if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "mark"
                          and isinstance(n.args[0], ast.Constant)]
    return found


def test_every_rule_check_is_a_template_of_the_catalog_translated() -> None:
    templates = _check_templates()
    assert len(templates) >= 100
    said = i18n.translations("pt-BR")
    untranslated = [t for t in templates if said.gettext(t) == t]
    assert not untranslated


def test_a_rule_s_sentence_keeps_its_template_through_a_process_boundary() -> None:
    message = i18n.Said.of("expected one flor, found {n} ({flores})", n=2, flores="a, b")
    again = pickle.loads(pickle.dumps(VariantError(message, path="side_bets"))).message
    with i18n.using("pt-BR"):
        assert again.again() == "esperava-se uma flor, encontradas 2 (a, b)"
    assert again == "expected one flor, found 2 (a, b)"


def test_simulate_s_tables_and_page_have_decimal_commas_in_portuguese(tmp_path: Path) -> None:
    args = ["simulate", "-v", "paulista", "--matches", "1", "--seed", "1"]
    pt = run("--lang", "pt-BR", *args, "--html", str(tmp_path / "pt.html"))[1].splitlines()
    en = run(*args, "--html", str(tmp_path / "en.html"))[1].splitlines()
    assert "pontos por mão               4,4         0,6" in pt
    assert "  intervalo de 95%  20,6%-100,0%  0,0%-79,3%" in pt
    assert "points per hand           4.4         0.6" in en
    assert "  95% interval   20.6%-100.0%  0.0%-79.3%" in en
    page = (tmp_path / "pt.html").read_text(encoding="utf-8")
    assert "<td>5,0</td>" in page and ">100,0%<" in page and "<td>5.0</td>" not in page
    english = (tmp_path / "en.html").read_text(encoding="utf-8")
    assert "<td>5.0</td>" in english and ">100.0%<" in english
    json_out = [run("--lang", lang, *args, "--json")[1] for lang in ("pt-BR", "en")]
    assert json_out[0] == json_out[1] and '"points_per_hand": 4.4' in json_out[0]


def test_compare_s_table_has_decimal_commas_in_portuguese() -> None:
    args = ["compare", "paulista", "variants/house/no-covered-cards.yaml", "--matches", "4",
            "--seed", "2"]
    pt = run("--lang", "pt-BR", *args)[1]
    assert "-3,2221 a +1,4554    1,0000" in pt and "-20,0%" in pt
    en = run(*args)[1]
    assert "-3.2221 to +1.4554    1.0000" in en and "-20.0%" in en


def test_analyze_s_report_has_decimal_commas_in_portuguese(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    pt = run("--lang", "pt-BR", "analyze", "--playouts", "2", REPLAY)[1].splitlines()
    assert pt[1].startswith("Marcas, pela perda na chance de ganhar o jogo: imprecisão 0,02, "
                            "erro 0,05, erro grave 0,1 (e mais de 2 erros padrão)")
    assert "vitória 0,000 ± 0,000  pontos -12,00" in pt[-2]
    en = run("analyze", "--playouts", "2", REPLAY)[1].splitlines()
    assert "inaccuracy 0.02, mistake 0.05, blunder 0.1" in en[1]
    assert "win 0.000 ± 0.000  points -12.00" in en[-2]


def test_the_viewer_s_script_writes_a_decimal_comma_in_portuguese() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed (.ci/run installs nodejs)")
    script = (REPO / "engine" / "viewer" / "assets" / "i18n.js").read_text(encoding="utf-8")
    said = []
    for lang in ("pt-BR", "en", "qps"):
        page = ("var document = {getElementById: function () { return {textContent: "
                f'JSON.stringify({{lang: "{lang}", plural: "n != 1", messages: {{}}}})}}; }}, '
                "querySelectorAll: function () { return []; }};\n")
        out = subprocess.run([node, "-e", page + script + '\nconsole.log(I18N.decimal("0.244")'
                              ' + " " + I18N.decimal("-12.5%"))'], capture_output=True,
                             text=True, timeout=60, check=True)
        said.append(out.stdout.strip())
    assert said == ["0,244 -12,5%", "0.244 -12.5%", "0.244 -12.5%"]


@pytest.mark.parametrize(("keys", "english", "portuguese"), [
    (21, "casa.yaml: 1 more problem not listed (the first 20 are)",
     "casa.yaml: mais 1 problema não listado (os 20 primeiros estão)"),
    (25, "casa.yaml: 5 more problems not listed (the first 20 are)",
     "casa.yaml: mais 5 problemas não listados (os 20 primeiros estão)"),
])
def test_the_problems_left_unlisted_are_counted_in_portuguese(
        keys: int, english: str, portuguese: str, tmp_path: Path) -> None:
    text = "extends: paulista\nname: casa\n" + "".join(f"foo{i}: 1\n" for i in range(keys))
    with pytest.raises(VariantError) as caught:
        check_house(text, "casa.yaml", tmp_path)
    assert str(caught.value).splitlines()[-1] == variant_errors(caught.value)[-1] == english
    with i18n.using("pt-BR"):
        assert variant_errors(caught.value)[-1] == portuguese


TOURNAMENT = ["tournament", "-v", "paulista", "-b", "random,heuristic,search:4", "-n", "3",
              "-s", "5"]
#: ``TOURNAMENT``'s English, as it was before its words went through the catalog.
TOURNAMENT_EN = """\
paulista: round robin, 3 deals per pairing, each played both ways round, seed 5

pairing                matches  won by the first  95% interval
random vs heuristic          6          0 (0.0%)    0.0%-39.0%
random vs search:4           6          0 (0.0%)    0.0%-39.0%
heuristic vs search:4        6         4 (66.7%)   30.0%-90.3%

bot        matches         won  rating  95% interval
heuristic       12  10 (83.3%)    1695  1516 to 1873
search:4        12   8 (66.7%)    1605  1440 to 1771
random          12    0 (0.0%)    1200   963 to 1436

ratings: a Bradley-Terry fit on the Elo scale (400 points: 10 to 1 odds), centred on 1500
"""


def test_tournament_s_tables_in_portuguese_with_decimal_commas_english_as_it_was() -> None:
    code, pt = run("--lang", "pt-BR", *TOURNAMENT)
    assert code == 0 and pt.splitlines() == [
        "paulista: todos contra todos, 3 sorteios por confronto, cada um jogado duas vezes com "
        "os lados trocados, semente 5", "",
        "confronto                  jogos  ganhos pelo primeiro  intervalo de 95%",
        "random contra heuristic        6              0 (0,0%)        0,0%-39,0%",
        "random contra search:4         6              0 (0,0%)        0,0%-39,0%",
        "heuristic contra search:4      6             4 (66,7%)       30,0%-90,3%", "",
        "robô       jogos    vitórias  nota  intervalo de 95%",
        "heuristic     12  10 (83,3%)  1695       1516 a 1873",
        "search:4      12   8 (66,7%)  1605       1440 a 1771",
        "random        12    0 (0,0%)  1200        963 a 1436", "",
        "notas: um ajuste de Bradley-Terry na escala Elo (400 pontos: chances de 10 para 1), "
        "centrado em 1500"]
    assert run(*TOURNAMENT) == (0, TOURNAMENT_EN)
    assert run(*TOURNAMENT, TRUCO_LANG="pt-BR")[1] == pt
    json_out = [run("--lang", lang, *TOURNAMENT, "--json")[1] for lang in ("pt-BR", "en")]
    assert json_out[0] == json_out[1] and '"a_rate": 0.6667' in json_out[0]


@pytest.mark.parametrize(("lang", "head"), ids=["pt-BR", "en"], argvalues=[
    ("pt-BR", "paulista: todos contra todos, 1 sorteio por confronto, jogado duas vezes com os "
              "lados trocados, semente 5"),
    ("en", "paulista: round robin, 1 deal per pairing, played both ways round, seed 5"),
])
def test_tournament_s_one_deal_takes_its_singular(lang: str, head: str) -> None:
    code, out = run("--lang", lang, "tournament", "-v", "paulista", "-b", "random,heuristic",
                    "-n", "1", "-s", "5")
    assert code == 0 and out.splitlines()[0] == head


@pytest.mark.parametrize(("log", "english", "portuguese"), ids=["one game", "two games"],
                         argvalues=[
    ("replays/paulista-seed1.jsonl", "doze 12 · 12 points a game, 1 game to win",
     "doze 12 · 12 pontos a partida, 1 partida para ganhar"),
    ("replays/mineiro-seed1.jsonl", "nove 9 · 12 points a game, 2 games to win",
     "nove 9 · 12 pontos a partida, 2 partidas para ganhar"),
])
def test_the_games_to_win_take_their_plural_form_in_both_languages(
        log: str, english: str, portuguese: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    en = run("replay", log)[1].splitlines()[1]
    pt = run("--lang", "pt-BR", "replay", log)[1].splitlines()[1]
    assert en.startswith("Teams: team 0 (Ana, Caio) · ") and en.endswith(english)
    assert pt.startswith("Duplas: dupla 0 (Ana, Caio) · ") and pt.endswith(portuguese)


def test_the_games_to_win_take_their_plural_form_for_a_player_and_an_equipe() -> None:
    line = ("Teams: {teams} · ladder {ladder} · {target} points a game, {games} game to win",
            "Teams: {teams} · ladder {ladder} · {target} points a game, {games} games to win")
    said = {}
    for seats in (1, 3):
        for n in (1, 2):
            with i18n.using("pt-BR"), i18n.team_seats(seats):
                said[seats, n] = i18n.ngettext(*line, n).format(teams="T", ladder="L",
                                                                target=12, games=n)
            with i18n.team_seats(seats):
                assert i18n.ngettext(*line, n) == line[n - 1]
    assert said == {
        (1, 1): "Jogadores: T · escada L · 12 pontos a partida, 1 partida para ganhar",
        (1, 2): "Jogadores: T · escada L · 12 pontos a partida, 2 partidas para ganhar",
        (3, 1): "Equipes: T · escada L · 12 pontos a partida, 1 partida para ganhar",
        (3, 2): "Equipes: T · escada L · 12 pontos a partida, 2 partidas para ganhar"}


@pytest.mark.parametrize(("lang", "labels"), [
    ("pt-BR", ["simulando", "simulando", "torneio", "verificando", "analisando"]),
    ("en", ["simulating", "simulating", "tournament", "verifying", "analysing"]),
])
def test_the_progress_bars_are_labelled_in_the_reader_s_language(
        lang: str, labels: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []

    class Bar:  # rich's Progress, its label kept and nothing drawn
        def __init__(self, *args: object, **kwargs: object) -> None:
            pass

        def add_task(self, label: str, total: object = None) -> int:
            seen.append(label)
            return 0

        def update(self, *args: object, **kwargs: object) -> None:
            pass

        start = stop = lambda self: None  # noqa: E731

    terminal = types.SimpleNamespace(stderr=types.SimpleNamespace(isatty=lambda: True),
                                     exit=sys.exit)  # standard error a terminal
    for module in (engine.cli.simulate_cmd, engine.cli.analyze_cmd):
        monkeypatch.setattr(module, "sys", terminal)
    monkeypatch.setattr(rich.progress, "Progress", Bar)
    monkeypatch.chdir(REPO)
    for args in (["simulate", "-v", "paulista", "-n", "1"],
                 ["compare", "paulista", "mineiro", "--matches", "1"],
                 ["tournament", "-v", "paulista", "-b", "random,heuristic", "-n", "1"],
                 ["verify", REPLAY], ["analyze", "--playouts", "1", REPLAY]):
        code, out = run("--lang", lang, *args)
        assert code in (0, 1), out  # compare: 1 where a statistic differs
    assert seen == labels, seen


KNOWN = "heuristic, random, search[:N[:sound|heuristic]], cmd:COMMAND"


@pytest.mark.parametrize(("lang", "bots", "last"), [
    ("pt-BR", "genius", "Erro: Valor inválido para --bots: robô desconhecido 'genius'; robôs "
     f"conhecidos: {KNOWN}, ou um nome da tabela [bots] de um --config FILE"),
    ("en", "genius", "Error: Invalid value for --bots: unknown bot 'genius'; known bots: "
     f"{KNOWN}, or a name of the [bots] table of a --config FILE"),
    ("pt-BR", "search:0", "Erro: Valor inválido para --bots: orçamento inválido em 'search:0': "
     "um número inteiro positivo de iterações"),
    ("en", "search:0", "Error: Invalid value for --bots: bad budget in 'search:0': a positive "
     "whole number of iterations"),
    ("pt-BR", "search:9:wild", "Erro: Valor inválido para --bots: opção inválida em "
     "'search:9:wild': uma de sound, heuristic"),
    ("pt-BR", "random:3", "Erro: Valor inválido para --bots: o robô 'random' não aceita "
     "orçamento ('random:3')"),
    ("pt-BR", "cmd:./mybot 'oops", "Erro: Valor inválido para --bots: cmd: o comando "
     "\"./mybot 'oops\" não pode ser dividido como um shell o dividiria: uma aspa não foi "
     "fechada"),
])
def test_a_bad_bot_spec_is_refused_in_the_reader_s_language_exit_2(
        lang: str, bots: str, last: str) -> None:
    code, out = run("--lang", lang, "simulate", "-v", "paulista", "-n", "1", "--bots", bots)
    assert code == 2 and "Traceback" not in out
    assert " ".join(out.split()).endswith(last), out


def test_a_wrong_budget_is_not_told_as_an_unknown_bot_in_any_language() -> None:
    # The suffix offering --config's names follows an unknown bot only, whatever the words.
    for lang in ("en", "pt-BR"):
        code, out = run("--lang", lang, "simulate", "-v", "paulista", "-n", "1",
                        "--bots", "search:0")
        assert code == 2 and "--config" not in out and "[bots]" not in out, out


@pytest.mark.parametrize(("lang", "table", "said"), [
    ("pt-BR", 'heuristic = "random"\n', "[bots] heuristic: 'heuristic' é um robô embutido; "
     "escolha outro nome"),
    ("en", 'heuristic = "random"\n', "[bots] heuristic: 'heuristic' is a built-in bot; "
     "choose another name"),
    ("pt-BR", "mine = 3\n", "[bots] mine: dê o robô como texto entre aspas, por exemplo "
     '"cmd:./mybot"'),
    ("pt-BR", 'mine = "genius"\n', "[bots] mine: robô desconhecido 'genius'; robôs "
     "conhecidos:"),
])
def test_a_bots_config_s_problem_is_told_in_the_reader_s_language(
        lang: str, table: str, said: str, tmp_path: Path) -> None:
    config = tmp_path / "bots.toml"
    config.write_text("[bots]\n" + table, encoding="utf-8")
    code, out = run("--lang", lang, "simulate", "-v", "paulista", "-n", "1",
                    "--config", str(config))
    assert code == 2 and "Traceback" not in out
    assert said in " ".join(out.split()), out


def test_a_too_large_config_file_groups_its_limit_as_the_language_does(tmp_path: Path) -> None:
    config = tmp_path / "big.toml"
    config.write_bytes(b"#" * (engine.cli.options.MAX_CONFIG_BYTES + 1))
    _code, en = run("simulate", "-v", "paulista", "--config", str(config))
    _code, pt = run("--lang", "pt-BR", "simulate", "-v", "paulista", "--config", str(config))
    assert "is larger than 1,048,576 bytes" in " ".join(en.split()), en
    assert "tem mais de 1.048.576 bytes" in " ".join(pt.split()), pt
