"""The game loop of ``truco play``: the banner, the table, the menu and the person's move, the
bots' moves and the out-of-turn raises offered (M3), each move and checkpoint told."""


from __future__ import annotations

from collections.abc import Sequence
from typing import IO

import click

from engine.actions import Action
from engine.bots import Bot, choose_for, next_actor, notify, out_of_turn_raise
from engine.cards import card_name
from engine.cli.play_input import (
    CARD_KIND,
    MENU_LETTERS,
    PASS_WORDS,
    QUIT_WORDS,
    hint,
    parse_move,
)
from engine.errors import IllegalMoveError
from engine.game import Match
from engine.i18n import _, person
from engine.logformat import Recorder
from engine.moves.names import RAISE_KIND
from engine.observation import Observation
from engine.refusals import no_raise_now, refusal
from engine.state import PLAY, HandState
from engine.telling import describe, describe_checkpoint, menu_entry, menu_order
from engine.tui import card_label, render_banner, render_table, seat_label
from engine.words import card_names


class _Stop(Exception):
    """The person ended the input (EOF or a quit word)."""


class _Game:
    """The match, its bots and the optional recorder, with the person at ``seat``; ``names``
    are the seats' names (the log header's ``players``)."""

    def __init__(self, match: Match, seat: int, bots: dict[int, Bot], title: str,
                 recorder: Recorder | None, stdin: IO[str], names: Sequence[str],
                 first: int | None = 1) -> None:
        self.match = match
        self.seat = seat
        self.bots = bots
        self.title = title
        self.recorder = recorder
        self.stdin = stdin
        self.names = list(names)
        self.card_names = card_names(match.rules)
        self.banner_hand = 0  # the hand whose banner was printed last
        self.quiet_hand = 0  # the hand in which the person asked not to be offered raises
        #: The match's number of the current game's first hand: hands are numbered per game
        #: (``None``: not known, from a position in a later game).
        self.first = first
        #: The partners' cards shown for a decision (M5, P5), by hand: kept on the table for
        #: the rest of that hand, less the cards played since.
        self.partners_seen: tuple[int, dict[int, list[str]]] | None = None

    def table(self, obs: Observation) -> str:
        """The table as the person sees it, with what he was shown earlier in the hand."""
        seen = self.partners_seen
        if obs.get("partner_hands"):
            self.partners_seen = (obs["hand_number"], dict(obs["partner_hands"] or {}))
        elif seen is not None and seen[0] == obs["hand_number"]:
            played = {(p["seat"], p["card"]) for p in obs["played"]}
            kept = {s: [c for c in cards if (s, c) not in played] for s, cards in seen[1].items()}
            obs = {**obs, "partner_hands": kept}
        rules = self.match.rules
        return render_table(obs, title=self.title, target=rules.target, rules=rules,
                            names=self.names, places=self.places(), first=self.first)

    def run(self) -> None:
        m = self.match
        while not m.is_over and not m.awaiting_deal:  # (an unseeded match waits for a deal)
            if m.hand_number != self.banner_hand:  # before any move of the hand is printed
                self.banner_hand = m.hand_number
                click.echo("")
                click.echo(render_banner(m.observation(self.seat), rules=m.rules,
                                         names=self.names, target=m.rules.target,
                                         places=self.places(), first=self.first))
            actor = next_actor(m, prefer=self.seat, bots=self.bots)
            # M3: before a card, the seats that may raise out of turn are offered it as in
            # truco simulate (play_match): in playing order from the seat after the one to
            # play, each bot its raises or a pass, the person (on the terminal) in its place.
            action = out_of_turn_raise(m, self.bots, ask=self.offer_raise)
            if action is None:
                obs = m.observation(actor)
                legal = m.legal_actions(actor)
                if actor == self.seat:
                    action = self.ask(obs, legal)
                else:
                    action = choose_for(self.bots[actor], m, actor)
            position = None  # P6: the person played a card of his blind hand by its place
            if m.blind and action.kind == CARD_KIND and action.seat == self.seat:
                position = self.place(action.card)  # type: ignore[arg-type]
            hand, shown_before, state = m.hand_number, len(m.hand.shown), m.hand
            cps = self.recorder.apply(action) if self.recorder is not None else m.apply(action)
            notify(m, self.bots)  # a bot over the protocol: what its seat saw (and the end)
            if any(cp["event"] == "game" for cp in cps):
                self.first = m.hand_number  # the next game's first hand (dealt at once)
            click.echo(describe(action, m.rules, self.seat, position, self.names))
            proofs = [c for c in cps if c["event"] == "side_show"]  # G32, not raises
            self.tell_shown(hand, shown_before, sum(len(c["cards"]) for c in proofs))
            bets = iter(_side_shows(state))
            for cp in cps:
                proves = next(bets, None) if cp["event"] == "side_show" else None
                click.echo(describe_checkpoint(cp, self.seat, m.rules.team_of, self.names,
                                               proves, self.card_names, action.kind))

    def tell_shown(self, hand: int, before: int, proofs: int = 0) -> None:
        """Cards newly shown with a raise (M4): accepted, or refused where the variant shows a
        refused raise's card (round 1 in Mineiro), which ends the hand. The last ``proofs``
        cards shown are a side bet's proof (G32), told by their checkpoint instead."""
        m = self.match
        obs = m.observation(self.seat)
        last = obs["last_hand"]
        shown = obs["shown"] if m.hand_number == hand else (last["shown"] if last else [])
        for s in shown[before:len(shown) - proofs]:
            click.echo(person(s["seat"] == self.seat, _("  shown: you raised with {card}"),
                              _("  shown: {who} raised with {card}"),
                              who=seat_label(s["seat"], self.seat, self.names),
                              card=card_label(s["card"], obs["manilhas"], self.card_names)))

    def offer_raise(self, seat: int) -> Action | None:
        """Before a bot's card: where the person (``seat``) may raise now, out of turn (M3),
        ask whether to; ``None`` passes. :func:`out_of_turn_raise` calls it at the person's
        place in playing order."""
        m = self.match
        if m.state != PLAY or self.quiet_hand == m.hand_number:
            return None
        actor = m.turn
        legal = [a for a in m.legal_actions(self.seat) if a.kind == RAISE_KIND]
        if not legal:
            return None
        obs = m.observation(self.seat)
        legal = [legal[i] for i in menu_order(legal, m.rules, obs["vira"], obs["blind"])]
        texts = [str(a) for a in legal]
        choices = "  ".join(
            f"{MENU_LETTERS[i]}) {m.rules.step_name(a.value or 0)}" + (
                "" if a.card is None else _(" with {card}").format(
                    card=card_label(card_name(a.card), obs["manilhas"], self.card_names)))
            for i, a in enumerate(legal))
        who = seat_label(actor, self.seat, self.names)
        click.echo(_("Raise before {who} plays? {choices}").format(who=who, choices=choices))
        while True:
            click.echo(_("[Enter: let {who} play · no: not again this hand] ").format(who=who),
                       nl=False)
            line = self.stdin.readline()
            if not line:
                raise _Stop
            word = line.strip().lower()
            if word == "":
                return None
            if word in QUIT_WORDS:
                raise _Stop
            if word in PASS_WORDS:
                self.quiet_hand = m.hand_number
                return None
            if word in ("?", "help", "h", "ajuda"):
                click.echo(self.table(obs))
                click.echo(choices)
                continue
            got = parse_move(word, legal, texts, m.rules, self.why)
            if isinstance(got, Action):
                return got
            click.echo(f"'{line.strip()}': {got}")

    def place(self, card: int) -> int:
        """The 1-based place in which ``card`` was dealt to the person: in a blind hand (P6)
        his cards keep their numbers as he plays them."""
        dealt = self.match.hand.dealt[self.seat] if self.match.hand.dealt else ()
        return (dealt.index(card) if card in dealt
                else self.match.hand.hands[self.seat].index(card)) + 1

    def places(self) -> list[int] | None:
        """In a blind hand (P6), the places as dealt of the cards the person holds."""
        m = self.match
        return [self.place(c) for c in m.hand.hands[self.seat]] if m.blind else None

    def why(self, action: Action) -> str | None:
        """The engine's reason for refusing ``action`` now (the IllegalMoveError's ``why``),
        tried on a copy of the match; ``None`` when it would be legal."""
        try:
            self.match.clone().apply(action)
        except IllegalMoveError as exc:
            return refusal(exc.code, str(exc.why), action, self.match, self.seat, self.names)
        rule = self.match.hand.rule  # a raise the special hand penalises is never offered
        if action.kind == RAISE_KIND and rule is not None and rule.raises != "allowed":
            return no_raise_now(self.match)
        return None

    def entry(self, action: Action, obs: Observation) -> str:
        position = None  # P6: a card of the person's blind hand is offered by its place
        if obs["blind"] and action.kind == CARD_KIND:
            position = self.place(action.card)  # type: ignore[arg-type]
        pending = obs["pending_raise"]
        worth = (obs["value"], pending["value"] if pending is not None else None)
        return menu_entry(action, self.match.rules, position, obs["manilhas"], self.card_names,
                          obs.get("side_bets", ()), worth, obs["score"])

    def ask(self, obs: Observation, legal: list[Action]) -> Action:
        rules = self.match.rules
        click.echo("")
        click.echo(self.table(obs))
        blind = obs["blind"]
        order = menu_order(legal, rules, obs["vira"], blind)
        legal = [legal[i] for i in order]
        texts = [str(obs["legal"][i]) for i in order]
        if blind:  # P6: a card keeps the place it was dealt in, #3 stays #3
            texts = [" ".join([*t.split()[:2], f"#{self.place(a.card)}", *t.split()[3:]])
                     if a.kind == CARD_KIND and a.card is not None else t
                     for a, t in zip(legal, texts, strict=True)]
        for i, a in enumerate(legal):
            click.echo(f"  {MENU_LETTERS[i]}) {self.entry(a, obs)}")
        while True:
            click.echo(_("Your move: "), nl=False)
            line = self.stdin.readline()
            if not line:
                raise _Stop
            if line.strip().lower() in QUIT_WORDS:
                raise _Stop
            if line.strip() in ("?", "help", "ajuda"):
                click.echo(hint(legal, rules))
                continue
            got = parse_move(line, legal, texts, rules, self.why)
            if isinstance(got, Action):
                return got
            click.echo(f"'{line.strip()}': {got}")


def _side_shows(hand: HandState) -> list[str]:
    """The side bet that each ``side_show`` checkpoint of the hand's end proves, in their
    order (as :func:`engine.moves.bets.side_bets_at_end` shows them)."""
    bets = []
    for b in hand.side or ():
        for seat, cards in (b.flores if b.shown is None else (b.shown,)):
            if any(c in hand.hands[seat] for c in cards):
                bets.append(b.bet.name)
    return bets

