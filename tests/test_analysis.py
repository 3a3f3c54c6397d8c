"""``truco analyze`` (issue 30): positions where one move loses by force are marked blunders and
the winning move is best; equal moves mark nothing; the fair evaluation reads the seat's
observation only; the output is the same for a seed, in any number of processes."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import REPO
from helpers import doctests

from engine import Match
from engine.actions import Action
from engine.analysis import Decision, decision_at, value_decision
from engine.analysis.run import Job
from engine.cli import main
from engine.cluster import VariantRef
from engine.telling import move_words
from engine.variant import load_variant

PLAYOUTS = 48


def _base(**fields: Any) -> dict[str, Any]:
    """A Paulista position at 9-9 (the hand decides the match when it is worth 3), vira 3h
    (manilhas 4d < 4s < 4h < 4c), no generator."""
    p: dict[str, Any] = {
        "position": 1, "state": "play", "score": [9, 9], "games": [0, 0], "winner": None,
        "dealer": 0, "hand_number": 5, "value": 1, "special": None, "pending": None,
        "refused": [], "last_raise_team": None, "vira": "3h", "shown": [],
        "bound": [None] * 4, "last_hand": None, "rng": None}
    p.update(fields)
    return p


def _card(seat: int, card: str) -> dict[str, Any]:
    return {"seat": seat, "card": card, "covered": False}


def _round(winner: int | None, *cards: tuple[int, str]) -> dict[str, Any]:
    return {"cards": [_card(s, c) for s, c in cards], "winner": winner}


#: Round 2; team 0 won round 1 (seat 2's 3c); seat 3 raised to 3 and seat 0, holding the zap
#: (4c, unbeatable), answers: the hand is won whatever follows, folding gives it away.
FOLD_WON = _base(
    state="answer", pending={"seat": 3, "value": 3, "card": None},
    hands=[["4c", "5s"], ["Kd", "6d"], ["Qs"], ["Jd", "5c"]],
    dealt=[["4c", "5s", "5d"], ["Kd", "6d", "2s"], ["Qs", "7c", "3c"], ["Jd", "5c", "6h"]],
    rounds=[_round(0, (1, "2s"), (2, "3c"), (3, "6h"), (0, "5d"))],
    round={"number": 2, "leader": 2, "turn": 3, "cards": [_card(2, "7c")]})
#: Round 2 worth 3 (team 0's truco, so no raise); team 1 won round 1; seat 0 plays last against
#: seat 1's 3s holding the zap and a 7: the 7 (or any covered card) loses the second round and
#: the hand by force, the zap is the one card that goes on.
LOSING_CARD = _base(
    value=3, last_raise_team=0,
    hands=[["4c", "7d"], ["Kd"], ["Qs"], ["Jd"]],
    dealt=[["4c", "7d", "5d"], ["Kd", "3s", "2s"], ["Qs", "5h", "Ac"], ["Jd", "6c", "6h"]],
    rounds=[_round(1, (1, "2s"), (2, "Ac"), (3, "6h"), (0, "5d"))],
    round={"number": 2, "leader": 1, "turn": 0,
           "cards": [_card(1, "3s"), _card(2, "5h"), _card(3, "6c")]})
#: Mineiro's mão de dez (a decision, M5) at 10-9, team 0 holding the three top manilhas (4c,
#: 7h, As): playing wins the hand (and the game) by force; refusing gives a point away.
MAO_DE_DEZ = {
    "position": 1, "state": "decide", "score": [10, 9], "games": [0, 0], "winner": None,
    "dealer": 0, "hand_number": 9, "value": 3,
    "special": {"entry": 1, "name": "mão de dez", "team": 0, "decider": None},
    "pending": None, "refused": [], "last_raise_team": None, "vira": None,
    "hands": [["4c", "7h", "As"], ["3c", "4s", "Kd"], ["7c", "2d", "Ah"], ["Jh", "7d", "Js"]],
    "dealt": [["4c", "7h", "As"], ["3c", "4s", "Kd"], ["7c", "2d", "Ah"], ["Jh", "7d", "Js"]],
    "rounds": [], "round": {"number": 1, "leader": 1, "turn": 1, "cards": []}, "shown": [],
    "bound": [None] * 4, "last_hand": None, "rng": None}
#: Round 3, seat 0's last card (5d, face up or covered) after its partner's zap: the round and
#: the hand are team 0's whatever it plays.
LAST_CARD = _base(
    value=3, last_raise_team=0,
    hands=[["5d"], [], [], []],
    dealt=[["5d", "7d", "4d"], ["Kd", "3s", "2s"], ["Qs", "4c", "Ac"], ["Jd", "6c", "6h"]],
    rounds=[_round(0, (1, "2s"), (2, "Ac"), (3, "6h"), (0, "4d")),
            _round(1, (0, "7d"), (1, "3s"), (2, "Qs"), (3, "6c"))],
    round={"number": 3, "leader": 1, "turn": 0,
           "cards": [_card(1, "Kd"), _card(2, "4c"), _card(3, "Jd")]})


def _decision(variant: str, position: dict[str, Any], played: Action) -> tuple[Decision, Match]:
    m = Match.from_position(variant, position)
    found = decision_at(m, played, 1)
    assert found is not None
    return found, m


def analysed(variant: str, position: dict[str, Any], played: Action, *, seed: int = 5,
             hindsight: bool = True) -> dict[str, Any]:
    """The analysis of ``played`` at ``position``, as ``truco analyze`` makes it."""
    d, m = _decision(variant, position, played)
    return value_decision(Job(VariantRef.of(m.rules), d, seed, PLAYOUTS, hindsight))


def _move(result: dict[str, Any], name: str) -> dict[str, Any]:
    return result["moves"][result["legal"].index(name)]


def test_folding_a_raise_with_the_hand_won_is_a_blunder() -> None:
    result = analysed("paulista", FOLD_WON, Action.fold(0))
    assert result["legal"] == ["accept 0", "fold 0", "raise 0 6"]
    assert result["mark"] == "blunder" and result["rank"] == 3
    assert _move(result, "accept 0")["win"] == 1.0 == result["moves"][result["best"]]["win"]
    assert result["best_move"] != "fold 0" and result["loss"] > 0.5
    accepted = analysed("paulista", FOLD_WON, Action.accept(0))
    assert accepted["mark"] is None and accepted["loss"] == 0.0 and accepted["rank"] == 1


def test_playing_the_losing_card_when_the_winning_one_is_held_is_a_blunder() -> None:
    result = analysed("paulista", LOSING_CARD, Action.play(0, "7d"))
    assert result["best_move"] == "play 0 4c"
    assert result["mark"] == "blunder" and _move(result, "play 0 7d")["win"] == 0.0
    assert result["loss"] > 2 * result["loss_se"] and result["loss"] >= 0.1
    best = analysed("paulista", LOSING_CARD, Action.play(0, "4c"))
    assert best["mark"] is None and best["rank"] == 1 and best["loss"] == 0.0


def test_refusing_the_mao_de_dez_with_the_three_top_manilhas_is_a_blunder() -> None:
    result = analysed("mineiro", MAO_DE_DEZ, Action.decide(0, False))
    assert result["phase"] == "decide" and result["best_move"] == "decide 0 play"
    assert result["mark"] == "blunder" and result["points_loss"] > 0
    played = analysed("mineiro", MAO_DE_DEZ, Action.decide(0, True))
    assert played["mark"] is None and played["rank"] == 1


def test_the_last_card_of_a_hand_marks_nothing() -> None:
    for move in (Action.play(0, "5d"), Action.play(0, "5d", covered=True)):
        result = analysed("paulista", LAST_CARD, move)
        assert len(result["legal"]) == 2 and result["mark"] is None
        assert result["loss"] == 0.0 and result["loss_se"] == 0.0 and result["rank"] == 1
        assert result["hindsight"]["loss"] == 0.0 and result["hindsight"]["mark"] is None


def _swap_hidden(position: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """``position`` with the card ``old`` (in another seat's hand, unseen by seat 0) replaced by
    ``new`` (a card nobody has seen)."""
    p = copy.deepcopy(position)
    for key in ("hands", "dealt"):
        p[key] = [[new if c == old else c for c in cards] for cards in p[key]]
    return p


def test_the_fair_evaluation_reads_only_the_seats_observation() -> None:
    """Other seats' cards changed: the fair evaluation is byte-identical, hindsight is not."""
    before = analysed("paulista", LOSING_CARD, Action.play(0, "7d"))
    other = _swap_hidden(_swap_hidden(LOSING_CARD, "Kd", "5c"), "Jd", "6d")
    after = analysed("paulista", other, Action.play(0, "7d"))
    fair = {k: v for k, v in before.items() if k != "hindsight"}
    assert json.dumps(fair) == json.dumps({k: v for k, v in after.items() if k != "hindsight"})
    # with Kd and Jd held, the 4c loses round 3 too: in hindsight nothing was lost; with 5c and
    # 6d, the partner's Qs takes round 3: the 7d threw the hand away
    assert before["hindsight"]["mark"] is None and after["hindsight"]["mark"] == "blunder"


def test_a_decision_is_the_same_for_a_seed_and_another_with_another() -> None:
    one = analysed("paulista", LOSING_CARD, Action.play(0, "4c"), seed=9, hindsight=False)
    assert one == analysed("paulista", LOSING_CARD, Action.play(0, "4c"), seed=9,
                           hindsight=False)
    assert one["moves"] != analysed("paulista", LOSING_CARD, Action.play(0, "4c"), seed=10,
                                    hindsight=False)["moves"]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


LOG = str(REPO / "replays" / "paulista-seed1.jsonl")
PAULISTA = load_variant("paulista")


def test_analyze_gives_the_same_json_on_any_number_of_processes() -> None:
    code, one, _ = run("analyze", LOG, "--json", "-p", "3", "--hindsight")
    assert code == 0
    assert run("analyze", LOG, "--json", "-p", "3", "--hindsight", "--jobs", "2")[1] == one
    report = json.loads(one)
    assert report["playouts"] == 3 and len(report["decisions"]) == 65
    assert {d["phase"] for d in report["decisions"]} == {"play", "answer"}
    assert all("hindsight" in d for d in report["decisions"])
    assert run("analyze", LOG, "--json", "-p", "3", "--seed", "1")[1] != one


def test_analyze_reports_each_seat_and_its_worst_moves(tmp_path: Path) -> None:
    code, text, _ = run("analyze", LOG, "-p", "6", "--seat", "1")
    assert code == 0
    lines = text.splitlines()
    assert lines[0].startswith(f"Analysis of {LOG} (paulista, seed 1): 17 decisions")
    assert lines[3].startswith("Bia (seat 1, team 1): 17 decisions, accuracy ")
    decided = [i for i, ln in enumerate(lines) if ln.startswith("  line ")]
    assert len(decided) == 17 and all(" seat 1 " in lines[i] for i in decided)
    report = json.loads(run("analyze", LOG, "-p", "6", "--seat", "1", "--json")[1])
    for i, d in zip(decided, report["decisions"], strict=True):  # every move, valued
        assert lines[i + 1].split(" · ")[0].split() == [
            *move_words(d["legal"][0], PAULISTA).split(), f"{d['moves'][0]['win']:.3f}", "±",
            f"{d['moves'][0]['win_se']:.3f}", f"{d['moves'][0]['points']:+.2f}"]
        assert lines[i + 1].count(" · ") == len(d["legal"]) - 1
    out = tmp_path / "a.json"
    assert run("analyze", LOG, "-p", "2", "--json", "-o", str(out))[0] == 0
    assert json.loads(out.read_text(encoding="utf-8"))["analysis"] == 2
    code, _, err = run("analyze", LOG, "-p", "2", "--json", "-o", str(out))
    assert code == 2 and "--force" in err


def test_analyze_refuses_bad_logs_as_verify_words_them() -> None:
    for name in ("checkpoint-mismatch", "after-end", "bad-header"):
        log = REPO / "replays" / "invalid" / f"{name}.jsonl"
        expected = (log.with_suffix(".expected")).read_text(encoding="utf-8").splitlines()[0]
        code, _, err = run("analyze", str(log), "-p", "1")
        assert code == 1 and err == f"truco: {log.parent}/{expected}\n", err
    code, _, err = run("analyze", LOG, "--seat", "4")
    assert code == 2 and "seat 4 is not a seat of paulista (seats 0..3)" in err
    assert run("analyze", "no-such.jsonl")[0] == 2


@pytest.mark.parametrize("module", ["engine.analysis.evaluate", "engine.analysis.judge",
                                    "engine.analysis.walk", "engine.analysis.run",
                                    "engine.analysis.report"])
def test_docstring_examples_run(module: str) -> None:
    result = doctests(module)
    assert result.attempted >= 1 and result.failed == 0


def test_replay_html_takes_the_analysis_of_its_own_log_only(tmp_path: Path) -> None:
    analysis = tmp_path / "a.json"
    assert run("analyze", LOG, "-p", "2", "--json", "-o", str(analysis))[0] == 0
    page = tmp_path / "a.html"
    code, _, err = run("replay", LOG, "--html", str(page), "--analysis", str(analysis))
    assert code == 0, err
    data = json.loads(page.read_text(encoding="utf-8").split(
        '<script id="truco-data" type="application/json">')[1].split("</script>")[0])
    report = json.loads(analysis.read_text(encoding="utf-8"))
    assert sorted(map(int, data["an"]["by_line"])) == [d["line"] for d in report["decisions"]]
    other = str(REPO / "replays" / "paulista-special.jsonl")
    code, _, err = run("replay", other, "--html", str(tmp_path / "b.html"), "--analysis",
                       str(analysis))
    assert code == 1 and "the analysis is of another log: its log_sha256 is " in err
    code, _, err = run("replay", LOG, "--html", str(tmp_path / "c.html"), "--analysis", LOG)
    assert code == 1 and "not JSON" in err
    assert run("replay", LOG, "--analysis", str(analysis))[0] == 2


def test_a_seat_analysed_alone_is_valued_as_among_the_others() -> None:
    every = json.loads(run("analyze", LOG, "--json", "-p", "2")[1])
    alone = json.loads(run("analyze", LOG, "--json", "-p", "2", "--seat", "2")[1])
    assert alone["decisions"] == [d for d in every["decisions"] if d["seat"] == 2]
    assert [s["seat"] for s in alone["seats"]] == [2] and alone["seats"][0] == every["seats"][2]


def test_a_blind_hand_names_cards_by_their_place() -> None:
    """P6 (mão de ferro): the seat does not see its cards, so its moves name places."""
    log = str(REPO / "replays" / "paulista-special.jsonl")
    report = json.loads(run("analyze", log, "--json", "-p", "2", "--hindsight")[1])
    blind = [d for d in report["decisions"] if d["cards"] is None]
    assert blind and all(m.split()[2].startswith("#") for d in blind for m in d["legal"])
    assert all(d["hindsight"]["best_move"] in d["legal"] for d in blind)


def test_the_text_report_names_moves_in_the_tables_words_in_both_languages() -> None:
    """Issue 43: "better raise 1 6" was the log's notation; the report names each move as
    the table does ("seis (raise to 6)"), in the reader's language ("melhor: seis (sobe para
    6)"); its JSON is the same in both."""
    code, text, _ = run("analyze", LOG, "-p", "2", "--seat", "1")
    assert code == 0 and "corro (fold)" in text and " fold 1 " not in text
    code, texto, _ = run("--lang", "pt-BR", "analyze", LOG, "-p", "2", "--seat", "1")
    assert code == 0 and texto.startswith(f"Análise de {LOG} (paulista, semente 1): 17 decisões")
    assert "Bia (lugar 1, dupla 1): 17 decisões, precisão " in texto
    assert "corro (corre)" in texto and "  linha " in texto
    assert (run("--lang", "pt-BR", "analyze", LOG, "-p", "2", "--json")[1]
            == run("analyze", LOG, "-p", "2", "--json")[1])


def test_logs_without_a_seed_do_not_share_their_draws() -> None:
    """Issue 44: the seed of a decision mixes a digest of the log's header in, so two position
    logs (no seed) draw differently at the same line; the same header (keys in any order)
    draws the same."""
    from engine.analysis.run import decision_seed

    first = {"truco_log": 2, "variant": "paulista", "position": FOLD_WON}
    second = {"truco_log": 2, "variant": "paulista", "position": LOSING_CARD}
    assert decision_seed(0, first, 2) != decision_seed(0, second, 2)
    reordered = dict(reversed(list(first.items())))
    assert decision_seed(0, first, 2) == decision_seed(0, reordered, 2)
