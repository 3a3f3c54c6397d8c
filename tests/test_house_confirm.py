"""Giving up as a team (``confirm.moves``, issue 42): the house variants
``concede-partner-confirms`` ("correr is a joint decision: the partner confirms or says go on")
and ``mao-de-dez-fold-both-partners`` ("the same for a special hand's fold: it needs both
partners"). A give-up asks; the partner answers ``confirm SEAT yes`` or ``confirm SEAT no``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import act, assert_illegal, assert_random_logs_verify, deal, legal, match, match_at

from engine import Match
from engine.actions import Deal
from engine.errors import PositionError, VariantError
from engine.logformat import Recorder, record_random
from engine.replay import verify_file
from engine.shuffle import SplitMix64
from engine.variant import load_variant

CONCEDE = "concede-partner-confirms"
FOLD = "mao-de-dez-fold-both-partners"
EVEN_P = "4c 5c 6c | 4d 5d 6d | 4h 5h 6h | 4s 5s 6s"  # Paulista, vira 7c: every round ties
EVEN_M = "5c 6c Kc | 5d 6d Kd | 5h 6h Kh | 5s 6s Ks"  # Mineiro: every round ties


def _asked() -> Match:
    m = match(CONCEDE, deal(0, EVEN_P, "7c"))  # seat 1, the mão, plays first
    assert act(m, "concede 1") == []  # it asks: nothing scored yet
    return m


# -- a concede the partner confirms or refuses ---------------------------------------------
def test_concede_partner_confirms_the_other_team_scores_the_hand() -> None:
    m = _asked()
    assert m.state == "confirm" and m.to_act() == [3]
    assert legal(m) == ["confirm 3 yes", "confirm 3 no"]
    assert act(m, "confirm 3 yes") == [
        {"event": "hand", "winner": 0, "points": 1, "score": [1, 0]}]


def test_concede_partner_says_go_on_and_the_player_plays_his_card() -> None:
    m = _asked()
    assert act(m, "confirm 3 no") == [] and m.state == "play" and m.turn == 1
    assert "concede 1" not in legal(m, 1) and "play 1 4d" in legal(m, 1)
    refused = assert_illegal(m, "concede 1", "the partners said go on")
    assert refused.code == "told_to_go_on"
    act(m, "play 1 4d", "play 2 4h", "play 3 4s")
    assert "concede 0" in legal(m, 0)  # the other team was not told to go on
    assert assert_illegal(m, "concede 3").code == "not_your_turn"
    act(m, "play 0 4c", "play 1 5d", "play 2 5h")
    assert not [a for a in legal(m, 3) if a.startswith("concede")]  # not the partner either


def test_concede_partner_confirms_only_the_partner_answers_and_nothing_else_moves() -> None:
    m = _asked()
    assert assert_illegal(m, "confirm 0 yes", "seat 3 confirms or refuses").code == "not_asked"
    assert assert_illegal(m, "confirm 1 yes", "seat 3").code == "not_asked"
    assert assert_illegal(m, "play 1 4d").code == "confirmation_pending"
    assert assert_illegal(m, "raise 2 3").code == "confirmation_pending"
    paulista_concede = match("concede", deal(0, EVEN_P, "7c"))  # without the key: at once
    assert act(paulista_concede, "concede 1")[0]["event"] == "hand"


def test_concede_partner_confirms_a_concede_instead_of_an_answer_is_not_asked(
        tmp_path: Path) -> None:
    path = tmp_path / "v.yaml"
    path.write_text(f"extends: {CONCEDE}\nconcede:\n  instead_of_answer: true\n",
                    encoding="utf-8")
    m = match(load_variant(path), deal(0, EVEN_P, "7c"))
    act(m, "raise 1 3")
    assert act(m, "concede 0") == [{"event": "hand", "winner": 1, "points": 1, "score": [0, 1]}]


def test_concede_partner_confirms_a_team_of_three_asks_each_partner_in_turn(
        tmp_path: Path) -> None:
    path = tmp_path / "six.yaml"
    path.write_text(f"extends: {CONCEDE}\nplayers: 6\n", encoding="utf-8")
    m = match(load_variant(path))
    m.deal(_six(m))
    mao = m.turn
    act(m, f"concede {mao}")
    first, second = (mao + 2) % 6, (mao + 4) % 6
    assert m.to_act() == [first]
    assert act(m, f"confirm {first} yes") == [] and m.to_act() == [second]
    assert of_hand(act(m, f"confirm {second} yes"))["winner"] == (mao + 1) % 2


def _six(m: Match) -> Deal:
    cards = list(m.rules.deck)
    return Deal(m.dealer, tuple(tuple(cards[3 * s:3 * s + 3]) for s in range(6)), cards[20])


def of_hand(events: list[dict[str, object]]) -> dict[str, object]:
    return next(e for e in events if e["event"] == "hand")


# -- a special hand's fold needs both partners ----------------------------------------------
def _mao_de_dez(variant: str = FOLD) -> Match:
    m = match_at(variant, [10, 3], dealer=3)  # team 0 at 10: seat 0, the mão, and seat 2
    m.deal(deal(3, EVEN_M))
    assert m.state == "decide"
    return m


def test_mao_de_dez_fold_both_partners_one_fold_asks_the_other() -> None:
    m = _mao_de_dez()
    assert act(m, "decide 0 fold") == [] and m.state == "confirm" and m.to_act() == [2]
    assert m.observation(2)["partner_hands"] is not None  # he still sees both hands (M5)
    assert act(m, "confirm 2 yes") == [
        {"event": "hand", "winner": 1, "points": 1, "score": [10, 4]}]
    mineiro = _mao_de_dez("mineiro")
    assert act(mineiro, "decide 0 fold")[0]["event"] == "hand"  # M5: one partner folds


def test_mao_de_dez_fold_both_partners_go_on_plays_the_hand() -> None:
    m = _mao_de_dez()
    act(m, "decide 2 fold", "confirm 0 no")
    assert m.state == "play" and m.value == 3 and m.turn == 0
    assert not [a for a in legal(m) if a.startswith(("decide", "confirm"))]


def test_mao_de_dez_fold_both_partners_one_partner_plays_it_alone() -> None:
    m = _mao_de_dez()
    assert act(m, "decide 2 play") == [] and m.state == "play"


# -- positions, logs, the loader -------------------------------------------------------------
@pytest.mark.parametrize("variant", [CONCEDE, FOLD])
def test_confirm_positions_round_trip_mid_confirmation(variant: str) -> None:
    m = _asked() if variant == CONCEDE else _mao_de_dez()
    if variant == FOLD:
        act(m, "decide 0 fold")
    p = m.position()
    assert p["state"] == "confirm" and p["confirm"]["asked"] is not None
    back = Match.from_position(variant, p)
    assert back.position() == p and back.legal_actions() == m.legal_actions()
    seat = m.to_act()[0]
    assert act(back, f"confirm {seat} yes") == act(m, f"confirm {seat} yes")
    wrong = {**p, "confirm": {"asked": None, "went_on": []}}
    with pytest.raises(PositionError, match="exactly in state confirm") as info:
        Match.from_position(variant, wrong)
    assert info.value.code == "bad_confirm"


@pytest.mark.parametrize("variant", [CONCEDE, FOLD])
def test_confirm_random_play_records_logs_that_verify_and_positions_round_trip(
        variant: str, tmp_path: Path) -> None:
    """Property: seeded random play of the variant, each position read back as written, each
    log verified; the partners' answers happen (both ways)."""
    seen = set()
    for seed in range(12):
        m, pick = Match.new(variant, seed=seed), SplitMix64(seed)
        path = tmp_path / f"{seed}.jsonl"
        with path.open("w", encoding="utf-8") as out:
            rec = Recorder(m, out, variant=variant)
            while not m.is_over:
                p = m.position()
                assert Match.from_position(variant, p).position() == p
                moves = m.legal_actions()
                move = moves[pick.bounded(len(moves))]
                seen.add(str(move).split()[-1] if move.kind == "confirm" else None)
                rec.apply(move)
        result = verify_file(path)
        assert result.valid and result.incomplete is None, (seed, result.problems)
    assert {"yes", "no"} <= seen
    assert_random_logs_verify(variant, tmp_path)


def test_confirm_verify_refuses_a_give_up_nobody_confirmed(tmp_path: Path) -> None:
    seed = next(s for s in range(200) if '"event": "confirm"' in record_random(CONCEDE, s))
    lines = record_random(CONCEDE, seed).splitlines()
    at = next(i for i, line in enumerate(lines) if '"event": "confirm"' in line)
    event = json.loads(lines[at])
    asker = json.loads(lines[at - 1])["seat"]
    event["seat"] = asker  # the asker answers himself
    lines[at] = json.dumps(event)
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = verify_file(path)
    assert not result.valid
    assert any("confirms or refuses" in str(p) for p in result.problems), result.problems


@pytest.mark.parametrize(("text", "says"), [
    ("extends: paulista\nconfirm:\n  moves: [concede]\n", "expected concede.allowed: true"),
    ("extends: concede\nconfirm:\n  moves: [fold_hand]\n", "a special hand with a decision"),
    ("extends: one-on-one\nconcede:\n  allowed: true\nconfirm:\n  moves: [concede]\n",
     "expected teams of partners"),
])
def test_confirm_keys_that_cannot_act_are_refused(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "v.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(VariantError, match=says):
        load_variant(path)
