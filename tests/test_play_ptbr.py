"""``truco play`` in Brazilian Portuguese (issue 43): the table, the menu and the refusals in
the player's language, each refusal with its rule, and the English refusals in the player's
words too (``you do not hold 6♦``, never the log's ``seat 0 does not hold 6d``)."""

from __future__ import annotations

from click.testing import CliRunner
from helpers import deal, match, score_to

from engine import i18n
from engine.cli import main
from engine.cli.play_cmd import _interrupted
from engine.cli.play_input import hint, parse_move
from engine.cli.play_loop import _Game
from engine.game import Match
from engine.telling import seat_names


def _game(m: Match, seat: int) -> _Game:
    return _Game(m, seat, {}, m.rules.name, None, None, seat_names(["human"] * m.rules.players))  # type: ignore[arg-type]


def _typed(m: Match, seat: int, text: str) -> object:
    legal = m.legal_actions(seat)
    return parse_move(text, legal, [str(a) for a in legal], m.rules, _game(m, seat).why)


def test_a_raise_in_the_mao_de_onze_or_dez_names_its_rule() -> None:
    m = match("paulista")
    score_to(m, (11, 4))
    m.deal(deal(m.dealer, "4c 5c 6c | 4d 5d 6d | 4h 5h 6h | 4s 5s 6s", "7c"))
    assert _typed(m, m.turn, "truco") == "no raise is allowed in the mão de onze (P5, M5)"
    with i18n.using("pt-BR"):
        assert _typed(m, m.turn, "truco") == "não se pode trucar na mão de onze (P5, M5)"
    m = match("mineiro")
    score_to(m, (10, 4))
    m.deal(deal(m.dealer, "Kc 5c 6c | Kd 5d 6d | Kh 5h 6h | Ks 5s 6s"))
    assert _typed(m, 0, "truco") == "no raise is allowed in the mão de dez (P5, M5)"


def test_a_card_not_held_is_told_in_the_players_words() -> None:
    m = match("paulista", deal(0, "4c 5c 6c | 4d 5d 6d | 4h 5h 6h | 4s 5s 6s", "7c"))
    seat = m.turn
    assert _typed(m, seat, "3s") == "you do not hold 3♠"
    with i18n.using("pt-BR"):
        assert _typed(m, seat, "3s") == "você não tem 3♠"


def test_gauderios_help_offers_no_covered_card() -> None:
    m = Match.new("gauderio", seed=3)
    said = hint(m.legal_actions(m.turn), m.rules)
    assert "coberta" not in said and "P7" not in said and "a card like 4c or 4♣" in said
    m = Match.new("paulista", seed=3)
    assert "'4c coberta' to hide it" in hint(m.legal_actions(m.turn), m.rules)


def test_a_whole_game_in_portuguese() -> None:
    result = CliRunner().invoke(main, ["--lang", "pt-BR", "play", "--variant", "gauderio",
                                       "--seed", "3", "--bots", "random"],
                                input="?\n" + "a\n" * 1500)
    out = result.output
    assert result.exit_code == 0, out
    assert "você está no lugar 0" in out and "Suas cartas, da mais forte:" in out
    assert "Sua jogada: digite uma letra de a a " in out and "Placar: nós 0 · eles 0" in out
    assert "jogo ganho por" in out
    for english in ("Your move", "Score:", "you ", " plays ", "hand won by"):
        assert english not in out


def test_the_falta_is_shown_as_its_number() -> None:
    result = CliRunner().invoke(main, ["--lang", "pt-BR", "play", "--variant", "gauderio",
                                       "--seat", "1", "--seed", "3"], input="a\n" * 40)
    assert "falta envido (a falta (24); não quero dá 1)" in result.output  # G29 at 0-0


def test_a_closed_envido_says_so_with_its_rule() -> None:
    result = CliRunner().invoke(main, ["play", "--variant", "gauderio", "--seed", "1",
                                       "--bots", "random"], input="a\n" * 300)
    assert "Envido: not called; closed after round 1 (G24)" in result.output


def test_usage_errors_speak_the_players_language_with_the_same_exit_code() -> None:
    result = CliRunner().invoke(main, ["--lang", "pt-BR", "play"])
    assert result.exit_code == 2 and "falta --variant (ou --resume REGISTRO)" in result.output
    result = CliRunner().invoke(main, ["play", "--variant", "paulista", "--seat", "9"])
    assert result.exit_code == 2 and "seat 9 is not a seat of paulista (0..3)" in result.output



def test_a_game_stopped_by_a_signal_says_so_in_the_players_language() -> None:
    # main's SIGTERM/SIGHUP handling (engine.cli.Terminated) met ptbr's messages in the merge:
    # the signal's sentence is whole in the catalog, the log's --resume hint kept.
    assert _interrupted("g.jsonl", 15) == ("game interrupted by SIGTERM; the log is kept: "
                                           "continue with --resume g.jsonl")
    with i18n.using("pt-BR"):
        assert _interrupted("g.jsonl", 15) == ("jogo interrompido por SIGTERM; o registro fica "
                                               "guardado: continue com --resume g.jsonl")
        assert _interrupted(None, 1) == "jogo interrompido por SIGHUP"
        assert _interrupted(None, None) == "jogo interrompido"
