"""The variant loader: shipped variants resolve to what docs/rules.md says, ``extends``
overlays, and every error names ``file:line:column``, the key path, and what was expected."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import WriteFile
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import card_name, parse_card
from engine.errors import TrucoError, VariantError
from engine.resources import shipped_variants
from engine.rules import Rules
from engine.variant import MAX_FILE_BYTES, find_variant, load_variant

SHIPPED = sorted(shipped_variants())
HOUSE = sorted(n for n, p in shipped_variants().items() if p.parent.name == "house")
OWN_KEYS = {"name", "title", "description", "extends", "$schema"}


def load_error(path: Path | str) -> VariantError:
    with pytest.raises(VariantError) as info:
        load_variant(path)
    return info.value


def assert_error(path: Path, line: int, column: int, key_path: str | None, *words: str) -> str:
    """The load fails with a problem at ``path:line:column: key_path: ...`` holding ``words``;
    returns that problem's line."""
    err = load_error(path)
    prefix = f"{path}:{line}:{column}: " + (f"{key_path}: " if key_path else "")
    matching = [text for text in err.lines() if text.startswith(prefix)]
    assert matching, f"no problem at {prefix!r} in:\n{err}"
    for word in words:
        assert word in matching[0], f"{word!r} not in {matching[0]!r}"
    return matching[0]


def leaves(data: Any, path: tuple[Any, ...] = ()) -> dict[tuple[Any, ...], Any]:
    """Every scalar or list in a mapping by key path (lists replace, so they are leaves)."""
    if isinstance(data, dict):
        out: dict[tuple[Any, ...], Any] = {}
        for key, value in data.items():
            out.update(leaves(value, path + (key,)))
        return out
    return {path: data}


def rules_only(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in OWN_KEYS | {"card_names"}}


def paulista_text() -> str:
    return shipped_variants()["paulista"].read_text(encoding="utf-8")


# -- shipped variants ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_variant_loads(name: str) -> None:
    rules = load_variant(name)
    assert rules.name == name
    assert rules.title
    assert len(rules.fingerprint) == 64


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_file_starts_with_the_schema_modeline(name: str) -> None:
    path = shipped_variants()[name]
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=")
    target = (path.parent / first.split("$schema=", 1)[1]).resolve()
    assert target.name == "variant.schema.json" and target.is_file()


def test_the_issue_names_every_shipped_variant() -> None:
    assert {"paulista", "mineiro", "mineiro-12"} <= set(SHIPPED)
    assert len(HOUSE) >= 9 + 4 + 4 + 8 + 3 + 1  # + answers, special hands, ties and play,
    # cards (paulista-38-cards, capixaba-jokers, manilhas-vira-suit), teams (three-players)


def test_M9_mineiro_12_overlay_changes_only_the_ladder() -> None:
    m9, m12 = load_variant("mineiro"), load_variant("mineiro-12")
    before, after = leaves(rules_only(m9.data)), leaves(rules_only(m12.data))
    changed = {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}
    assert changed == {("betting", "ladder")}
    assert [s.value for s in m9.ladder] == [3, 6, 9]
    assert [s.value for s in m12.ladder] == [3, 6, 9, 12]
    assert m12.step_name(12) == "doze"


@pytest.mark.parametrize("name", HOUSE)
def test_house_variant_differs_from_its_parent_exactly_in_its_own_keys(name: str) -> None:
    path = shipped_variants()[name]
    own = yaml.safe_load(path.read_text(encoding="utf-8"))
    parent = load_variant(own["extends"])
    child = load_variant(name)
    before, after = leaves(rules_only(parent.data)), leaves(rules_only(child.data))
    changed = {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}
    # Every key the file writes changes something, and nothing else changes (a list that
    # replaces the parent's mapping, special_hands, changes every key under it).
    written = set(leaves(rules_only(own)))
    assert all(any(p[:len(w)] == w for w in written) for p in changed), changed - written
    assert all(any(p[:len(w)] == w for p in changed) for w in written), written - changed
    assert child.fingerprint != parent.fingerprint


HOUSE_RULES: dict[str, dict[str, Any]] = {
    # docs/rules.md, "House rules".
    "classic-mineiro": {"initial_value": 2, "ladder_values": [4, 6, 8, 10, 12],
                        "manilha_mode": "fixed"},
    "paulista-mao-de-11-decision": {"one_team.decision": True, "one_team.show_partner_cards": True,
                                    "one_team.value": 3, "one_team.fold_points": 1},
    "manilha-velha": {"manilha_mode": "fixed", "fixed_manilhas": ["7d", "As", "7h", "4c"],
                      "raise_timing": "own_turn", "covered_allowed": True, "games_to_win": 1},
    "mineiro-mao-de-dez-wins-game": {"one_team.winner_takes_game": True,
                                     "one_team.decision": True},
    "covered-from-round-1": {"covered_allowed": True, "covered_from_round": 1},
    "no-covered-cards": {"covered_allowed": False},
    "tie-leader-who-tied": {"tied_round_leader": "last_tied_card"},
    "mineiro-best-of-5": {"games_to_win": 3},
    "one-on-one": {"players": 2, "cap_score": True, "target": 12, "all_tied": "mao_team",
                   "one_team.decision": True, "one_team.raises": "illegal",
                   "both_teams.value": 3, "both_teams.blind": False,
                   "both_teams.raises": "illegal"},
    "special-hands-list": {"one_team.name": "mão de onze", "one_team.decision": True,
                           "both_teams.blind": True, "both_teams.raises": "illegal"},
    "single-decider": {"one_team.decision": True, "one_team.decider": "first_from_mao"},
    "no-raise-when-winning": {"no_raise_when_winning": True},
    "game-step": {"ladder_values": [3, 6, 9, 12], "game_value": 12},
    "doze-e-queda": {"ladder_values": [3, 6, 9, 12, 24], "game_value": 24, "match_step": True,
                     "games_to_win": 2},
    "concede": {"concede": True, "concede_instead_of_answer": False,
                "concede_in_special_hands": False},
    "next-seat-answers": {"answered_by": "next_seat", "refusal": "one_player"},
    "both-refuse": {"refusal": "whole_team", "answered_by": "challenged_team"},
    "no-raise-back": {"raise_back": False, "concede": False},
    "cut": {"cut.allowed": True,
            "cut.choices": ["seco", "burn", "bottom", "partner"]},  # catalogue #36
    "redeal": {"redeal.allowed": True, "redeal.void_ranks": ["Q", "J", "K"]},  # a kind's block
    # issue 42, the table and the match
    "later-games-11-11": {"games_to_win": 2, "match.start_score": 11,
                          "match.start_score_from_game": 2},
    "amostra-ace-of-ouros": {"suit_ranking.ranks": ("A",),
                             "suit_ranking.suits": ("h", "c", "s", "d")},
    "amostra-twelve-players": {"players": 12, "teams": 2},
    "partners-tie-lowest-seat": {"rounds.partners_tie_leader": "lowest_seat"},
    "no-cover-after-partner": {"no_cover_after_partner": True},
    # issue 42: seeing, who answers, the raise limit, resigning
    "partners-see-cards": {"seeing.partners": "always"},
    "mao-de-11-cards-kept": {"seeing.partners": "special_hand", "one_team.decision": True},
    "only-the-player-answers": {"answered_by": "designated"},
    "raise-limit-trailing-needs": {"no_raise_when_winning": False},
    "resign": {"resign.allowed": True, "resign.gives": "game"},
    "concede-partner-confirms": {"concede": True, "confirm.moves": ["concede"]},
    "mao-de-dez-fold-both-partners": {"one_team.decision": True, "confirm.moves": ["fold_hand"]},
    "first-dealer-drawn": {"match.first_dealer": "drawn",
                           "match.first_dealer_suits": ("c", "h", "s", "d")},
    "blind-dealt-numbers": {"play.blind_places": "dealt"},
    "vira-last-card": {"deal.vira": "last"},
    "dealt-one-at-a-time": {"deal.packets": [1, 1, 1]},
    "pack-made-from-last-hand": {"deal.pack": "made"},
    "cut-not-in-special-hands": {"cut.allowed": True, "cut.in_special_hands": False},
    "cut-sobe-desce": {"cut.allowed": True, "cut.choices": ["seco", "sobe"]},
    "cut-take-two": {"cut.allowed": True, "cut.take": 2},
    "cut-refusable-four": {"cut.allowed": True, "cut.refusable": ["4d"]},
    "last-hand-hidden": {"seeing.last_hand": "hidden"},
    "mineiro-highest-after-tie": {"obligations.named_card": "obliged",
                                  "highest_after_tied_first": True},
    "tie-leader-lowest-seat": {"tied_round_leader": "lowest_seat"},
    "tie-leader-mao": {"tied_round_leader": "mao", "cards_per_player": 5},
    "all-tied-first-round": {"all_tied": "first_round_first_card"},
    "five-cards": {"cards_per_player": 5, "tied_round_leader": "same_leader"},
    "leader-face-up": {"leader_face_up": True, "covered_allowed": True},
    "no-cover-after-tie": {"no_cover_after_tie": True, "covered_allowed": True},
    "highest-after-tied-first": {"highest_after_tied_first": True},
    "raiser-must-beat": {"raiser_must_beat": True},
    "raiser-must-kill": {"raiser_must_kill": True, "raiser_must_beat": False},
    "paulista-38-cards": {"deck_minus": (13, 26), "manilha_mode": "vira"},
    "capixaba-jokers": {"deck_extra": ((52, "3"), (53, "3")), "manilha_mode": "vira"},
    "manilhas-vira-suit": {"manilha_mode": "vira_suit", "manilha_ranks": ("7", "A", "4")},
    "truco-de-amostra": {"manilha_mode": "vira_suit", "manilha_ranks": ("J", "Q", "5", "4", "2"),
                         "manilha_stand_in": "K", "fixed_manilhas": ["7d", "7s", "Ac", "As"]},
    "three-players": {"players": 3, "teams": 3, "team_of": (0, 1, 2),
                      "answered_by": "next_seat", "one_team.enabled": False},
    # Gaudério's house options (GH1, GH2, GH2b, GH15, GH16, GH17)
    "gauderio-one-on-one": {"players": 2, "target": 18, "manilha_mode": "fixed"},
    "gauderio-trios": {"players": 6, "team_of": (0, 1, 0, 1, 0, 1), "target": 24},
    "gauderio-all-tied-nobody": {"all_tied": "nobody", "target": 24},
    "gauderio-30": {"target": 30, "games_to_win": 1},
    "gauderio-best-of-3": {"games_to_win": 2, "target": 24},
    "gauderio-truco-any-time": {"raise_timing": "any_time", "concede": True},
    "gauderio-covered": {"covered_allowed": True, "covered_from_round": 2},
    "gauderio-envido-at-end": {"envido.credit": "end_of_hand",
                               "flor.credit": "end_of_hand"},  # GH6
    "gauderio-falta-trailer": {"envido.falta": "target_minus_trailer"},
    "gauderio-truco-closes-envido": {"envido.closed_by_truco": "called",
                                     "envido.truco_precedence": False},
    "gauderio-envido-pes": {"envido.callers": "pes", "envido.round": 0},
    "gauderio-real-envido-twice": {"envido.chain:real envido,real envido": 6},
    "gauderio-baralho-envido-open": {"envido.open_fold_penalty": 1},
    "gauderio-envido-public": {"envido.declare": "all"},
    "gauderio-sem-flor": {"flor.kind": None},  # GH12
    "gauderio-flor-argentina": {"flor.chain:flor": 4, "flor.chain:com flor me achico": 4,
                                "flor.chain:contra-flor,contra-flor ao resto": "falta"},  # GH13
    "gauderio-flor-round-1": {"flor.timing": "round_end"},  # GH14
    "gauderio-carancho": {"players": 3, "teams": 3, "team_of": (0, 1, 2),  # #27
                          "answered_by": "next_seat", "target": 24},
}


def _attr(rules: Rules, dotted: str) -> Any:
    if dotted == "ladder_values":
        return [s.value for s in rules.ladder]
    if dotted == "fixed_manilhas":
        return [card_name(c) for c in rules.fixed_manilhas]
    if dotted.startswith("flor."):  # the flor (G33-G41): None where it is not played (GH12)
        flor = next((b for b in rules.side_bets if b.kind == "flor"), None)
        rest = dotted.split(".", 1)[1]
        if flor is None or not rest.startswith("chain:"):
            return None if flor is None else getattr(flor, rest)
        return flor.flor_chains[tuple(rest[len("chain:"):].split(","))].accepted  # type: ignore[index]
    if dotted.startswith("envido."):  # the side bet (G22-G32): a field, or a chain's value
        bet = rules.side_bets[0]
        rest = dotted.split(".", 1)[1]
        if rest.startswith("chain:"):
            return bet.chains[tuple(rest[len("chain:"):].split(","))].accepted
        return getattr(bet, rest)
    block, _, key = dotted.partition(".")
    if key and not hasattr(rules, block):  # a kind's own block (Rules.block)
        return rules.block(block)[key]
    value: Any = rules
    for part in dotted.split("."):
        value = getattr(value, part)
    return value


@pytest.mark.parametrize("name", sorted(HOUSE_RULES))
def test_house_variant_resolves_to_its_house_rule_in_docs(name: str) -> None:
    rules = load_variant(name)
    for dotted, expected in HOUSE_RULES[name].items():
        assert _attr(rules, dotted) == expected, dotted


def test_every_house_variant_is_checked_against_its_house_rule() -> None:
    assert set(HOUSE_RULES) == set(HOUSE)


def test_C1_C3_four_players_three_cards_each() -> None:
    for name in ("paulista", "mineiro"):
        rules = load_variant(name)
        assert (rules.players, rules.cards_per_player) == (4, 3)


def test_C2_shipped_decks_have_40_cards() -> None:
    for name in ("paulista", "mineiro"):
        rules = load_variant(name)
        assert len(rules.deck) == 40
        assert not {card_name(c)[0] for c in rules.deck} & {"8", "9", "T"}


def test_C8_paulista_ladder_is_3_6_9_12_from_1() -> None:
    rules = load_variant("paulista")
    assert rules.initial_value == 1
    assert [(s.value, s.name) for s in rules.ladder] == [
        (3, "truco"), (6, "seis"), (9, "nove"), (12, "doze")]
    assert rules.next_step(1).value == 3  # type: ignore[union-attr]
    assert rules.next_step(9).value == 12  # type: ignore[union-attr]
    assert rules.next_step(12) is None
    assert rules.top_value == 12


def test_C11_game_to_12_without_cap() -> None:
    for name in ("paulista", "mineiro"):
        rules = load_variant(name)
        assert (rules.target, rules.cap_score) == (12, False)


@pytest.mark.parametrize(("vira", "manilha_rank"),
                         [("3h", "4"), ("7c", "Q"), ("Qd", "J"), ("Ks", "A"), ("2c", "3")])
def test_P1_manilhas_are_the_rank_after_the_vira(vira: str, manilha_rank: str) -> None:
    rules = load_variant("paulista")
    manilhas = [card_name(c) for c in rules.manilhas_for(parse_card(vira))]
    assert manilhas == [manilha_rank + s for s in "dshc"]


def test_P2_manilhas_beat_every_card_and_rank_by_suit_d_s_h_c() -> None:
    rules = load_variant("paulista")
    strength = rules.strengths(parse_card("3h"))  # the 4s are manilhas
    order = [strength[parse_card(c)] for c in ("4d", "4s", "4h", "4c")]
    assert order == sorted(order) and len(set(order)) == 4
    assert order[0] > max(strength[c] for c in rules.deck if card_name(c)[0] != "4")


def test_P3_ordinary_cards_rank_4_to_3_and_suits_tie() -> None:
    rules = load_variant("paulista")
    assert rules.ranking == ("4", "5", "6", "7", "Q", "J", "K", "A", "2", "3")
    strength = rules.strengths(parse_card("Kc"))  # the As are manilhas
    assert strength[parse_card("3c")] == strength[parse_card("3d")] > strength[parse_card("2h")]


def test_M1_fixed_manilhas_zap_copas_espadilha_pica_fumo() -> None:
    rules = load_variant("mineiro")
    assert not rules.has_vira
    strength = rules.strengths(None)
    zap, copas, espadilha, pica_fumo = (strength[parse_card(c)] for c in ("4c", "7h", "As", "7d"))
    assert zap > copas > espadilha > pica_fumo > strength[parse_card("3c")]


def test_M2_ordinary_cards_rank_and_suits_tie() -> None:
    rules = load_variant("mineiro")
    strength = rules.strengths(None)
    assert strength[parse_card("3s")] > strength[parse_card("2s")] > strength[parse_card("Ah")]
    assert strength[parse_card("Ah")] == strength[parse_card("Ac")]  # As is a manilha, Ah not
    assert strength[parse_card("4d")] < strength[parse_card("5d")]


def test_M3_M4_P4_who_raises_and_naming_the_card() -> None:
    paulista, mineiro = load_variant("paulista"), load_variant("mineiro")
    assert (paulista.raise_timing, paulista.name_card) == ("own_turn", False)
    assert (mineiro.raise_timing, mineiro.name_card) == ("any_time", True)
    assert mineiro.refused_card_shown_in_rounds == (1,)


def test_P5_P6_paulista_special_hands() -> None:
    rules = load_variant("paulista")
    one, both = rules.one_team, rules.both_teams
    assert (one.from_score, one.value, one.decision, one.blind) == (11, 3, False, False)
    assert (one.penalty_team_at_score, one.penalty_other_team) == ("lose_game", "lose_game")
    assert (both.from_score, both.value, both.blind, both.penalty) == (11, 3, True, "lose_game")


def test_M5_M6_mineiro_special_hands() -> None:
    rules = load_variant("mineiro")
    one, both = rules.one_team, rules.both_teams
    assert (one.from_score, one.value, one.decision, one.fold_points) == (10, 3, True, 1)
    assert one.show_partner_cards and not one.winner_takes_game
    assert (one.penalty_team_at_score, one.penalty_other_team) == ("lose_hand", "lose_game")
    assert (both.from_score, both.value, both.blind, both.penalty) == (10, 3, False, "lose_game")


def test_P7_P8_M7_P9_M8_ties_covered_cards_and_matches() -> None:
    paulista, mineiro = load_variant("paulista"), load_variant("mineiro")
    assert (paulista.covered_allowed, paulista.covered_from_round) == (True, 2)
    assert not mineiro.covered_allowed
    assert (paulista.all_tied, mineiro.all_tied) == ("nobody", "mao_team")
    assert paulista.tied_round_leader == mineiro.tied_round_leader == "same_leader"  # C6
    assert (paulista.games_to_win, mineiro.games_to_win) == (1, 2)


# -- the rules object ------------------------------------------------------------------------------
def test_rules_are_hashable_and_equal_for_the_same_file() -> None:
    a, b = load_variant("paulista"), load_variant("paulista")
    assert a is not b
    assert a == b and hash(a) == hash(b)
    assert len({a, b, load_variant("mineiro")}) == 2
    with pytest.raises(AttributeError):
        a.players = 2  # type: ignore[misc]


def test_fingerprint_is_the_sha256_of_the_canonical_resolved_rules() -> None:
    rules = load_variant("mineiro-12")
    canonical = json.dumps(rules_only(rules.data), sort_keys=True, separators=(",", ":"),
                           ensure_ascii=False)
    assert rules.fingerprint == hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    assert rules.fingerprint == load_variant("mineiro-12").fingerprint


def test_fingerprint_ignores_names_comments_and_key_order(write: WriteFile) -> None:
    doc = yaml.safe_load(paulista_text())
    doc = {k: doc[k] for k in reversed(list(doc))}
    doc["name"], doc["title"] = "renamed", "Another title"
    path = write("renamed.yaml", "# a comment\n" + yaml.safe_dump(doc, sort_keys=False))
    assert load_variant(path).fingerprint == load_variant("paulista").fingerprint


def test_M1_card_names_are_inherited_checked_and_not_in_the_fingerprint(
        write: WriteFile) -> None:
    assert load_variant("mineiro-12").data["card_names"]["4c"] == "zap"  # inherited
    renamed = write("renamed.yaml", "extends: mineiro\ncard_names: {4c: o zap, 7d: ouros}\n")
    rules = load_variant(renamed)
    assert rules.data["card_names"] == {"4c": "o zap", "7h": "copas", "As": "espadilha",
                                        "7d": "ouros"}
    assert rules.fingerprint == load_variant("mineiro").fingerprint
    bad = write("bad.yaml", "extends: mineiro\ncard_names: {8c: oito}\n")
    err = load_error(bad)
    assert "card_names.8c" in str(err) and "8c is not in the deck" in str(err)
    assert load_error(write("notcard.yaml", "extends: mineiro\ncard_names: {zap: 4c}\n"))


def test_fingerprint_changes_with_any_rule(write: WriteFile) -> None:
    path = write("v.yaml", "extends: paulista\ngame:\n  cap_score: true\n")
    assert load_variant(path).fingerprint != load_variant("paulista").fingerprint


def test_find_variant_loads_each_shipped_name_once() -> None:
    assert find_variant("mineiro") is find_variant("mineiro")
    with pytest.raises(VariantError, match="unknown variant 'nope'"):
        find_variant("nope")


# -- extends ---------------------------------------------------------------------------------------
def test_extends_merges_mappings_and_replaces_lists(write: WriteFile) -> None:
    path = write("house.yaml", """\
extends: paulista
special_hands:
  one_team:
    decision: true
betting:
  ladder:
    - {value: 3, name: truco}
""")
    rules = load_variant(path)
    assert rules.one_team.decision is True
    assert rules.one_team.from_score == 11  # the rest of one_team is the parent's
    assert rules.raise_timing == "own_turn"  # and so is the rest of betting
    assert [s.value for s in rules.ladder] == [3]  # the list replaced the parent's


def test_name_defaults_to_the_file_name_and_is_not_inherited(write: WriteFile) -> None:
    rules = load_variant(write("my-house.yaml", "extends: paulista\n"))
    assert rules.name == "my-house"
    assert "title" not in rules.data or rules.data["title"] != "Truco Paulista"


def test_extends_a_relative_path_from_the_child_file(write: WriteFile) -> None:
    write("base/root.yaml", paulista_text())
    write("base/middle.yaml", "extends: root.yaml\ngame: {cap_score: true}\n")
    child = write("house/child.yaml", "extends: ../base/middle.yaml\nmatch: {games_to_win: 2}\n")
    rules = load_variant(child)
    assert (rules.cap_score, rules.games_to_win, rules.has_vira) == (True, 2, True)


# -- errors: each names file:line:column, the key path and what was expected -----------------------
def test_error_is_a_truco_error_and_a_value_error(write: WriteFile) -> None:
    err = load_error(write("v.yaml", "extends: paulista\nplayers: 5\n"))
    assert isinstance(err, TrucoError) and isinstance(err, ValueError)
    assert (err.line, err.column, err.path) == (2, 10, "players")


# Each case: a file's text, then where the problem is (line:column), its key path, and words of
# its message (what was expected and what was found). The case's id says the behaviour.
SCHEMA_ERRORS: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    "unknown key is reported with the keys allowed": (
        "extends: paulista\nbetting:\n  raise_timng: own_turn\n", "3:3", "betting.raise_timng",
        ("unknown key 'raise_timng'", "expected one of:", "raise_timing")),
    "unknown top-level key": (
        "extends: paulista\nplayer: 4\n", "2:1", "player", ("unknown key 'player'", "players")),
    "wrong type names expected and found": (
        "extends: paulista\ngame:\n  target: twelve\n", "3:11", "game.target",
        ('expected an integer, found "twelve"',)),
    "quoted value is a wrong type": (
        "extends: paulista\ncovered_cards:\n  allowed: 'yes'\n", "3:12", "covered_cards.allowed",
        ("expected a boolean", 'found "yes"')),
    "bad enum lists the allowed values": (
        "extends: paulista\nrounds:\n  all_tied: everybody\n", "3:13", "rounds.all_tied",
        ('expected one of "nobody", "mao_team"', 'found "everybody"')),
    "players must be 2, 3, 4 or 6": (
        "extends: paulista\nplayers: 5\n", "2:10", "players",
        ("expected one of 2, 3, 4, 6, 8, 10, 12, found 5",)),
    "3 players need teams": (
        "extends: paulista\nplayers: 3\n", "2:10", "players",
        ("3 players cannot sit as two teams in alternate seats: expected teams",)),
    "bad item in a list names its index": (
        "extends: paulista\nbetting:\n  ladder:\n    - {value: 3}\n", "4:7", "betting.ladder[0]",
        ("missing key(s): name",)),
    "duplicate key": (
        "extends: paulista\ngame:\n  target: 12\n  target: 15\n", "4:3", "game.target",
        ("duplicate key 'target'", "first at line 3")),
    "duplicate top-level key": (
        "players: 4\nextends: paulista\nplayers: 2\n", "3:1", "players",
        ("duplicate key 'players'",)),
    "yaml alias is refused": (
        "extends: paulista\ngame: &g {target: 12}\nmatch: *g\n", "3:8", "match",
        ("YAML aliases", "not allowed")),
    "non-string key is refused": (
        "extends: paulista\ngame:\n  12: target\n", "3:3", "game", ("keys must be strings",)),
}


@pytest.mark.parametrize("case", SCHEMA_ERRORS)
def test_schema_error_names_location_key_path_and_expectation(case: str, write: WriteFile) -> None:
    text, where, key_path, words = SCHEMA_ERRORS[case]
    line, column = map(int, where.split(":"))
    assert_error(write("v.yaml", text), line, column, key_path, *words)


def test_wrong_type_is_reported_once_not_also_as_a_bad_enum(write: WriteFile) -> None:
    lines = load_error(write("v.yaml", "extends: paulista\nplayers: four\n")).lines()
    assert len(lines) == 1 and lines[0].endswith('players: expected an integer, found "four"')


@pytest.mark.parametrize("value", [
    "!!python/object/apply:os.system ['echo unsafe']",
    "!!python/object:engine.rules.Step {value: 3, name: x}",
    "!!python/name:os.system ''",
    "!!binary aGVsbG8=",
    "!!set {a, b}",
])
def test_yaml_tags_beyond_plain_data_are_refused(write: WriteFile, value: str) -> None:
    path = write("v.yaml", f"extends: paulista\ngame: {value}\n")
    assert_error(path, 2, 7, "game", "YAML tag", "is not allowed")


def test_extends_cycle_is_reported(write: WriteFile) -> None:
    a = write("a.yaml", "extends: b.yaml\n")
    write("b.yaml", "players: 4\nextends: a.yaml\n")
    # Reported where the cycle closes: the extends that leads back to a file on the chain.
    b = a.parent / "b.yaml"
    assert str(load_error(a)) == f"{b}:2:10: extends: extends cycle: a.yaml -> b.yaml -> a.yaml"
    assert str(load_error(b)).startswith(f"{a}:1:10: extends: extends cycle: b.yaml -> a.yaml")


def test_extending_itself_is_a_cycle(write: WriteFile) -> None:
    path = write("self.yaml", "extends: self.yaml\n")
    assert_error(path, 1, 10, "extends", "extends cycle: self.yaml -> self.yaml")


def test_unknown_parent_names_the_shipped_ones(write: WriteFile) -> None:
    path = write("v.yaml", "title: x\nextends: paulistaa\n")
    assert_error(path, 2, 10, "extends", "unknown variant 'paulistaa'",
                 "did you mean paulista or", "truco variants list names them all",
                 "or a path to a .yaml file")


def test_missing_parent_file(write: WriteFile) -> None:
    path = write("v.yaml", "extends: ../nowhere/parent.yaml\n")
    assert_error(path, 1, 10, "extends", "no variant file at")


@pytest.mark.parametrize("ref", ["sub", "./sub", "sub/"])
def test_extends_to_a_directory(write: WriteFile, ref: str) -> None:
    path = write("v.yaml", f"extends: {ref}\n")
    (path.parent / "sub").mkdir()
    assert_error(path, 1, 10, "extends", "is a directory, not a variant file")


def test_extends_must_be_a_string(write: WriteFile) -> None:
    path = write("v.yaml", "extends: 3\n")
    assert_error(path, 1, 10, "extends", "expected the name or path of a parent variant")


def test_root_variant_must_state_every_rule(write: WriteFile) -> None:
    text = "\n".join(line for line in paulista_text().splitlines() if "raise_timing" not in line)
    text = text.replace("match:\n  games_to_win: 1                # P9: a match is one game", "")
    path = write("root.yaml", text)
    err = load_error(path)
    betting_line = text.splitlines().index("betting:") + 1
    assert_error(path, betting_line + 1, 3, "betting.raise_timing", "missing key 'raise_timing'",
                 "P4", "extends nothing")
    assert any(": match: missing key 'match'" in line for line in err.lines())


def test_every_problem_is_reported_in_file_order(write: WriteFile) -> None:
    path = write("v.yaml", "extends: paulista\nplayers: 5\ngame:\n  target: x\n  capp: 1\n")
    lines = load_error(path).lines()
    assert [line.split(": ")[1] for line in lines] == ["players", "game.target", "game.capp"]
    assert [line.split(": ")[0] for line in lines] == [f"{path}:2:10", f"{path}:4:11",
                                                       f"{path}:5:3"]


# -- semantic errors ------------------------------------------------------------------------------
SEMANTIC_ERRORS: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    "ranking must match the deck": (
        'extends: paulista\nranking: ["4", "5", "6", "7", Q, J, K, A, "2", "8"]\n', "2:10",
        "ranking", ("exactly the deck's ranks", "not in the deck: 8", "missing: 3")),
    "fixed manilha must be in the deck": (
        "extends: paulista\nmanilhas:\n  mode: fixed\n  cards: [7d, 8s]\n", "4:15",
        "manilhas.cards[1]", ("manilha 8s is not in the deck",)),
    "fixed mode needs cards": (
        "extends: paulista\nmanilhas:\n  mode: fixed\n", "3:3", "manilhas",
        ("mode fixed needs cards",)),
    "ladder must increase": (
        "extends: mineiro\nbetting:\n  ladder:\n    - {value: 3, name: truco}\n"
        "    - {value: 9, name: nove}\n    - {value: 6, name: seis}\n", "6:15",
        "betting.ladder[2].value", ("the ladder must increase", "expected more than 9, found 6")),
    "first step must exceed the initial value": (
        "extends: paulista\nbetting:\n  initial_value: 3\n", "3:18", "betting.initial_value",
        ("expected more than 3, found 3",)),
    "threshold must be below the target": (
        "extends: paulista\ngame:\n  target: 11\n", "3:11", "game.target",
        ("expected special_hands.one_team.from_score below game.target, found 11 and 11",)),
    "threshold written in the file is where the error is": (
        "extends: mineiro\nspecial_hands:\n  both_teams:\n    from_score: 12\n", "4:17",
        "special_hands.both_teams.from_score", ("below game.target", "found 12 and 12")),
    "too many players for the deck": (
        'extends: paulista\nplayers: 6\ndeck:\n  ranks: [A, "2", "3", "4"]\n'
        'ranking: ["4", A, "2", "3"]\n', "4:10", "deck.ranks",
        ("expected a deck of at least 19 cards", "found 16")),
}


@pytest.mark.parametrize("case", SEMANTIC_ERRORS)
def test_semantic_error_names_location_key_path_and_expectation(
    case: str, write: WriteFile
) -> None:
    text, where, key_path, words = SEMANTIC_ERRORS[case]
    line, column = map(int, where.split(":"))
    assert_error(write("v.yaml", text), line, column, key_path, *words)


# -- the file itself -------------------------------------------------------------------------------
def test_non_utf8_file_names_the_byte_and_its_position(write: WriteFile) -> None:
    path = write("v.yaml", b"extends: paulista\ntitle: caf\xe9\n")
    assert_error(path, 2, 11, None, "not UTF-8", "0xe9")


def test_character_yaml_forbids_is_located(write: WriteFile) -> None:
    path = write("v.yaml", "extends: paulista\ntitle: a\x00b\n")
    assert_error(path, 2, 9, None, "character U+0000 is not allowed")


def test_utf8_byte_order_mark_is_accepted(write: WriteFile) -> None:
    path = write("v.yaml", "\ufeffextends: paulista\ntitle: Com BOM, é\n".encode())
    assert load_variant(path).title == "Com BOM, é"


def test_multiple_documents_are_refused(write: WriteFile) -> None:
    path = write("v.yaml", "extends: paulista\n---\nextends: mineiro\n")
    assert_error(path, 2, 1, None, "expected a single YAML document")


@pytest.mark.parametrize(("text", "kind"), [("- extends: paulista\n", "list"),
                                            ("paulista\n", "scalar")])
def test_top_level_must_be_a_mapping(write: WriteFile, text: str, kind: str) -> None:
    path = write("v.yaml", text)
    assert_error(path, 1, 1, None, f"expected a mapping of variant keys at the top level, "
                 f"found a {kind}")


@pytest.mark.parametrize("text", ["", "# only a comment\n", "\n\n"])
def test_empty_file_is_refused(write: WriteFile, text: str) -> None:
    path = write("v.yaml", text)
    assert_error(path, 1, 1, None, "empty file")


def test_file_over_1_MiB_is_refused(write: WriteFile) -> None:
    path = write("v.yaml", "extends: paulista\n" + "#" * MAX_FILE_BYTES + "\n")
    assert MAX_FILE_BYTES == 1 << 20
    assert_error(path, 1, 1, None, "a variant file may have at most 1048576")


def test_invalid_yaml_syntax_names_the_position(write: WriteFile) -> None:
    path = write("v.yaml", "extends: paulista\ngame: {target: 12\n")
    err = load_error(path)
    assert err.file == str(path) and err.line == 3 and "invalid YAML" in str(err)


def test_a_directory_is_not_a_variant_file(tmp_path: Path) -> None:
    assert_error(tmp_path, 1, 1, None, "is a directory")


def test_a_missing_file_is_reported(tmp_path: Path) -> None:
    assert_error(tmp_path / "none.yaml", 1, 1, None, "cannot read")


def test_deep_nesting_is_refused(write: WriteFile) -> None:
    path = write("v.yaml", "extends: paulista\ngame: " + "[" * 200 + "]" * 200 + "\n")
    assert "nesting" in str(load_error(path))


# -- fuzz: whatever the bytes, the loader answers with rules or a located VariantError -------------
_FRAGMENTS = ["extends: paulista\n", "extends: x.yaml\n", "players: 4\n", "game:\n  target: ",
              "betting:\n  ladder:\n    - {value: 3, name: truco}\n", "&a ", "*a", "!!python/none",
              "---\n", "[", "{", "- ", ": ", "'", '"', "\t", "\ufeff", "12\n", "true\n", "\n"]


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.binary(max_size=200),
                 st.lists(st.sampled_from(_FRAGMENTS), max_size=12).map("".join)))
def test_loader_answers_any_input_with_rules_or_a_located_error(
    tmp_path: Path, content: bytes | str
) -> None:
    path = tmp_path / "fuzz.yaml"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    try:
        rules = load_variant(path)
    except VariantError as err:
        assert err.errors
        for problem in err.errors:
            assert problem.file and problem.line and problem.column, str(problem)
    else:
        assert isinstance(rules, Rules)


def test_a_variant_file_is_loaded_once_while_it_and_its_parent_are_unchanged(
        write: WriteFile, monkeypatch: pytest.MonkeyPatch) -> None:
    """Match.new with a path (and every command that takes one) parses and checks the file
    once, then again only when it or a file it extends changes."""
    import engine.variant
    from engine import Match

    parent = write("parent.yaml", "extends: paulista\nname: parent\ngame: {target: 15}\n")
    child = write("child.yaml", f"extends: {parent}\nname: child\n")
    loads: list[str] = []
    real = engine.variant._read  # the loader's reading of the files, under its cache

    def counting(ref: Any, base: Any) -> Rules:
        loads.append(str(ref))
        return real(ref, base)

    monkeypatch.setattr(engine.variant, "_read", counting)
    first = [Match.new(child, seed=s).rules for s in range(5)]
    assert len(loads) == 1 and {r.target for r in first} == {15}
    parent.write_text("extends: paulista\nname: parent\ngame: {target: 18}\n", encoding="utf-8")
    assert Match.new(str(child), seed=1).rules.target == 18  # the parent changed: loaded again
    assert len(loads) == 2
    Match.new(child, seed=2)
    assert len(loads) == 2
