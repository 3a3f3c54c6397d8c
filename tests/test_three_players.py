"""Three players each for himself (issue 11, teams from data): the house variant
`three-players` (Paulista with players: 3, teams: [[0], [1], [2]], a raise answered by the next
seat, no special hands), tested by rule on explicit deals."""

from __future__ import annotations

from helpers import act, assert_illegal, deal, legal, match, of, rounds

from engine import find_variant
from engine.simulate import run_simulation

# Paulista's strengths, vira 7c: the Qs are manilhas (none dealt), then 3 > 2 > A > K > J > ... > 4.
SPLIT = "4c 5c 3c | 3d 4d 5d | 4h 2h 5h"  # rounds won by seat 1, then seat 2, then seat 0


def test_three_players_each_seat_is_its_own_team() -> None:
    rules = find_variant("three-players")
    assert rules.players == 3 and rules.teams == 3 and rules.team_of == (0, 1, 2)
    m = match("three-players", deal(0, "4c 5c 6c | 3d 2d Ad | Kd Jd 4d", "7c"))
    assert m.score == [0, 0, 0] and m.turn == 1  # seat 1, after the dealer, is the mão
    events = act(m, "play 1 3d", "play 2 Kd", "play 0 4c", "play 1 2d", "play 2 Jd")
    assert rounds(events) == [1]
    events = act(m, "play 0 5c")
    assert rounds(events) == [1]
    assert of(events, "hand") == [{"event": "hand", "winner": 1, "points": 1,
                                   "score": [0, 1, 0]}]
    assert m.observation(2)["score"] == [0, 1, 0] and m.observation(2)["team"] == 2


def test_three_players_a_raise_is_answered_by_the_next_seat_only() -> None:
    m = match("three-players", deal(0, "4c 5c 6c | 3d 2d Ad | Kd Jd 4d", "7c"))
    act(m, "raise 1 3")
    assert legal(m) == ["accept 2", "fold 2", "raise 2 6"]
    assert_illegal(m, "accept 0", "seat 2")
    events = act(m, "fold 2")
    assert of(events, "hand") == [{"event": "hand", "winner": 1, "points": 1,
                                   "score": [0, 1, 0]}]


def test_three_players_a_round_each_goes_to_the_first_round_won() -> None:
    """Three rounds, one won by each player: no majority; the hand goes to the team that won
    a round first (C7 generalised), seat 1 here. Round 3 was still needed: either of the two
    who had won a round could have taken the hand with it."""
    m = match("three-players", deal(0, SPLIT, "7c"))
    first = act(m, "play 1 3d", "play 2 4h", "play 0 4c", "play 1 4d", "play 2 2h", "play 0 5c")
    assert rounds(first) == [1, 2] and not of(first, "hand")
    last = act(m, "play 2 5h", "play 0 3c", "play 1 5d")
    assert rounds(last) == [0]
    assert of(last, "hand")[0]["winner"] == 1 and m.score == [0, 1, 0]


def test_three_players_a_simulation_scores_three_teams() -> None:
    stats = run_simulation("three-players", games=30, seed=1, bots=["heuristic"])
    assert [t["team"] for t in stats["teams"]] == [0, 1, 2]
    assert [t["seats"] for t in stats["teams"]] == [[0], [1], [2]]
    assert sum(t["matches_won"] for t in stats["teams"]) == 30


def test_three_players_logs_are_version_2_and_a_version_1_header_is_refused() -> None:
    from engine.logformat import record_random
    from engine.replay import verify_bytes

    text = record_random("three-players", 3)
    header, *events = text.splitlines()
    assert '"truco_log": 2' in header
    assert any('"score": [' in e and e.count(",") >= 5 for e in events)  # three entries
    assert verify_bytes(text.encode(), "3p.jsonl").valid
    old = "\n".join([header.replace('"truco_log": 2', '"truco_log": 1'), *events]) + "\n"
    result = verify_bytes(old.encode(), "3p.jsonl")
    assert not result.valid
    assert "this variant has 3 teams, whose scores need log format version 2" in str(
        result.problems[0])
