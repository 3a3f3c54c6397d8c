"""The ``search`` bot's decisions pinned (issue 31): seeded matches of Paulista, Mineiro and
Gaudério played by search bots (the default budget, and small ones so the file runs in
seconds), each written to its log, must give the logs of tests/snapshots/search/ byte for
byte; and ``truco analyze`` of a replay at a low precision, which guesses and plays out as the
bot does, its JSON report. A change meant only to make the search faster must leave them as
they are (``--snapshot-update`` regenerates them: only for a change meant to play otherwise).

The matches are played as ``truco simulate --logs`` plays them (the same seeds, bots, dealer
and log), through the engine's API only, so the file runs against older revisions too."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

from engine import Match
from engine.analysis.run import analyse
from engine.bots import choose_for, make_bot, next_actor
from engine.bots.determinize import Determinizer
from engine.bots.heuristic import HeuristicBot
from engine.errors import PositionError
from engine.logformat import Recorder
from engine.position import build, build_like
from engine.shuffle import SplitMix64
from engine.simulate import bot_seed, match_seed, play_match, seat_bots
from engine.variant import load_variant

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots" / "search"

#: (variant, bots: one per team or one for every seat, run seed, match index): the matches
#: pinned. ``search`` alone is the default budget.
MATCHES = [
    ("paulista", "search,heuristic", 1, 0),
    ("paulista", "search:16", 2, 1),
    ("paulista", "heuristic,search:12", 5, 0),
    ("mineiro", "search:16,heuristic", 1, 0),
    ("mineiro", "search:10", 4, 1),
    ("gauderio", "search,heuristic", 1, 0),
    ("gauderio", "search:16", 2, 0),
    ("gauderio", "heuristic,search:16", 3, 1),
]


def played_log(variant: str, bots: str, run_seed: int, index: int) -> str:
    """Match ``index`` of ``truco simulate -v VARIANT --bots BOTS --seed RUN_SEED --logs``,
    its log as that writes it."""
    rules = load_variant(variant)
    names = seat_bots(bots.split(","), rules.players, rules.team_of)
    seed = match_seed(run_seed, index)
    match = Match(rules, seed=seed, dealer=index % rules.players)
    players = [make_bot(name, rules, bot_seed(seed, s)) for s, name in enumerate(names)]
    out = io.StringIO()
    recorder = Recorder(match, out, variant=variant, players=names,
                        meta={"tool": "truco simulate", "run_seed": run_seed,
                              "match": index + 1})
    play_match(match, players, recorder=recorder)
    return out.getvalue()


@pytest.mark.parametrize(("variant", "bots", "run_seed", "index"), MATCHES)
def test_search_bot_match_log(snapshot: Any, variant: str, bots: str, run_seed: int,
                              index: int) -> None:
    snapshot.snapshot_dir = SNAPSHOTS
    name = f"{variant}-{bots.replace(',', '-').replace(':', '')}-seed{run_seed}-{index + 1}"
    snapshot.assert_match(played_log(variant, bots, run_seed, index), f"{name}.jsonl")


#: The replays analysed, at 3 playouts a move (with the hindsight values).
ANALYSED = ["paulista-seed1.jsonl", "gauderio-seed1.jsonl", "mineiro-seed1.jsonl"]


def report_lines(report: dict[str, Any]) -> str:
    """An analysis as JSON lines, keys sorted: the report without its decisions, then each
    decision on a line of its own (a diff names the decisions that changed)."""
    head = {k: v for k, v in report.items() if k != "decisions"}
    return "".join(json.dumps(x, sort_keys=True) + "\n"
                   for x in [head, *report["decisions"]])


@pytest.mark.slow  # the search at default settings over three whole logs
@pytest.mark.parametrize("replay", ANALYSED)
def test_analyze_report(snapshot: Any, replay: str) -> None:
    snapshot.snapshot_dir = SNAPSHOTS
    path = REPO / "replays" / replay
    report = analyse(path.read_bytes(), replay, base=path.parent, playouts=3, hindsight=True)
    snapshot.assert_match(report_lines(report),
                          f"analyze-{replay.removesuffix('.jsonl')}-p3.jsonl")


#: Variants whose guesses the engine sometimes refuses (a flor's suits, a cut, a shown card),
#: and some whose guesses it never does.
LAID_OUT = ["paulista", "mineiro", "gauderio", "gauderio-flor-round-1", "cut",
            "truco-de-amostra", "raiser-must-kill", "three-players"]


@pytest.mark.parametrize("variant", LAID_OUT)
def test_guesses_on_a_laid_out_match_are_built_as_positions(variant: str) -> None:
    """engine.position.build_like (a guess's cards placed on a copy of the match the
    observation's first guess built) refuses exactly the guesses build refuses, and makes the
    same match of the others, at every decision of heuristic matches."""
    refused = built = 0
    for seed in range(2):
        m = Match.new(variant, seed=seed)
        bots = [make_bot("heuristic", m.rules, s) for s in range(m.players)]
        judges = [HeuristicBot(m.rules, s) for s in range(m.players)]
        guesser = Determinizer(m.rules, SplitMix64(seed), judges)
        while not m.is_over:
            seat = next_actor(m)
            obs = m.observation(seat)
            laid: Match | None = None
            for _ in range(5):
                guess = guesser.consistent_guess(obs)
                try:
                    whole: Match | None = build(m.rules, guess, trusted=True)
                except PositionError:
                    whole = None
                    refused += 1
                if laid is None:
                    laid = whole.clone() if whole is not None else None
                    continue
                try:
                    placed: Match | None = build_like(laid, guess)
                except PositionError:
                    placed = None
                assert (whole is None) == (placed is None), (variant, seed, guess)
                if whole is None:
                    continue
                assert placed is not None
                built += 1
                assert placed.position() == whole.position()
                assert placed.observation(seat) == whole.observation(seat)
                assert placed.legal_actions() == whole.legal_actions()
            m.apply(choose_for(bots[seat], m, seat))
    assert built > 20
    if variant.startswith(("gauderio", "cut", "truco")):
        assert refused > 0  # the refusals are exercised
