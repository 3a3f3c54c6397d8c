"""Who acts for a team, and conceding the hand (issue 11, points 2 and 3): the house variants
`concede`, `next-seat-answers`, `both-refuse` and `no-raise-back`, and the keys behind them
(`concede.*`, `betting.answered_by`, `betting.refusal`, `betting.raise_back`), each tested by
rule on explicit deals against the variant it extends."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import WriteFile
from helpers import act, assert_illegal, deal, legal, match, score_to

from engine import Action, find_variant, load_variant
from engine.cli import main
from engine.errors import VariantError
from engine.logformat import record_random
from engine.replay import verify_file
from engine.simulate import run_simulation

EVEN_P = "4c 5c 6c | 4d 5d 6d | 4h 5h 6h | 4s 5s 6s"  # Paulista, vira 7c: every round ties


def _even(variant: str | Path) -> object:
    return match(variant, deal(0, EVEN_P, "7c"))  # seat 1, the mão, plays first


# -- concede (correr) ---------------------------------------------------------------------------
def test_concede_on_ones_own_turn_gives_the_other_team_the_hands_value() -> None:
    paulista = _even("paulista")
    assert "concede 1" not in legal(paulista)
    assert_illegal(paulista, "concede 1", "no concede in this variant")
    m = _even("concede")
    assert legal(m) == ["play 1 4d", "play 1 5d", "play 1 6d", "raise 1 3", "concede 1"]
    assert_illegal(m, "concede 2", "only on his own turn; it is seat 1's")
    act(m, "raise 1 3")
    assert "concede 2" not in legal(m)  # no concede while a raise waits (concede.allowed)
    assert_illegal(m, "concede 2", "a raise is waiting for its answer")
    act(m, "accept 2", "play 1 4d")
    assert legal(m)[-1] == "concede 2"
    # the hand is worth 3 now: seat 2 (team 0) gives it up, team 1 scores 3
    assert act(m, "concede 2") == [
        {"event": "hand", "winner": 1, "points": 3, "score": [0, 3]}]
    assert m.awaiting_deal and m.hand_number == 1


def test_concede_instead_of_answer_scores_the_value_before_the_raise(write: WriteFile) -> None:
    m = _even("concede")
    act(m, "raise 1 3")
    assert legal(m, 2) == ["accept 2", "fold 2", "raise 2 6"]
    path = write("answer.yaml", "extends: concede\nconcede:\n  instead_of_answer: true\n")
    m = _even(path)
    act(m, "raise 1 3", "raise 2 6")
    assert legal(m, 3) == ["accept 3", "fold 3", "raise 3 9", "concede 3"]
    assert_illegal(m, "concede 2", "only the challenged team answers a raise")
    # team 1 gives up instead of answering the 6: team 0 scores the 3 accepted by the raise back
    assert act(m, "concede 1") == [
        {"event": "hand", "winner": 0, "points": 3, "score": [3, 0]}]


def test_concede_instead_of_answer_ends_the_hand_where_both_must_refuse(
        write: WriteFile) -> None:
    path = write("both.yaml", "extends: both-refuse\nconcede:\n  allowed: true\n"
                 "  instead_of_answer: true\n")
    m = _even(path)
    act(m, "raise 1 3")
    assert act(m, "fold 2") == []  # one partner's refusal: the raise still waits
    assert legal(m) == ["accept 0", "fold 0", "raise 0 6", "concede 0"]
    assert act(m, "concede 0") == [
        {"event": "hand", "winner": 1, "points": 1, "score": [0, 1]}]


@pytest.mark.parametrize("in_special_hands", [False, True])
def test_concede_in_the_special_hands_only_where_the_variant_says(
        write: WriteFile, in_special_hands: bool) -> None:
    variant = write("special.yaml", "extends: concede\nconcede:\n  in_special_hands: true\n") \
        if in_special_hands else "concede"
    m = match(variant)
    score_to(m, (4, 11))
    m.deal(deal(m.dealer, EVEN_P, "7c"))  # the mão de onze: worth 3, no raise
    seat = m.turn
    if not in_special_hands:
        assert not [a for a in m.legal_actions() if a.kind == "concede"]
        assert_illegal(m, Action.concede(seat), "no concede in the mão de onze")
        return
    assert legal(m)[-1] == f"concede {seat}"
    other = m.rules.team_of[(seat + 1) % m.players]
    score = [4, 11]
    score[other] += 3
    events = m.apply(Action.concede(seat))
    assert events[0] == {"event": "hand", "winner": other, "points": 3, "score": score}


def test_concede_is_not_a_win_where_the_special_hands_winner_takes_the_game(
        write: WriteFile) -> None:
    """M5's house reading: the winner of the mão de dez takes the game; a concede by the team
    at 10 gives the other team the points only, as a decision's fold does."""
    path = write("m.yaml", "extends: mineiro-mao-de-dez-wins-game\nconcede:\n  allowed: true\n"
                 "  in_special_hands: true\n")
    m = match(path)
    score_to(m, (4, 10))
    m.deal(deal(m.dealer, "5c 6c Kc | 5d 6d Kd | 5h 6h Kh | 5s 6s Ks"))
    act(m, f"decide {1 if m.dealer % 2 == 0 else 3} play")
    seat = m.turn
    if m.rules.team_of[seat] == 0:  # let a seat of team 1, the team at 10, be the one
        act(m, f"play {seat} {('5c', '5h')[seat // 2]}")
        seat = m.turn
    events = m.apply(Action.concede(seat))
    assert events == [{"event": "hand", "winner": 0, "points": 3, "score": [7, 10]}]


def test_concede_is_logged_verified_and_replayed(tmp_path: Path) -> None:
    seed = next(s for s in range(50) if '"event": "concede"' in record_random("concede", s))
    log = tmp_path / "concede.jsonl"
    log.write_text(record_random("concede", seed), encoding="utf-8")
    line = next(x for x in log.read_text().splitlines() if '"event": "concede"' in x)
    assert line.startswith('{"event": "concede", "seat": ')
    result = verify_file(log)
    assert result.valid and result.incomplete is None
    runner = CliRunner()
    verified = runner.invoke(main, ["verify", str(log)])
    assert verified.exit_code == 0, verified.output
    shown = runner.invoke(main, ["replay", str(log)])
    assert shown.exit_code == 0 and "concedes the hand (corre)" in shown.output


def test_concede_is_counted_by_simulate() -> None:
    stats = run_simulation("concede", games=6, seed=3, bots=["random"])
    assert stats["concedes"]["hands"] > 0
    assert "concedes" not in run_simulation("paulista", games=2, seed=3, bots=["random"])


# -- who answers a raise --------------------------------------------------------------------------
def test_next_seat_answers_only_the_seat_after_the_raiser() -> None:
    paulista = _even("paulista")
    act(paulista, "raise 1 3")
    assert paulista.to_act() == [0, 2]  # C9 pinned: either partner
    m = _even("next-seat-answers")
    act(m, "raise 1 3")
    assert m.to_act() == [2]
    assert legal(m) == ["accept 2", "fold 2", "raise 2 6"]
    for move in ("accept 0", "fold 0", "raise 0 6"):
        assert_illegal(m, move, "only seat 2, the next seat after the raiser, answers")
    act(m, "raise 2 6")  # a raise back is answered by the seat after its raiser
    assert m.to_act() == [3]
    assert_illegal(m, "accept 1", "only seat 3")
    assert act(m, "fold 3") == [{"event": "hand", "winner": 0, "points": 3, "score": [3, 0]}]


def test_both_must_refuse_a_first_fold_leaves_the_answer_to_the_partner() -> None:
    paulista = _even("paulista")
    act(paulista, "raise 1 3")
    assert act(paulista, "fold 2") == [
        {"event": "hand", "winner": 1, "points": 1, "score": [0, 1]}]
    m = _even("both-refuse")
    act(m, "raise 1 3")
    assert act(m, "fold 2") == []  # recorded, nothing decided
    assert (m.state, m.pending, m.to_act()) == ("answer", (1, 3, None), [0])
    assert legal(m) == ["accept 0", "fold 0", "raise 0 6"]
    assert_illegal(m, "accept 2", "seat 2 has folded")
    assert m.observation(3)["pending_raise"] == {
        "seat": 1, "value": 3, "name": "truco", "folded": [2]}
    assert act(m, "fold 0") == [{"event": "hand", "winner": 1, "points": 1, "score": [0, 1]}]


def test_both_must_refuse_a_partners_accept_overrules_the_fold() -> None:
    m = _even("both-refuse")
    act(m, "raise 1 3", "fold 2", "accept 0")
    assert (m.state, m.value, m.pending) == ("play", 3, None)
    assert "folded" not in str(m.observation(0))
    act(m, "play 1 4d", "raise 2 6")  # team 0 raises on its turn: team 1 must both refuse
    assert act(m, "fold 3") == []
    assert m.to_act() == [1]
    assert act(m, "fold 1") == [{"event": "hand", "winner": 0, "points": 3, "score": [3, 0]}]


def test_no_raise_back_a_raise_is_answered_by_accept_or_fold_only() -> None:
    paulista = _even("paulista")
    act(paulista, "raise 1 3")
    assert "raise 2 6" in legal(paulista, 2)
    m = _even("no-raise-back")
    act(m, "raise 1 3")
    assert legal(m) == ["accept 0", "fold 0", "accept 2", "fold 2"]
    assert_illegal(m, "raise 2 6", "no raise back in this variant")
    act(m, "accept 2", "play 1 4d")
    act(m, "raise 2 6")  # team 0 raises later, on its own turn (C10)
    assert legal(m) == ["accept 1", "fold 1", "accept 3", "fold 3"]


# -- keys that make no sense together -----------------------------------------------------------
@pytest.mark.parametrize(("text", "path", "says"), [
    ("concede:\n  instead_of_answer: true\n", "concede.instead_of_answer",
     "expected concede.allowed: true"),
    ("concede:\n  in_special_hands: true\n", "concede.in_special_hands",
     "expected concede.allowed: true"),
    ("concede:\n  allowed: true\n  in_special_hands: true\nspecial_hands:\n  one_team:\n"
     "    enabled: false\n  both_teams:\n    enabled: false\n", "concede.in_special_hands",
     "expected an enabled special hand"),
    ("concede:\n  allowed: true\n  instead_of_answer: true\nbetting:\n  ladder: []\n",
     "concede.instead_of_answer", "without a ladder"),
    ("betting:\n  answered_by: next_seat\n  ladder: []\n", "betting.answered_by",
     "without a ladder"),
    ("players: 2\nbetting:\n  answered_by: next_seat\n", "betting.answered_by",
     "expected challenged_team with 2 players"),
    ("players: 2\nbetting:\n  refusal: whole_team\n", "betting.refusal",
     "expected one_player with 2 players"),
    ("betting:\n  raise_back: false\n  ladder: [{value: 3, name: truco}]\n",
     "betting.raise_back", "no raise back exists"),
])
def test_concede_and_answer_keys_that_have_no_effect_are_refused(
        write: WriteFile, text: str, path: str, says: str) -> None:
    file = write("bad.yaml", "extends: paulista\n" + text)
    with pytest.raises(VariantError) as info:
        load_variant(file)
    err = info.value
    assert err.path == path and says in err.message and err.file is not None
    result = CliRunner().invoke(main, ["variants", "check", str(file)])
    assert result.exit_code == 1 and f"{path}: " in result.output and says in result.output
    assert "Traceback" not in result.output


def test_concede_and_answer_keys_leave_the_shipped_variants_as_they_were() -> None:
    for name in ("paulista", "mineiro", "one-on-one"):
        rules = find_variant(name)
        assert (rules.concede, rules.answered_by, rules.refusal, rules.raise_back) == (
            False, "challenged_team", "one_player", True)
        assert "concede" not in rules.data and "refusal" not in rules.data["betting"]


# -- bots and truco play ------------------------------------------------------------------------
def test_concede_heuristic_bot_concedes_only_a_hand_lost_whatever_it_plays() -> None:
    from engine.bots import HeuristicBot

    # vira 7c: the Qs are manilhas. Team 1 takes round 1 with Qc; in round 2 seat 1 leads Qh.
    hands = "4c 5c 6c | Qc Qh 6d | 4h 5h 6h | Kd 5s 6s"
    m = match("concede", deal(0, hands, "7c"))
    act(m, "play 1 Qc", "play 2 4h", "play 3 Kd", "play 0 4c", "play 1 Qh")
    bot = HeuristicBot(m.rules, seed=1)
    # seat 2: its partner (seat 0) still plays in this round: not lost yet
    assert bot.choose(m.observation(2), m.legal_actions(2)).kind == "play"
    act(m, "play 2 5h", "play 3 5s")
    # seat 0, the last of team 0, holds nothing that beats or ties Qh, and round 1 was lost
    assert m.legal_actions(0)[-1] == Action.concede(0)
    assert bot.choose(m.observation(0), m.legal_actions(0)) == Action.concede(0)
    # round 1 won by team 0 (seat 2's Qc): losing round 2 does not lose the hand, so seat 0,
    # in the same spot, plays on
    m = match("concede", deal(0, "4c 5c 6c | 4d 5d 6d | Qc 4h 5h | Kd Qh 5s", "7c"))
    act(m, "play 1 4d", "play 2 Qc", "play 3 Kd", "play 0 4c", "play 2 4h", "play 3 Qh")
    assert m.round_results == [0] and m.legal_actions(0)[-1] == Action.concede(0)
    assert bot.choose(m.observation(0), m.legal_actions(0)).kind == "play"


def test_concede_in_truco_play_by_its_words() -> None:
    from engine.cli.play_cmd import describe, menu_entry, parse_move

    m = _even("concede")
    legal = m.legal_actions(1)
    texts = [str(a) for a in legal]
    for word in ("corro", "eu corro", "concede"):
        assert parse_move(word, legal, texts, m.rules) == Action.concede(1)
    assert menu_entry(Action.concede(1), m.rules, None) == "corro (concede the hand)"
    assert describe(Action.concede(1), m.rules, 1) == "you concede the hand (eu corro)"
    assert describe(Action.concede(1), m.rules, 0) == "seat 1 concedes the hand (corre)"
    act(m, "raise 1 3")
    legal = m.legal_actions(2)
    assert parse_move("corro", legal, [str(a) for a in legal], m.rules) == Action.fold(2)


@pytest.mark.parametrize("variant", ["concede", "next-seat-answers", "both-refuse",
                                     "no-raise-back"])
def test_concede_and_answer_variants_record_logs_that_verify(
        tmp_path: Path, variant: str) -> None:
    for seed in range(3):
        log = tmp_path / f"{variant}-{seed}.jsonl"
        log.write_text(record_random(variant, seed), encoding="utf-8")
        result = verify_file(log)
        assert result.valid and result.incomplete is None, (seed, result.problems)


def test_both_must_refuse_a_first_fold_is_a_log_line_that_replay_shows(tmp_path: Path) -> None:
    lines = ['{"truco_log": 1, "variant": "both-refuse", "dealer": 0}',
             '{"event": "deal", "dealer": 0, "hands": [["4c", "5c", "6c"], ["4d", "5d", "6d"], '
             '["4h", "5h", "6h"], ["4s", "5s", "6s"]], "vira": "7c"}',
             '{"event": "raise", "seat": 1, "value": 3}',
             '{"event": "fold", "seat": 2}',
             '{"event": "fold", "seat": 0}',
             '{"event": "hand", "winner": 1, "points": 1, "score": [0, 1]}']
    log = tmp_path / "both.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert verify_file(log).valid
    shown = CliRunner().invoke(main, ["replay", str(log)]).output
    assert "folds (a partner must answer)" in shown
    # in Paulista the first fold ends the hand: the same log fails at the second fold
    log.write_text("\n".join([lines[0].replace("both-refuse", "paulista"), *lines[1:]]) + "\n",
                   encoding="utf-8")
    assert not verify_file(log).valid


def test_next_seat_answers_and_both_must_refuse_next_actor_asks_a_seat_that_may_answer() -> None:
    from engine.bots import next_actor

    m = _even("next-seat-answers")
    act(m, "raise 1 3")
    assert next_actor(m, prefer=0) == 2  # seat 0 may not answer: seat 2 is asked
    m = _even("both-refuse")
    act(m, "raise 1 3")
    assert next_actor(m, prefer=0) == 0 and next_actor(m) == 2
    act(m, "fold 2")
    assert next_actor(m, prefer=2) == 0 and next_actor(m) == 0
