"""``truco play`` and ``truco replay`` as players read them (issue 10, part 3): moves chosen
by letter or by card, never mistaken; the hand strongest first; out-of-turn raises (M3); cards
shown with a raise (M4); manilha names from the variant (M1); a banner for every hand; seat
names shared by play and replay; help texts."""

from __future__ import annotations

import ast
import io
import json
import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import REPO
from helpers import deal, match, score_to

from engine import Action
from engine.bots.base import Observation
from engine.cli import main
from engine.cli.play_cmd import _Game, _Stop, menu_order, parse_move, seat_names
from engine.replay import verify_file
from engine.transcript import transcript
from engine.tui import render_banner

FIRSTS = "a\n" * 3000


def _play(*args: str, input: str = FIRSTS) -> Result:
    return CliRunner().invoke(main, ["play", *args], input=input)


def _menu(m: object, seat: int) -> tuple[list[Action], list[str]]:
    """The legal moves of ``seat`` in menu order (letter a first), with their texts."""
    from engine import Match

    assert isinstance(m, Match)
    legal = m.legal_actions(seat)
    obs = m.observation(seat)
    order = menu_order(legal, m.rules, obs["vira"], obs["blind"])
    return [legal[i] for i in order], [str(obs["legal"][i]) for i in order]


# -- 1. a choice impossible to mistake ------------------------------------------------------------
def test_a_digit_is_a_rank_never_a_menu_number() -> None:
    m = match("mineiro", deal(0, "4s 5s 6s | 3d Qs Qh | 5c 6c 7c | 5d 6d Kc"))
    legal, texts = _menu(m, 1)
    assert parse_move("3", legal, texts, m.rules) == Action.play(1, "3d")  # the case
    assert parse_move("3♦", legal, texts, m.rules) == Action.play(1, "3d")
    assert parse_move("Qs", legal, texts, m.rules) == Action.play(1, "Qs")
    assert parse_move("q♥", legal, texts, m.rules) == Action.play(1, "Qh")
    two = parse_move("q", legal, texts, m.rules)  # two queens: no guess
    assert two == "you hold Q♠ and Q♥: type Qs or Qh, or a letter"
    assert parse_move("1", legal, texts, m.rules) == "'1' is no move: choose a letter from a to f"
    assert parse_move("2", legal, texts, m.rules) == "you have no 2 to play now"
    m.apply(Action.raise_to(2, 3, "5c"))
    answer, texts = _menu(m, 1)
    assert str(parse_move("3", answer, texts, m.rules)).startswith("no card can be played now")
    assert parse_move("truco 3", legal, texts, m.rules) == Action.raise_to(1, 3, "3d")
    name_it = str(parse_move("truco", legal, texts, m.rules))
    assert "name the card you raise with" in name_it and "(M" not in name_it


def test_the_menu_is_lettered_strongest_card_first() -> None:
    m = match("mineiro", deal(0, "4s 5s 6s | Qs 3d 7h | 5c 6c 7c | 5d 6d Kc"))
    legal, texts = _menu(m, 1)
    # 7h is copas, a manilha; then 3d; then Qs: plays first, then raises in the same order
    assert [str(a) for a in legal] == ["play 1 7h", "play 1 3d", "play 1 Qs", "raise 1 3 7h",
                                       "raise 1 3 3d", "raise 1 3 Qs"]
    assert parse_move("a", legal, texts, m.rules) == Action.play(1, "7h")
    assert parse_move("e", legal, texts, m.rules) == Action.raise_to(1, 3, "3d")
    assert isinstance(parse_move("g", legal, texts, m.rules), str)


def test_the_terminal_shows_letters_and_the_hand_by_strength() -> None:
    out = _play("--variant", "paulista", "--seed", "7", input="").output  # vira Q♣: jacks
    assert "Your cards, strongest first: J♠ (manilha), 3♣, 6♥" in out
    assert "  a) aceito (accept: worth 3)" in out and "  c) seis (raise to 6; corro gives 3)" in out


def test_an_ace_is_named_with_its_suit_a_is_the_first_entry() -> None:
    m = match("mineiro", deal(0, "4s 5s 6s | Ad 3d Qs | 5c 6c 7c | 5d 6d Kc"))
    legal, texts = _menu(m, 1)
    assert parse_move("a", legal, texts, m.rules) == legal[0] == Action.play(1, "3d")
    assert parse_move("Ad", legal, texts, m.rules) == Action.play(1, "Ad")


# -- 2. everything the rules allow ----------------------------------------------------------------
def _moves(log: Path) -> list[dict[str, object]]:
    lines = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()[1:]]
    return [e for e in lines if e["event"] in ("play", "raise", "accept", "fold", "decide")]


def test_M3_a_raise_out_of_turn_is_offered_before_a_bot_card(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    # seed 3: you deal (seat 0); Bot 1 is mão and plays first
    result = _play("--variant", "mineiro", "--seed", "3", "--log", str(log), input="a\n")
    out = result.output
    assert "Raise before Bot 1 (heuristic) plays? a) truco with K♦  b) truco with J♣" in out
    assert out.index("you call TRUCO (3) with K♦") < out.index("\nBot 1 (heuristic) plays ")
    assert _moves(log)[0] == {"event": "raise", "seat": 0, "value": 3, "card": "Kd"}
    assert verify_file(log).valid


def test_M3_enter_lets_the_bot_play_and_no_stops_asking_for_the_hand(tmp_path: Path) -> None:
    passed = _play("--variant", "mineiro", "--seed", "3", input="\n").output
    assert passed.count("Raise before") == 1 and "Bot 1 (heuristic) calls TRUCO" in passed
    quiet = _play("--variant", "mineiro", "--seed", "3", input="no\na\n").output
    hand_1 = quiet.split("══ Game 1 · hand 2")[0]
    assert hand_1.count("Raise before") == 1  # 'no': not asked again in hand 1
    assert "Your move:" in hand_1


def test_P4_no_out_of_turn_prompt_where_raises_wait_for_ones_turn() -> None:
    out = _play("--variant", "paulista", "--seed", "7").output
    assert "match won by" in out and "Raise before" not in out


def test_M4_a_refused_round_1_raise_shows_its_card() -> None:
    # seed 3: pass before Bot 1's card; Bot 1 calls truco with 3♣; you fold (b)
    out = _play("--variant", "mineiro", "--seed", "3", input="\nb\n").output
    assert "Bot 1 (heuristic) calls TRUCO (3)\n" in out  # the card stays hidden while pending
    assert "you fold\n  shown: Bot 1 (heuristic) raised with 3♣\n  → hand won by them" in out


def test_M1_manilhas_carry_the_names_the_variant_gives(tmp_path: Path) -> None:
    variant = tmp_path / "named.yaml"
    variant.write_text("extends: paulista\nmanilhas: {mode: fixed, cards: [7d, As, 7h, 4c]}\n"
                       "card_names: {4c: zap, 7h: copas, As: espadilha, 7d: pica-fumo}\n",
                       encoding="utf-8")
    m = match(variant, deal(0, "4c 5s 6s | 3d 4d As | 5c 6c 7c | 5d 6d Kc"))
    banner = render_banner(m.observation(1), rules=m.rules, names=None, target=12)
    assert "manilhas 4♣ zap > 7♥ copas > A♠ espadilha > 7♦ pica-fumo" in banner
    assert "Your cards, strongest first: A♠ (espadilha, manilha), 3♦, 4♦" in banner
    log = tmp_path / "g.jsonl"
    result = _play("--variant", str(variant), "--seed", "3", "--log", str(log))
    assert result.exit_code == 0 and "4♣ zap > 7♥ copas" in result.output
    text = transcript(log.read_bytes(), str(log), base=tmp_path)
    assert "manilhas 4♣ zap > 7♥ copas > A♠ espadilha > 7♦ pica-fumo" in text  # as in play
    shipped = match("mineiro", deal(0, "4c 5s 6s | 3d 4d As | 5c 6c 7c | 5d 6d Kc"))
    named = render_banner(shipped.observation(1), rules=shipped.rules, names=None, target=12)
    assert "A♠ (espadilha, manilha)" in named  # Mineiro names its manilhas
    unnamed = tmp_path / "unnamed.yaml"
    unnamed.write_text("extends: paulista\nmanilhas: {mode: fixed, cards: [7d, As, 7h, 4c]}\n",
                       encoding="utf-8")
    plain_match = match(unnamed, deal(0, "4c 5s 6s | 3d 4d As | 5c 6c 7c | 5d 6d Kc"))
    plain = render_banner(plain_match.observation(1), rules=plain_match.rules, names=None,
                          target=12)
    assert "A♠ (manilha)" in plain  # a variant that names none: marked, not named


def test_M1_no_manilha_name_is_written_in_the_code() -> None:
    names = {"zap", "espadilha", "pica-fumo"}  # (copas is also the suit's name)
    for path in (REPO / "engine").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        strings = {n.value.strip().lower() for n in ast.walk(tree)
                   if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        assert not strings & names, path


# -- 3. a banner for every hand -------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["paulista", "mineiro"])
def test_every_hand_opens_with_its_banner_before_its_moves(tmp_path: Path, variant: str) -> None:
    log = tmp_path / "g.jsonl"
    out = _play("--variant", variant, "--seed", "11", "--bots", "random",
                "--log", str(log)).output
    events = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()[1:]]
    hands = sum(e["event"] == "hand" for e in events)
    banner = r"\n══ (?:Game (\d+) · h|H)and (\d+) "
    numbers = [(int(g or 1), int(h)) for g, h in re.findall(banner, out)]
    assert len(numbers) == hands  # hands are numbered per game, from 1
    assert all(h == (1 if i == 0 or g != numbers[i - 1][0] else numbers[i - 1][1] + 1)
               for i, (g, h) in enumerate(numbers))
    chunks = re.split(r"\n══ (?:Game \d+ · h|H)and \d+ ", out)
    assert "plays" not in chunks[0] and "calls" not in chunks[0]
    for body in chunks[1:]:  # each hand's moves and its end come after its own banner
        assert len(re.findall(r"→ hand (won|tied)", body)) == 1, body


class _Folds:
    """A bot that folds a special hand's decision (and otherwise plays the first move)."""

    name = "folds"

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        return next((a for a in legal_actions if a.kind == "decide" and not a.play_on),
                    legal_actions[0])


def test_M5_a_mao_de_dez_folded_by_a_bot_still_gets_its_banner(
        capsys: pytest.CaptureFixture[str]) -> None:
    m = match("mineiro")
    score_to(m, [0, 10])  # team 1 (the bots of seats 1 and 3) at 10: they decide
    m.deal(deal(m.dealer, "4s 5s 6s | 3d Qs Qh | 5c 6c 7c | 5d 6d Kc"))
    names = seat_names(["human", "folds", "folds", "folds"])
    _Game(m, 0, {s: _Folds() for s in (1, 2, 3)}, "Mineiro", None, io.StringIO(""),
          names).run()
    out = capsys.readouterr().out
    banner = out.index("══ Game 1 · hand ")
    assert "mão de dez for them: worth 3" in out
    assert "Your cards, strongest first: 6♠, 5♠, 4♠" in out
    assert banner < out.index("decides to fold the hand")


# -- 4. names shared by play and replay -----------------------------------------------------------
def test_play_and_replay_call_the_seats_by_the_same_names(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    played = _play("--variant", "paulista", "--seed", "7", "--bots", "heuristic,random",
                   "--log", str(log)).output
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header["players"] == ["you", "Bot 1 (random)", "Bot 2 (heuristic)", "Bot 3 (random)"]
    assert header["meta"]["bots"] == ["human", "random", "heuristic", "random"]
    replayed = CliRunner().invoke(main, ["replay", str(log)]).output
    assert "first dealer you" in replayed and "Teams: team 0 (you, Bot 2 (heuristic))" in replayed
    for line in ("Bot 1 (random) plays", "you play "):
        assert line in played and line in replayed
    assert not re.search(r"^\s+(heuristic|random|human) ", replayed, flags=re.MULTILINE)


def test_replay_says_seat_n_where_the_header_names_no_players() -> None:
    log = (b'{"truco_log": 1, "variant": "paulista", "seed": 7}\n'
           b'{"event": "raise", "seat": 1, "value": 3}\n')
    text = transcript(log, "a.jsonl")
    assert "first dealer seat 0" in text and "  seat 1 raises: truco (3)" in text


# -- 6. words for players -------------------------------------------------------------------------
def test_no_rule_ids_and_one_word_for_a_covered_card() -> None:
    for variant in ("paulista", "mineiro"):
        out = _play("--variant", variant, "--seed", "5", input="banana\n" + FIRSTS).output
        assert not re.search(r"\b[CPM]\d+\b", out), variant
        assert "face down" not in out and "covered" not in out
    out = _play("--variant", "paulista", "--seed", "7").output
    assert "plays a card coberta" in out
    special = REPO / "replays" / "paulista-special.jsonl"
    replayed = CliRunner().invoke(main, ["replay", str(special)])
    assert " coberta\n" in replayed.output and "face down" not in replayed.output


# -- 5. help texts --------------------------------------------------------------------------------
def test_help_texts_agree() -> None:
    top = CliRunner().invoke(main, ["--help"]).output
    assert "..." not in top.split("Commands:")[1]  # whole summaries
    assert "Let bots play N matches of a variant and print statistics" in top
    play = " ".join(CliRunner().invoke(main, ["play", "--help"]).output.split())
    assert "[required unless --resume]" in play and "[default: 0; x>=0]" in play
    assert "--resume LOG" in play and "Default 0." not in play
    record = " ".join(CliRunner().invoke(main, ["record", "--help"]).output.split())
    assert "[required unless --unseeded]" in record


def test_record_unseeded_needs_no_seed() -> None:
    runner = CliRunner()
    first = runner.invoke(main, ["record", "--variant", "mineiro", "--unseeded"])
    assert first.exit_code == 0, first.output
    again = runner.invoke(main, ["record", "--variant", "mineiro", "--unseeded"])
    zero = runner.invoke(main, ["record", "--variant", "mineiro", "--unseeded", "--seed", "0"])
    assert first.output == again.output == zero.output  # deterministic: seed 0 by default
    assert '"seed"' not in first.output.splitlines()[0]
    missing = runner.invoke(main, ["record", "--variant", "mineiro"])
    assert missing.exit_code == 2 and "--seed" in missing.output


def test_C2_extra_cards_are_shown_by_their_names_in_play_and_replay(tmp_path: Path) -> None:
    """capixaba-jokers names X1 and X2 "coringa" (card_names): the table, the moves and the
    transcript say so, not a bare X1."""
    from engine.cards import parse_card
    from engine.cli.play_cmd import describe
    from engine.tui import your_cards

    m = match("capixaba-jokers", deal(0, "X1 4c 5d | X2 3d Kd | 5c 6d 5h | 6c 7d 6h", vira="Qs"))
    rules = m.rules
    assert "X1 (coringa)" in your_cards(m.observation(0), rules)
    assert describe(Action.play(1, parse_card("X2")), rules, 0).endswith("plays X2 (coringa)")
    log = tmp_path / "j.jsonl"
    assert _play("--variant", "capixaba-jokers", "--seed", "3", "--log", str(log)).exit_code == 0
    text = transcript(log.read_bytes(), str(log))
    assert "X1 (coringa)" in text or "X2 (coringa)" in text
    assert not re.search(r"X[12](?! \(coringa\))", text)


def test_a_capital_rank_letter_is_a_card_never_a_menu_entry() -> None:
    m = match("mineiro", deal(0, "4s 5s 6s | 3d As 7h | 5c 6c 7c | 5d 6d Kc"))
    legal, texts = _menu(m, 1)
    assert legal[0] != Action.play(1, "As")  # the menu's a) is another card (7♥, copas)
    assert parse_move("A", legal, texts, m.rules) == Action.play(1, "As")
    assert parse_move("a", legal, texts, m.rules) == legal[0]


def _why(m: object) -> object:
    from engine import IllegalMoveError, Match

    assert isinstance(m, Match)

    def why(action: Action) -> str | None:
        try:
            m.clone().apply(action)
        except IllegalMoveError as exc:
            return str(exc.why)
        return None

    return why


def test_M4_a_refused_input_says_the_rule_that_refuses_it() -> None:
    m = match("mineiro", deal(0, "4s 5s 6s | 3d Qs 2c | 5c 6c 7c | 5d 6d Kc"))
    m.apply(Action.raise_to(1, 3, "3d"))
    m.apply(Action.accept(2))
    legal, texts = _menu(m, 1)
    said = parse_move("2c", legal, texts, m.rules, _why(m))  # type: ignore[arg-type]
    assert said == "seat 1 raised with 3d and must play it (M4)"
    assert parse_move("2c", legal, texts, m.rules) == "you cannot play 2♣ now"  # no engine


def test_a_refused_card_or_answer_says_why_in_the_engines_words() -> None:
    m = match("paulista", deal(0, "4c 7h As | 3d 2d Kd | 5c 5d 5h | 6c 6d 6h", vira="Qs"))
    m.apply(Action.play(1, "3d"))
    legal, texts = _menu(m, 2)
    why = _why(m)
    assert parse_move("3d", legal, texts, m.rules, why) == "seat 2 does not hold 3d"  # type: ignore[arg-type]
    assert parse_move("aceito", legal, texts, m.rules, why) == (  # type: ignore[arg-type]
        "no raise is waiting for an answer")
    m.apply(Action.play(2, "5c"))
    m.apply(Action.play(3, "6c"))
    m.apply(Action.play(0, "4c"))
    legal, texts = _menu(m, 1)  # round 2: covered cards allowed (P7)
    assert parse_move("3c coberta", legal, texts, m.rules, why) == (  # type: ignore[arg-type]
        "seat 1 does not hold 3c")


class _First:
    """A bot that always makes the first legal move (a card: it never raises)."""

    name = "first"

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        return next(a for a in legal_actions if a.kind in ("play", "pass"))


def test_the_terminal_says_why_a_move_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    m = match("mineiro", deal(0, "4s 5s 6s | 3d Qs 2c | 5c 6c 7c | 5d 6d Kc"))
    names = seat_names(["human", "first", "first", "first"])
    game = _Game(m, 0, {s: _First() for s in (1, 2, 3)}, "Mineiro", None,
                 io.StringIO("\n\n\naceito\nAs\n"), names)
    with pytest.raises(_Stop):  # the end of the input
        game.run()
    out = capsys.readouterr().out
    assert "'aceito': no raise is waiting for an answer" in out
    assert "'As': you do not hold A♠" in out  # the player's words, not the log's (issue 43)


def test_C8_C9_the_menu_says_what_a_raise_and_its_answers_are_worth() -> None:
    from engine.cli.play_cmd import menu_entry

    m = match("paulista", deal(0, "4c 7h As | 3d 2d Kd | 5c 5d 5h | 6c 6d 6h", vira="Qs"))
    rules = m.rules
    assert menu_entry(Action.raise_to(1, 3), rules, None, worth=(1, None)) == (
        "truco (raise to 3; corro gives 1)")
    m.apply(Action.raise_to(1, 3))
    assert menu_entry(Action.accept(2), rules, None, worth=(1, 3)) == "aceito (accept: worth 3)"
    assert menu_entry(Action.fold(2), rules, None, worth=(1, 3)) == "corro (fold: gives 1)"
    assert menu_entry(Action.raise_to(2, 6), rules, None, worth=(1, 3)) == (
        "seis (raise to 6; corro gives 3)")  # a raise back accepts the truco (C9)
    assert menu_entry(Action.accept(2), rules, None) == "aceito (accept)"  # without worth
