"""Guessing the cards a seat cannot see, consistently with its observation (determinisation):
what the ``search`` bot (:mod:`engine.bots.search`) and ``truco analyze``
(:mod:`engine.analysis`) both search over.

A :class:`Determinizer` deals, from a seat's :class:`~engine.observation.Observation` only,

- every card the seat has seen where it is (its own hand, the vira, cards played face up, cards
  shown with a raise, M4, its partners' cards where a decision shows them, M5);
- the others (the other seats' hands, cards played face down, P7, its own cards in a blind
  hand, P6, a raise's card it was not shown) at random from the cards it has not seen, each seat
  getting as many as it holds, within what the seat was told (a side bet's winner's points,
  G32; who sang a flor and who cannot hold one, G35, G36);
- a raise by an opponent that waits for its answer read as strength: a guess where the raiser's
  cards would not make the heuristic raise is mostly redrawn (:meth:`consistent_guess`);

and builds the guess as a position (docs/positions.md) and a match from it
(:meth:`guessed_match`, through :func:`engine.position.build`, so the engine checks the guess
like any position; it has no generator, so no later deal is known either; the later guesses of
one observation through :func:`engine.position.build_like`, on a copy of the first guess's
match, refused exactly where ``build`` refuses). Deterministic: the
draws are the given :class:`~engine.shuffle.SplitMix64`'s and nothing else.

>>> from engine import Match
>>> from engine.bots.heuristic import HeuristicBot
>>> m = Match.new("paulista", seed=7)
>>> det = Determinizer(m.rules, SplitMix64(3), [HeuristicBot(m.rules, s) for s in range(4)])
>>> g = det.guessed_match(m.observation(1))
>>> g.hand.hands[1] == m.hand.hands[1], g.hand.vira == m.hand.vira
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any, cast

from engine.bots.base import MatchShim
from engine.bots.heuristic import HeuristicBot
from engine.cards import Card, card_name, parse_card
from engine.errors import PositionError
from engine.game import Match
from engine.moves import kind_states
from engine.moves.deal import decider_seat
from engine.moves.names import FLOR_KIND
from engine.moves.play import round_outcome
from engine.observation import Observation
from engine.position import POSITION_FORMAT, build, build_like
from engine.rules import Rules
from engine.shuffle import SplitMix64, shuffle
from engine.sidebets import SideBet, best_points, flor_points, is_flor
from engine.state import Phase


class Determinizer:
    """Guesses of the hidden cards behind an observation (module docstring): ``rng`` draws
    them, ``judges`` (a heuristic per seat) read a waiting raise as its raiser's strength,
    unless ``read`` is False (every consistent guess then as likely: ``truco analyze``)."""

    def __init__(self, rules: Rules, rng: SplitMix64, judges: Sequence[HeuristicBot], *,
                 read: bool = True) -> None:
        self.rules = rules
        self.rng = rng
        self.judges = judges
        #: Whether a waiting raise is read as its raiser's strength (:meth:`consistent_guess`).
        self.read = read
        self._deck = [card_name(c) for c in rules.deck]
        self._special_index = {h.name: i for i, h in enumerate(rules.special_hands)}
        self._making_cache: dict[tuple[Any, ...], list[tuple[str, ...]]] = {}
        #: The observation of the last guess built, and the match its guesses are laid out on
        #: (:func:`engine.position.build_like`); an observation is not changed once given.
        self._laid_for: Observation | None = None
        #: The observation last guessed from, and what its seat has seen (:meth:`_seen`, the
        #: vira, the cards not seen in the deck's order).
        self._seen_for: Observation | None = None
        self._seen_last: tuple[list[list[str]], set[str], list[int], list[str | None],
                               Card | None, list[str]] = ([], set(), [], [], None, [])
        self._laid_out: Match | None = None

    def guessed_match(self, obs: Observation) -> Match | None:
        """A match built from a guess of the hidden cards; a guess the engine refuses (the
        constraints the guess does not model: a flor's suit among covered cards, say) is
        drawn again, up to 8 times (``None`` then: the caller skips this guess)."""
        for _ in range(8):
            guess = self.consistent_guess(obs)
            try:
                if self._laid_for is obs and self._laid_out is not None:
                    return build_like(self._laid_out, guess)
                m = build(self.rules, guess, trusted=True)
            except PositionError:
                continue
            # the first guess built for an observation lays out the match of every later one
            # (its fields but the cards are the observation's): a copy gets the cards placed
            self._laid_for, self._laid_out = obs, m.clone()
            return m
        return None

    def consistent_guess(self, obs: Observation) -> dict[str, Any]:
        """:meth:`guess`, where a raise by an opponent waits for the answer weighted by what
        the raise says: a guess in which the heuristic would not have raised with the
        raiser's cards is kept with chance 1 in 8 only (up to 8 tries), so that a raise is
        read as the strength it usually shows."""
        pending = obs["pending_raise"]
        team_of = self.rules.team_of
        if not self.read or pending is None or team_of[pending["seat"]] == obs["team"]:
            return self.guess(obs)
        raiser = pending["seat"]
        judge = self.judges[raiser]
        as_raiser = obs.copy()
        as_raiser["seat"], as_raiser["team"] = raiser, team_of[raiser]
        threshold = judge.raise_base + 0.12 * judge._level(pending["value"]) - 0.1
        for _ in range(7):
            g = self.guess(obs)
            strength = judge._estimate(as_raiser, g["hands"][raiser])
            if strength >= threshold or self.rng.bounded(8) == 0:
                return g
        return self.guess(obs)

    def guess(self, obs: Observation) -> dict[str, Any]:
        """A position that agrees with everything ``obs`` shows, the hidden cards dealt at
        random from those the seat has not seen (docs/positions.md)."""
        rules = self.rules
        n = rules.players
        if self._seen_for is not obs:  # what the seat has seen: once per observation
            seen = self._seen(obs)
            vira = parse_card(obs["vira"]) if obs["vira"] is not None else None
            self._seen_for = obs
            self._seen_last = (*seen, vira, [c for c in self._deck if c not in seen[1]])
        fixed, known_cards, played_by, fixed_bound, vira, unseen = self._seen_last
        held = [h[:] for h in fixed]  # the guess deals into these
        bound = fixed_bound[:]
        pool = unseen[:]
        shows, pool = self._deal_shown_points(obs, held, pool, played_by, vira)
        pool, no_flor = self._deal_flores(obs, held, pool, played_by, vira)
        held, hidden_played = self._deal_unseen(obs, held, pool, played_by, no_flor, vira)
        # the rounds
        results = obs["rounds"]
        number = obs["round"]
        rounds = []
        for r in range(1, len(results) + 1):
            rounds.append({"cards": [{"seat": p["seat"], "card": p["card"],
                                      "covered": p["covered"]}
                                     for p in hidden_played if p["round"] == r],
                           "winner": results[r - 1]})
        current = [{"seat": p["seat"], "card": p["card"], "covered": p["covered"]}
                   for p in hidden_played if p["round"] == number]
        leader = current[0]["seat"] if current else self._leader(obs, rounds)
        dealt = [[p["card"] for p in hidden_played if p["seat"] == s] + held[s]
                 for s in range(n)]
        pending = obs["pending_raise"]
        return {
            "position": POSITION_FORMAT,
            "state": obs["phase"],
            "score": list(obs["score"]),
            "games": list(obs["games"]),
            "winner": None,
            "dealer": obs["dealer"],
            "hand_number": obs["hand_number"],
            "value": obs["value"],
            "special": self._special(obs),
            "pending": self._pending(obs, held, bound),
            "refused": list(pending.get("folded", ())) if pending is not None else [],
            "last_raise_team": obs["last_raise_team"],
            "vira": obs["vira"],
            "hands": held,
            "dealt": dealt,
            "rounds": rounds,
            "round": {"number": number, "leader": leader,
                      "turn": (leader + len(current)) % n, "cards": current},
            "shown": [dict(sh) for sh in obs["shown"]],
            "bound": bound,
            "last_hand": None,
            "rng": None,  # the hand is played out, no later one
            **self._side_bets(obs, dealt, shows),
            # the kinds' public state, as everyone saw it (C8 house, play.raiser_must_kill:
            # who must beat the table; confirm.moves: the give-up the partners are asked)
            **_public_own(self.rules, obs),
        }

    def _seen(self, obs: Observation) -> tuple[list[list[str]], set[str], list[int],
                                               list[str | None]]:
        """What the seat has seen, for :meth:`guess`: the cards each seat is known to hold
        (its own, its partners' where shown, a card shown with a raise and not played yet,
        M4), every card seen, how many cards each seat played, the cards bound to a seat."""
        n = self.rules.players
        played = obs["played"]
        held: list[list[str]] = [[] for _ in range(n)]
        known_cards: set[str] = set()
        if obs["hand"] is not None:
            held[obs["seat"]] = list(obs["hand"])
        for s, cards in (obs["partner_hands"] or {}).items():
            held[int(s)] = list(cards)
        for cards in held:
            known_cards.update(cards)
        if obs["vira"] is not None:
            known_cards.add(obs["vira"])
        played_by = [0] * n
        for p in played:
            played_by[p["seat"]] += 1
            if p["card"] is not None:
                known_cards.add(p["card"])
        known_played = {p["card"] for p in played if p["card"] is not None}
        bound: list[str | None] = [None] * n
        for sh in obs["shown"]:
            c = sh["card"]
            known_cards.add(c)
            if c not in known_played:  # shown with an accepted raise and not played yet (M4)
                bound[sh["seat"]] = c
                if c not in held[sh["seat"]]:
                    held[sh["seat"]].append(c)
        pending = obs["pending_raise"]
        if pending is not None and "card" in pending:
            known_cards.add(pending["card"])
        return held, known_cards, played_by, bound

    def _deal_shown_points(self, obs: Observation, held: list[list[str]], pool: list[str],
                           played_by: list[int], vira: Card | None
                           ) -> tuple[dict[str, tuple[int, int]], list[str]]:
        """G32: the winner of an accepted side bet shows his points at the end of the hand, and
        a position says which cards (engine.position checks them): where the winning
        declarer's cards are hidden, they are dealt (into ``held``) among those that make his
        points. The bets whose winner shows (bet -> (seat, declared points)), and the pool
        left."""
        rules = self.rules
        played = obs["played"]
        shows: dict[str, tuple[int, int]] = {}  # bet -> (seat, declared points)
        for view, bet in zip(obs.get("side_bets") or (), rules.side_bets, strict=False):
            won = _winning_declaration(view, rules.team_of) if bet.reveal == "winner" else None
            if won is None:
                continue
            shows[view["bet"]] = won
            seat, points = won
            want = rules.cards_per_player - played_by[seat]
            if held[seat] or want == 0:
                continue  # known (his own, or shown to the partners) or all played
            public = [p["card"] for p in played if p["seat"] == seat and p["card"] is not None]
            options = self._making(bet, points, public, want, tuple(sorted(pool)), vira)
            if options:
                pick = options[self.rng.bounded(len(options))]
                held[seat] = list(pick)
                pool = [c for c in pool if c not in pick]
        return shows, pool

    def _deal_flores(self, obs: Observation, held: list[list[str]], pool: list[str],
                     played_by: list[int], vira: Card | None
                     ) -> tuple[list[str], list[tuple[SideBet, int]]]:
        """G35, G36: who sang a flor holds one (of the value compared, where it was), dealt
        into ``held``; and who did not, once a flor was sung or he played a card, holds none.
        The pool left, and the (flor, seat) pairs that must not hold one."""
        rules = self.rules
        n = rules.players
        played = obs["played"]
        cards_per = rules.cards_per_player
        no_flor: list[tuple[SideBet, int]] = []
        for view, bet in zip(obs.get("side_bets") or (), rules.side_bets, strict=False):
            if bet.kind != FLOR_KIND:
                continue
            sung = view.get("sung") or []
            compared = {d["seat"]: d["points"] for d in view["declared"]
                        if d["points"] is not None}
            for seat in sung:
                want = cards_per - played_by[seat]
                if held[seat] or want == 0:
                    continue
                public = [p["card"] for p in played
                          if p["seat"] == seat and p["card"] is not None]
                options = self._making(bet, compared.get(seat), public, want,
                                       tuple(sorted(pool)), vira)
                if options:
                    pick = options[self.rng.bounded(len(options))]
                    held[seat] = list(pick)
                    pool = [c for c in pool if c not in pick]
            no_flor += [(bet, s) for s in range(n) if s not in sung and not held[s]
                        and (sung or played_by[s])]
        return pool, no_flor

    def _deal_unseen(self, obs: Observation, held: list[list[str]], pool: list[str],
                     played_by: list[int], no_flor: list[tuple[SideBet, int]],
                     vira: Card | None) -> tuple[list[list[str]], list[Mapping[str, Any]]]:
        """Deal the unseen cards: Fisher-Yates over ``pool`` (in place) from the bot's own
        generator (:func:`engine.shuffle.shuffle`: its draws one by one, computed at once),
        again where a seat of ``no_flor`` got a flor it cannot have (up to 32 times). Each
        seat's cards, and the played cards with the face-down ones dealt."""
        rng = self.rng
        n = self.rules.players
        me = obs["seat"]
        played = obs["played"]
        cards_per = self.rules.cards_per_player
        fixed = [list(h) for h in held]
        for _ in range(32):
            pool[:] = shuffle(pool, rng)  # swap(i, rng.bounded(i + 1)), i = len-1 .. 1
            take = iter(pool)
            held = [list(h) for h in fixed]
            for s in range(n):
                if s == me and obs["hand"] is not None:
                    continue
                want = cards_per - played_by[s]
                while len(held[s]) < want:
                    held[s].append(next(take))
            hidden_played: list[Mapping[str, Any]] = [
                dict(p, card=next(take)) if p["card"] is None else p for p in played]
            if not any(is_flor(bet, [parse_card(c) for c in held[s]]
                               + [parse_card(p["card"]) for p in hidden_played
                                  if p["seat"] == s], vira)
                       for bet, s in no_flor):
                break
        return held, hidden_played

    def _special(self, obs: Observation) -> dict[str, Any] | None:
        """The position's ``special`` (the special hand in play, its decider)."""
        if obs["special"] is None:
            return None
        rules = self.rules
        entry = self._special_index[obs["special"]["name"]]
        rule = rules.special_hands[entry]
        sp_team = obs["special"]["team"]
        decider = None
        if rule.decision and rule.decider == "first_from_mao" and sp_team is not None:
            decider = decider_seat(rules, obs["mao"], sp_team)
        return {"entry": entry, "name": rule.name, "team": sp_team, "decider": decider}

    def _pending(self, obs: Observation, held: list[list[str]], bound: list[str | None]
                 ) -> dict[str, Any] | None:
        """The position's ``pending`` raise; where the raise names a card the seat was not
        shown (M4), one of the raiser's cards in the guess (his bound one, if any)."""
        pending = obs["pending_raise"]
        if pending is None:
            return None
        card = pending.get("card")
        if card is None and self.rules.name_card:
            raiser = pending["seat"]
            options = held[raiser] if bound[raiser] is None else [bound[raiser]]
            card = options[self.rng.bounded(len(options))]
        return {"seat": pending["seat"], "value": pending["value"], "card": card}

    def _side_bets(self, obs: Observation, dealt: list[list[str]],
                   shows: dict[str, tuple[int, int]]) -> dict[str, Any]:
        """The position's ``side_bets`` (a variant with side bets only): what the seat saw of
        each bet (every call and answer, the winner and points, G49), the points owed where
        they are credited at the end of the hand (GH6), and the cards the winner will show
        (G32), from the guess's cards."""
        rules = self.rules
        if not rules.side_bets:
            return {}
        entries: list[dict[str, Any]] = []
        flor = {b.name: b for b in rules.side_bets if b.kind == FLOR_KIND}
        killed = {name for view in obs["side_bets"] if view["bet"] in flor and view.get("sung")
                  for name in flor[view["bet"]].kills}  # G37: a flor sung kills the unsettled
        vira = parse_card(obs["vira"]) if obs["vira"] is not None else None
        for view, bet in zip(obs["side_bets"], rules.side_bets, strict=True):
            shown = None
            won = shows.get(view["bet"])
            if won is not None:
                seat = won[0]
                cards = [parse_card(c) for c in dealt[seat]]
                made = best_points(cards, bet, vira)[1]
                shown = {"seat": seat, "cards": [card_name(c) for c in made]}
            entries.append({
                "bet": view["bet"], "calls": list(view["calls"]), "caller": view["caller"],
                "pending": view["pending"], "settled": view["settled"],
                "accepted": view["accepted"], "winner": view["winner"],
                "points": view["points"],
                "owed": view["settled"] and bet.credit == "end_of_hand"
                and obs["phase"] != Phase.MATCH_OVER,
                "shown": shown})
            if flor:  # G37-G41: what was killed, who sang, the flores that scored
                entries[-1]["killed"] = view["bet"] in killed and not view["settled"]
                if bet.kind == FLOR_KIND:
                    sung = list(view.get("sung") or [])
                    entries[-1]["sung"] = sung
                    entries[-1]["flores"] = self._flores(obs, view, bet, dealt)
        return {"side_bets": entries}

    def _flores(self, obs: Observation, view: Any, bet: SideBet,
                dealt: list[list[str]]) -> list[dict[str, Any]]:
        """G41, as the engine settles a flor (engine.moves.bets.settle_flor): the flores that
        scored, from the mão on, each its three cards (G34) of the guess: every flor compared,
        else the scoring team's."""
        won = view["winner"] if view["settled"] else None
        if won is None or bet.reveal != "scored":
            return []
        n = self.rules.players
        mao = (obs["dealer"] + 1) % n
        out = []
        vira = parse_card(obs["vira"]) if obs["vira"] is not None else None
        for s in sorted(view.get("sung") or (), key=lambda s: (s - mao) % n):
            made = flor_points([parse_card(c) for c in dealt[s]], bet, vira)
            if made is not None and (view["accepted"] or self.rules.team_of[s] == won):
                out.append({"seat": s, "cards": [card_name(c) for c in made[1]]})
        return out

    def _making(self, bet: SideBet, points: int | None, public: list[str], want: int,
                pool: tuple[str, ...], vira: Card | None) -> list[tuple[str, ...]]:
        """The ways to deal ``want`` cards from ``pool`` to a player whose cards played face
        up are ``public`` so that his dealt cards make ``points`` (G22; ``None``: any) and, for
        a flor, are one (G34), in a hand whose vira is ``vira``: worked out once per decision
        (the pool is the same for every guess of one observation)."""
        key = (bet.name, points, tuple(public), want, pool, vira)
        found = self._making_cache.get(key)
        if found is None:
            shown = [parse_card(c) for c in public]
            found = []
            codes = {c: parse_card(c) for c in pool}  # each card parsed once, not per combo
            flor = bet.kind == FLOR_KIND
            for combo in combinations(pool, want):
                cards = shown + [codes[c] for c in combo]
                if (not flor or is_flor(bet, cards, vira)) and (
                        points is None or bet.points(cards, vira) == points):
                    found.append(combo)
            if len(self._making_cache) > 8:
                self._making_cache.clear()  # a few observations' worth
            self._making_cache[key] = found
        return found

    def _leader(self, obs: Observation, rounds: list[dict[str, Any]]) -> int:
        """Who leads the round in play before its first card: the mão in round 1, else as
        the completed rounds decide (C5, C6; a covered card is nothing whatever its face)."""
        vira = obs["vira"]
        strength = self.rules.strengths(parse_card(vira) if vira is not None else None)
        shim = MatchShim(self.rules, obs["mao"], strength)
        leader: int = obs["mao"]
        for r in rounds:
            cards = [(p["seat"], parse_card(p["card"]), p["covered"]) for p in r["cards"]]
            _, leader = round_outcome(shim, cards, leader)
        return leader


def _winning_declaration(view: Any, team_of: Sequence[int]) -> tuple[int, int] | None:
    """The seat and points of the declaration that won an accepted side bet (G30: the best
    declared by the winning team, the first said on a tie), or ``None``."""
    if not view["accepted"] or view["winner"] is None:
        return None
    best: tuple[int, int] | None = None
    for d in view["declared"]:
        if d["points"] is not None and team_of[d["seat"]] == view["winner"] and (
                best is None or d["points"] > best[1]):
            best = (d["seat"], d["points"])
    return best


def _public_own(rules: Rules, obs: Observation) -> dict[str, Any]:
    """The kinds' own state the observation shows whole (a public one, as exported): the same
    in the guess's position."""
    seen = cast("Mapping[str, Any]", obs)
    return {s.key: seen[s.key] for s in kind_states(rules) if s.key in seen and s.view is None}
