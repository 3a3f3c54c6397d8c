"""What the sound player (:mod:`engine.bots.sound`) knows of the round it plays, and the
chances it gives: the cards on the table and in its hand, the cards it has not seen
(:class:`Seen`); whether this round's result settles the hand (:func:`result_values`); the chances
to win and tie this round (:func:`round_chances`) and, where the round may leave the hand to
the next, of this round's and the next round's results together (:class:`Two`,
:func:`two_rounds`). Every figure here comes from the seat's own observation.

>>> from engine import Match
>>> rules = Match.new("paulista", seed=1).rules
>>> result_values(rules, 1, 0, (0,))  # round 1 won: round 2 won or tied takes the hand
(1.0, 1.0, None)
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache

from engine.bots.base import MatchShim
from engine.bots.heuristic import HeuristicBot
from engine.cards import card_name
from engine.moves.outcome import hand_result
from engine.observation import Observation
from engine.rules import Rules


@lru_cache(maxsize=1024)
def result_values(rules: Rules, mao: int, team: int,
             results: tuple[int | None, ...]) -> tuple[float | None, float | None,
                                                       float | None] | None:
    """What this round's result (``team`` wins it, a tie, the other team wins it) gives
    ``team`` of the hand: 1 it takes it, 0 it loses it, ``None`` not settled (0.5 where no
    round is won, the variant's all-tied rule); ``None`` when no result settles it. It
    depends on the rules, the mão and the rounds played alone."""
    shim = MatchShim(rules, mao)
    settles: list[float | None] = []
    for outcome in (team, None, 1 - team):
        after = [*results, outcome]
        if all(r is None for r in after):  # no round won: the variant's all-tied rule
            settles.append(0.5)
            continue
        done, winner = hand_result(shim, after)
        settles.append((1.0 if winner == team else 0.0) if done else None)
    if all(v is None or v == 0.5 for v in settles):
        return None
    return settles[0], settles[1], settles[2]


def round_chances(seen: Seen, ours: int) -> tuple[float, float]:
    """The chances that the seat's team wins and ties this round, its best card known so far
    ``ours`` and each team putting down its best (the unseen cards drawn independently from
    those the seat has not seen)."""
    pool, n = seen.pool, len(seen.pool)
    levels = sorted({*pool, ours, seen.theirs})

    def below(v: int, draws: int, known: int) -> float:  # P(the team's best <= v)
        if known > v:
            return 0.0
        return (bisect_right(pool, v) / n) ** draws  # the pool is sorted

    win = tie = 0.0
    prev_o = prev_t = 0.0
    for v in levels:
        o, t = below(v, seen.mine_draws, ours), below(v, seen.their_draws, seen.theirs)
        p_o = o - prev_o
        win += p_o * prev_t
        tie += p_o * (t - prev_t)
        prev_o, prev_t = o, t
    return win, tie


class Seen:
    """What the seat knows of this round: the strongest face-up card of each team on the
    table (-2: none, -1: covered), its own cards' strengths, whether it has played, how many
    unseen cards each team's seats yet to play hold (``mine_draws``, ``their_draws``) and
    how many the seats that have played hold (``mine_after``, ``their_after``), and the
    strengths of the cards it has not seen, sorted (``pool``)."""

    def __init__(self, bot: HeuristicBot, obs: Observation) -> None:
        man = obs["manilhas"]
        team = obs["team"]
        rules = bot.rules
        now = obs["round"]
        on_table = [p for p in obs["played"] if p["round"] == now]
        self.ours = self.theirs = -2
        for p in on_table:
            s = -1 if p["covered"] else bot.strength(p["card"], man)
            if rules.team_of[p["seat"]] == team:
                self.ours = max(self.ours, s)
            else:
                self.theirs = max(self.theirs, s)
        moved = {p["seat"] for p in on_table}
        seat = obs["seat"]
        self.moved = seat in moved
        self.held = sorted(bot.strength(c, man) for c in obs["hand"] or ())
        held = rules.cards_per_player - now + 1  # cards held by a seat yet to play this round
        self.held_round = held
        self.mine_draws = self.their_draws = self.mine_after = self.their_after = 0
        for s in range(rules.players):
            if s == seat:
                continue
            mine = rules.team_of[s] == team
            if s in moved:
                if mine:
                    self.mine_after += held - 1
                else:
                    self.their_after += held - 1
            elif mine:
                self.mine_draws += held
            else:
                self.their_draws += held
        seen = set(obs["hand"] or ()) | {p["card"] for p in obs["played"] if p["card"]}
        seen |= {x["card"] for x in obs["shown"]} | ({obs["vira"]} if obs["vira"] else set())
        strengths, every = deck_strengths(rules, tuple(man))
        pool = list(every)
        for c in seen:
            if c in strengths:
                pool.remove(strengths[c])  # the first of its strength: the pool stays sorted
        self.pool = pool or [-1]


class Two:
    """This round and the next, where this round's result may leave the hand to the next:
    the seat's own card this round (``first``, with its team's best on the table) and its
    best left for the next (``second``): this round the lowest card that beats the other
    team's on the table, else its strongest leading, else its weakest."""

    def __init__(self, seen: Seen, settles: tuple[float | None, ...]) -> None:
        self.seen = seen
        self.settles = settles
        held = seen.held
        if seen.moved or not held:
            self.first, rest = seen.ours, held
        else:
            if seen.theirs == -2:
                card = held[-1]
            else:
                card = next((c for c in held if c > seen.theirs), held[0])
            rest = list(held)
            rest.remove(card)
            self.first = max(seen.ours, card)
        self.second = max(rest, default=-2)
        #: the chances this round is won and tied (:func:`round_chances` of ``first``)
        self.now = round_chances(seen, self.first)
        self._joint: Joint | None = None

    def joint(self) -> Joint:
        """:func:`two_rounds` of this round and the next, worked out once (an answer or a
        raise may ask it twice: the hand's chance, then what each result gives)."""
        if self._joint is None:
            self._joint = two_rounds(self)
        return self._joint


#: The chances of this round's and the next round's results for the seat's team: ``[i][j]``
#: this round's result ``i`` and the next's ``j``, each the team wins, a tie, the other wins.
Joint = tuple[tuple[float, float, float], ...]


def two_rounds(two: Two) -> Joint:
    """The chances of this round's and the next round's results (:data:`Joint`). The unseen
    cards are drawn independently from those the seat has not seen; the other team's seats
    yet to play this round are taken together: the best of their draws goes this round, the
    second best the next (with the best draws of its seats that have played). Where the
    seat's partners hold unseen cards, the two rounds are taken as independent of each other
    (a cheap approximation: the cards of the two rounds are then the team's best draws)."""
    seen = two.seen
    pool, n = seen.pool, len(seen.pool)
    draws, after = seen.their_draws, seen.their_after
    known = seen.theirs

    def cdf(v: float) -> float:
        return bisect_right(pool, v) / n

    def joint(u: float, v: float) -> float:
        """P(the other team's best this round <= u and its best in the next <= v)."""
        if known > u:
            return 0.0
        fu, fv = cdf(u), cdf(v)
        if draws < 2:
            top = fu ** draws  # a single card goes this round
        elif v >= u:
            top = fu ** draws
        else:
            top = fv ** draws + draws * fv ** (draws - 1) * (fu - fv)
        return top * fv ** after

    inf = float("inf")
    a, b = two.first, two.second
    mine_next = seen.mine_draws - seen.mine_draws // max(seen.held_round, 1) + seen.mine_after
    if seen.mine_draws or mine_next:
        now_win, now_tie = two.now
        nxt_win = nxt_tie = 0.0
        prev_o = prev_t = 0.0
        for v in sorted({*pool, b}):
            o = 0.0 if b > v else cdf(v) ** mine_next
            t = joint(inf, v)
            p_o = o - prev_o
            nxt_win += p_o * prev_t
            nxt_tie += p_o * (t - prev_t)
            prev_o, prev_t = o, t
        nows = (now_win, now_tie, 1 - now_win - now_tie)
        nexts = (nxt_win, nxt_tie, 1 - nxt_win - nxt_tie)
        return tuple((x * nexts[0], x * nexts[1], x * nexts[2]) for x in nows)
    lo_lo, hi_lo = joint(a - 1, b - 1), joint(a, b - 1)
    lo_hi, hi_hi = joint(a - 1, b), joint(a, b)
    lo_all, hi_all = joint(a - 1, inf), joint(a, inf)
    lo_b_all, hi_b_all = joint(inf, b - 1), joint(inf, b)
    # this round: won (theirs < a), tied (= a), lost; the next: by b alike
    now = (lo_all, hi_all - lo_all, 1 - hi_all)
    won_next = (lo_lo, hi_lo - lo_lo, lo_b_all - hi_lo)
    tied_next = (lo_hi - lo_lo, hi_hi - hi_lo - lo_hi + lo_lo,
                 hi_b_all - lo_b_all - (hi_hi - hi_lo))
    return tuple((won_next[i], tied_next[i], now[i] - won_next[i] - tied_next[i])
                 for i in range(3))


@lru_cache(maxsize=256)
def deck_strengths(rules: Rules,
                    manilhas: tuple[str, ...]) -> tuple[dict[str, int], tuple[int, ...]]:
    """Each card of the deck, by name in the deck's order, with its
    :meth:`~engine.bots.heuristic.HeuristicBot.strength` under ``manilhas``, and all those
    strengths sorted: they depend on the rules and the manilhas alone, and a decision's
    playouts make thousands of players."""
    judge = HeuristicBot(rules)
    strengths = {card_name(c): judge.strength(card_name(c), manilhas) for c in rules.deck}
    return strengths, tuple(sorted(strengths.values()))
