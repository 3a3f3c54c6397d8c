"""Make the logs of ``replays/`` (deterministic: the same files every run).

    python replays/make_replays.py          # write them
    python replays/make_replays.py --check  # exit 1 if a file differs from what it would write

For each shipped variant:

- ``VARIANT-seed1.jsonl``: a seeded match of random legal moves, no deal events
  (``truco record --variant VARIANT --seed 1``).
- ``VARIANT-deals2.jsonl``: a match with an explicit deal event per hand and no seed
  (``truco record --variant VARIANT --seed 2 --unseeded``).
- ``VARIANT-special.jsonl``: a seeded match that exercises the variant's special hands and the
  top of its ladder: the first seed (counting from 0) whose steered random play (below) shows
  every feature listed in ``FEATURES``. The header's ``meta`` names the features.

- ``gauderio-seed1.jsonl``: a seeded match of Truco Gaudério (as ``VARIANT-seed1.jsonl``): the
  variants of ``SEED_ONLY`` have that log only.

``invalid/``: one broken log per error kind, each made from a valid log by one change, with the
expected ``file:line: message`` beside it in ``NAME.expected`` (the file part is the log's name).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

from engine.actions import Action, Deal
from engine.game import NORMAL, Match
from engine.logformat import Recorder, record_random
from engine.replay import verify_bytes
from engine.shuffle import SplitMix64
from engine.variant import find_variant

HERE = Path(__file__).resolve().parent
PLAYERS = ["Ana", "Bia", "Caio", "Duda"]

#: What each variant's special log must show.
FEATURES = {
    "paulista": ["top of the ladder", "mão de onze", "mão de ferro", "penalised raise"],
    "mineiro": ["top of the ladder", "mão de dez played", "mão de dez folded",
                "penalised raise, lose hand", "penalised raise, lose game", "mão de dez dupla"],
    "mineiro-12": ["top of the ladder", "mão de dez played", "mão de dez folded",
                   "penalised raise, lose hand", "penalised raise, lose game"],
}

#: Variants with only a ``VARIANT-seed1.jsonl`` log.
SEED_ONLY = ("gauderio",)


def _steered_match(variant: str, seed: int) -> tuple[str, set[str]]:
    """Play a seeded match with random moves steered towards raises, decisions and penalised
    raises; return its log and the features it showed."""
    rules = find_variant(variant)
    rng = SplitMix64(seed)
    raise_odds = (2, 10, 30)[rng.bounded(3)]  # percent: how eager players are to raise
    match = Match(rules, seed=seed, dealer=seed % rules.players)
    out = io.StringIO()
    rec = Recorder(match, out, variant=variant, players=PLAYERS)
    seen: set[str] = set()
    while not match.is_over:
        special = match.special
        rule = match.hand.rule
        # The game (and with it a one-game match) ends at a "lose game" penalty: in a one-game
        # match, keep it for the mão de ferro so that the log shows that hand first.
        may_penalise = special != NORMAL and (
            rules.games_to_win > 1 or match.special_team is None)
        if may_penalise and match.state in ("play", "decide") and rng.bounded(100) < 15:
            seat = match.turn if match.state == "play" else match.special_team
            assert seat is not None
            step = rules.next_step(match.value)
            value = step.value if step is not None else match.value + 3
            card = match.hands[seat][0] if rules.name_card and match.hands[seat] else None
            assert rule is not None
            penalty = (rule.penalty_team_at_score if rule.at_score(match.score[seat % 2])
                       else rule.penalty_other_team)
            seen.add("penalised raise")
            seen.add(f"penalised raise, {penalty.replace('_', ' ')}")
            rec.apply(Action.raise_to(seat, value, card))
            continue
        legal = match.legal_actions()
        raises = [a for a in legal if a.kind == "raise"]
        if raises and rng.bounded(100) < raise_odds * (3 if match.state == "answer" else 1):
            action = raises[rng.bounded(len(raises))]
        elif match.pending is not None and match.pending[1] == rules.top_value:
            # a raise to the top is mostly refused, so that the game goes on after it
            answer = "fold" if rng.bounded(4) else "accept"
            action = next(a for a in legal if a.kind == answer)
        else:
            calm = [a for a in legal if a.kind != "raise"] or legal
            action = calm[rng.bounded(len(calm))]
        if rule is not None:
            seen.add(rule.name)
            if action.kind == "decide":
                seen.add(f"{rule.name} {'played' if action.play_on else 'folded'}")
        if action.kind == "raise" and action.value == rules.top_value:
            seen.add("top of the ladder")
        rec.apply(action)
    return out.getvalue(), seen


def special_log(variant: str, limit: int = 20000) -> tuple[int, str]:
    """The first seed whose steered match shows every feature of ``FEATURES[variant]``."""
    wanted = set(FEATURES[variant])
    for seed in range(limit):
        text, seen = _steered_match(variant, seed)
        if wanted <= seen:
            return seed, text
    raise SystemExit(f"{variant}: no seed below {limit} shows {sorted(wanted)}")


def _with_meta(text: str, meta: dict[str, object]) -> str:
    lines = text.splitlines(keepends=True)
    header = json.loads(lines[0])
    header["meta"] = meta
    return json.dumps(header, ensure_ascii=False) + "\n" + "".join(lines[1:])


def good_logs() -> dict[str, str]:
    """Every valid log of ``replays/`` by file name."""
    logs: dict[str, str] = {}
    for variant in FEATURES:
        logs[f"{variant}-seed1.jsonl"] = record_random(variant, 1, dealer=0, players=PLAYERS)
        logs[f"{variant}-deals2.jsonl"] = record_random(variant, 2, dealer=1, unseeded=True,
                                                        players=PLAYERS)
        seed, text = special_log(variant)
        logs[f"{variant}-special.jsonl"] = _with_meta(text, {
            "made_by": "replays/make_replays.py", "steered_seed": seed,
            "shows": FEATURES[variant]})
    for variant in SEED_ONLY:
        logs[f"{variant}-seed1.jsonl"] = record_random(variant, 1, dealer=0, players=PLAYERS)
    return logs


# -- invalid logs ------------------------------------------------------------------------------
Lines = list[str]


def _find(lines: Lines, pred: Callable[[dict[str, object]], bool], start: int = 1) -> int:
    return next(i for i in range(start, len(lines)) if pred(json.loads(lines[i])))


def _set(lines: Lines, i: int, **changes: object) -> None:
    obj = json.loads(lines[i])
    obj.update(changes)
    lines[i] = json.dumps(obj, ensure_ascii=False)


def invalid_logs(good: dict[str, str]) -> dict[str, str]:
    """One broken log per error kind, each a small change to a valid log."""
    base = good["paulista-seed1.jsonl"].splitlines()
    mineiro = good["mineiro-deals2.jsonl"].splitlines()
    out: dict[str, str] = {}

    def make(name: str, lines: Lines) -> None:
        out[name] = "\n".join(lines) + "\n"

    # A message that names things outside the log (the shipped variants, a fingerprint) is
    # expected up to a stable prefix: the .expected file ends with "...".

    lines = base[:]
    i = _find(lines, lambda e: "seat" in e, start=3)
    lines[i] = lines[i][:-1] + ', "seat": 1}'
    make("duplicate-key.jsonl", lines)
    lines = base[:]
    lines[2] = lines[2][:-1]  # the closing brace is missing
    make("invalid-json.jsonl", lines)
    lines = base[:]
    i = _find(lines, lambda e: e.get("event") == "hand")
    lines[i] = lines[i].replace('"points": ', '"points": NaN, "x": ', 1)
    make("nan.jsonl", lines)
    lines = base[:]
    _set(lines, 1, seat=float(json.loads(lines[1])["seat"]))
    make("float-seat.jsonl", lines)
    lines = base[:]
    lines.insert(5, "")
    make("blank-line.jsonl", lines)
    lines = base[:]
    _set(lines, 2, card="1c")
    make("schema-card.jsonl", lines)
    lines = base[:]
    _set(lines, 2, colour="red")
    make("schema-unknown-field.jsonl", lines)
    lines = base[:]
    lines.insert(3, '{"event": "bet", "seat": 1}')
    make("schema-unknown-event.jsonl", lines)
    lines = base[:]
    lines[0] = '{"event": "play", "seat": 1, "card": "4c"}'
    make("bad-header.jsonl", lines)
    lines = base[:]
    lines[0] = lines[0].replace('"truco_log": 1', '"truco_log": 3')
    make("bad-header-version.jsonl", lines)
    lines = base[:]
    lines.insert(4, base[0])
    make("header-twice.jsonl", lines)
    lines = base[:]
    _set(lines, 0, variant="paulistano")
    make("unknown-variant.jsonl", lines)
    lines = base[:]
    _set(lines, 0, variant_sha256="0" * 64)
    make("variant-sha256.jsonl", lines)
    # an illegal move: the second card of the log played by the first seat again
    lines = base[:]
    first = json.loads(lines[1])
    i = _find(lines, lambda e: e.get("event") == "play" and e.get("seat") != first["seat"])
    _set(lines, i, seat=first["seat"])
    make("illegal-move.jsonl", lines)
    # a checkpoint mismatch: one digit of one hand's score changed
    lines = base[:]
    i = _find(lines, lambda e: e.get("event") == "hand" and e.get("score") != [0, 0])
    hand = json.loads(lines[i])
    score = list(hand["score"])  # type: ignore[call-overload]
    score[hand["winner"]] += 1  # type: ignore[index]
    _set(lines, i, score=score)
    make("checkpoint-mismatch.jsonl", lines)
    lines = base[:]
    i = _find(lines, lambda e: e.get("event") == "round")
    lines.insert(i + 1, lines[i])
    make("checkpoint-repeated.jsonl", lines)
    lines = base[:]
    lines.insert(2, '{"event": "round", "winner": 0}')
    make("checkpoint-not-caused.jsonl", lines)
    # a deal mismatch, seeded: a deal event with two seats' cards swapped
    match = Match.new("paulista", seed=1)
    deal = match.hand.dealt
    hands = [list(h) for h in deal]
    hands[0], hands[1] = hands[1], hands[0]
    lines = base[:]
    lines.insert(1, json.dumps(Deal(match.dealer, tuple(tuple(h) for h in hands),
                                    match.hand.vira).to_event()))
    make("deal-mismatch-seeded.jsonl", lines)
    # deal mismatch without a seed: a card dealt twice
    lines = mineiro[:]
    d = json.loads(lines[1])
    d["hands"][1][0] = d["hands"][0][0]
    lines[1] = json.dumps(d)
    make("deal-mismatch-unseeded.jsonl", lines)
    # without a seed, a hand with no deal event
    lines = mineiro[:]
    i = _find(lines, lambda e: e.get("event") == "deal", start=2)
    del lines[i]
    make("deal-missing.jsonl", lines)
    lines = base[:]
    lines[2] = lines[2].replace('"card": "', '"card": "\udcff', 1)  # byte ff: not UTF-8
    make("invalid-utf8.jsonl", lines)
    # incomplete: the log ends early (valid, flagged)
    make("incomplete.jsonl", base[: len(base) // 2])
    # a move after the match ended
    lines = base[:]
    lines.append('{"event": "play", "seat": 0, "card": "4c"}')
    make("after-end.jsonl", lines)
    return out


#: Logs whose message is expected up to its first words (the rest names shipped things).
PREFIX_ONLY = {"unknown-variant.jsonl": "expected a shipped name",
               "variant-sha256.jsonl": "does not match"}


def encode(text: str) -> bytes:
    """A log's bytes (lone surrogates stand for bytes that are not UTF-8)."""
    return text.encode("utf-8", "surrogateescape")


def expected_message(name: str, text: str) -> str:
    """The first problem (or the incomplete note) the verifier reports for a log: the exact
    ``file:line: message``, or its stable beginning followed by ``...``."""
    result = verify_bytes(encode(text), name, base=HERE / "invalid")
    if result.problems:
        message = str(result.problems[0])
    else:
        assert result.incomplete is not None, f"{name} is valid"
        message = str(result.incomplete)
    cut = PREFIX_ONLY.get(name)
    if cut is not None:
        message = message[: message.index(cut) + len(cut)] + " ..."
    return message


def all_files() -> dict[str, str]:
    """Every file this script writes, by path relative to ``replays/``."""
    good = good_logs()
    files = dict(good)
    for name, text in invalid_logs(good).items():
        files[f"invalid/{name}"] = text
        files[f"invalid/{name.removesuffix('.jsonl')}.expected"] = \
            expected_message(name, text) + "\n"
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="compare with the files on disk instead of writing them")
    args = parser.parse_args()
    from engine.fileio import atomic_write_text

    differ = []
    for rel, text in all_files().items():
        path = HERE / rel
        if args.check:
            if not path.is_file() or path.read_bytes() != encode(text):
                differ.append(rel)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            if "\udcff" in text:  # not text: bytes, written beside and renamed over
                tmp = path.with_name(f".{path.name}.tmp")
                tmp.write_bytes(encode(text))
                os.replace(tmp, path)
            else:
                atomic_write_text(path, text)
    for rel in differ:
        print(f"replays/{rel}: differs from what make_replays.py writes", file=sys.stderr)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
