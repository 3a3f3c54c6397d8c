"""The HTML pages (engine.viewer), Python side: every shipped and house variant's seeded log
renders; each step's table is the engine's and each seat's view hides what the engine's
observation hides; an invalid log renders up to its first bad line; the pages are
self-contained and small; the CLI's --html flags. What a person sees in a browser:
tests/test_viewer_browser.py."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from helpers import doctests
from hypothesis import given
from hypothesis import strategies as st

from engine import Match
from engine.cli import main
from engine.logformat import Recorder, record_random
from engine.observation import Observation
from engine.resources import shipped_variants
from engine.simulate import run_simulation
from engine.viewer import replay_page, simulate_page
from engine.viewer.steps import OWN_KEYS, StepBuilder, build_steps, delta, undelta
from tests.conftest import REPO

SIX = "name: six\ntitle: Six players\nextends: paulista\nplayers: 6\n"


def _payload(page: str) -> dict[str, Any]:
    found = re.search(r'<script id="truco-data" type="application/json">(.*?)</script>', page,
                      re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def _external(page: str) -> list[str]:
    """Anything in a page that would reach the network."""
    page = page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    return re.findall(r"(?:https?:|//[a-z]|@import|url\(|<link|src=)", page)


def visible(step: dict[str, Any], seat: int) -> set[str]:
    """The cards a seat's view shows face up at a step: the page's rule (viewer.js) in
    Python, read from the step's ``ov``."""
    own, partners, hidden, pending_card = step["ov"][seat][:4]
    cards = set()
    for s, hand in enumerate(step["hs"]):
        if (s == seat and own) or s in partners:
            cards |= set(hand)
    cards |= {p[2] for i, p in enumerate(step["pl"]) if i not in hidden}
    cards |= {c for _, c in step["sh"]}
    cards |= {c for _, shown, _ in step.get("ss", []) for c in shown}  # a side bet's (G32)
    if step["pr"] is not None and step["pr"][3] is not None and pending_card:
        cards.add(step["pr"][3])
    return cards


def known(obs: Observation, played: list[Any]) -> set[str]:
    """The cards an observation lets its seat know (the vira and manilhas aside)."""
    cards = set(obs["hand"] or [])
    for hand in (obs["partner_hands"] or {}).values():
        cards |= set(hand)
    cards |= {p["card"] for p in played if p["card"] is not None}
    cards |= {x["card"] for x in obs["shown"]}
    pending = obs["pending_raise"]
    if pending is not None and "card" in pending:
        cards.add(pending["card"])
    return cards


class _Watched(StepBuilder):
    """A step builder that keeps, with every step, every seat's observation then."""

    def __init__(self) -> None:
        super().__init__()
        self.observed: list[list[Observation]] = []

    def hand(self, match: Match, deal: Any) -> None:
        super().hand(match, deal)
        self.observed.append([match.observation(s) for s in range(match.players)])

    def move(self, item: Any, action: Any, match: Match, checkpoints: Any) -> None:
        super().move(item, action, match, checkpoints)
        self.observed.append([match.observation(s) for s in range(match.players)])


def _logs() -> list[tuple[str, bytes]]:
    logs = [(f"{name}-seed{seed}", record_random(name, seed).encode())
            for name in sorted(shipped_variants()) for seed in (1, 2)]
    logs += [(p.name, p.read_bytes()) for p in sorted((REPO / "replays").glob("*.jsonl"))]
    return logs


@pytest.mark.parametrize("name", sorted(shipped_variants()))
def test_every_shipped_and_house_variant_s_seeded_log_renders(name: str) -> None:
    for seed in (1, 2, 3):
        for kind in ({}, {"deals": True}, {"unseeded": True}):
            log = record_random(name, seed, **kind).encode()  # type: ignore[arg-type]
            page, problem = replay_page(log, f"{name}.jsonl")
            assert problem is None
            steps = undelta(_payload(page)["steps"])
            assert steps[0]["k"] == "deal" and all(s["k"] != "error" for s in steps)
            assert _external(page) == []


def test_six_seats_render(tmp_path: Path) -> None:
    (tmp_path / "six.yaml").write_text(SIX, encoding="utf-8")
    log = record_random(tmp_path / "six.yaml", 3, log_dir=tmp_path).encode()
    page, problem = replay_page(log, "six.jsonl", base=tmp_path)
    data = _payload(page)
    assert problem is None and data["info"]["players"] == 6
    assert data["info"]["names"] == [f"Seat {s}" for s in range(6)]
    assert all(len(s["hs"]) == 6 for s in undelta(data["steps"]))


def test_a_log_from_a_position_version_2_renders() -> None:
    m = Match.new("paulista", seed=7)
    for _ in range(5):
        m.apply(m.legal_actions()[0])
    start = Match.from_position("paulista", m.position())
    out = __import__("io").StringIO()
    rec = Recorder(start, out, variant="paulista")
    while not start.is_over:
        rec.apply(start.legal_actions()[-1])
    log = out.getvalue().encode()
    assert json.loads(log.splitlines()[0])["truco_log"] == 2
    page, problem = replay_page(log, "pos.jsonl")
    steps = undelta(_payload(page)["steps"])
    assert problem is None
    assert "from a position" in steps[0]["tx"] and len(steps[0]["pl"]) == 5


def test_each_step_is_the_engine_s_table_and_each_seat_sees_what_its_observation_shows(
) -> None:
    for name, log in _logs():
        builder = _Watched()
        from engine.replay import replay

        replay(log, name, builder)
        steps = undelta(delta(builder.steps))
        # the page gets back exactly what was built (a step's own empty keys left out)
        assert steps == [{k: v for k, v in s.items()
                          if not (k in OWN_KEYS and v in (None, [], ""))}
                         for s in builder.steps], name
        assert len(builder.observed) == len(steps)
        before: list[Observation] | None = None
        for step, observed in zip(steps, builder.observed, strict=True):
            for seat, obs in enumerate(observed):
                last = obs["last_hand"]
                if step.get("end") and last is not None and last["hand_number"] == step["n"]:
                    # a hand just ended, the next one dealt: the ended hand as the seat saw it
                    assert before is not None
                    allowed = set(before[seat]["hand"] or []) | {
                        p["card"] for p in last["played"] if p["card"] is not None} | {
                        x["card"] for x in last["shown"]}
                    assert visible(step, seat) <= allowed, (name, seat, step["tx"])
                    assert {p["card"] for p in last["played"] if p["card"] is not None} <= \
                        visible(step, seat)
                    continue
                assert visible(step, seat) <= known(obs, obs["played"]), (name, seat, step)
                assert known(obs, obs["played"]) <= visible(step, seat), (name, seat, step)
                if not step.get("end"):
                    assert step["sc"] == obs["score"] and step["v"] == obs["value"]
                    assert step["t"] == obs["turn"] and step["ph"] == obs["phase"]
            before = observed


def test_a_covered_card_and_a_raise_s_named_card_are_hidden_in_the_words_too() -> None:
    page, _ = replay_page((REPO / "replays" / "paulista-special.jsonl").read_bytes(), "p.jsonl")
    steps = undelta(_payload(page)["steps"])
    covered = [s for s in steps if "coberta" in s.get("tx", "") and s["k"] == "move"]
    assert covered and all(s["tm"].endswith("a card face down (coberta)") for s in covered)
    for s in covered:
        seat = s["pl"][-1][1] if s["pl"] else None
        views = [v[4] for v in s["ov"]]
        # only its player sees it; not even he in a blind hand (P6): played unseen
        assert views == [int(x == seat and not s["bl"]) for x in range(4)]
    assert any(s["bl"] for s in covered)
    page, _ = replay_page((REPO / "replays" / "mineiro-seed1.jsonl").read_bytes(), "m.jsonl")
    steps = undelta(_payload(page)["steps"])
    named = [s for s in steps if s.get("tm", "").endswith("with a card")]
    assert named
    for s in named:
        raiser = s["pr"][0] if s["pr"] else None
        if raiser is not None:
            assert [v[3] for v in s["ov"]] == [int(x == raiser) for x in range(4)]


def test_an_invalid_log_renders_up_to_its_first_bad_line_with_the_error_there() -> None:
    path = REPO / "replays" / "invalid" / "illegal-move.jsonl"
    page, problem = replay_page(path.read_bytes(), "bad.jsonl")
    assert problem is not None and problem.line == 3
    steps = undelta(_payload(page)["steps"])
    assert steps[-1]["k"] == "error" and steps[-1]["ln"] == 3
    assert "illegal move [not_your_turn]" in steps[-1]["tx"]
    assert all(s["k"] != "error" for s in steps[:-1]) and len(steps) >= 2


def test_a_log_whose_header_is_bad_still_gives_a_page() -> None:
    page, problem = replay_page(b'{"truco_log": 1, "variant": "nope", "seed": 1}\n', "x.jsonl")
    assert problem is not None
    steps = _payload(page)["steps"]
    assert [s["k"] for s in steps] == ["error"] and "unknown variant" in steps[0]["tx"]


def test_a_whole_paulista_match_page_is_well_under_200_kb() -> None:
    for seed in range(1, 6):
        log = record_random("paulista", seed).encode()
        page, _ = replay_page(log, "p.jsonl")
        assert len(page.encode()) < 120_000, seed


def test_the_script_is_not_ended_by_a_player_s_name() -> None:
    header = {"truco_log": 1, "variant": "paulista", "seed": 7,
              "players": ["</script><script>alert(1)</script>", "B", "C", "D"]}
    page, _ = replay_page((json.dumps(header) + "\n").encode(), "x.jsonl")
    assert page.count("</script>") == page.count("<script") == 4  # the page's own scripts only
    assert _payload(page)["info"]["names"][0].startswith("</script>")


def test_replay_html_writes_the_page_and_refuses_what_it_must(tmp_path: Path) -> None:
    runner = CliRunner()
    log = str(REPO / "replays" / "paulista-seed1.jsonl")
    out = tmp_path / "a.html"
    r = runner.invoke(main, ["replay", log, "--html", str(out)])
    assert r.exit_code == 0 and out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    r = runner.invoke(main, ["replay", log, "--html", str(out)])
    assert r.exit_code == 2 and "--force" in r.output
    assert runner.invoke(main, ["replay", log, "--html", str(out), "--force"]).exit_code == 0
    r = runner.invoke(main, ["replay", log, "--html", str(tmp_path / "b.html"), "--checkpoints"])
    assert r.exit_code == 2 and not (tmp_path / "b.html").exists()
    bad = str(REPO / "replays" / "invalid" / "illegal-move.jsonl")
    r = runner.invoke(main, ["replay", bad, "--html", str(tmp_path / "c.html")])
    assert r.exit_code == 1 and "illegal-move.jsonl:3: illegal move" in r.output
    assert "Traceback" not in r.output and (tmp_path / "c.html").exists()
    r = runner.invoke(main, ["replay", log, "--html", str(tmp_path / "no" / "d.html")])
    assert r.exit_code == 1 and "cannot write" in r.output and "Traceback" not in r.output


def test_simulate_and_compare_html_draw_the_statistics(tmp_path: Path) -> None:
    runner = CliRunner()
    page = tmp_path / "s.html"
    r = runner.invoke(main, ["simulate", "-v", "paulista", "-n", "6", "--html", str(page)])
    assert r.exit_code == 0, r.output
    text = page.read_text(encoding="utf-8")
    assert text.count("<svg") >= 4 and "match win rate" in text and _external(text) == []
    assert "truco (3)" in text and "mão de onze" in text
    assert runner.invoke(main, ["simulate", "-v", "paulista", "-n", "2", "--html",
                                str(page)]).exit_code == 2
    cmp = tmp_path / "c.html"
    r = runner.invoke(main, ["compare", "paulista", "concede", "-n", "6", "--html", str(cmp)])
    assert r.exit_code in (0, 1), r.output
    text = cmp.read_text(encoding="utf-8")
    assert "paulista vs concede" in text and text.count("<svg") >= 4 and _external(text) == []
    r = runner.invoke(main, ["compare", "paulista", "concede", "--logs",
                             str(REPO / "replays"), "--html", str(tmp_path / "d.html")])
    assert r.exit_code == 2 and "--matches" in r.output


def test_the_statistics_page_of_a_variant_without_special_hands_and_three_teams() -> None:
    for variant in ("three-players", "one-on-one", "concede"):
        stats = run_simulation(variant, games=3, seed=2, bots=["random"])
        page = simulate_page(stats)
        assert page.count("<svg") >= 4 and _external(page) == []


def test_build_steps_of_a_log_that_ends_early_is_valid() -> None:
    log = (REPO / "replays" / "invalid" / "incomplete.jsonl").read_bytes()
    builder, problem = build_steps(log, "i.jsonl")
    assert problem is None and builder.steps[-1]["k"] == "move"


@pytest.mark.parametrize("module", ["engine.viewer", "engine.viewer.charts"])
def test_the_viewer_s_examples_run(module: str) -> None:

    result = doctests(module)
    assert result.attempted > 0 and result.failed == 0


def test_the_readme_shows_the_viewer_s_picture_and_its_commands() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## See a game", 1)[1].split("\n## ", 1)[0]
    assert "](docs/viewer.png)" in section and (REPO / "docs" / "viewer.png").is_file()
    assert "truco replay" in section and "--html" in section
    assert "docs/make_screenshot.py" in section


def test_player_names_come_from_the_header_or_its_meta_else_seat_numbers() -> None:
    header = {"truco_log": 1, "variant": "paulista", "seed": 7, "meta": {"players": ["Ana", "Bia"]}}
    log = (json.dumps(header) + "\n" + '{"event": "play", "seat": 1, "card": "2h"}\n').encode()
    builder, problem = build_steps(log, "x.jsonl")
    assert problem is None and builder.info["names"] == ["Ana", "Bia", "Seat 2", "Seat 3"]
    assert builder.steps[-1]["tx"] == "Bia plays 2♥"
    assert "team 0 (Ana, Seat 2)" in builder.info["lines"][1]
    builder, _ = build_steps((json.dumps({**header, "meta": {}}) + "\n").encode(), "x.jsonl")
    assert builder.info["names"] == ["Seat 0", "Seat 1", "Seat 2", "Seat 3"]
    assert [s["k"] for s in builder.steps] == ["deal"]  # a header alone: the match as it starts


def test_the_manilhas_are_listed_strongest_first_in_the_middle_and_the_move_list() -> None:
    from engine.cards import parse_card
    from engine.game import resolve_rules

    for log in ("paulista-seed1.jsonl", "mineiro-seed1.jsonl", "gauderio-seed1.jsonl"):
        page, _ = replay_page((REPO / "replays" / log).read_bytes(), log)
        steps = undelta(_payload(page)["steps"])
        rules = resolve_rules(log.split("-")[0])
        for step in steps:
            vira = parse_card(step["vi"]) if step["vi"] else None
            strength = rules.strengths(vira)
            ranks = [strength[parse_card(c)] for c in step["ma"]]
            assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == len(ranks), log
        deals = [s for s in steps if s["k"] == "deal"]
        assert all(any(c.endswith("(strongest first)") for c in s["cp"]) for s in deals)
        assert not any("weakest first" in c for s in steps for c in s.get("cp", []))


def test_an_error_names_the_players_as_the_log_s_header_does() -> None:
    page, _ = replay_page((REPO / "replays" / "invalid" / "illegal-move.jsonl").read_bytes(),
                          "bad.jsonl")
    error = undelta(_payload(page)["steps"])[-1]
    assert "illegal move [not_your_turn]" in error["tx"] and "it is Caio's turn" in error["tx"]
    assert "seat 2's" not in error["tx"]
    from engine.viewer.steps import named

    assert named("seat 1 and seat 5; seat 0's", ["Ana", "Bia", "Seat 2"]) == \
        "Bia (seat 1) and seat 5; Ana's"


@given(st.floats(min_value=1e-6, max_value=1e7, allow_nan=False))
def test_chart_ticks_are_round_numbers_from_0_that_cover_the_values(high: float) -> None:
    from engine.viewer.charts import ticks

    scale = ticks(high)
    step = scale[1]
    assert scale[0] == 0 and scale[-1] >= high * (1 - 1e-9) and 2 <= len(scale) <= 7
    assert all(abs(b - a - step) <= 1e-9 * max(1.0, step)
               for a, b in zip(scale, scale[1:], strict=False))
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert any(abs(mantissa - m) < 1e-6 for m in (1, 2, 2.5, 5)), step
    assert scale[-2] < high  # no empty interval at the end


def _gauderio_logs() -> list[tuple[str, bytes]]:
    logs = [("gauderio-seed1", (REPO / "replays" / "gauderio-seed1.jsonl").read_bytes())]
    logs += [(f"{v}-{seed}", record_random(v, seed).encode())
             for v in ("gauderio", "gauderio-flor-argentina", "gauderio-envido-at-end")
             for seed in (1, 2, 3)]
    return logs


def test_the_side_bets_on_the_table_are_the_engine_s() -> None:
    """G22-G41: each step's side bets (``sb``) are what every seat's observation says of them
    (the calls, the caller, waiting for an answer, settled, the winner, the points, who
    declared what), each seat's own points its observation's; the cards the winners show
    are the log's ``side_show`` checkpoints (``ss``), apart from the cards shown with a raise
    (``sh``)."""
    from engine.replay import replay

    words = set()
    for name, log in _gauderio_logs():
        builder = _Watched()
        replay(log, name, builder)
        shows = 0
        for step, observed in zip(builder.steps, builder.observed, strict=True):
            words |= {b[3] for b in step["sb"]}
            shows += len(step["ss"])
            for cards in step["ss"]:
                assert cards[2] in ("envido", "flor") and step["end"], (name, step)
            if step.get("end"):
                continue
            for seat, obs in enumerate(observed):
                assert step["ov"][seat][6] == [b["my_points"] for b in obs["side_bets"]]
                for b, seen in zip(step["sb"], obs["side_bets"], strict=True):
                    bet, calls, caller, word, winner, points, said, sung = b
                    assert (bet, calls, caller) == (seen["bet"], seen["calls"], seen["caller"])
                    assert (word == "waits") == seen["pending"], (name, step["tx"])
                    assert (word in ("accepted", "refused", "sung", "conceded")) == \
                        (seen["settled"] and word != "killed")
                    if seen["settled"]:
                        assert (winner, points) == (seen["winner"], seen["points"])
                    assert said == [[d["seat"], d["points"]] for d in seen["declared"]]
                    assert sung == seen.get("sung", [])
        if name == "gauderio-seed1":
            assert shows >= 2
    assert {"", "waits", "accepted", "refused", "sung", "killed"} <= words, words


def test_who_must_act_is_the_engine_s_and_a_singer_is_known_to_himself_only() -> None:
    """During a pending raise, a side bet's call, a special hand's decision or a song, ``ac``
    is the seats the engine lets move; a seat's view (``ov[5]``) names them too, but for a
    flor to sing (who holds one nobody else knows before he sings, G35): only the singer
    sees that he must."""
    from engine.replay import replay

    phases = set()
    for name, log in [*_gauderio_logs(), ("mineiro-special", (
            REPO / "replays" / "mineiro-special.jsonl").read_bytes()), (
            "paulista-special", (REPO / "replays" / "paulista-special.jsonl").read_bytes())]:
        builder = _Watched()
        replay(log, name, builder)
        for step, observed in zip(builder.steps, builder.observed, strict=True):
            if step.get("end") or step["ph"] == "play":
                assert step["ac"] is None or step["ph"] != "play"
                continue
            legal = [s for s, o in enumerate(observed) if o["legal"]]
            assert step["ac"] == (legal or None), (name, step["tx"])
            phases.add(step["ph"])
            for seat in range(len(observed)):
                seen = step["ov"][seat][5]
                if step["ph"] == "sing":
                    assert seen == [s for s in legal if s == seat]
                else:
                    assert seen == step["ac"]
    assert {"answer", "bet_answer", "decide", "sing"} <= phases, phases


def test_the_gauderio_statistics_page_charts_the_side_bets(tmp_path: Path) -> None:
    page = tmp_path / "g.html"
    r = CliRunner().invoke(main, ["simulate", "-v", "gauderio", "-n", "6", "--html", str(page)])
    assert r.exit_code == 0, r.output
    text = page.read_text(encoding="utf-8")
    for title in ("Side bets: how often", "Side bets: rates", "Side bets: points",
                  "Side bets: every figure"):
        assert f"<h2>{title}</h2>" in text
    charts = re.findall(r'<svg [^>]*aria-label="side bets[^"]*"', text)
    assert len(charts) == 3 and _external(text) == []
    stats = run_simulation("gauderio", games=6, seed=1, bots=["heuristic"])
    for bet in stats["side_bets"]:  # each bet's count of calls is drawn
        assert f"<title>called: {bet['called']}</title>" in simulate_page(stats)
    plain = simulate_page(run_simulation("paulista", games=2, seed=1, bots=["random"]))
    assert "Side bets" not in plain
