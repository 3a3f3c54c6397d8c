"""The steps of a replayed log, as the HTML viewer shows them: one step when a hand is dealt and
one per move, each with the whole table after it (every seat's cards, the cards played, the
rounds, the bet, the score) and, for every seat, what that seat could see then, taken from the
engine's :meth:`~engine.game.Match.observation` (the page only hides what the engine says a
seat does not see; it decides nothing itself).

A step is a plain dict (JSON-ready, short keys: the page is small):

``k`` kind (``deal``, ``move``, ``error``), ``ln`` the log's line, ``tx`` what happened in words
(``tm`` the same words without a card the seats in ``ov`` may not see), ``cp`` the move's
checkpoints in words; and the table: ``n`` hand number, ``d`` dealer, ``mao``, ``ph`` phase,
``t`` whose card is awaited, ``sc`` score, ``g`` games, ``v`` the hand's value, ``pr`` the
pending raise ``[seat, value, name, card]``, ``hs`` each seat's cards, ``vi`` vira, ``ma``
manilhas (strongest first), ``pl`` the cards played ``[round, seat, card, covered]``, ``rr``
round winners, ``sh`` cards shown ``[seat, card]``, ``sp`` the special hand ``[name, team]``,
``bl`` blind, ``ac`` the seats that must act outside the play of a card (a raise's or side
bet's answerers, a special hand's deciders, a flor's singer), ``ov`` per seat ``[own cards
seen, partners' seats seen, played cards not seen (indexes), pending raise's card seen, the
move's card seen, the acting seats it may know]`` (and, with side bets, its own points per
bet), ``end`` the hand is over. With side bets (G22-G41): ``sb`` the bets as every seat sees
them (:func:`_side_bets`), ``ss`` the cards their winners show ``[seat, cards, bet]``.

:func:`delta` keeps of each step only what differs from the step before (the page adds the
rest back): a whole match stays small.
"""

from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path
from typing import IO, Any

from engine.actions import Action
from engine.cards import COBERTA, Card, card_name, card_pretty
from engine.game import Checkpoint, Match
from engine.i18n import _, person
from engine.logread import LogItem, LogProblem
from engine.moves.names import DEAL_KIND, FLOR_KIND, PLAY_KIND, RAISE_KIND
from engine.observation import Observation, PlayedCard
from engine.replay import Replayer, replay
from engine.replay.identity import LogDigest
from engine.rules import Rules
from engine.sidebets import BetState, best_points, declarations, flor_points
from engine.state import PLAY, HandState
from engine.transcript import Transcript
from engine.words import card_names

Step = dict[str, Any]

#: Keys that belong to one step only (never carried to the next by :func:`delta`).
OWN_KEYS = ("k", "ln", "tx", "tm", "cp")


def _cards(cards: list[Card] | tuple[Card, ...]) -> list[str]:
    return [card_name(c) for c in cards]


def _strongest_first(manilhas: tuple[Card, ...]) -> list[str]:
    """The manilhas as the page lists them: strongest first (the engine's are weakest first)."""
    return _cards(manilhas[::-1])


class StepBuilder(Transcript):
    """A :class:`~engine.replay.Visitor` that collects the :attr:`steps` of a log (and its
    header's facts in :attr:`info`); strict, as its parent :class:`Transcript` (a problem is
    raised: :func:`build_steps` turns it into a last ``error`` step)."""

    def __init__(self) -> None:
        super().__init__()
        self.steps: list[Step] = []
        self.info: dict[str, Any] = {}
        self.match: Match | None = None
        #: The log's identity (:class:`~engine.replay.identity.LogDigest`): what ties an
        #: analysis to it.
        self.digest = LogDigest()
        self._hand_obj: HandState | None = None
        self._dealer = 0

    # -- the visitor ----------------------------------------------------------------------------
    def header(self, item: LogItem, match: Match) -> None:
        self.digest.add(item)
        r = match.rules
        given = item.data.get("players")
        meta = item.data.get("meta")
        if not given and isinstance(meta, dict):
            given = meta.get("players")  # names a tool kept in the header's meta
        given = given if isinstance(given, list) else []
        names = [str(given[s]) if s < len(given) and given[s] not in (None, "")
                 else _("Seat {seat}").format(seat=s) for s in range(r.players)]
        # the transcript's words (every step's) name the players so too
        super().header(replace(item, data={**item.data, "players": names}), match)
        self.match = match
        self.info = {
            "title": r.title, "variant": r.name, "seed": item.data.get("seed"),
            "players": r.players, "names": self.names, "teams": r.teams,
            "team_of": list(r.team_of),
            "ladder": [[r.initial_value, ""]] + [[s.value, s.name] for s in r.ladder],
            "target": r.target, "games_to_win": r.games_to_win,
            "card_names": card_names(r), "lines": self.lines[:2],
        }

    def hand(self, match: Match, deal: LogItem | None) -> None:
        if deal is not None:
            self.digest.add(deal)
        before = len(self.lines)
        super().hand(match, deal)
        new = self.lines[before:]
        at = self.hand_at - before  # the hand's first line, after a game's
        text = new[at]
        if match.hand.played or match.hand.pending is not None:
            text += " " + _("(the log starts here, from a position)")
        # new[at + 1] lists every seat's cards (not for every eye); then the vira and manilhas
        # and the special hand in force, which are public
        cps = [line for line in new[:at] if line]  # a new game's line
        cps += [_table_line(match) if line.strip().startswith(("vira ", "manilhas "))
                else line.strip() for line in new[at + 2:] if line.strip()]
        self.steps.append(self._table(match, kind=DEAL_KIND,
                                      line=deal.line if deal is not None else None,
                                      text=text, cps=cps))

    def move(self, item: LogItem, action: Action, match: Match,
             checkpoints: list[Checkpoint]) -> None:
        self.digest.add(item)
        before = len(self.lines)
        old = self._hand_obj
        super().move(item, action, match, checkpoints)
        new = [line.strip() for line in self.lines[before:] if line.strip()]
        text, cps = (new[0] if new else str(action)), new[1:]
        ended = any(cp["event"] in ("hand", "game") for cp in checkpoints)
        masked = _masked_text(self, action, match.rules.step_name(action.value)
                              if action.value is not None else "")
        if ended and not match.is_over and old is not None and old is not match.hand:
            step = self._ended(match, old, checkpoints, action)
        else:
            step = self._table(match, kind="move", line=item.line, text=text, cps=cps,
                               action=action)
            if ended:
                step["end"] = 1
                _final_score(step, checkpoints)
        step.update(k="move", ln=item.line, tx=text, cp=cps)
        if "sb" in step:
            _side_shows(step, checkpoints, old if step.get("end") and old is not None
                        else match.hand)
        if masked is not None and masked != text:
            step["tm"] = masked
        self.steps.append(step)

    def end(self, replayer: Replayer) -> None:
        super().end(replayer)
        if not self.steps and self.match is not None:
            self.steps.append(self._table(self.match, kind=DEAL_KIND, line=1,
                                          text=_("The match as its header starts it "
                                                 "(no moves)"),
                                          cps=[]))

    # -- the table ------------------------------------------------------------------------------
    def _table(self, m: Match, *, kind: str, line: int | None, text: str, cps: list[str],
               action: Action | None = None) -> Step:
        h = m.hand
        self._hand_obj = h
        self._dealer = m.dealer
        rule = h.rule
        obs = [m.observation(s) for s in range(m.players)]
        acting = _acting(m)
        step: Step = {
            "k": kind, "ln": line, "tx": text, "cp": cps,
            "n": m.hand_number, "d": m.dealer, "mao": m.mao, "ph": m.state,
            "t": m.turn if m.state == PLAY else None,
            "sc": m.score[:], "g": m.games[:], "v": h.value,
            "pr": _pending(m, h), "ac": acting, "hs": [_cards(cards) for cards in h.hands],
            "vi": card_name(h.vira) if h.vira is not None else None,
            "ma": _strongest_first(m.rules.manilhas_for(h.vira)),
            "pl": [[r + 1, s, card_name(c), int(cov)] for r, s, c, cov in h.played],
            "rr": list(h.results), "sh": [[s, card_name(c)] for s, c in h.shown],
            "sp": [rule.name, h.special_team] if rule is not None else None,
            "bl": int(h.blind), "end": 0,
            "ov": [_view(o, o["played"], action, o["pending_raise"] is not None
                         and "card" in o["pending_raise"]) for o in obs],
        }
        for seat in range(m.players):
            step["ov"][seat].append(_acting_seen(m.state, acting, seat))
        if h.side is not None:
            step["sb"] = _side_bets(m.rules, h, m.mao)
            step["ss"] = []
            for seat, o in enumerate(obs):
                step["ov"][seat].append([b["my_points"] for b in o.get("side_bets", [])])
        return step

    def _ended(self, m: Match, old: HandState, checkpoints: list[Checkpoint],
               action: Action) -> Step:
        """The table of a hand that the move ended, the match going on: the match has dealt
        the next hand already, so the ended hand is read from its own state (``old``) and each
        seat's view of its cards played from the observation's ``last_hand``."""
        r = m.rules
        previous = self.steps[-1]["ov"] if self.steps else None
        obs = [m.observation(s) for s in range(m.players)]
        views = []
        for s, o in enumerate(obs):
            last = o["last_hand"]
            played: list[PlayedCard] = last["played"] if last is not None else []
            own = previous[s][0] if previous is not None else 1
            view = _view(o, played, action, False)
            view[0] = own  # the seat's own cards: as it saw them before the hand ended
            view[1] = []
            view.append(None)  # nobody acts in an ended hand
            if old.side is not None and previous is not None and len(previous[s]) > 6:
                view.append(previous[s][6])  # the seat's own points: as it knew them
            views.append(view)
        step: Step = {
            "n": m.last_hand[0] if m.last_hand is not None else m.hand_number,
            "d": self._dealer, "mao": (self._dealer + 1) % r.players,
            "ph": "hand_over", "t": None, "sc": m.score[:], "g": m.games[:], "v": old.value,
            "pr": None, "ac": None, "hs": [_cards(cards) for cards in old.hands],
            "vi": card_name(old.vira) if old.vira is not None else None,
            "ma": _strongest_first(r.manilhas_for(old.vira)),
            "pl": [[rn + 1, s, card_name(c), int(cov)] for rn, s, c, cov in old.played],
            "rr": list(old.results), "sh": [[s, card_name(c)] for s, c in old.shown],
            "sp": [old.rule.name, old.special_team] if old.rule is not None else None,
            "bl": int(old.blind), "end": 1, "ov": views,
        }
        if old.side is not None:
            step["sb"] = _side_bets(r, old, (self._dealer + 1) % r.players)
            step["ss"] = []
        _final_score(step, checkpoints)
        self._hand_obj = m.hand
        self._dealer = m.dealer
        return step


def _table_line(m: Match) -> str:
    """The hand's vira and manilhas in words, the manilhas strongest first as the page draws
    them (the transcript lists them weakest first)."""
    called = card_names(m.rules)
    vira = m.hand.vira
    parts = [f"vira {card_pretty(vira)}"] if vira is not None else []
    if manilhas := m.rules.manilhas_for(vira):
        parts.append("manilhas " + " ".join(
            card_pretty(c) + (f" ({called[card_name(c)]})" if card_name(c) in called else "")
            for c in manilhas[::-1]) + " " + _("(strongest first)"))
    return " · ".join(parts)


#: The phases whose actors a seat may not know: who sings a flor is who holds one (G35), which
#: nobody else knows before he sings.
PRIVATE_ACTORS = ("sing",)


def _acting(m: Match) -> list[int] | None:
    """The seats that must act now outside the play of a card: the answerers of a pending
    raise or side bet, the deciders of a special hand, the singer of a flor (``None`` in
    play, where ``t`` is whose card is awaited, and where nobody may move)."""
    if m.state == PLAY:
        return None
    return m.to_act() or None


def _acting_seen(phase: str, acting: list[int] | None, seat: int) -> list[int] | None:
    """The acting seats as ``seat`` may know them: all, but in a phase whose actors are
    private (:data:`PRIVATE_ACTORS`) only itself."""
    if acting is None or phase not in PRIVATE_ACTORS:
        return acting
    return [seat] if seat in acting else []


def _bet_word(b: BetState) -> str:
    """Where a side bet stands, in a word: ``""`` (not called), ``called`` (a flor being
    sung), ``waits`` (a call waits for its answer), ``killed`` (annulled by a flor, G37),
    ``accepted`` (compared), ``refused``; a flor settled without an answer ``sung`` (G38) or
    ``conceded`` (com flor me achico, G39)."""
    if b.killed:
        return "killed"
    if b.pending:
        return "waits"
    if not b.settled:
        return "called" if b.chain else ""
    if b.accepted:
        return "accepted"
    flor = b.bet.flor_chains
    if flor is not None and b.chain in flor and flor[b.chain].at_once is not None:
        return "conceded" if flor[b.chain].at_once == "concede" else "sung"
    return "refused"


def _side_bets(rules: Rules, hand: HandState, mao: int) -> list[list[Any]]:
    """The hand's side bets as every seat sees them (G22-G41, as the engine's observation
    tells them, :func:`engine.moves.bets.side_view`): per bet ``[name, calls, caller, word,
    winning team, points, declared [[seat, points or None for "são boas"]], seats that sang a
    flor]``."""
    out: list[list[Any]] = []
    for b in hand.side or ():
        bet = b.bet
        said: list[list[Any]] = []
        if b.accepted and bet.kind == FLOR_KIND:  # G49: the flores compared
            said = [[s, got[0]] for s in b.sung
                    if (got := flor_points(hand.dealt[s], bet, hand.vira))]
        elif b.accepted:  # G30: who said what, from the mão
            pts = [best_points(cards, bet, hand.vira)[0] for cards in hand.dealt]
            said = [[s, p] for s, p in declarations(rules, bet, mao, pts)[0]]
        out.append([bet.name, list(b.chain), b.caller, _bet_word(b), b.winner,
                    b.points if b.settled else 0, said, list(b.sung)])
    return out


def _side_shows(step: Step, checkpoints: list[Checkpoint], hand: HandState) -> None:
    """The cards the side bets' winners show at the end of the hand (G32, G41: ``side_show``
    checkpoints) as ``ss`` ``[seat, cards, bet]``; ``sh`` keeps the cards shown with a raise
    (M4) only, which the hand's shown cards list first."""
    shows = [cp for cp in checkpoints if cp["event"] == "side_show"]
    if not shows:
        return
    step["ss"] = [[cp["seat"], list(cp["cards"]), _shown_for(hand, cp["seat"], cp["cards"])]
                  for cp in shows]
    count = sum(len(cp["cards"]) for cp in shows)
    step["sh"] = step["sh"][:len(step["sh"]) - count]


def _shown_for(hand: HandState, seat: int, cards: list[str]) -> str:
    """The side bet whose winning cards ``seat`` shows."""
    for b in hand.side or ():
        for s, made in (b.flores if b.shown is None else (b.shown,)):
            if s == seat and set(cards) <= {card_name(c) for c in made}:
                return b.bet.name
    return ""


def _final_score(step: Step, checkpoints: list[Checkpoint]) -> None:
    """The score the hand ended with (a game's last hand: the game's score, before 0-0)."""
    for cp in checkpoints:
        if cp["event"] in ("hand", "game", "side_bet"):  # the checkpoints with a score
            step["sc"] = list(cp["score"])
        if cp["event"] in ("game", "match"):  # and those with the games won
            step["g"] = list(cp["games"])


def _pending(m: Match, h: HandState) -> list[Any] | None:
    if h.pending is None:
        return None
    seat, value, card = h.pending
    return [seat, value, m.rules.step_name(value), card_name(card) if card is not None else None]


def _view(o: Observation, played: list[PlayedCard], action: Action | None,
          pending_card: bool) -> list[Any]:
    """One seat's view, from its observation: whether it sees its own cards, whose partners'
    cards it sees, which cards played it does not see, whether it sees the pending raise's
    card, and whether it sees the card the step's move names."""
    hidden = [i for i, p in enumerate(played) if p["card"] is None]
    partners = sorted(int(s) for s in (o["partner_hands"] or {}))
    sees_move = 1
    if action is not None and action.card is not None:
        if action.kind == PLAY_KIND:
            mine = [i for i, p in enumerate(played) if p["seat"] == action.seat]
            sees_move = int(not mine or mine[-1] not in hidden)
        else:  # a raise naming a card (M4): the raiser's own, unless shown
            shown = any(x["seat"] == action.seat and x["card"] == card_name(action.card)
                        for x in o["shown"])
            sees_move = int(o["seat"] == action.seat or shown or pending_card)
    return [int(o["hand"] is not None), partners, hidden, int(pending_card), sees_move]


def _masked_text(t: Transcript, action: Action, rules_step: str) -> str | None:
    """The move's words without its card, for a seat that may not see it (a covered card; a
    raise's named card)."""
    if action.card is None:
        return None
    who, mine = t._name(action.seat), t._mine(action.seat)
    if action.kind == PLAY_KIND and action.covered:
        return person(mine, _("you play a card face down ({coberta})"),
                      _("{who} plays a card face down ({coberta})"), who=who, coberta=COBERTA)
    if action.kind == RAISE_KIND:
        return person(mine, _("you raise: {step} ({value}) with a card"),
                      _("{who} raises: {step} ({value}) with a card"), who=who,
                      step=rules_step, value=action.value)
    return None


def delta(steps: list[Step]) -> list[Step]:
    """Each step with only the keys whose values differ from the step before (the keys of
    :data:`OWN_KEYS` are the step's own and always kept where set)."""
    out: list[Step] = []
    before: Step = {}
    for step in steps:
        d = {k: v for k, v in step.items()
             if k in OWN_KEYS or k not in before or before[k] != v}
        d = {k: v for k, v in d.items() if not (k in OWN_KEYS and v in (None, [], ""))}
        out.append(d)
        before = {**before, **step}
    return out


def undelta(steps: list[Step]) -> list[Step]:
    """The whole steps back from :func:`delta`'s (what the page does when it loads)."""
    out: list[Step] = []
    carried: Step = {}
    for step in steps:
        whole = {k: v for k, v in carried.items() if k not in OWN_KEYS}
        whole.update(step)
        out.append(whole)
        carried = whole
    return out


def named(text: str, names: list[str]) -> str:
    """An engine's message with its seats named as the log's header names the players
    (``it is seat 2's turn``: ``it is Caio's turn``; ``seat 2``: ``Caio (seat 2)``); a seat
    the header left unnamed keeps its number."""
    def name(seat: str) -> str | None:
        n = int(seat)
        return names[n] if n < len(names) and names[n] != _("Seat {seat}").format(seat=n) \
            else None

    def possessive(found: re.Match[str]) -> str:
        who = name(found[1])
        return found[0] if who is None else f"{who}'s"

    def plain(found: re.Match[str]) -> str:
        who = name(found[1])
        return found[0] if who is None else f"{who} ({found[0]})"

    text = re.sub(r"\bseat (\d+)'s\b", possessive, text)
    return re.sub(r"\bseat (\d+)\b(?! \()", plain, text)


def build_steps(data: IO[bytes] | bytes, file: str, *,
                base: Path | None = None) -> tuple[StepBuilder, LogProblem | None]:
    """Replay a log and collect its steps; an invalid log's steps stop at its first problem,
    which is returned (and added as a last ``error`` step)."""
    builder = StepBuilder()
    problem: LogProblem | None = None
    try:
        replay(io.BytesIO(data) if isinstance(data, bytes) else data, file, builder, base)
    except LogProblem as exc:
        problem = exc
        builder.steps.append({"k": "error", "ln": exc.line, "tx": named(str(exc), builder.names),
                              "cp": []})
    return builder, problem


__all__ = ["OWN_KEYS", "Step", "StepBuilder", "build_steps", "delta", "named", "undelta"]
