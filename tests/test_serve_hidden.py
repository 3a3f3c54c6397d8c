"""What ``truco serve`` sends a seat depends on nothing that seat may not see (issue 29): the
same public moves on two deals that agree on the seat's cards (and differ in the other
seats' hidden ones) give it byte-identical messages; a spectator's messages depend on no
hidden card at all. Checked on the table's messages, and on the texts a real server's
websockets receive."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from engine import Deal, Match
from engine.actions import Action
from engine.replay.verify import verify_file
from engine.serve.store import Store
from engine.serve.table import HUMAN, Table, token_hash
from tests.serve_util import running

#: Seat 0's cards and the vira, the same in both deals; the others' first card too (played
#: face up in round 1); their other cards trade places between the deals.
MINE = ("3c", "2c", "Ad")
FIRSTS = ("4d", "5h", "6s")
HIDDEN = ["Kc", "Qs", "Jd", "7c", "5s", "Ks"]
VIRA = "7h"


def _deal(hidden: list[str]) -> Deal:
    hands = [MINE] + [(FIRSTS[k], hidden[2 * k], hidden[2 * k + 1]) for k in range(3)]
    return Deal.of(0, hands, VIRA)


def _table(hidden: list[str]) -> Table:
    second = Deal.of(1, (("4c", "5c", "6c"), ("4h", "5d", "6d"), ("7d", "Qd", "Kd"),
                         ("Ah", "2h", "3h")), "Jc")
    match = Match.from_deals("paulista", [_deal(hidden), second])
    return Table("t", match, "paulista", [HUMAN] * 4, {s: f"h{s}" for s in range(4)}, "spec",
                 bots_seed=1)


Step = Callable[[Match], Action]


def _card(seat: int, index: int, covered: bool = False) -> Step:
    """Seat ``seat`` plays the ``index``-th card it holds now (its own, in either deal)."""
    def step(m: Match) -> Action:
        return Action.play(seat, m.hand.hands[seat][index], covered)
    return step


#: Round 1 face up (the same cards); round 2: seat 1..3 play a hidden card face down.
STEPS: list[Step] = [
    _card(1, 0), _card(2, 0), _card(3, 0), _card(0, 0),
    lambda m: Action.raise_to(m.turn, 3), lambda m: Action.accept(m.to_act()[0]),
]


def _run(hidden: list[str], table: Table | None = None) -> tuple[list[str], list[str]]:
    table = table or _table(hidden)
    seat, watch = [table.hello(0), table.message(0)], [table.hello(None), table.message(None)]
    m = table.match
    for step in STEPS:
        table.submit((action := step(m)).seat, str(action))
        seat.append(table.message(0))
        watch.append(table.message(None))
    # round 2 and on: the seat to play plays its first card, face down where it may (the
    # other seats' hidden cards), seat 0 face up; until the next hand's first move
    hand = m.hand_number
    while m.hand_number == hand:
        turn = m.turn
        covered = turn != 0 and any(a.covered for a in m.legal_actions(turn))
        table.submit(turn, str(_card(turn, 0, covered)(m)))
        seat.append(table.message(0))
        watch.append(table.message(None))
    return seat, watch


def test_a_seat_s_messages_do_not_change_with_the_others_hidden_cards() -> None:
    a_seat, a_watch = _run(HIDDEN)
    b_seat, b_watch = _run(HIDDEN[::-1])
    assert len(a_seat) > 10
    assert a_seat == b_seat
    assert a_watch == b_watch


def test_the_deals_differ_where_the_seat_cannot_see() -> None:
    """The check above can fail: the deals do differ, and a seat that sees them is told."""
    a, b = _table(HIDDEN), _table(HIDDEN[::-1])
    assert a.message(0) == b.message(0)
    assert a.message(2) != b.message(2)  # seat 2's own cards differ between the deals
    a_covered = [p for p in _run(HIDDEN)[0][-1:] if "covered\":true" in p]
    assert a_covered, "the game above covered no card: it would test nothing hidden"


def _over_the_wire(tmp: Path, hidden: list[str]) -> tuple[list[str], list[str]]:
    """The same game through a real server: every text seat 0's websocket and a spectator's
    receive, as received."""
    table = _table(hidden)
    table.hashes = {s: token_hash(f"seat{s}") for s in range(4)}
    table.spectator_hash = token_hash("watch")
    with running(tmp) as server:
        server.server.config.app.state.server.add(table)
        watch = server.join("/t/t#k=watch")
        clients = [server.join(f"/t/t#k=seat{s}") for s in range(4)]
        m = table.match
        for step in STEPS:
            action = step(m)
            clients[action.seat].sent(json.dumps({"type": "move", "move": str(action)}))
            clients[action.seat].fresh()  # the move made, and told to everyone
        clients[0].fresh()  # everything told to seat 0 and the spectator, read
        watch.fresh()
    return clients[0].received, watch.received


def test_over_the_wire_a_seat_and_a_spectator_get_the_same_bytes(tmp_path: Path) -> None:
    a_seat, a_watch = _over_the_wire(tmp_path / "a", HIDDEN)
    b_seat, b_watch = _over_the_wire(tmp_path / "b", HIDDEN[::-1])
    assert len(a_seat) >= len(STEPS)
    assert a_seat == b_seat
    assert a_watch == b_watch


def _restarted(tmp: Path, hidden: list[str]) -> tuple[Table, Table]:
    """The game above played to the end of its first hand on a table that saves its log in
    a server's data folder, and that table as a restarted server reads it back."""
    folder = tmp / "t"
    folder.mkdir(parents=True)
    meta = {"id": "t", "variant": "paulista", "seed": 1, "players": [HUMAN] * 4,
            "tokens": {str(s): f"h{s}" for s in range(4)}, "spectator": "spec"}
    (folder / "table.json").write_text(json.dumps(meta), encoding="utf-8")
    table = _table(hidden)
    table.save = lambda text: (folder / "game.jsonl").write_text(text, encoding="utf-8")
    _run(hidden, table)
    [back] = Store(tmp).load_all()
    return table, back


def test_a_restarted_table_s_messages_are_as_they_were_and_hide_as_much(
        tmp_path: Path) -> None:
    """After a restart, each seat's recent moves (with the covered cards of the hand just
    played) are rebuilt from the log as that seat saw them: the same messages as before the
    restart, and for seat 0 and a spectator the same whatever the other seats held."""
    sent = []
    for name, hidden in (("a", HIDDEN), ("b", HIDDEN[::-1])):
        table, back = _restarted(tmp_path / name, hidden)
        assert back.moves == table.moves and back.match.hand_number == 2
        for seat in (*range(4), None):
            assert back.message(seat) == table.message(seat), seat
        assert any(r["covered"] for r in json.loads(back.message(0))["recent"])
        m = back.match
        texts = [back.message(0), back.message(None)]
        for _ in range(4):  # round 1 of the second hand, on the restarted table
            turn = m.turn
            back.submit(turn, str(_card(turn, 0)(m)))
            texts += [back.message(0), back.message(None)]
        sent.append(texts)
        # the log goes on as it was written (its hand's deal not written again)
        assert verify_file(tmp_path / name / "t" / "game.jsonl").problems == []
    assert sent[0] == sent[1]
