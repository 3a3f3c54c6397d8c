"""Special hands as a list, a single decider, and score-aware betting (issue 11): the house
variants special-hands-list, single-decider, no-raise-when-winning and game-step, each tested
through explicit deals against the variant it extends, and the loader's cross-key checks."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from conftest import WriteFile
from helpers import act, assert_illegal, deal, legal, match, observe_all, of, score_to, win_hand

from engine import Match, VariantError, find_variant, load_variant
from engine.cli import main
from engine.rules import special_hands_from_data

EVEN_P = "4c 5c 6c | 4d 5d 6d | 4h 5h 6h | 4s 5s 6s"  # Paulista, vira 7c: every round ties


def _even(m: Match) -> None:
    m.deal(deal(m.dealer, EVEN_P, "7c"))


def _to(m: Match, team: int, values: list[int]) -> None:
    """Win one hand of ``team`` per value (1 plain, 3/6/9 after 1/2/3 raises)."""
    for v in values:
        win_hand(m, team, {1: 0, 3: 1, 6: 2, 9: 3}[v])


# -- special hands as a list -------------------------------------------------------------------
def test_special_hands_list_mapping_form_is_read_into_the_same_list() -> None:
    """The shipped mapping form means a list: the both-teams hand first, then the one-team."""
    for name, first, second in (("paulista", "mão de ferro", "mão de onze"),
                                ("mineiro", "mão de dez dupla", "mão de dez")):
        hands = find_variant(name).special_hands
        assert [(h.name, h.teams, h.from_score) for h in hands] == [
            (first, "all", hands[0].from_score), (second, "exactly_one", hands[1].from_score)]
    mineiro = find_variant("mineiro").special_hands[1]
    assert (mineiro.penalty_team_at_score, mineiro.penalty_other_team) == (
        "lose_hand", "lose_game")
    listed = find_variant("special-hands-list").special_hands
    assert [(h.name, h.teams, h.from_score, h.to_score, h.value) for h in listed] == [
        ("mão de onze", "exactly_one", 11, None, 3), ("mão de ferro", "all", 11, None, 3),
        ("mão de dez", "exactly_one", 10, 10, 2)]
    assert special_hands_from_data(find_variant("special-hands-list").data["special_hands"]) \
        == listed


def test_special_hands_list_a_team_at_exactly_10_plays_for_2_and_may_raise() -> None:
    for variant in ("paulista", "special-hands-list"):
        m = match(variant)
        _to(m, 1, [3, 1])
        _to(m, 0, [9, 1])
        assert m.score == [10, 4]
        _even(m)
        listed = variant == "special-hands-list"
        obs = m.observation(0)
        assert obs["special"] == ({"name": "mão de dez", "team": 0} if listed else None)
        assert m.value == (2 if listed else 1)
        t = m.turn  # seat 2 (team 0): the mão of the seventh hand
        assert f"raise {t} 3" in legal(m, t)  # the ladder goes on from 2 to truco
        events = act(m, f"raise {t} 3", f"fold {t + 1}")
        # the raiser's team scores the value before the raise: 2 in the mão de dez
        assert of(events, "hand")[0]["points"] == (2 if listed else 1)


def test_special_hands_list_a_team_at_11_decides_after_seeing_both_hands() -> None:
    for variant in ("paulista", "special-hands-list"):
        m = match(variant)
        _to(m, 0, [3, 1])
        _to(m, 1, [6, 1, 1, 3])  # not through 10: that is a mão de dez in the list
        _even(m)
        listed = variant == "special-hands-list"
        assert (m.state == "decide") is listed
        if listed:
            assert observe_all(m)[1]["special"] == {"name": "mão de onze", "team": 1}
            assert observe_all(m)[1]["partner_hands"] is not None
            assert not [a for a in legal(m) if a.startswith("raise")]  # penalised, not offered
            events = act(m, "decide 3 fold")
            assert of(events, "hand") == [
                {"event": "hand", "winner": 0, "points": 1, "score": [5, 11]}]


def test_special_hands_list_11_11_is_blind_and_a_raise_is_refused() -> None:
    for variant in ("paulista", "special-hands-list"):
        m = match(variant)
        _to(m, 0, [6, 1, 1])
        _to(m, 1, [6, 1, 1, 3])
        win_hand(m, 0)  # team 0 wins team 1's mão de onze: worth 3
        assert m.score == [11, 11]
        _even(m)
        special = m.observation(0)["special"]
        assert special is not None and special["name"] == "mão de ferro"
        assert m.blind
        t = m.turn
        if variant == "paulista":  # P6: penalised, the raising team loses the game
            assert of(act(m, f"raise {t} 3"), "game")[0]["winner"] != t % 2
        else:  # the list says illegal: refused, nothing changes
            assert_illegal(m, f"raise {t} 3", "no raise is allowed in the mão de ferro")
            assert m.state == "play" and m.score == [11, 11]


def test_special_hands_list_first_matching_entry_wins(write: WriteFile) -> None:
    """Two entries for one team at 10: the first listed is the hand's."""
    path = write("order.yaml", "extends: paulista\nspecial_hands:\n"
                 "  - {name: dez, when: {teams: exactly_one, from_score: 10, to_score: 10},"
                 " value: 2, raises: allowed}\n"
                 "  - {name: dez ou onze, when: {teams: any, from_score: 10}, value: 3,"
                 " raises: illegal}\n")
    m = match(load_variant(path))
    _to(m, 1, [3, 1])
    _to(m, 0, [9, 1])
    _even(m)
    assert (m.observation(0)["special"], m.value) == ({"name": "dez", "team": 0}, 2)


# -- a single decider --------------------------------------------------------------------------
def test_single_decider_only_the_first_of_the_team_from_the_mao_decides() -> None:
    for variant in ("paulista-mao-de-11-decision", "single-decider"):
        m = match(variant)
        score_to(m, (4, 11))
        _even(m)
        assert m.state == "decide"
        first = next(s for s in ((m.mao + i) % 4 for i in range(4)) if s % 2 == 1)
        partner = (first + 2) % 4
        if variant == "single-decider":
            assert legal(m) == [f"decide {first} play", f"decide {first} fold"]
            err = assert_illegal(m, f"decide {partner} play", f"only seat {first}")
            assert err.code == "not_the_decider"
            # both still see the team's cards
            assert observe_all(m)[partner]["partner_hands"] is not None
        else:
            assert {int(a.split()[1]) for a in legal(m)} == {first, partner}
            act(m, f"decide {partner} play")
            assert m.state == "play"
            continue
        act(m, f"decide {first} play")
        assert m.state == "play" and m.value == 3


# -- no raise when winning ---------------------------------------------------------------------
def test_no_raise_when_winning_no_raise_back_when_accepting_wins_the_game() -> None:
    for variant in ("paulista", "no-raise-when-winning"):
        m = match(variant)
        _to(m, 0, [9])
        _even(m)
        forbids = variant == "no-raise-when-winning"
        assert m.turn == 2  # team 0, at 9: 9 + 1 does not reach 12, it may raise
        act(m, "raise 2 3")
        assert "raise 3 6" in legal(m, 3)  # team 1, at 0
        act(m, "raise 3 6")
        # team 0: accepting 6 already wins the game with the hand: no raise back to 9
        assert ("raise 0 9" in legal(m, 0)) is not forbids
        if forbids:
            assert legal(m, 0) == ["accept 0", "fold 0"]
            err = assert_illegal(m, "raise 0 9", "no raise when winning the hand at 6")
            assert err.code == "no_raise_when_winning"
        act(m, "accept 0")
        # in play: the hand worth 6, team 0 at 9 may not raise to 9 on its turn either
        assert ("raise 2 9" in legal(m, 2)) is not forbids
        if forbids:
            assert_illegal(m, "raise 2 9", "already wins the game")


def test_no_raise_when_winning_is_per_team_by_its_own_score() -> None:
    m = match("no-raise-when-winning")
    _to(m, 1, [9])
    _to(m, 0, [1])
    _even(m)  # dealer 2, mão 3 (team 1, at 9)
    assert m.score == [1, 9] and m.turn == 3
    act(m, "raise 3 3", "accept 0")  # 9 + 1 < 12: team 1 may raise
    act(m, "play 3 4s")
    assert "raise 0 6" in legal(m, 0)  # team 0 at 1: 1 + 3 < 12
    act(m, "raise 0 6")
    assert legal(m, 1) == ["accept 1", "fold 1"]  # team 1: 9 + 6 >= 12


# -- a ladder step worth the game --------------------------------------------------------------
def test_game_step_accepted_the_hand_decides_the_game() -> None:
    rules = find_variant("game-step")
    assert [(s.value, s.name, s.game) for s in rules.ladder][-1] == (12, "jogo", True)
    for variant in ("paulista", "game-step"):
        m = match(variant)
        _to(m, 0, [1, 1])
        _to(m, 1, [3])
        events = win_hand(m, 0, 4)  # truco, seis, nove, then the top step, accepted
        hand = of(events, "hand")[0]
        if variant == "game-step":
            # the winner's score goes to the target: it scores what it lacked, 10
            assert hand == {"event": "hand", "winner": 0, "points": 10, "score": [12, 3]}
        else:
            assert hand == {"event": "hand", "winner": 0, "points": 12, "score": [14, 3]}
        assert of(events, "game")[0]["winner"] == 0


def test_game_step_folded_scores_the_step_before() -> None:
    m = match("game-step")
    _even(m)
    act(m, "raise 1 3", "raise 2 6", "raise 3 9", "raise 0 12")
    assert m.observation(1)["pending_raise"] == {"seat": 0, "value": 12, "name": "jogo"}
    assert legal(m, 1) == ["accept 1", "fold 1"]  # the top: no raise beyond the game
    events = act(m, "fold 1")
    assert events == [{"event": "hand", "winner": 0, "points": 9, "score": [9, 0]}]


def test_game_step_worth_the_match_wins_the_match(write: WriteFile) -> None:
    ladder = ("extends: mineiro\nbetting:\n  ladder:\n    - {value: 3, name: truco}\n"
              "    - {value: 6, name: seis}\n    - {value: 9, name: nove}\n")
    for top, match_over in (("game", False), ("match", True)):
        rules = load_variant(write(f"{top}.yaml", ladder + f"    - {{value: {top}, name: x}}\n"))
        assert (rules.ladder[-1].value, rules.ladder[-1].match) == (12, match_over)
        m = match(rules)
        events = win_hand(m, 0, 4)  # best of 3 games (M8): one hand at the top step
        assert of(events, "game")[0]["games"] == [1, 0]
        assert bool(of(events, "match")) is match_over
        assert m.is_over is match_over


def test_game_step_follows_the_target(write: WriteFile) -> None:
    path = write("g.yaml", "extends: game-step\ngame:\n  target: 15\n")
    assert load_variant(path).ladder[-1].value == 15


# -- cross-key checks --------------------------------------------------------------------------
_ENTRY = "  - {name: x, when: {teams: exactly_one, from_score: 10}, value: 3, "

CROSS_ERRORS = {
    "fold points without a decision": (
        _ENTRY + "raises: illegal, fold_points: 1}\n",
        "special_hands[0].fold_points", "has no effect without a decision"),
    "partners' cards without a decision": (
        _ENTRY + "raises: illegal, decision: false, show_partner_cards: true}\n",
        "special_hands[0].show_partner_cards", "has no effect without a decision"),
    "decider without a decision": (
        _ENTRY + "raises: illegal, decider: first_from_mao}\n",
        "special_hands[0].decider", "has no effect without a decision"),
    "raise penalty with raises illegal": (
        _ENTRY + "raises: illegal, raise_penalty: {team_at_score: lose_game, "
        "other_team: lose_game}}\n", "special_hands[0].raise_penalty", "raises: illegal"),
    "penalised without a penalty": (
        _ENTRY + "raises: penalised}\n", "special_hands[0].raises", "expected raise_penalty"),
    "decision without fold points": (
        _ENTRY + "raises: illegal, decision: true}\n", "special_hands[0]", "expected fold_points"),
    "decision for all teams": (
        "  - {name: x, when: {teams: all, from_score: 10}, value: 3, raises: illegal, "
        "decision: true, fold_points: 1}\n", "special_hands[0].decision", "exactly_one"),
    "threshold at the target": (
        "  - {name: x, when: {teams: all, from_score: 12}, value: 3, raises: illegal}\n",
        "special_hands[0].when.from_score", "below game.target, found 12 and 12"),
    "upper bound below the lower": (
        "  - {name: x, when: {teams: any, from_score: 10, to_score: 9}, value: 3, "
        "raises: illegal}\n", "special_hands[0].when.to_score", "found 9"),
    "an exact duplicate condition": (
        _ENTRY + "raises: illegal}\n"
        "  - {name: y, when: {teams: exactly_one, from_score: 10}, value: 2, raises: allowed}\n",
        "special_hands[1].when", "never applies"),
    "an entry an earlier one always covers": (
        "  - {name: x, when: {teams: any, from_score: 10}, value: 3, raises: illegal}\n"
        "  - {name: y, when: {teams: all, from_score: 11}, value: 3, raises: illegal}\n",
        "special_hands[1].when", "wherever it holds, special_hands[0] (x) holds"),
    "an entry two earlier ones cover together": (
        "  - {name: x, when: {teams: exactly_one, from_score: 10}, value: 3, raises: illegal}\n"
        "  - {name: y, when: {teams: all, from_score: 10}, value: 3, raises: illegal}\n"
        "  - {name: z, when: {teams: any, from_score: 11}, value: 3, raises: illegal}\n",
        "special_hands[2].when", "earlier entries hold (special_hands[0], special_hands[1])"),
    "a name used twice": (
        _ENTRY + "raises: illegal}\n"
        "  - {name: x, when: {teams: all, from_score: 11}, value: 3, raises: illegal}\n",
        "special_hands[1].name", "used twice"),
}


@pytest.mark.parametrize("case", CROSS_ERRORS)
def test_special_hands_list_cross_key_checks(case: str, write: WriteFile) -> None:
    entries, key_path, words = CROSS_ERRORS[case]
    path = write("v.yaml", "extends: paulista\nspecial_hands:\n" + entries)
    with pytest.raises(VariantError) as info:
        load_variant(path)
    lines = [line for line in str(info.value).splitlines() if f": {key_path}: " in line]
    assert lines and words in lines[0], str(info.value)
    assert str(path) in lines[0]
    result = CliRunner().invoke(main, ["variants", "show", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.output


@pytest.mark.parametrize(("text", "key_path", "words"), [
    ("extends: paulista\nspecial_hands:\n  one_team:\n    decider: first_from_mao\n",
     "special_hands.one_team.decider", "has no effect without a decision"),
    ("extends: paulista\nbetting:\n  ladder:\n    - {value: game, name: jogo}\n"
     "    - {value: 15, name: quinze}\n", "betting.ladder[0].value", "last in the ladder"),
    ("extends: paulista\nbetting:\n  ladder:\n    - {value: 3, name: truco}\n"
     "    - {value: 12, name: doze}\n    - {value: game, name: jogo}\n",
     "betting.ladder[2].value", "a step worth the game (game.target, 12)"),
    ("extends: paulista\nbetting:\n  ladder:\n    - {value: jogo, name: jogo}\n",
     "betting.ladder[0].value", "^(game|match)$"),
    ("extends: paulista\nbetting:\n  ladder:\n    - {value: match, name: queda}\n"
     "    - {value: 15, name: quinze}\n", "betting.ladder[0].value",
     "expected the step worth the match last"),
])
def test_betting_and_decider_cross_key_checks(write: WriteFile, text: str, key_path: str,
                                              words: str) -> None:
    with pytest.raises(VariantError) as info:
        load_variant(write("v.yaml", text))
    lines = [line for line in str(info.value).splitlines() if f": {key_path}: " in line]
    assert lines and words in lines[0], str(info.value)


def test_a_mapping_cannot_change_a_parents_list(write: WriteFile) -> None:
    path = write("m.yaml", "extends: special-hands-list\nspecial_hands:\n  one_team:\n"
                 "    decision: false\n")
    with pytest.raises(VariantError) as info:
        load_variant(path)
    assert str(info.value).startswith(f"{path}:2:1: special_hands: the parent (special-hands-list)"
                                      " writes its special hands as a list")
    assert len(info.value.lines()) == 1


def test_type_errors_name_every_form_of_a_key(write: WriteFile) -> None:
    with pytest.raises(VariantError, match="expected a mapping or a list, found 3"):
        load_variant(write("t.yaml", "extends: paulista\nspecial_hands: 3\n"))
    with pytest.raises(VariantError, match="expected an integer or a string, found 1.5"):
        load_variant(write("u.yaml", "extends: paulista\nbetting:\n  ladder:\n"
                           "    - {value: 1.5, name: x}\n"))


def test_a_list_replaces_the_parents_mapping_and_needs_no_other_key(write: WriteFile) -> None:
    rules = load_variant(write("none.yaml", "extends: paulista\nspecial_hands: []\n"))
    assert rules.special_hands == () and not rules.one_team.enabled
    m = match(rules)
    _to(m, 0, [9, 1, 1])
    _even(m)
    assert m.state == "play" and m.observation(0)["special"] is None  # 11: a normal hand


def test_special_hands_list_each_entry_is_shown_in_the_transcript() -> None:
    from engine.logformat import record_random
    from engine.transcript import transcript

    text = transcript(record_random("special-hands-list", 12).encode(), "x.jsonl")
    lines = [line for line in text.splitlines() if line.startswith("  mão de")]
    assert "  mão de dez for team 1 (seat 1, seat 3): worth 2" in lines  # raises allowed
    assert ("  mão de onze for team 0 (seat 0, seat 2): worth 3 (a decision: play or fold), "
            "no raises") in lines
    assert "  mão de ferro: worth 3, played blind, no raises" in lines


def test_special_hands_list_too_many_score_classes_still_refuses_duplicates() -> None:
    from engine.variant import _shadowed

    entries = [{"name": f"h{i}", "when": {"teams": "any", "from_score": i, "to_score": i},
                "value": 3, "raises": "illegal"} for i in range(40)]
    entries.append({"name": "again", "when": {"teams": "any", "from_score": 5, "to_score": 5},
                    "value": 3, "raises": "illegal"})
    def err(path: tuple[str | int, ...], message: str, also: object = (),
            **fields: object) -> VariantError:  # a template and its fields, as the loader's
        return VariantError(message.format(**fields), path=".".join(map(str, path)))

    found = [(e.path, e.message) for e in _shadowed(entries, 100, 3, err)]
    assert found == [("special_hands.40.when", "special_hands[40] (again) never applies: "
                      "special_hands[5] has the same condition")]
