"""Teams from data (issue 11, point 10): the variant's `teams` key maps seats to teams; left
out, partners sit in alternate seats (C1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Match, find_variant, load_variant
from engine.errors import VariantError


def _variant(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "v.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_teams_left_out_are_partners_in_alternate_seats() -> None:
    rules = find_variant("paulista")
    assert rules.team_of == (0, 1, 0, 1) and rules.teams == 2
    assert find_variant("one-on-one").team_of == (0, 1)


def test_teams_listed_map_each_seat_to_its_team(tmp_path: Path) -> None:
    rules = load_variant(_variant(tmp_path, "extends: paulista\nteams: [[1, 3], [0, 2]]\n"))
    assert rules.team_of == (1, 0, 1, 0) and rules.teams == 2
    # the same seats as the default, listed: a different rule set (the caches keep them apart)
    assert rules != find_variant("paulista")


def test_a_score_has_one_entry_per_team(tmp_path: Path) -> None:
    path = _variant(tmp_path, "extends: paulista\nplayers: 3\nteams: [[0], [1], [2]]\n")
    rules = load_variant(path)
    assert rules.team_of == (0, 1, 2) and rules.teams == 3
    m = Match.new(load_variant(_variant(tmp_path, "extends: one-on-one\nteams: [[1], [0]]\n")),
                  seed=1)
    assert m.score == [0, 0] and m.games == [0, 0]


@pytest.mark.parametrize(("teams", "message"), [
    ("[[0, 1], [2, 4]]", "teams[1][1]: expected a seat 0..3, found 4"),
    ("[[0, 1], [1, 2, 3]]", "teams[1][0]: seat 1 is in team 0 already"),
    ("[[0], [2]]", "teams: every seat plays for a team: seats 1, 3 are in none"),
    ("[[0, 1, 2, 3]]", "teams: expected at least 2 item(s)"),
])
def test_teams_that_do_not_seat_everyone_once_are_refused(tmp_path: Path, teams: str,
                                                          message: str) -> None:
    with pytest.raises(VariantError) as info:
        load_variant(_variant(tmp_path, f"extends: paulista\nteams: {teams}\n"))
    assert message in str(info.value)


def test_an_odd_table_needs_its_teams(tmp_path: Path) -> None:
    with pytest.raises(VariantError, match="3 players cannot sit as two teams in alternate "
                                           "seats: expected teams"):
        load_variant(_variant(tmp_path, "extends: paulista\nplayers: 3\n"))
