"""What ``truco serve`` sends a seat depends on nothing that seat may not see (issue 29): the
same public moves on two deals that agree on the seat's cards (and differ in the other
seats' hidden ones) give it byte-identical messages; a spectator's messages depend on no
hidden card at all. Checked on the table's messages, and on the texts a real server's
websockets receive; on a table read back after a restart; in Mineiro (a raise's named card,
the partners' cards of the mão de dez) and in a blind hand (P6), where even a seat's own
unplayed cards change nothing it is sent."""

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
            "tokens": {str(s): token_hash(f"t{s}") for s in range(4)},
            "spectator": token_hash("spec")}
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


# -- Mineiro (M3-M5) and a blind hand (P6) -----------------------------------------------------
#: Each seat's first two cards, played in rounds 1 and 2 (team 0 wins both: the hand ends
#: there); each seat's third card is never played. Two deals differ in seat 1's and seat 3's
#: third cards (and in seat 0's own, where ``own``: a blind hand hides it from seat 0 too).
PLAYED = {"mineiro": [("4c", "7h"), ("4d", "5h"), ("As", "7d"), ("5d", "6s")],
          "paulista": [("Qc", "Qh"), ("4d", "5h"), ("3c", "3d"), ("4s", "6s")]}
THIRDS = (["2c", "Kc", "2d", "Ks"], ["2c", "Jc", "2d", "Js"])


def _special(variant: str, thirds: list[str], score: list[int] | None = None) -> Table:
    """A table at ``score`` (a special hand's, else 0-0) whose hand is dealt ``PLAYED`` and
    ``thirds`` (dealer seat 0)."""
    hands = [(*PLAYED[variant][s], thirds[s]) for s in range(4)]
    start = Match.new(variant, seed=None).position()
    start["score"] = score or [0, 0]
    match = Match.from_position(variant, start)
    match.deal(Deal.of(0, hands, "7h" if variant == "paulista" else None))
    return Table("t", match, variant, [HUMAN] * 4, {s: f"h{s}" for s in range(4)}, "spec",
                 bots_seed=1)


def _hand(table: Table, first: list[Step]) -> list[list[str]]:
    """The moves ``first``, then until the hand is over the seat to play plays its first
    card as it sees it (a blind hand's: by position), or the team decides to play: every
    message each seat (and a spectator, last) is sent, from the start."""
    m = table.match
    viewers: list[int | None] = [*range(4), None]
    sent = [[table.hello(v), table.message(v)] for v in viewers]
    hand = m.hand_number

    def told() -> None:
        for v, texts in zip(viewers, sent, strict=True):
            texts.append(table.message(v))

    for step in first:
        table.submit((action := step(m)).seat, str(action))
        told()
    while m.hand_number == hand and not m.is_over and not m.awaiting_deal:
        seat = m.turn if m.state == "play" else m.to_act()[0]
        legal = m.observation(seat)["legal"]
        move = next(a for a in legal if (a.kind == "play" and not a.covered)
                    or (a.kind == "decide" and str(a).endswith(" play")))
        table.submit(seat, str(move))
        told()
    assert m.hand_number != hand or m.is_over or m.awaiting_deal
    return sent


def _named_raise(m: Match) -> Action:
    """M3 and M4: in round 2, seat 3 raises out of turn (seat 0 is to play), naming its
    third card, the one the deals differ in."""
    assert (m.turn, m.round.number) == (0, 1)
    return next(a for a in m.legal_actions(3)
                if a.kind == "raise" and a.card == m.hand.hands[3][-1])


#: Round 1 face up, then seat 3's named raise, refused: outside round 1 the card stays
#: hidden (M4; accepted, it would be shown to all).
MINEIRO: list[Step] = [*[lambda m: Action.play(m.turn, m.hand.hands[m.turn][0])] * 4,
                       _named_raise, lambda m: Action.fold(m.to_act()[0])]


def test_mineiro_a_named_raise_s_card_stays_hidden() -> None:
    """M3/M4: seat 3's raise out of turn names a card of its own; seat 0, its partner and a
    spectator are sent the same bytes whichever card it named; seat 3 sees it named."""
    a = _hand(_special("mineiro", THIRDS[0]), MINEIRO)
    b = _hand(_special("mineiro", THIRDS[1]), MINEIRO)
    assert len(a[0]) == 2 + len(MINEIRO) and json.loads(a[0][-1])["obs"]["score"][1] > 0
    assert a[0] == b[0] and a[2] == b[2] and a[4] == b[4]
    pending = [json.loads(t[6])["obs"]["pending_raise"] for t in (a[0], a[3], b[3])]
    assert pending[0] is not None and "card" not in pending[0]
    assert (pending[1]["card"], pending[2]["card"]) == ("Ks", "Js")  # the raiser's own


def test_mineiro_partners_cards_shown_in_the_mao_de_dez_and_only_theirs() -> None:
    """M5: at 10 points, team 0 decides seeing each other's cards; the other team's
    hidden cards still change nothing seat 0 or a spectator is sent."""
    a = _hand(_special("mineiro", THIRDS[0], [10, 3]), [])
    b = _hand(_special("mineiro", THIRDS[1], [10, 3]), [])
    shown = json.loads(a[0][1])["obs"]["partner_hands"]
    assert shown == {"0": ["4c", "7h", "2c"], "2": ["As", "7d", "2d"]}
    assert a[0] == b[0] and a[2] == b[2] and a[4] == b[4]
    partner = _hand(_special("mineiro", ["2c", "Kc", "Jd", "Ks"], [10, 3]), [])
    assert partner[0][1] != a[0][1]  # a partner's card is what seat 0 is shown: it differs


def test_a_blind_hand_hides_every_unplayed_card_even_one_s_own() -> None:
    """P6 (mão de ferro, 11-11): nobody sees his own cards, plays are by position; the
    unplayed cards, seat 0's own too, change no seat's bytes."""
    own = (["2c", "Kc", "2d", "Ks"], ["Jc", "Ac", "2d", "Js"])
    a = _hand(_special("paulista", own[0], [11, 11]), [])
    b = _hand(_special("paulista", own[1], [11, 11]), [])
    assert json.loads(a[0][1])["obs"]["blind"] is True
    assert any('"move":"play 0 #1"' in t for t in a[0])
    assert a == b  # every seat's messages, and the spectator's
    seen = _hand(_special("paulista", own[0], [0, 0]), [])  # not blind: seat 0 sees its own
    assert seen[0][1] != _hand(_special("paulista", own[1], [0, 0]), [])[0][1]
