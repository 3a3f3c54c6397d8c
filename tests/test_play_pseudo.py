"""Every word ``truco play`` shows a player goes through the message catalog (issue 43): the
game played in the pseudo-localising test locale (``--lang qps``: every message marked
⟦...⟧) in each family of variants, with help asked and bad moves typed, and nothing left
unmarked but cards, numbers, the player's own typing and the table's own words, which are the
variant's data (its title, card and move names, the ladder's steps, the special hands' and
side bets' names: Portuguese in every language)."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from engine.cards import COBERTA
from engine.cli import main
from engine.i18n import MARKS
from engine.variant import load_variant

#: The game's input: help, words that are no move, a card not held, raises and answers
#: typed, then the first move offered, over and over.
SCRIPT = ("?\nzz\n6d\n9\ntruco\naceito\nquero\n4c coberta\n"
          + ("a\n" * 7 + "?\nxyz\ntruco\n6d\n") * 120 + "a\n" * 1500)
#: Words of the table that every language says in Portuguese (the game's own terms).
TABLE_WORDS = ("manilhas", "manilha", "são boas", "é boa", "não quero", "quero", "vira", "mão",
               "eu corro", "corre", "corte seco", "queimar", COBERTA, "com flor me achico")
CARD = re.compile(r"(?:10|[2-9TJQKA])[♣♦♥♠]|X\d+|\?\?")
INNER = re.compile(f"{MARKS[0]}[^{MARKS[0]}{MARKS[1]}]*{MARKS[1]}")


def _table_words(variant: str) -> list[str]:
    rules = load_variant(variant)
    data = rules.data
    words = [rules.title or "", rules.name, *TABLE_WORDS]
    words += [str(n) for n in (data.get("card_names") or {}).values()]
    words += [str(n) for n in (data.get("move_names") or {}).values()]
    words += [s.name for s in rules.ladder]
    words += [h.name for h in rules.special_hands]
    for bet in rules.side_bets:
        words += [bet.name, *bet.calls]
        for chain in (bet.flor_chains or {}):
            words += list(chain)
        for chain in bet.chains:
            words += list(chain)
    return sorted({w for w in words if w}, key=len, reverse=True)


def unmarked(text: str, words: list[str]) -> list[str]:
    """The lines of ``text`` with a letter outside every ⟦...⟧, once cards, the player's
    typing (quoted) and the table's words are taken out."""
    bad = []
    for line in text.splitlines():
        rest = line
        while INNER.search(rest):
            rest = INNER.sub(" ", rest)
        rest = re.sub(r"'[^']*'", " ", rest)  # what the player typed, echoed
        rest = re.sub(r"(?:^|\s)[a-z]\)", " ", rest)  # a menu's letters
        rest = re.sub(r"\(first\)", " ", rest)  # a bot's program (not a shipped bot)
        rest = CARD.sub(" ", rest)
        for w in words:
            rest = re.sub(re.escape(w), " ", rest, flags=re.IGNORECASE)
        if re.search(r"[^\W\d_]", rest):
            bad.append(f"{line!r} -> {rest.strip()!r}")
    return bad


@pytest.mark.parametrize("variant", ["paulista", "mineiro", "gauderio", "one-on-one"])
def test_every_word_of_a_game_goes_through_the_catalog(variant: str) -> None:
    result = CliRunner().invoke(main, ["--lang", "qps", "play", "--variant", variant,
                                       "--seed", "11", "--bots", "random"], input=SCRIPT)
    assert result.exit_code == 0, result.output
    assert "match won by" in result.output  # a whole match was played, every line marked
    bad = unmarked(result.output, _table_words(variant))
    assert not bad, f"{len(bad)} lines not through the catalog:\n" + "\n".join(bad[:30])


def test_the_check_finds_a_word_left_in_english() -> None:
    words = _table_words("paulista")
    assert unmarked("  a) ⟦⟦you⟧ play 4♣⟧ coberta", words) == []
    assert unmarked("⟦Score: us 3⟧ (to 12)", words) == ["'⟦Score: us 3⟧ (to 12)' -> '(to 12)'"]
