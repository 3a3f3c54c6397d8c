"""``SoundBot``: the heuristic player, but answering and raising by its chance to take the hand
where the cards settle it, so that a raise works against it only when the cards back it.

The :class:`~engine.bots.heuristic.HeuristicBot` answers a raise by a rough measure of its
hand, blind to the table: it accepts six holding a card that loses to the one on the table, so
a playout where it answers makes any raise look good (issue 44). This player, from its own
observation only:

- works out its team's chance to take the hand (:func:`hand_chance`) when this round's result
  settles the hand one way or another (round 2 after a round won or lost, round 3, and round 2
  after a tie): the best card each team can put down this round, its own cards and those on
  the table known, every card it has not seen equally likely in every hand still to play (the
  draws taken as independent); a result that leaves the hand to the next round is valued by
  the next round's cards: its own card this round the lowest that beats the other team's on
  the table (else its strongest leading, else its weakest), its best left for the next, the
  other team's best draw this round and its second best the next (one on one exact for
  those draws; with partners the two rounds are taken as independent), not as even;
- answers a raise by the chance to win the match, from the win table
  (:class:`~engine.bots.winchance.WinChance`): accept when accepting is worth more than
  folding, raise back when even an accepted raise back is worth more than accepting; the
  raise back is valued with the raiser answering it by his own cards (:func:`_answered`: he
  accepts only where his card this round makes it worth it, so a raise back is not valued
  as if a weak raiser accepted it), a result of this round that leaves the hand open valued
  by the next round's chance (:func:`_open_values`);
- raises (in turn or out of turn, M3) only with a real edge: when the raise answered by the
  other's own cards is worth more than not raising (:func:`_answered`: he accepts only
  where his card makes it worth it, so the raise is not valued at the seat's mean chance
  against the strong hands that accept it). Where this round settles the hand, that is all:
  a bluff where enough of his hands fold; where it leaves the hand open, the raised hand,
  accepted, must also be worth more than playing it at its value (no bluff there: weighing
  one would cost the two-round chance in every decision). Leading a round that settles the
  hand one on one, not raising is valued with the other raising once he has seen its card
  where he takes the round, the seat answering by its chance (:func:`_leads`): its weak
  card, played, invites the raise it would accept;
- one on one, where this round may leave the hand to the next and one of the two has played
  this round, values a raise (its own, or back) with the other answering by **both** his
  cards, this round's and the next's (:class:`_Pair`): an answerer whose card this round
  settles nothing (the seat's card covered, or beaten by all he may hold) is judged by his
  card for the next round, as he judges himself;
- values a raise with the other raising back where he prefers the next step accepted, the
  seat then answering by its own chance (:func:`_back_from`), not as a plain acceptance;
- reads a raise by the other as a sound player's (:meth:`SoundBot._read`): before raising
  back over it, or raising again over a raise of his it accepted, it takes his hand to be one
  that prefers the raised hand accepted to the hand as it was, the least a sound player raises
  with (its own rule); it answers (accepts or folds) still by every hand he may hold, so a
  bluff costs it no more than before;
- elsewhere (the first round, a special hand, more than two teams, a blind hand) plays as the
  heuristic.

What it still does not do: read more than that from a raise (a raise says little where
bluffs are possible), nor play its cards otherwise than the heuristic.

>>> from engine import Match
>>> m = Match.new("paulista", seed=7)
>>> bot = SoundBot(m.rules, seed=1)
>>> bot.choose(m.observation(1), m.legal_actions(1)) in m.legal_actions(1)
True
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from functools import lru_cache

from engine.actions import Action
from engine.bots.heuristic import HeuristicBot
from engine.bots.soundround import Seen, Two, result_values, round_chances
from engine.bots.winchance import win_chance
from engine.moves.names import ACCEPT_KIND, FOLD_KIND, RAISE_KIND
from engine.observation import Observation
from engine.rules import Rules

#: What a raise must add to the chance to win the match, accepted, over not raising.
EDGE = 0.005


class SoundBot(HeuristicBot):
    """The heuristic, answering and raising by :func:`hand_chance` (module docstring)."""

    name = "sound"

    def __init__(self, rules: Rules, seed: int = 0, *, bluff: float = 0.05) -> None:
        super().__init__(rules, seed, bluff=bluff)
        self._win = win_chance(self.rules)

    def _answer(self, obs: Observation, legal: Sequence[Action]) -> Action:
        got = _hand(self, obs)
        pending = obs["pending_raise"]
        if got is None or pending is None:
            return super()._answer(obs, legal)
        now, raised = obs["value"], pending["value"]
        fold = self._after(obs, -now)
        won, lost = self._after(obs, raised), self._after(obs, -raised)

        def accepts(p: float) -> bool:
            return p * won + (1 - p) * lost >= fold

        lo, hi, two, round_seen = got
        raises = [a for a in legal if a.kind == RAISE_KIND]
        pair: _Pair | None = None
        if raises and round_seen is None and two is not None:  # a result that leaves the
            round_seen = (two.seen, two.first, _open_values(self, obs, two))  # hand open
            pair = _Pair.of(self, obs, two)
        if round_seen is None:  # no raise back: accepting against folding is linear in p,
            ok = accepts(lo)  # so the bounds settle it where they agree
            if ok != accepts(hi):
                ok = accepts(_exact(self, obs, got))
        else:  # a raise back valued with the raiser answering it by his own cards
            p = _exact(self, obs, got)
            accept = p * won + (1 - p) * lost
            if raises:
                more = raises[0].value or raised
                up, down = self._after(obs, more), self._after(obs, -more)
                back = self._back(obs, more, p)
                # his raise read as a sound player's (:meth:`_read`)
                hands = list(_their_hands(round_seen)) if pair is None else pair.hands()
                floor = self._read(obs)
                if floor is not None:
                    hands = _raising(hands, floor)
                again = _answered(hands, up, down, won, back)
                held = sum(c * (m * won + (1 - m) * lost) for c, _, m in hands)
                if again > max(held, fold) + EDGE:
                    return self._raise_with(obs, raises)
            ok = accept >= fold
        kind = ACCEPT_KIND if ok else FOLD_KIND
        return next((a for a in legal if a.kind == kind), legal[0])

    def _wants_raise(self, obs: Observation, value: int, *, bluff: bool = True) -> bool:
        got = _hand(self, obs)
        if got is None:
            return super()._wants_raise(obs, value, bluff=bluff)
        now = obs["value"]
        won, lost = self._after(obs, value), self._after(obs, -value)
        kept, given = self._after(obs, now), self._after(obs, -now)

        def wants(p: float) -> bool:
            return p * won + (1 - p) * lost > p * kept + (1 - p) * given + EDGE

        lo, hi, two, round_seen = got
        if two is not None and not wants(lo) and not wants(hi):  # linear in p: no raise,
            return False  # and no bluff where this round leaves the hand open
        p = _exact(self, obs, got)
        accepted = wants(p)
        if two is not None and not accepted:
            return False
        leads = round_seen is not None and _leads(self, round_seen[0])
        back = self._back(obs, value, p)
        pair = None
        if round_seen is None and two is not None:
            pair = _Pair.of(self, obs, two)
            round_seen = (two.seen, two.first, _open_values(self, obs, two))
        if round_seen is None:
            return accepted
        # the raise answered by the other's own cards (where the next round may decide, both
        # his cards): he accepts only where strong, and raises back where stronger
        hands = list(_their_hands(round_seen)) if pair is None else pair.hands()
        held = p * kept + (1 - p) * given
        floor = self._read(obs)
        if floor is not None:  # his raise read as a sound player's
            hands = _raising(hands, floor)
            held = sum(c * (m * kept + (1 - m) * given) for c, _, m in hands)
        elif leads:  # its card seen, he raises where it loses; the seat answers by its chance
            if p * won + (1 - p) * lost >= given:
                held = sum(c * (m * kept + (1 - m) * lost) for c, _, m in hands)
            else:
                held = given
        return _answered(hands, won, lost, kept, back) > held + EDGE

    def _read(self, obs: Observation) -> float | None:
        """Where the other team raised last (the hand's value, or the raise awaiting an
        answer): the least chance to take the hand, as it sees it, with which it prefers the
        raised hand accepted to the hand as it was (the seat's own rule for raising: a sound
        player raises with no less); else ``None``."""
        pending = obs["pending_raise"]
        if pending is not None:
            if self.rules.team_of[pending["seat"]] == obs["team"]:
                return None
            before, after = obs["value"], pending["value"]
        else:
            if obs["last_raise_team"] in (None, obs["team"]):
                return None
            after = obs["value"]
            before = max((s.value for s in self.rules.ladder if s.value < after),
                         default=self.rules.initial_value)
        gain = self._after(obs, -before) - self._after(obs, -after)
        risk = self._after(obs, after) - self._after(obs, before)
        return gain / (gain + risk) if gain + risk > 0 else None

    def _back(self, obs: Observation, value: int, p: float) -> _Back | None:
        """What a raise back to the ladder's next step after ``value`` gives the seat's
        team (:data:`_Back`), the seat answering it by its chance ``p`` to take the hand;
        ``None`` at the ladder's top."""
        more = next((s.value for s in self.rules.ladder if s.value > value), None)
        if more is None:
            return None
        up, down = self._after(obs, more), self._after(obs, -more)
        return up, down, p * up + (1 - p) * down >= self._after(obs, -value)

    def _after(self, obs: Observation, points: int) -> float:
        """The seat's team's chance to win the match once the hand gives ``points`` to it
        (negative: to the other team)."""
        team = obs["team"]
        rules = self.rules
        score, games = list(obs["score"]), list(obs["games"])
        to = team if points >= 0 else 1 - team
        score[to] += abs(points)
        if score[to] >= rules.target:
            games[to] += 1
            if games[to] >= rules.games_to_win:
                return float(to == team)
            score = [0] * rules.teams
        return self._win.match(score, games)[team]


def _leads(bot: SoundBot, seen: Seen) -> bool:
    """Whether the seat, one on one, is to lead a round that settles the hand: the other
    then plays knowing whether his card takes it."""
    return bot.rules.players == 2 and not seen.moved and seen.theirs == -2


def hand_chance(bot: SoundBot, obs: Observation) -> float | None:
    """The chance that the seat's team takes the hand, where this round's result settles it
    or the next round's does (module docstring); ``None`` where neither does, or where the
    seat cannot judge (more than two teams, a blind hand, a special hand)."""
    got = _hand(bot, obs)
    return None if got is None else _exact(bot, obs, got)


def _exact(bot: SoundBot, obs: Observation, got: _Got) -> float:
    lo, _, two, _ = got
    return lo if two is None else _two_round_chance(bot, obs, two)


#: :func:`_hand`: the bounds of the hand's chance, what values it where this round may leave
#: the hand to the next, and where this round settles it, what the round is seen as.
_Got = tuple[float, float, "Two | None", "tuple[Seen, int, tuple[float, float, float]] | None"]


def _hand(bot: SoundBot, obs: Observation) -> _Got | None:
    rules = bot.rules
    if rules.teams != 2 or obs["blind"] or obs["special"] is not None:
        return None
    settles = result_values(rules, obs["mao"], obs["team"], tuple(obs["rounds"]))
    if settles is None:
        return None
    seen = Seen(bot, obs)
    won, tied, lost = settles
    if won is not None and tied is not None and lost is not None:  # this round settles it
        ours = max([seen.ours, *seen.held]) if not seen.moved else seen.ours
        win, tie = round_chances(seen, ours)
        p = win * won + tie * tied + (1 - win - tie) * lost
        return p, p, None, (seen, ours, (won, tied, lost))
    two = Two(seen, settles)
    win, tie = two.now
    lo = hi = 0.0
    for chance, value in zip((win, tie, 1 - win - tie), settles, strict=True):
        lo += chance * (value or 0.0)
        hi += chance * (1.0 if value is None else value)
    return lo, hi, two, None


#: A raise back over the seat's raise: the seat's team's chances to win the match once the
#: hand at the next step is won and lost, and whether the seat accepts it (else it folds).
_Back = tuple[float, float, bool]


def _back_from(won: float, lost: float, back: _Back | None) -> tuple[float, float, float]:
    """From the other team's chance to take the hand, where it raises back over the seat's
    raise (it prefers the next step accepted to this one: a lower bound of where a sound
    player raises back), and what then the seat's share of the hand is worth (won, lost)."""
    if back is None:
        return 2.0, won, lost
    up, down, accepts = back
    gain, risk = up - won, lost - down
    least = gain / (gain + risk) if gain + risk > 0 else 2.0
    return (least, up, down) if accepts else (least, lost, lost)


def _answered(hands: Sequence[tuple[float, float, float]], won: float, lost: float,
              kept: float, back: _Back | None) -> float:
    """The seat's team's chance to win the match if it raises, the other answering by his
    own cards: ``hands`` each hand he may hold, its chance, his chance to take the hand as he
    sees it and the seat's team's share of the hand in truth (:func:`_their_hands`,
    :meth:`_Pair.hands`). He accepts where his chance makes accepting worth as much as
    folding (``won``, ``lost``: the seat's chances once the raised hand is won or lost,
    ``kept``: once it takes the hand's value now), else folds; he raises back where he
    prefers the next step accepted (``back``: what that gives, :func:`_back_from`; without
    it, a raise back counted as an acceptance)."""
    spread = won - lost
    if spread <= 0:
        return kept
    least = (won - kept) / spread  # his chance from which accepting is worth folding
    again, b_won, b_lost = _back_from(won, lost, back)
    total = 0.0
    for chance, theirs, mine in hands:
        if theirs >= again and theirs >= least:  # he raises back: the seat answers by its chance
            total += chance * (mine * b_won + (1 - mine) * b_lost)
        elif theirs >= least:
            total += chance * (mine * won + (1 - mine) * lost)
        else:
            total += chance * kept
    return total


def _their_hands(round_seen: tuple[Seen, int, tuple[float, float, float]],
                 ) -> Iterator[tuple[float, float, float]]:
    """Where this round settles the hand or its open result is valued by the next round: the
    other team's best card this round, its chance, the other's chance to take the hand
    holding it against the seat's team's cards as he sees them (every card he has not seen
    equally likely, the pool taken as the seat's), and the seat's team's share of the hand
    against it. What each of the round's results gives the seat's team of the hand is
    ``round_seen``'s last item (a result that leaves the hand open: its chance by the next
    round, :func:`_open_values`)."""
    seen, ours, (v_won, v_tied, v_lost) = round_seen
    pool, n = seen.pool, len(seen.pool)
    # the seat's team as the other sees it: its cards on the table, the rest unseen
    hidden = (0 if seen.moved else len(seen.held)) + seen.mine_draws
    known = seen.theirs
    prev_t = prev_h = prev_o = 0.0
    for c in sorted({*pool, known, ours, seen.ours}):
        f = bisect_right(pool, c) / n
        t = 0.0 if known > c else f ** seen.their_draws  # P(their best <= c)
        h = 0.0 if seen.ours > c else f ** hidden  # P(ours <= c), as they see it
        o = 0.0 if ours > c else f ** seen.mine_draws  # P(ours <= c), as the seat sees it
        chance = t - prev_t
        if chance > 0:
            theirs = prev_h + (h - prev_h) * (1 - v_tied)  # his chance holding c
            if v_lost:  # a round he wins that leaves the hand open: his share of it
                theirs -= prev_h * v_lost
            if v_won != 1:
                theirs += (1 - h) * (1 - v_won)
            mine = (1 - o) * v_won + (o - prev_o) * v_tied + prev_o * v_lost
            yield chance, theirs, mine
        prev_t, prev_h, prev_o = t, h, o


def _raising(hands: Sequence[tuple[float, float, float]],
             floor: float) -> list[tuple[float, float, float]]:
    """``hands`` (:func:`_their_hands`) kept where the other's chance is at least ``floor``,
    their chances made to sum to 1 (all of them if none is kept)."""
    kept = [h for h in hands if h[1] >= floor]
    mass = sum(h[0] for h in kept)
    if mass <= 0:
        return list(hands)
    return [(c / mass, t, m) for c, t, m in kept]


class _Pair:
    """A raise where this round may leave the hand to the next, one on one, one seat having
    played this round: the other answers it by both his cards, this round's and the next's
    (:meth:`hands`), not by this round's alone; an answerer whose card this round settles
    nothing (the seat's card covered, or beaten whatever he holds) is judged by his card for
    the next round, as he judges himself.

    The seat's cards are its plan (:class:`Two`); the other's unseen cards are drawn
    independently from those the seat has not seen, and so are, as he sees them, the seat's
    (the pool taken as his). The other, yet to play this round, plays the card of his two
    that gives him the better chance as he sees it; the seat, yet to play, is to him a seat
    that plays the lowest card beating his, else its weakest (its own rule, :class:`Two`),
    and keeps the other for the next round."""

    def __init__(self, seen: Seen, two: Two, values: tuple[tuple[float, ...], ...]) -> None:
        self.seen = seen
        self.two = two
        #: what each of this round's results (the seat's team wins it, ties, loses it) gives
        #: the seat's team, by the next round's result (the same three; constant if settled)
        self.values = values

    @staticmethod
    def of(bot: SoundBot, obs: Observation, two: Two) -> _Pair | None:
        """The model where it applies: one on one, this round's next result open, exactly one
        of the two seats having played this round, the seat holding its card for the next."""
        seen = two.seen
        rules = bot.rules
        if rules.players != 2 or seen.mine_draws or seen.mine_after:
            return None
        if seen.moved == (seen.theirs != -2) or two.second < 0:
            return None
        if seen.their_draws + seen.their_after != (1 if seen.theirs != -2 else 2):
            return None
        team = obs["team"]
        results = tuple(obs["rounds"])
        values: list[tuple[float, ...]] = []
        for i, outcome in enumerate((team, None, 1 - team)):
            now = two.settles[i]
            if now is not None:
                values.append((now, now, now))
                continue
            after = result_values(rules, obs["mao"], team, (*results, outcome))
            got = after if after is not None else (None, None, None)
            values.append(tuple(0.5 if v is None else v for v in got))
        return _Pair(seen, two, tuple(values))

    def hands(self) -> tuple[tuple[float, float, float], ...]:
        """Each hand the other may hold: its chance, his chance to take the hand as he sees
        it, and the seat's team's share of the hand in truth (:func:`_pair_hands`: the same
        for every seat that sees the same, so worked out once)."""
        seen, two = self.seen, self.two
        if seen.moved:
            return _pair_hands(tuple(seen.pool), True, seen.ours, -2, two.second, self.values)
        return _pair_hands(tuple(seen.pool), False, seen.theirs, two.first, two.second,
                           self.values)


@lru_cache(maxsize=4096)
def _pair_hands(pool: tuple[int, ...], moved: bool, table: int, first: int, second: int,
                values: tuple[tuple[float, ...], ...]) -> tuple[tuple[float, float, float], ...]:
    """:meth:`_Pair.hands`: ``pool`` the strengths the seat has not seen, sorted; ``moved``
    whether the seat has played this round; ``table`` the card on the table (the seat's if it
    moved, else the other's); ``first`` the seat's card this round where it has not played
    and ``second`` its card for the next; ``values`` as :class:`_Pair`'s."""
    counts: dict[int, int] = {}
    for v in pool:
        counts[v] = counts.get(v, 0) + 1
    n = len(pool)
    levels = [(v, k / n) for v, k in sorted(counts.items())]

    def value(now: int, mine: int, theirs: int) -> float:
        """What the seat's team gets of the hand: this round's result ``now`` (0 won, 1 tied,
        2 lost), its card ``mine`` and the other's ``theirs`` in the next."""
        return values[now][0 if mine > theirs else 1 if mine == theirs else 2]

    out: list[tuple[float, float, float]] = []
    if moved:  # his two cards unseen; the seat's card for the next round unseen to him
        # the seat's share as he sees it, by this round's result and his card for the next
        seem = {(now, d): sum(f * value(now, z, d) for z, f in levels)
                for now in range(3) for d, _ in levels}
        for i, (x, fx) in enumerate(levels):
            for y, fy in levels[i:]:
                best = None
                for c, d in ((x, y), (y, x)):
                    now = 0 if table > c else 1 if table == c else 2
                    his = 1 - seem[now, d]
                    if best is None or his > best[0]:
                        best = (his, value(now, second, d))
                assert best is not None
                out.append((fx * fy * (1 if x == y else 2), best[0], best[1]))
        return tuple(out)
    # he has played this round; the seat's two cards unseen to him, his next one to it
    mass: dict[tuple[int, int], float] = {}
    for i, (u, fu) in enumerate(levels):  # the seat's cards as he sees them, its rule
        for v, fv in levels[i:]:
            c, d = (u, v) if u > table or v <= table else (v, u)
            now = 0 if c > table else 1 if c == table else 2
            mass[now, d] = mass.get((now, d), 0.0) + fu * fv * (1 if u == v else 2)
    now_true = 0 if first > table else 1 if first == table else 2
    for y, fy in levels:
        his = 1 - sum(m * value(now, d, y) for (now, d), m in mass.items())
        out.append((fy, his, value(now_true, second, y)))
    return tuple(out)


def _two_round_chance(bot: SoundBot, obs: Observation, two: Two) -> float:
    """:func:`hand_chance` where this round's result may leave the hand to the next: each
    team puts down its best card this round and its best left in the next, the results that
    leave the hand to the next round valued by it (:func:`two_rounds`)."""
    total = 0.0
    for mass, now, terms in _by_result(bot, obs, two):
        if now is not None:
            total += mass * now
            continue
        for term in terms:
            total += term
    return total


def _open_values(bot: SoundBot, obs: Observation,
                 two: Two) -> tuple[float, float, float]:
    """What each of this round's results (the seat's team wins it, a tie, the other wins it)
    gives the seat's team of the hand, a result that leaves the hand open valued by the next
    round's cards (:func:`two_rounds`, the chance given this round's result)."""
    values = []
    for mass, now, terms in _by_result(bot, obs, two):
        if now is not None:
            values.append(now)
            continue
        got = 0.0
        for term in terms:
            got += term
        values.append(got / mass if mass > 0 else 0.5)
    return values[0], values[1], values[2]


def _by_result(bot: SoundBot, obs: Observation,
               two: Two) -> Iterator[tuple[float, float | None, list[float]]]:
    """For each of this round's results (the seat's team wins it, a tie, the other wins it):
    its chance (:meth:`Two.joint`), what it gives the seat's team of the hand where it
    settles the hand (else ``None``), and where it does not, the chance of each of the next
    round's results times what that gives (0.5 where it settles nothing either)."""
    team = obs["team"]
    results = tuple(obs["rounds"])
    joint = two.joint()
    for i, outcome in enumerate((team, None, 1 - team)):
        now = two.settles[i]
        if now is not None:
            yield sum(joint[i]), now, []
            continue
        after = result_values(bot.rules, obs["mao"], team, (*results, outcome))
        values = after if after is not None else (None, None, None)
        yield sum(joint[i]), None, [joint[i][j] * (0.5 if v is None else v)
                                    for j, v in enumerate(values)]
