"""Obligations a raise cannot dodge (``obligations.named_card: obliged``, issue 42): the house
variant ``mineiro-highest-after-tie``, where a raise that names its card (M4) names the card
the play obligations would have its raiser play next, so that it cannot bind him to a low
one (docs/rules.md, "Obligations a raise cannot dodge")."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from conftest import WriteFile
from helpers import act, assert_illegal, assert_random_logs_verify, deal, legal, match

from engine import Match
from engine.actions import Action
from engine.errors import VariantError
from engine.logformat import Recorder
from engine.replay import verify_file
from engine.variant import load_variant

V = "mineiro-highest-after-tie"
#: Dealer 0 (seat 1 leads): round 1 ties with four 5s; seat 1's highest card left is 3d.
TIED = deal(0, "5c 6c Kc | 5d 3d 6d | 5h 6h Kh | 5s 6s Ks")
ROUND_1 = ("play 1 5d", "play 2 5h", "play 3 5s", "play 0 5c")


def _free(write: WriteFile) -> Path:
    """The variant with M4 as written: a raise names any card held."""
    return write("free.yaml", f"extends: {V}\nobligations:\n  named_card: free\n")


def _raises(m: Match, seat: int) -> list[str]:
    return [a for a in legal(m, seat) if a.startswith("raise")]


def test_mineiro_highest_after_tie_a_raise_naming_a_low_card_is_refused(
        write: WriteFile) -> None:
    dodge = match(_free(write), TIED)
    act(dodge, *ROUND_1)
    act(dodge, "raise 1 3 6d", "accept 2", "play 0 Kc")  # M4 as written: bound to his 6d
    assert legal(dodge, 1) == ["play 1 6d"]
    m = match(V, TIED)
    act(m, *ROUND_1)
    assert _raises(m, 1) == ["raise 1 3 3d"]
    refused = assert_illegal(m, "raise 1 3 6d", "names 6d", "play.highest_after_tied_first",
                             "obligations.named_card")
    assert refused.code == "named_card_obliged"
    act(m, "raise 1 3 3d", "accept 2", "play 0 Kc")
    assert legal(m, 1) == ["play 1 3d"]


def test_mineiro_highest_after_tie_the_one_who_tied_leads_with_his_highest() -> None:
    m = match(V, TIED)
    act(m, *ROUND_1)  # seat 0's 5c tied the round last: he leads round 2
    assert m.turn == 0 and [a for a in legal(m, 0) if a.startswith("play")] == ["play 0 Kc"]


def test_mineiro_highest_after_tie_round_1_not_over_may_still_tie() -> None:
    """A seat that has played his card of round 1 names a card for round 2: while round 1 may
    still tie, his highest; before his card of round 1, any card (it is his round-1 card)."""
    m = match(V, TIED)
    assert "raise 2 3 5h" in _raises(m, 2)  # his round-1 card: free
    act(m, "play 1 5d")
    assert _raises(m, 1) == ["raise 1 3 3d"]
    assert assert_illegal(m, "raise 1 3 6d", "his highest").code == "named_card_obliged"
    won = match(V, deal(0, "5c 6c Kc | 2d 3d 6d | 5h 6h Kh | 5s 6s Ks"))
    act(won, "play 1 2d", "play 2 5h", "play 3 5s", "play 0 5c")  # round 1 won: no obligation
    assert _raises(won, 1) == ["raise 1 3 3d", "raise 1 3 6d"]


def test_mineiro_highest_after_tie_a_bound_card_is_named_again() -> None:
    """M4: a raiser bound by his accepted raise names that card again (it is his highest)."""
    m = match(V, TIED)
    act(m, *ROUND_1, "raise 1 3 3d", "accept 2", "play 0 Kc")
    act(m, "raise 2 6 Kh")
    assert _raises(m, 1) == ["raise 1 9 3d"]


def test_mineiro_highest_after_tie_a_seat_with_no_card_left_names_none() -> None:
    """Round 3 after a tied round 1: the seats that have played their last card have no raise
    (M4), the others name their last card."""
    m = match(V, deal(0, "5c Kc 6c | 5d Kd 6d | 5h Kh 6h | 5s Ks 6s"))
    act(m, *ROUND_1, "play 0 Kc", "play 1 Kd", "play 2 Kh", "play 3 Ks")  # round 2 tied
    act(m, "play 3 6s")  # seat 3 leads round 3: he tied round 2 last
    assert _raises(m, 3) == [] and _raises(m, 0) == ["raise 0 3 6c"]


def test_raiser_must_kill_a_raise_against_the_table_names_a_card_that_beats_it(
        write: WriteFile) -> None:
    path = write("kill.yaml", "extends: mineiro\nplay:\n  raiser_must_kill: true\n"
                 "obligations:\n  named_card: obliged\n")
    m = match(path, deal(0, "5c 6c Kc | 5d 3d 6d | 5h 7h Kh | 5s 6s Ks"))
    act(m, "play 1 3d")  # only seat 2's 7h (copas, a manilha) beats it
    assert _raises(m, 2) == ["raise 2 3 7h"]
    refused = assert_illegal(m, "raise 2 3 Kh", "beats the table", "play.raiser_must_kill")
    assert refused.code == "named_card_obliged"
    assert len(_raises(m, 0)) == 3  # seat 0 holds nothing that beats it: any card
    assert len(_raises(m, 3)) == 3  # his partner's card: nothing to beat


def test_truco_verify_rejects_a_log_that_dodges_the_obligation(
        write: WriteFile, tmp_path: Path) -> None:
    """A log whose raise names a low card after a tied first round (played under M4 as
    written, headed as the house variant) fails at that raise, with its rule's code."""
    m = Match(load_variant(_free(write)), seed=None, dealer=0)
    out = io.StringIO()
    rec = Recorder(m, out, variant=V, fingerprint=False)
    rec.deal(TIED)
    for move in (*ROUND_1, "raise 1 3 6d", "accept 2", "play 0 Kc", "play 1 6d"):
        rec.apply(Action.parse(move))
    path = tmp_path / "dodge.jsonl"
    path.write_text(out.getvalue(), encoding="utf-8")
    problems = verify_file(path).problems
    assert problems and problems[0].line == 8, problems  # after the header, deal, 4 plays, round
    assert "named_card_obliged" in str(problems[0]) and "raise 1 3 6d" in str(problems[0])


def test_mineiro_highest_after_tie_is_logged_and_verified(tmp_path: Path) -> None:
    assert_random_logs_verify(V, tmp_path)


@pytest.mark.parametrize(("text", "says"), [
    ("extends: highest-after-tied-first\n", "expected betting.name_card: true"),
    ("extends: mineiro\n", "expected play.highest_after_tied_first or play.raiser_must_kill"),
])
def test_obliged_named_card_with_nothing_to_bind_is_refused(write: WriteFile, text: str,
                                                            says: str) -> None:
    path = write("obliged.yaml", text + "obligations:\n  named_card: obliged\n")
    with pytest.raises(VariantError, match=says):
        load_variant(path)
