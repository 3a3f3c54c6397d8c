"""A table of ``truco serve``: the authority around one :class:`~engine.game.Match`.

The table holds the seats (a person's, behind an unguessable token, or a bot's), applies only
legal moves from the seat whose token sent them, moves the bots, writes the log as the game
goes (through ``save``, called with the whole log after every change) and builds what each
connection is sent: a seat's message from that seat's observation only, a spectator's from
public information only (:func:`public_view`). The same public moves give the same bytes to a
seat whatever the other seats hold.

>>> t = Table.new("paulista", ["human", "random", "human", "random"], seed=7)
>>> t.players, sorted(t.tokens)
(4, [0, 2])
>>> import json; len(json.loads(t.message(0))["obs"]["hand"])
3
"""

from __future__ import annotations

import hashlib
import io
import json
import secrets
from collections.abc import Callable, Sequence
from typing import Any

from engine.actions import Action, Deal
from engine.bots import (
    Bot,
    choose_for,
    finish,
    make_bot,
    movers,
    next_actor,
    notify,
    out_of_turn_raise,
)
from engine.cards import COBERTA, card_name
from engine.errors import IllegalMoveError
from engine.game import Match
from engine.i18n import MARKS, _
from engine.logformat import Recorder, dumps_event
from engine.moves.names import PLAY_KIND, RAISE_KIND
from engine.moves.raising import raises_any_time
from engine.observation import Observation, to_json
from engine.payload import NotationError
from engine.refusals import refusal
from engine.rules import Rules
from engine.serve.fair import Seal
from engine.simulate import bot_seed
from engine.state import PLAY
from engine.telling import menu_entry
from engine.variant import load
from engine.words import card_names, named, table_word

#: A seat played by a person (through the page), not a bot.
HUMAN = "human"
#: The bot that plays a person's seat left empty too long (``truco serve --seat-timeout``).
STANDIN = "heuristic"
#: The public moves a message lists, the latest last.
RECENT = 12
#: A match longer than this many moves is a bug, not a game: the table stops moving bots.
MAX_MOVES = 100_000


class Refusal(Exception):
    """A message the table refuses: ``code`` (stable, for programs) and words for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def token_hash(token: str) -> str:
    """What the table keeps of a token: its SHA-256, so that a table's file on disk does not
    hold the invite links themselves."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    """An unguessable token: 24 random bytes from :mod:`secrets`, URL-safe."""
    return secrets.token_urlsafe(24)


class Table:
    """One match being played: its seats' players (``HUMAN`` or a bot name), the person seats'
    token hashes, the spectators' token hash, and the log written as it goes."""

    def __init__(self, table_id: str, match: Match, label: str, players: Sequence[str],
                 hashes: dict[int, str], spectator: str, *, bots_seed: int,
                 save: Callable[[str], None] | None = None, log: str = "",
                 bot_commands: dict[str, str] | None = None,
                 recent: dict[int | None, list[dict[str, Any]]] | None = None,
                 names: Sequence[str | None] | None = None, seal: Seal | None = None) -> None:
        rules = match.rules
        if len(players) != rules.players:
            raise Refusal("seats", _("{variant} has {n} seats, not {given}").format(
                variant=rules.title or rules.name, n=rules.players, given=len(players)))
        self.id = table_id
        self.match = match
        self.rules: Rules = rules
        self.label = label
        self.player_of = list(players)
        self.hashes = dict(hashes)
        self.spectator_hash = spectator
        self.bots_seed = bots_seed
        self.save = save
        self.tokens: dict[int, str] = {}  # the plain tokens, only while the table is new
        given = list(names or [None] * len(players))
        self.names = [given[s] or (f"Player {s}" if p == HUMAN else f"Bot {s} ({p})")
                      for s, p in enumerate(players)]
        commands = bot_commands or {}
        self.bots: dict[int, Bot] = {
            s: make_bot(commands.get(p, p), rules, bot_seed(bots_seed, s))
            for s, p in enumerate(players) if p != HUMAN}
        #: Person seats played by the stand-in bot now (left empty past the wait).
        self.standins: set[int] = set()
        self._standin_bots: dict[int, Bot] = {}
        self.online: dict[int, int] = {}  # connections by seat
        #: The person seats offered a raise out of turn now (M3), the move count they were
        #: offered at, and the seats that asked for no more offers, by hand.
        self.offers: set[int] = set()
        self.offered_at = -1
        self.quiet: dict[int, int] = {}
        self.saved = -1
        #: The secret seed a table without a fixed one committed to (docs/serve.md,
        #: Provably fair deals), and the person seats joined before its first deal.
        self.seal = seal
        self.entered: set[int] = set()
        self.out = io.StringIO(log)
        self.out.seek(0, io.SEEK_END)
        meta = {"tool": "truco serve", "table": table_id, "seats": list(players),
                "bots_seed": bots_seed}
        # a log read back goes on as written: its hand's deal is in it already (position)
        self.recorder = Recorder(match, self.out, variant=label, players=self.names,
                                 meta=meta, write_header=not log, position=bool(log) or None,
                                 deals=seal is not None,
                                 seed_commitment=None if seal is None else seal.commitment)
        #: The public moves, each as every viewer may see it (seat, or ``None``: spectators).
        self.recent: dict[int | None, list[dict[str, Any]]] = {
            s: list((recent or {}).get(s, [])) for s in [*range(rules.players), None]}
        self.moves = 0
        #: Each viewer's view of the match as it is now (:meth:`view`), made once a state: the
        #: moves told and the state message read the same one. Emptied by every move.
        self._views: dict[int | None, tuple[Observation | None, dict[str, Any]]] = {}

    @classmethod
    def new(cls, variant: str | Rules, players: Sequence[str], *, seed: int | None = None,
            table_id: str | None = None, label: str | None = None,
            save: Callable[[str], None] | None = None,
            bot_commands: dict[str, str] | None = None,
            names: Sequence[str | None] | None = None) -> Table:
        """A new table of ``variant`` (a shipped name, a file, or rules): fresh tokens for its
        person seats (kept in :attr:`tokens` for the invite links) and for its spectators
        (:attr:`spectator_token`). Without a ``seed`` the table draws a secret one and
        commits to it (:attr:`seal`): its first hand is dealt once every person seat has
        joined (each may give entropy then; :meth:`deal_in`)."""
        rules = variant if isinstance(variant, Rules) else load(variant)
        seal = Seal.new(rules.players) if seed is None else None
        match = Match(rules, seed=seed)  # the sealed table's match awaits its deal
        tokens = {s: new_token() for s, p in enumerate(players) if p == HUMAN}
        watch = new_token()
        table = cls(table_id or secrets.token_urlsafe(6), match,
                    label or (variant if isinstance(variant, str) else rules.name), players,
                    {s: token_hash(t) for s, t in tokens.items()}, token_hash(watch),
                    bots_seed=secrets.randbits(64) if seed is None else seed, save=save,
                    bot_commands=bot_commands, names=names, seal=seal)
        table.tokens = tokens
        table.spectator_token = watch
        table.deal_in()
        table.run_bots()
        return table

    spectator_token: str = ""
    #: Closed by the server before its match ended (a championship's outcome or deadline):
    #: no move is taken, a bot's neither.
    retired: bool = False

    # -- who is who --------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.rules.players

    def seat_of(self, token: str) -> int | None:
        """The seat a token opens (``-1``: a spectator's), or ``None`` for an unknown token."""
        digest = token_hash(token)
        for seat, h in self.hashes.items():
            if secrets.compare_digest(h, digest):
                return seat
        if secrets.compare_digest(self.spectator_hash, digest):
            return -1
        return None

    def awaited(self) -> list[int]:
        """The person seats the match waits for now (none while it is over), offers of a
        raise out of turn left out."""
        m = self.match
        if m.is_over or m.awaiting_deal:  # a sealed table's first deal waits for joins
            return []
        return [s for s in movers(m) if self.player_of[s] == HUMAN and s not in self.standins]

    def deal_in(self) -> bool:
        """Deal a sealed table's first hand from its secret seed mixed with the seats'
        entropy, once every person seat has joined (never before: no stand-in plays a seat
        its person has not opened, docs/serve.md); whether it was dealt now."""
        seal = self.seal
        if seal is None or seal.dealt or any(s not in self.entered for s in self.hashes):
            return False
        seal.dealt = True
        self.match = Match(self.rules, seed=seal.deal_seed(), dealer=self.match.dealer)
        self.recorder = Recorder(self.match, self.out, variant=self.label, deals=True,
                                 write_header=False, position=False)
        self._views.clear()
        self.saved = -1
        return True

    # -- moves -------------------------------------------------------------------------------
    def submit(self, seat: int, text: object) -> None:
        """Apply the move ``text`` (in the log's words, as the message's ``legal`` lists it)
        from ``seat``, then the bots' moves; a :class:`Refusal` changes nothing. A seat
        offered a raise out of turn (M3) may also let the card be played: ``pass SEAT``, or
        ``pass SEAT hand`` (no more offers this hand)."""
        m = self.match
        if not isinstance(text, str) or len(text) > 200:
            raise Refusal("malformed", "a move is a string in the log's words, e.g. 'play 1 4c'")
        if m.is_over:
            raise Refusal("match_over", _("the match is over"))
        if self.retired:
            raise Refusal("closed", _("the table has closed"))
        if self.player_of[seat] != HUMAN:
            raise Refusal("not_your_seat", f"seat {seat} is a bot's")
        if seat in self.offers and text in (f"pass {seat}", f"pass {seat} hand"):
            self.offers.discard(seat)
            if text.endswith("hand"):
                self.quiet[seat] = m.hand_number
            self.run_bots()
            return
        shown = [str(a) for a in _view_legal(m, seat)]
        if text in shown:
            action = m.legal_actions(seat)[shown.index(text)]
        else:
            try:
                action = Action.parse(text)
            except NotationError as exc:
                raise Refusal("malformed", str(exc)) from None
            if action.seat != seat:
                raise Refusal("not_your_seat", f"you are seat {seat}, not seat {action.seat}")
            if action.position is not None or not m.is_legal(action):
                raise Refusal(*_why_not(m, action, self.names))
        self.apply(action)
        self.run_bots()
        self.write_log()

    def apply(self, action: Action) -> None:
        """Apply a legal move: logged (saved by the caller), told to the protocol bots,
        remembered as each viewer may see it; any offer of a raise out of turn lapses. The
        move that ends the match ends the bot programs' processes too (:meth:`close`)."""
        m = self.match
        hand = m.hand_number
        self.recorder.apply(action)
        self.moves += 1
        self.offers.clear()
        notify(m, self.bots)
        self._views.clear()
        for viewer, moves in self.recent.items():
            seen = self.view(viewer)[1] if action.kind == PLAY_KIND else None
            moves.append(_public_move(action, m, seen, hand, self.rules))
            del moves[:-RECENT]
        if m.is_over:
            if self.seal is not None:  # the log's last line: the secret, now public
                self.recorder.reveal(self.seal.seed, self.seal.nonce, self.seal.entropy)
            self.close()

    def close(self) -> None:
        """End what the table's bots hold beyond the match (a bot program's process, ended
        with its process group): at the match's end, and when the server stops (a bot program
        closed in play would make only its default moves). Harmless twice."""
        finish(self.bots)

    def write_log(self) -> None:
        if self.save is not None and self.saved != self.moves:
            self.save(self.out.getvalue())
            self.saved = self.moves

    def run_bots(self) -> int:
        """The bots' moves (and the stand-ins'), until a person's move is awaited or the
        match is over, then the log saved. Before a card, where the variant lets anyone raise
        out of turn (M3), the bots are offered it (as in ``truco simulate``), then the people
        present who may raise, before a bot's card: the table waits for their raise or
        pass. The number of moves made."""
        m = self.match
        bots = {**self.bots, **{s: self._standin(s) for s in self.standins}}
        made = 0
        try:
            while (not m.is_over and not m.awaiting_deal and made < MAX_MOVES
                   and not self.offers and not self.retired):
                action = out_of_turn_raise(m, bots)
                if action is None:
                    seats = movers(m)
                    if any(self.player_of[s] == HUMAN and s not in self.standins
                           for s in seats):
                        break
                    if self._offer():
                        break
                    actor = next_actor(m, bots=bots)
                    action = choose_for(bots[actor], m, actor)
                self.apply(action)
                made += 1
        finally:  # what was played is kept, even when a bot program fails
            self.write_log()
        return made

    def _offer(self) -> bool:
        """Offer the people present a raise out of turn before a bot's card (M3), once a
        position; whether anyone was offered it."""
        m = self.match
        if not raises_any_time(m) or m.state != PLAY or self.offered_at == self.moves:
            return False
        self.offered_at = self.moves
        self.offers = {s for s in self.hashes if s not in self.standins
                       and self.online.get(s, 0) > 0 and self.quiet.get(s) != m.hand_number
                       and s != m.turn and m.legal_actions(s)}
        return bool(self.offers)

    def _standin(self, seat: int) -> Bot:
        if seat not in self._standin_bots:
            self._standin_bots[seat] = make_bot(STANDIN, self.rules,
                                                bot_seed(self.bots_seed ^ 0x5EA7, seat))
        return self._standin_bots[seat]

    def stand_in(self, seat: int) -> int:
        """The stand-in bot takes ``seat`` (left empty too long) and plays on."""
        self.standins.add(seat)
        return self.run_bots()

    def rename(self, seat: int, name: str) -> None:
        """The person at ``seat`` names it (on joining, where the lobby left it unnamed):
        every client's messages and the log's header (``players``) say it from now on. A
        :class:`Refusal` for a bot's seat, a seat named already, or a name it does not take
        (:func:`engine.serve.guard.player_names`: the caller checks the words)."""
        if self.player_of[seat] != HUMAN:
            raise Refusal("not_your_seat", f"seat {seat} is a bot's")
        if self.names[seat] != f"Player {seat}":
            raise Refusal("named", _("this seat is named already: {name}").format(
                name=self.names[seat]))
        self.names[seat] = name
        first, _sep, rest = self.out.getvalue().partition("\n")
        header = json.loads(first)
        header["players"] = list(self.names)
        self.out.seek(0)
        self.out.truncate()
        self.out.write(dumps_event(header) + "\n" + rest)  # the recorder's stream, rewritten
        self.saved = -1
        self.write_log()

    # -- connections -------------------------------------------------------------------------
    def joined(self, seat: int, entropy: object = None) -> tuple[bool, str | None]:
        """A connection for ``seat`` opened: a stand-in gives the seat back. A person seat's
        ``entropy`` before the first deal is mixed into the seed (:class:`Seal`). Whether the
        first hand was dealt now (the caller runs the bots), and why the entropy was refused
        (the join stands), or ``None``."""
        if seat < 0:
            return False, None
        self.online[seat] = self.online.get(seat, 0) + 1
        self.standins.discard(seat)
        why = None
        if self.seal is not None and entropy is not None and not self.seal.dealt:
            why = self.seal.give(seat, entropy)
        self.entered.add(seat)
        return self.deal_in(), why

    def left(self, seat: int) -> bool:
        """A connection for ``seat`` closed; whether the bots may now play on (an offer of a
        raise out of turn made to the seat lapses when nobody is left at it)."""
        if seat >= 0:
            self.online[seat] = max(0, self.online.get(seat, 0) - 1)
            if self.online[seat] == 0 and seat in self.offers:
                self.offers.discard(seat)
                return not self.offers
        return False

    # -- what a connection is sent -----------------------------------------------------------
    def view(self, seat: int | None) -> tuple[Observation | None, dict[str, Any]]:
        """What ``seat`` sees now (``None``: a spectator): its observation and that as JSON
        data (a spectator's: :func:`public_view`, and no observation), made once a state and
        read, never changed, by the moves told and the state message."""
        got = self._views.get(seat)
        if got is None:
            if seat is None:
                got = (None, public_view(self.match))
            else:
                observation = self.match.observation(seat)
                got = (observation, to_json(observation))
            self._views[seat] = got
        return got

    def message(self, seat: int | None) -> str:
        """The state message for ``seat`` (``None``: a spectator), as the JSON text sent: built
        from that seat's observation only (a spectator's from public information only)."""
        m = self.match
        observation, obs = self.view(seat)
        legal: list[dict[str, Any]] = []
        if seat is not None:
            assert observation is not None
            if self.player_of[seat] == HUMAN:
                legal = _menu(observation, self.rules)
            if seat in self.offers:  # M3: the bot's card waits for this seat's raise or pass
                legal += [{"move": f"pass {seat}", "kind": "pass", "label": _("let it play"),
                           "card": None, "covered": False, "position": None},
                          {"move": f"pass {seat} hand", "kind": "pass",
                           "label": _("no more offers this hand"), "card": None,
                           "covered": False, "position": None}]
        msg = {"type": "state", "seat": seat, "moves": self.moves, "over": m.is_over,
               "winner": m.winner, "seats": self.seat_list(), "obs": obs, "legal": legal,
               "recent": [told(e, self.rules) for e in self.recent[seat]]}
        if self.seal is not None and m.is_over:  # the reveal: never before the end
            msg["reveal"] = self.seal.reveal()
        return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))

    def seat_list(self) -> list[dict[str, Any]]:
        return [{"name": self.names[s], "player": p, "team": self.rules.team_of[s],
                 "online": p != HUMAN or self.online.get(s, 0) > 0,
                 "standin": s in self.standins} for s, p in enumerate(self.player_of)]

    def hello(self, seat: int | None) -> str:
        """The first message of a connection: the table's fixed facts and words."""
        r = self.rules
        msg = {"type": "hello", "table": self.id, "seat": seat, "variant": self.label,
               "title": r.title or r.name, "players": r.players, "team_of": list(r.team_of),
               "target": r.target, "cards": r.cards_per_player, "names": self.names,
               "card_names": card_names(r),
               "ladder": [{"value": s.value, "name": s.name} for s in r.ladder],
               "seed_commitment": None if self.seal is None else self.seal.commitment,
               "fixed_seed": self.seal is None}
        return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


def resume(match: Match, steps: Sequence[Action | Deal]) -> dict[int | None, list[dict[str, Any]]]:
    """Play a log's moves and deals (read back after a restart) onto ``match``, and the
    public moves a table's messages list (``recent``) made of its last :data:`RECENT` moves,
    each as every viewer (a seat, ``None``: spectators) may see it: as a table that played
    them would have listed them.

    >>> m = Match.new("paulista", seed=7)
    >>> recent = resume(m, [Action.play(1, m.hand.hands[1][0])])
    >>> recent[1][0]["card"], told(recent[None][0], m.rules)["text"]
    ('2h', '2♥')
    """
    moves = sum(isinstance(step, Action) for step in steps)
    recent: dict[int | None, list[dict[str, Any]]] = {
        s: [] for s in [*range(match.rules.players), None]}
    done = at = 0
    while at < len(steps):
        step = steps[at]
        at += 1
        if isinstance(step, Deal):
            match.deal(step)
            continue
        hand = match.hand_number
        match.apply(step)
        following = steps[at] if at < len(steps) else None
        if match.awaiting_deal and isinstance(following, Deal):
            match.deal(following)  # at once, as a match of recorded deals deals it
            at += 1
        done += 1
        if done > moves - RECENT:
            for viewer, listed in recent.items():
                seen = None if step.kind != PLAY_KIND else (
                    public_view(match) if viewer is None else to_json(match.observation(viewer)))
                listed.append(_public_move(step, match, seen, hand, match.rules))
    return recent


def _view_legal(m: Match, seat: int) -> list[Action]:
    """The seat's legal moves as it may see them (a blind hand's plays by position)."""
    return list(m.observation(seat)["legal"])


def _why_not(m: Match, action: Action, names: list[str]) -> tuple[str, str]:
    """The refusal of an illegal move: the engine's code, and its reason told to the seat
    that sent it, with its rule (:func:`engine.refusals.refusal`)."""
    try:
        m.clone().apply(action)
    except IllegalMoveError as exc:
        return exc.code, f"{action}: {refusal(exc.code, exc.why, action, m, action.seat, names)}"
    return "illegal", f"{action}: " + _("not a move now")


def _menu(obs: Observation, rules: Rules) -> list[dict[str, Any]]:
    """The seat's legal moves for the page: the move in the log's words, its entry in the
    table's words as each kind offers it (:func:`engine.telling.menu_entry`, the words of
    ``truco play``'s menu: ``'aceito (accept: worth 3)'``, ``'não quero (refuse the envido:
    gives 1)'``), and the card it plays (``None`` for a move that plays none)."""
    names = card_names(rules)
    pending = obs["pending_raise"]
    worth = (obs["value"], pending["value"] if pending is not None else None)
    out = []
    for a in obs["legal"]:
        card = None
        if a.kind == PLAY_KIND and a.card is not None:
            card = card_name(a.card)
        label = menu_entry(a, rules, None if a.position is None else a.position + 1,
                           obs["manilhas"], names, obs.get("side_bets", ()), worth)
        out.append({"move": str(a), "kind": a.kind, "label": label,
                    "card": card, "covered": a.covered, "position": a.position})
    return out


def move_label(a: Action, rules: Rules, names: dict[str, str]) -> str:
    """A move in the table's words: ``'4♣ (zap)'``, ``'4♣ face down'``, ``'truco'``,
    ``'vou ao baralho'``, ``'envido: real envido'``.

    >>> from engine.variant import load
    >>> move_label(Action.raise_to(1, 3), load("paulista"), {})
    'truco'
    """
    said = table_word(a, rules)
    if said:
        return said
    if a.kind == PLAY_KIND:
        what = f"card #{a.position + 1}" if a.position is not None else named(
            card_name(a.card) if a.card is not None else None, names)
        return what + (" face down" if a.covered else "")
    if a.kind == RAISE_KIND:
        step = rules.step_name(a.value or 0)
        return step if a.card is None else f"{step} with {named(card_name(a.card), names)}"
    words = str(a).split(" ", 2)
    rest = words[2] if len(words) > 2 else ""
    return f"{a.kind}: {rest}" if rest and rest != a.kind else (rest or a.kind)


def _public_move(action: Action, m: Match, seen: dict[str, Any] | None, hand: int,
                 rules: Rules) -> dict[str, Any]:
    """A move as a viewer saw it (its words are :func:`told` when it is sent, in the
    connection's language) and the hand it was made in: a played card's face only where
    ``seen`` (the viewer's view just after it, :meth:`Table.view`; needed for a card only)
    shows it, a raise's named card never (it shows in ``shown`` if it is shown)."""
    card = None
    if action.kind == PLAY_KIND:
        assert seen is not None, "a card is told from the viewer's view"
        last = seen.get("last_hand") or {}
        played = seen["played"] if m.hand_number == hand else last.get("played", [])
        mine = [p for p in played if p["seat"] == action.seat]
        card = mine[-1]["card"] if mine else None
    return {"seat": action.seat, "kind": action.kind, "card": card,
            "covered": action.covered if action.kind == PLAY_KIND else False, "hand": hand,
            "action": action}


def told(move: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """A public move (:func:`_public_move`) as the page lists it, in the words of the seats'
    menus (a covered card is ``coberta``, an accept ``aceito``...), in the language spoken
    now."""
    action: Action = move["action"]
    if action.kind == PLAY_KIND:
        card = move["card"]
        text = COBERTA if card is None else named(card, card_names(rules)) + (
            f" ({COBERTA})" if action.covered else "")
    elif action.kind == RAISE_KIND:
        text = rules.step_name(action.value or 0)
    else:
        text = _head(menu_entry(action, rules, None)) if action.card is None else action.kind
    return {**{k: v for k, v in move.items() if k != "action"}, "text": text}


def _head(label: str) -> str:
    """A menu entry without its explanation: ``'aceito (accept)'`` is ``'aceito'`` (a mark of
    the test locale that the cut left open is closed)."""
    head = label.split(" (")[0]
    return head + MARKS[1] * (head.count(MARKS[0]) - head.count(MARKS[1]))


def public_view(m: Match) -> dict[str, Any]:
    """What anyone may know of ``m`` now, from no seat's eyes: seat 0's observation without
    what only seat 0 may know (its cards, its moves, its points of the side bets, the card it
    named with a raise, the faces of its covered cards, a partner's cards shown to it)."""
    obs = to_json(m.observation(0))
    obs.update(seat=None, team=None, hand=None, partner_hands=None, legal=[])
    pending = obs.get("pending_raise")
    if pending is not None:
        obs["pending_raise"] = {k: v for k, v in pending.items() if k != "card"}
    obs["played"] = [_masked(p) for p in obs["played"]]
    if obs.get("last_hand"):
        obs["last_hand"] = {**obs["last_hand"],
                            "played": [_masked(p) for p in obs["last_hand"]["played"]]}
    if "side_bets" in obs:
        obs["side_bets"] = [{**b, "my_points": None} for b in obs["side_bets"]]
    return obs


def _masked(played: dict[str, Any]) -> dict[str, Any]:
    return {**played, "card": None} if played["covered"] else played
