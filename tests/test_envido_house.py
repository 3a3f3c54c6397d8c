"""The house options of envido (GH6-GH11, GH18) and going to the baralho with a side bet
(G20), each on explicit deals, named after its id: each test would fail if the option were
not applied."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import WriteFile
from helpers import act, assert_illegal, deal, legal, match, of
from test_envido import at

from engine import Match
from engine.errors import VariantError
from engine.sidebets import falta_value
from engine.variant import load_variant

BASE = "gauderio"

#: The house ways of playing envido (variants/house/), by the option each plays.
HOUSE = {
    "GH6": "gauderio-envido-at-end", "GH7b": "gauderio-falta-trailer",
    "GH8": "gauderio-truco-closes-envido", "GH9": "gauderio-envido-pes",
    "GH10": "gauderio-real-envido-twice", "GH11": "gauderio-baralho-envido-open",
    "GH18": "gauderio-envido-public",
}


def house(_write: WriteFile, option: str) -> str:
    """The shipped house variant that plays ``option``."""
    return HOUSE[option]


def bets(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return of(events, "side_bet")


D33 = "7d 6d 3s | As Ac 4h | 5c Jc Qd | 4s 5s Kh"  # seat 0 33, seat 1 4, seat 2 25, seat 3 29


def test_GH6_envido_credited_at_the_end_of_the_hand_and_first(write: WriteFile) -> None:
    """Won at 20-22, the envido's 5 wait for the end of the hand; the hand's 2 bring team 1
    to 24 too, but the envido is credited first and wins the game (pinned)."""
    m = at([20, 22], variant=house(write, "GH6"))
    m.deal(deal(3, D33))
    events = act(m, "envido 0 envido", "envido 1 real envido", "quero 0")
    assert [e["event"] for e in events] == ["side_declare"] * 3  # no crediting yet
    assert m.score == [20, 22] and m.state == "play"
    events = act(m, "play 0 3s", "raise 1 2", "accept 0", "play 1 As", "play 2 5c",
                 "play 3 4s", "play 1 Ac", "play 2 Jc", "play 3 5s", "play 0 7d")
    assert [e["event"] for e in events if e["event"] != "round"] == [
        "side_bet", "side_show", "hand", "game", "match"]
    assert bets(events)[0]["score"] == [25, 22]
    assert of(events, "hand")[0]["score"] == [25, 24]
    assert of(events, "game")[0]["winner"] == 0


def test_GH6_a_refusal_is_credited_at_the_end_of_the_hand_too(write: WriteFile) -> None:
    m = match(house(write, "GH6"), deal(3, D33), dealer=3)
    assert not bets(act(m, "envido 0 envido", "nao_quero 1"))
    assert m.score == [0, 0]
    events = act(m, "concede 0")
    assert [e["event"] for e in events] == ["side_bet", "hand"]
    assert bets(events)[0]["score"] == [1, 0] and m.score == [1, 1]


FLOR_0 = "7c 5c 4c | 3d 2s Kd | 3h 6c Qh | Ks Qd Jh"  # seat 0's flor, nobody else's


def test_GH6_a_flor_is_credited_at_the_end_of_the_hand_too(write: WriteFile) -> None:
    """GH6 reads "envido/flor points credited only at the end of the hand": at 22-0 the
    uncontested flor's 3 would end the game at the song (G41, G46); under GH6 the hand goes
    on and the flor is credited when it ends, before the hand's points."""
    m = at([22, 0], variant=BASE)
    m.deal(deal(3, FLOR_0))
    assert of(act(m, "flor 0 flor"), "game") and m.score == [25, 0]  # G41: at once
    m = at([22, 0], variant=house(write, "GH6"))
    m.deal(deal(3, FLOR_0))
    assert act(m, "flor 0 flor") == [] and m.score == [22, 0] and m.state == "play"
    events = act(m, "play 0 7c", "concede 1")
    assert [e["event"] for e in events] == ["side_bet", "side_show", "hand", "game",
                                             "match"]
    assert bets(events)[0]["bet"] == "flor" and bets(events)[0]["score"] == [25, 0]
    assert of(events, "hand")[0]["score"] == [26, 0]


def test_GH6_the_flor_first_when_both_teams_reach_the_target(write: WriteFile) -> None:
    """GH6's pinned tie-break, for the flor as for the envido: the side bet is credited
    first, and the team it brings to the target wins even if the hand brings the other
    there too."""
    m = at([22, 23], variant=house(write, "GH6"))
    m.deal(deal(3, FLOR_0))
    act(m, "flor 0 flor")
    events = act(m, "concede 0")
    assert of(events, "hand")[0]["score"] == [25, 24]
    assert of(events, "game")[0]["winner"] == 0


@pytest.mark.parametrize(("how", "score", "winner", "value"), [
    ("target_minus_leader", [5, 9], 0, 15),  # G29
    ("target_minus_trailer", [5, 9], 0, 19),  # GH7b
    ("first_half_wins_game", [5, 9], 1, 15),  # GH7c: both in the first half: the game
    ("first_half_wins_game", [5, 13], 0, 11),
    ("leader_to_half", [5, 9], 0, 3),  # GH7d: what the leader lacks to the half
    ("leader_to_half", [5, 13], 0, 11),
    ("difference_plus_one", [5, 9], 0, 5),  # GH7e
    ("difference_plus_one", [23, 23], 0, 1)])
def test_GH7_falta_readings(how: str, score: list[int], winner: int, value: int) -> None:
    assert falta_value(how, 24, score, winner) == value  # type: ignore[arg-type]


def test_GH7b_the_falta_is_what_the_trailing_team_lacks(write: WriteFile) -> None:
    m = at([5, 9], variant=house(write, "GH7b"))
    m.deal(deal(3, D33))
    events = act(m, "envido 0 falta envido", "quero 1")
    assert bets(events)[0]["points"] == 19 and m.is_over and m.winner == 0


@pytest.mark.parametrize("how", ["first_half_wins_game", "leader_to_half",
                                 "difference_plus_one"])
def test_GH7_each_reading_is_applied_in_play(write: WriteFile, how: str) -> None:
    path = write("f.yaml", f"extends: {BASE}\nside_bets:\n  envido:\n    falta: {how}\n")
    m = at([5, 9], variant=path)
    m.deal(deal(3, D33))
    events = act(m, "envido 0 falta envido", "quero 1")
    assert bets(events)[0]["points"] == falta_value(how, 24, [5, 9], 0)  # type: ignore[arg-type]


def test_GH8_a_truco_called_closes_envido(write: WriteFile) -> None:
    path = house(write, "GH8")
    m = match(path, deal(3, D33), dealer=3)
    act(m, "raise 0 2")
    assert not [a for a in legal(m) if a.startswith("envido")]
    assert assert_illegal(m, "envido 1 envido").code == "bet_closed_by_truco"
    base = match(BASE, deal(3, D33), dealer=3)
    act(base, "raise 0 2")
    assert "envido 1 envido" in legal(base)  # G26 where GH8 is not played


def test_GH8_needs_no_precedence(write: WriteFile) -> None:
    path = write("bad.yaml", f"extends: {BASE}\nside_bets:\n  envido:\n"
                             "    truco: {closes: called}\n")
    with pytest.raises(VariantError, match="precedence"):
        load_variant(path)


def test_GH9_only_the_pes_start_envido(write: WriteFile) -> None:
    m = match(house(write, "GH9"), deal(3, D33), dealer=3)
    assert not [a for a in legal(m) if a.startswith("envido")]
    assert assert_illegal(m, "envido 0 envido").code == "not_a_pe"
    act(m, "play 0 3s", "play 1 As")
    assert "envido 2 envido" in legal(m)  # seat 2 is team 0's last in round 1
    act(m, "envido 2 envido")
    assert "envido 1 real envido" in legal(m)  # anyone answers and raises


def test_GH10_real_envido_may_be_repeated(write: WriteFile) -> None:
    path = house(write, "GH10")
    m = match(path, deal(3, D33), dealer=3)
    act(m, "envido 0 real envido")
    assert "envido 1 real envido" in legal(m)
    events = act(m, "envido 1 real envido", "quero 0")
    assert bets(events)[0]["points"] == 6
    m = match(path, deal(3, D33), dealer=3)
    events = act(m, "envido 0 real envido", "envido 1 real envido", "nao_quero 2")
    assert bets(events)[0]["points"] == 3  # the chain without its last call
    base = match(BASE, deal(3, D33), dealer=3)
    act(base, "envido 0 real envido")
    assert "envido 1 real envido" not in legal(base)


def test_G20_baralho_with_envido_pending_pays_the_refusal_first() -> None:
    m = match(BASE, deal(3, D33), dealer=3)
    events = act(m, "envido 0 envido", "envido 1 real envido", "concede 2")
    assert [e["event"] for e in events] == ["side_bet", "hand"]
    assert bets(events)[0]["points"] == 2 and bets(events)[0]["winner"] == 1
    assert of(events, "hand")[0] == {"event": "hand", "winner": 1, "points": 1,
                                     "score": [0, 3]}


def test_GH11_baralho_while_envido_is_open_gives_one_more(write: WriteFile) -> None:
    path = house(write, "GH11")
    m = match(path, deal(3, D33), dealer=3)
    assert of(act(m, "concede 0"), "hand")[0]["points"] == 2
    m = match(path, deal(3, D33), dealer=3)
    act(m, "envido 0 envido", "nao_quero 1")  # settled: no longer open
    assert of(act(m, "concede 0"), "hand")[0]["points"] == 1
    m = match(BASE, deal(3, D33), dealer=3)
    assert of(act(m, "concede 0"), "hand")[0]["points"] == 1


def test_GH11_needs_a_baralho(write: WriteFile) -> None:
    path = write("bad.yaml", f"extends: {BASE}\nconcede: {{allowed: false}}\n"
                             "side_bets:\n  envido:\n    open_fold_penalty: 1\n")
    with pytest.raises(VariantError, match="open_fold_penalty"):
        load_variant(path)


def test_GH18_every_value_is_declared(write: WriteFile) -> None:
    m = match(house(write, "GH18"), deal(3, D33), dealer=3)
    events = act(m, "envido 0 envido", "quero 1")
    assert [(e["seat"], e["points"]) for e in of(events, "side_declare")] == [
        (0, 33), (1, 4), (2, 25), (3, 29)]
    base = match(BASE, deal(3, D33), dealer=3)
    events = act(base, "envido 0 envido", "quero 1")
    assert [(e["seat"], e["points"]) for e in of(events, "side_declare")] == [
        (0, 33), (1, None), (3, None)]


def test_side_bets_invariants_in_random_play(write: WriteFile) -> None:
    """Random play of every house way: scores never decrease, a bet is settled at most once
    a hand, no side bet after round 1, the game ends the moment a team reaches the target."""
    from engine.shuffle import SplitMix64

    for name in [None, *HOUSE]:
        path = BASE if name is None else house(write, name)  # type: ignore[arg-type]
        for seed in range(4):
            m = Match.new(path, seed=seed)
            choose = SplitMix64(seed)
            settled: set[tuple[int, str]] = set()
            while not m.is_over:
                before, hand_no, game = m.score[:], m.hand_number, sum(m.games)
                legal_now = m.legal_actions()
                a = legal_now[choose.bounded(len(legal_now))]
                if a.kind == "envido":
                    assert m.round_no == 0
                events = m.apply(a)
                for e in bets(events):
                    key = (hand_no, e["bet"])
                    assert key not in settled
                    settled.add(key)
                if sum(m.games) == game and m.hand_number == hand_no:
                    assert all(x >= y for x, y in zip(m.score, before, strict=True))
                for e in events:
                    if e["event"] in ("side_bet", "hand") and max(e["score"]) >= 24:
                        assert of(events, "game"), (name, seed, events)


# -- the loader's cross-checks of side_bets ----------------------------------------------------
CHAINS = "    chains:\n      - {calls: [envido], accepted: 2}\n"


@pytest.mark.parametrize(("text", "path", "says"), [
    (CHAINS + "      - {calls: [envido, envidão], accepted: 3}\n",
     "side_bets.envido.chains[1].calls[1]", "expected one of the bet's calls"),
    ("    chains:\n      - {calls: [envido], accepted: 2}\n"
     "      - {calls: [real envido, envido], accepted: 5}\n",
     "side_bets.envido.chains[1].calls", "the chain without its last call"),
    ("    chains:\n      - {calls: [falta envido], accepted: falta}\n"
     "      - {calls: [falta envido, envido], accepted: 9}\n",
     "side_bets.envido.chains[1]", "expected refused"),
    (CHAINS + "      - {calls: [envido], accepted: 3}\n",
     "side_bets.envido.chains[1].calls", "listed twice"),
    ("    chains:\n      - {calls: [envido, envido], accepted: 4}\n",
     "side_bets.envido.chains", "at least one chain of a single call"),
    ("    window: {round: 4}\n", "side_bets.envido.window.round", "there is no round 4"),
    ("    truco: {closes: called}\n", "side_bets.envido.truco.closes", "precedence"),
])
def test_side_bets_that_make_no_sense_are_refused(write: WriteFile, text: str, path: str,
                                                  says: str) -> None:
    bad = write("bad.yaml", f"extends: {BASE}\nside_bets:\n  envido:\n{text}")
    with pytest.raises(VariantError) as info:
        load_variant(bad)
    assert says in str(info.value) and info.value.path == path, str(info.value)


def test_a_side_bet_needs_its_calls_and_chains(write: WriteFile) -> None:
    bad = write("bad.yaml", f"extends: {BASE}\nside_bets:\n  other:\n    falta: "
                            "target_minus_leader\n")
    with pytest.raises(VariantError, match="calls and chains"):
        load_variant(bad)


def test_truco_variants_check_names_the_key_and_exits_1(write: WriteFile) -> None:
    from click.testing import CliRunner

    from engine.cli import main

    bad = write("bad.yaml", f"extends: {BASE}\nside_bets:\n  envido:\n"
                            "    truco: {closes: called}\n")
    result = CliRunner().invoke(main, ["variants", "check", str(bad)])
    assert result.exit_code == 1 and "side_bets.envido.truco" in result.output
    assert "Traceback" not in result.output


# -- refusals that Gaudério's own bets cannot show ----------------------------------------------
def test_a_call_the_variant_does_not_have_is_refused() -> None:
    from engine import Action

    m = match(BASE, deal(3, D33), dealer=3)
    assert assert_illegal(m, Action.envido(0, "envidão")).code == "unknown_call"


def test_only_the_first_truco_step_gives_way_to_envido(write: WriteFile) -> None:
    """A hand that starts worth the first step (a special hand of a written variant, raises
    allowed): its raise to 3 is no first truco, so envido está primero does not apply."""
    path = write("worth-2.yaml", f"extends: {BASE}\nspecial_hands:\n"
                                 "  - {name: dois, when: {teams: exactly_one, from_score: 20},"
                                 " value: 2, raises: allowed}\n")
    m = at([20, 5], variant=path)
    m.deal(deal(3, D33))
    assert m.value == 2
    act(m, "raise 0 3")
    assert assert_illegal(m, "envido 1 envido").code == "not_first_truco"


def test_a_call_of_another_bet_waits_while_one_is_pending(write: WriteFile) -> None:
    """Two side bets in one variant (flor will be the second): while one's call waits, the
    other's calls are refused."""
    path = write("two.yaml", f"extends: {BASE}\nside_bets:\n  tanto:\n    calls: [tanto]\n"
                             "    chains:\n      - {calls: [tanto], accepted: 1}\n")
    m = match(path, deal(3, D33), dealer=3)
    assert "envido 0 tanto" in legal(m) and "envido 0 envido" in legal(m)
    act(m, "envido 0 envido")
    assert assert_illegal(m, "envido 1 tanto").code == "other_bet_pending"
    events = act(m, "quero 1", "envido 0 tanto", "nao_quero 1")
    assert [e["bet"] for e in bets(events)] == ["envido", "tanto"]
