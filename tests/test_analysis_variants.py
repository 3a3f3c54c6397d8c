"""``truco analyze`` on every shipped variant, house rules included (issue 30): a match of
heuristic bots analysed whole, every decision valued, whatever its kind (cards, raises,
answers, side bets, special hands)."""

from __future__ import annotations

import io
from collections import Counter

import pytest

from engine import Match
from engine.analysis import analyse
from engine.bots import make_bot
from engine.logformat import Recorder
from engine.resources import shipped_variants
from engine.simulate import play_match


def _log(variant: str, seed: int) -> bytes:
    m = Match.new(variant, seed=seed)
    out = io.StringIO()
    rec = Recorder(m, out, variant=variant)
    play_match(m, [make_bot("heuristic", m.rules, seed=s) for s in range(m.rules.players)],
               recorder=rec)
    return out.getvalue().encode()


NAMES = sorted(shipped_variants())
SEEN: Counter[str] = Counter()


@pytest.mark.parametrize("variant", NAMES)
def test_every_decision_of_a_match_is_valued(variant: str) -> None:
    report = analyse(_log(variant, 11), f"{variant}.jsonl", playouts=8)
    assert report["complete"] and report["decisions"]
    for d in report["decisions"]:
        assert d["samples"] > 0, (d["line"], d["played"])
        assert d["best_move"] in d["legal"] and 1 <= d["rank"] <= len(d["legal"])
        assert d["loss"] >= 0 and (d["mark"] is None or d["loss"] > 2 * d["loss_se"])
        SEEN[d["phase"]] += 1
        SEEN[d["played"].split()[0]] += 1


def test_the_matches_had_every_kind_of_decision() -> None:
    """After the matches above (in this order): side bets, special hands and raises among the
    decisions valued, not cards only."""
    if not SEEN:
        pytest.fail("run the whole file: the matches above count the kinds")
    for kind in ("play", "answer", "bet_answer", "decide", "raise", "accept", "fold", "envido",
                 "quero", "nao_quero"):
        assert SEEN[kind] > 0, (kind, SEEN)


def test_the_readme_excerpt_is_what_analyze_prints() -> None:
    """The README's analysed game (issue 30) at the default precision: its lines are the
    report's, and docs/analysis.png is there beside it."""
    from conftest import REPO

    from engine.analysis.report import text_report
    from engine.variant import load_variant

    log = REPO / "replays" / "paulista-seed1.jsonl"
    report = text_report(analyse(log.read_bytes(), "replays/paulista-seed1.jsonl"),
                         load_variant("paulista"))  # as truco analyze: the table's words
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    excerpt = readme.split("## Analyse a game")[1].split("```text\n")[1].split("```")[0]
    shown = [ln for ln in excerpt.splitlines() if ln.strip() != "..."]
    assert len(shown) == 4 and all(ln in report.splitlines() for ln in shown), shown
    at = report.splitlines().index(shown[2])
    assert report.splitlines()[at + 1] == shown[3]
    assert "(docs/analysis.png)" in readme and (REPO / "docs" / "analysis.png").is_file()
