"""A game log for people: a :class:`~engine.replay.Visitor` that writes, as the replay goes,
each hand's cards with suit symbols, the vira and manilhas, every move with the ladder's step
names, each round's winner, and the scores after each hand, game and match.

>>> log = (b'{"truco_log": 1, "variant": "paulista", "seed": 7, '
...        b'"players": ["Ana", "Bia", "Caio", "Duda"]}\\n'
...        b'{"event": "raise", "seat": 1, "value": 3}\\n{"event": "fold", "seat": 2}\\n')
>>> print(transcript(log, "a.jsonl"))  # doctest: +ELLIPSIS
Truco Paulista (paulista) · seed 7 · first dealer Ana
...
  Bia raises: truco (3)
  Caio folds
  hand: team 1 (Bia, Duda) wins 1 point · score 0-1
...
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from engine.actions import Action
from engine.cards import COBERTA, Card, card_name, card_pretty
from engine.game import Checkpoint, Match
from engine.i18n import _, ngettext, person, team_seats, use_team_seats
from engine.logread import LogItem
from engine.moves import KINDS, Words
from engine.replay import Replayer, Visitor, replay
from engine.rules import COVERED
from engine.words import card_names, manilhas_text, named, table_word, unanswered


class Transcript(Visitor):
    """Collects the transcript's lines in :attr:`lines`; strict (a problem is raised)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.names: list[str] = []
        self._team_of: tuple[int, ...] = ()
        self._strength: tuple[int, ...] = ()
        self._round: list[tuple[int, Card, bool]] = []
        self._round_no = 1
        self._game = 1
        self._game_started = False
        #: The kind of the move whose checkpoints are told (a flor's are "sung", G38).
        self._last_kind = ""
        #: The log starts from a position (docs/positions.md) whose hand is not yet shown.
        self._from_position = False
        #: The match's number of the game's first hand: hands are numbered per game, as in
        #: truco play (``None``: a log from a position, whose game began before it).
        self._first: int | None = 1
        #: What players call particular cards (the variant's ``card_names``).
        self._called: dict[str, str] = {}
        #: The index in :attr:`lines` of the last hand's first line.
        self.hand_at = 0

    def _card(self, card: Card) -> str:
        """A card for people, named where the variant names it: ``4♣ (zap)``, ``X1 (coringa)``."""
        return named(card_name(card), self._called)

    def _name(self, seat: int) -> str:
        """The seat's name in the log (``you``, the seat ``truco play`` names so, said in the
        reader's language)."""
        if seat >= len(self.names):
            return _("seat {seat}").format(seat=seat)
        return _("you") if self.names[seat] == "you" else self.names[seat]

    def _mine(self, seat: int) -> bool:
        """Whether the log names ``seat`` ``you`` (its sentences said to "you")."""
        return seat < len(self.names) and self.names[seat] == "you"

    def _team(self, team: int | None) -> str:
        if team is None:
            return _("nobody")
        seats = [s for s, t in enumerate(self._team_of) if t == team]
        return _("team {team} ({seats})").format(
            team=team, seats=", ".join(self._name(s) for s in seats))

    def header(self, item: LogItem, match: Match) -> None:
        r = match.rules
        n = r.players
        use_team_seats(r.players // r.teams)  # the log's teams named in its words (jogador...)
        given = item.data.get("players") or []
        self.names = [str(given[s]) if s < len(given) else _("seat {seat}").format(seat=s)
                      for s in range(n)]
        self._team_of = r.team_of
        self._called = card_names(r)
        seed = item.data.get("seed")
        if "position" in item.data:  # a log that starts from a position: what was before it
            self._from_position = True
            self._game = sum(match.games) + 1
            start = _("from a position: hand {hand}, games {games}").format(
                hand=match.hand_number, games=_dashed(match.games))
            parts = [f"{r.title} ({r.name})", start,
                     _("dealer {who}").format(who=self._name(match.dealer))]
        else:
            parts = [f"{r.title} ({r.name})",
                     _("seed {seed}").format(seed=seed) if seed is not None
                     else _("recorded deals"),
                     _("first dealer {who}").format(who=self._name(match.dealer))]
        self.lines.append(" · ".join(parts))
        ladder = ", ".join([str(r.initial_value), *(f"{s.name} {s.value}" for s in r.ladder)])
        self.lines.append(ngettext("Teams: {teams} · ladder {ladder} · {target} points a game, "
                                   "{games} game to win",
                                   "Teams: {teams} · ladder {ladder} · {target} points a game, "
                                   "{games} games to win", r.games_to_win).format(
            teams=" · ".join(self._team(t) for t in range(r.teams)), ladder=ladder,
            target=r.target, games=r.games_to_win))

    def hand(self, match: Match, deal: LogItem | None) -> None:
        r = match.rules
        if not self._game_started:
            self._game_started = True
            self._first = None if self._from_position else match.hand_number
            self.lines.append("")
            self.lines.append(_("Game {n}").format(n=self._game))
        self._strength = r.strengths(match.hand.vira)
        self._round = []
        self._round_no = 1
        self.lines.append("")
        number = match.hand_number - (self._first or 1) + 1
        self.hand_at = len(self.lines)  # where the hand's lines start (the viewer's steps)
        self.lines.append(_("Hand {n} · dealer {dealer} · mão {mao} · score {score}").format(
            n=number, dealer=self._name(match.dealer), mao=self._name(match.mao),
            score=_dashed(match.score)))
        self.lines.append("  " + " | ".join(
            f"{self._name(s)}: {' '.join(self._card(c) for c in cards)}"
            for s, cards in enumerate(match.hand.dealt)))
        table = []
        vira = match.hand.vira
        if vira is not None:
            table.append(f"vira {card_pretty(vira)}")
        if manilhas := r.manilhas_for(vira):  # strongest first, as truco play and the viewer do
            table.append(manilhas_text([card_name(c) for c in manilhas], self._called))
        if table:
            self.lines.append("  " + " · ".join(table))
        h = match.hand.rule
        if h is not None:
            how = " " + _("(a decision: play or fold)") if h.decision else ""
            blind = ", " + _("played blind") if h.blind else ""
            raises = ", " + _("no raises") if h.raises != "allowed" else ""
            worth = _("worth {value}").format(value=match.value) + how + blind + raises
            if match.special_team is not None:
                self.lines.append("  " + _("{hand} for {team}: {worth}").format(
                    hand=h.name, team=self._team(match.special_team), worth=worth))
            else:
                self.lines.append(f"  {h.name}: {worth}")
        if self._from_position:
            self._from_position = False
            self._before_the_log(match)

    def _before_the_log(self, match: Match) -> None:
        """A log from a position starts in the middle of its hand: say what happened before
        its first line (the cards played, by round; the hand's value; a pending raise), and
        follow the round in play from there."""
        hand = match.hand
        rnd = match.round
        if not hand.played and hand.pending is None and hand.last_raise_team is None:
            return  # the log starts with the hand
        done = [_("round {n}: ").format(n=n + 1) + ", ".join(
                    f"{self._name(s)} {self._card(c)}{f' {COBERTA}' if cov else ''}"
                    for k, s, c, cov in hand.played if k == n)
                for n in range(rnd.number + 1) if any(k == n for k, *_ in hand.played)]
        said = [_("played: {rounds}").format(rounds="; ".join(done))] if done else []
        if hand.results:
            said.append(_("rounds won: {rounds}").format(rounds=", ".join(
                self._round_result_short(w) for w in hand.results)))
        said.append(_("worth {value}").format(value=match.value))
        if hand.pending is not None:
            seat, value, _card = hand.pending
            said.append(_("{who}'s {step} ({value}) awaits its answer").format(
                step=match.rules.step_name(value), value=value, who=self._name(seat)))
        self.lines.append("  " + _("(before the log: {what})").format(what=" · ".join(said)))
        self._round = list(rnd.cards)
        self._round_no = rnd.number + 1

    def _round_result_short(self, winner: int | None) -> str:
        return _("tied") if winner is None else _("team {team}").format(team=winner)

    def move(self, item: LogItem, action: Action, match: Match,
             checkpoints: list[Checkpoint]) -> None:
        who = self._name(action.seat)
        self._last_kind = action.kind
        words = Words(who=who, s="s" * (not self._mine(action.seat)),
                      me=action.seat if self._mine(action.seat) else -1,
                      rules=match.rules, position=None,
                      card=self._card, label=self._card, said=table_word(action, match.rules),
                      value=match.value, settles=bool(checkpoints))
        told = KINDS[action.kind].told
        assert told is not None, f"{action.kind} has no words"
        self.lines.append("  " + told(action, words))
        events = {cp["event"] for cp in checkpoints}
        if "round" in events:  # only a card ends a round: the move's card is its last
            assert action.card is not None
            self._round.append((action.seat, action.card, action.covered))
        elif "hand" not in events:  # the round goes on, with the move's card if it laid one
            self._round = list(match.round.cards)
        for cp in checkpoints:
            self._checkpoint(cp)

    def _checkpoint(self, cp: Checkpoint) -> None:
        if cp["event"] == "round":
            self.lines.append("  " + _("round {n}: ").format(n=self._round_no)
                              + self._round_result(cp["winner"]))
            self._round_no += 1
            self._round = []
        elif cp["event"] == "hand":
            points = cp["points"]
            if cp["winner"] is None:
                what = _("nobody scores")
            else:
                what = ngettext("{team} wins {n} point", "{team} wins {n} points",
                                points).format(team=self._team(cp["winner"]), n=points)
            self.lines.append("  " + _("hand: {what} · score {score}").format(
                what=what, score=_dashed(cp["score"])))
        elif cp["event"] == "game":
            self.lines.append("")
            self.lines.append(_("Game {n}: {team} wins, {score} · games {games}").format(
                n=self._game, team=self._team(cp["winner"]), score=_dashed(cp["score"]),
                games=_dashed(cp["games"])))
            self._game += 1
            self._game_started = False
        elif cp["event"] == "side_declare":  # G30: the declared points, or "são boas"
            pts = cp["points"]
            said = f'"{pts}"' if pts is not None else '"são boas"'
            self.lines.append("  " + person(self._mine(cp["seat"]), _("you say {said}"),
                                            _("{who} says {said}"),
                                            who=self._name(cp["seat"]), said=said))
        elif cp["event"] == "side_bet":
            points = cp["points"]
            word = unanswered(self._last_kind)
            how = _("accepted") if cp["accepted"] else {
                "refused": _("refused"), "sung": _("sung")}.get(word, word)
            wins = ngettext("{team} wins {n} point", "{team} wins {n} points", points).format(
                team=self._team(cp["winner"]), n=points)
            self.lines.append("  " + _("{bet} ({calls}, {how}): {wins} · score {score}").format(
                bet=cp["bet"], calls=" - ".join(cp["calls"]), how=how, wins=wins,
                score=_dashed(cp["score"])))
        elif cp["event"] == "side_show":  # G32: the winning points' cards still in hand
            cards = " ".join(named(c, self._called) for c in cp["cards"])
            self.lines.append("  " + person(self._mine(cp["seat"]), _("you show {cards}"),
                                            _("{who} shows {cards}"),
                                            who=self._name(cp["seat"]), cards=cards))
        else:
            self.lines.append(_("Match: {team} wins · games {games}").format(
                team=self._team(cp["winner"]), games=_dashed(cp["games"])))

    def _round_result(self, winner: int | None) -> str:
        if winner is None:
            return _("tied")
        strength = self._strength
        # the first of the winning team's strongest cards (C5)
        _rank, seat, card = max((((COVERED if cov else strength[c]), s, c)
                             for s, c, cov in self._round if self._team_of[s] == winner),
                            key=lambda e: e[0])
        return _("team {team} wins ({who}, {card})").format(team=winner, who=self._name(seat),
                                                            card=self._card(card))

    def end(self, replayer: Replayer) -> None:
        if replayer.incomplete is not None:
            m = replayer.match
            assert m is not None
            self.lines.append("")
            self.lines.append(_("(the log ends here, before the match is over: score "
                                "{score}, games {games})").format(score=_dashed(m.score),
                                                                  games=_dashed(m.games)))


def transcript(data: IO[bytes] | bytes, file: str, *, base: Path | None = None) -> str:
    """The transcript of a log. Raises :class:`~engine.logread.LogProblem` if it is invalid."""
    visitor = Transcript()
    with team_seats(2):  # the log's teams' word, from its header: as before afterwards
        replay(io.BytesIO(data) if isinstance(data, bytes) else data, file, visitor, base)
    return "\n".join(visitor.lines)


def _dashed(values: Sequence[int]) -> str:
    """A score or games array as players write it: ``3-5`` (``3-1-4`` with three teams)."""
    return "-".join(map(str, values))
