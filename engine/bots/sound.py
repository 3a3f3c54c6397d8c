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
  draws taken as independent); a result that does not settle the hand counts as even;
- answers a raise by the chance to win the match, from the win table
  (:class:`~engine.bots.winchance.WinChance`): accept when accepting is worth more than
  folding, raise back when even an accepted raise back is worth more than accepting;
- raises (in turn or out of turn, M3) only with a real edge: when the raised hand, accepted,
  is worth more than playing it at its value (never a bluff there);
- elsewhere (the first round, a special hand, more than two teams, a blind hand) plays as the
  heuristic.

What it still does not do: read the raiser's cards from his raise (a raise says little where
bluffs are possible), nor play its cards otherwise than the heuristic.

>>> from engine import Match
>>> m = Match.new("paulista", seed=7)
>>> bot = SoundBot(m.rules, seed=1)
>>> bot.choose(m.observation(1), m.legal_actions(1)) in m.legal_actions(1)
True
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from functools import lru_cache

from engine.actions import Action
from engine.bots.base import MatchShim
from engine.bots.heuristic import HeuristicBot
from engine.bots.winchance import win_chance
from engine.cards import card_name
from engine.moves.names import ACCEPT_KIND, FOLD_KIND, RAISE_KIND
from engine.moves.outcome import hand_result
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
        p = hand_chance(self, obs)
        pending = obs["pending_raise"]
        if p is None or pending is None:
            return super()._answer(obs, legal)
        now, raised = obs["value"], pending["value"]
        fold = self._after(obs, -now)
        accept = p * self._after(obs, raised) + (1 - p) * self._after(obs, -raised)
        raises = [a for a in legal if a.kind == RAISE_KIND]
        if raises:
            more = raises[0].value or raised
            again = min(self._after(obs, raised),
                        p * self._after(obs, more) + (1 - p) * self._after(obs, -more))
            if again > max(accept, fold) + EDGE:
                return self._raise_with(obs, raises)
        kind = ACCEPT_KIND if accept >= fold else FOLD_KIND
        return next((a for a in legal if a.kind == kind), legal[0])

    def _wants_raise(self, obs: Observation, value: int, *, bluff: bool = True) -> bool:
        p = hand_chance(self, obs)
        if p is None:
            return super()._wants_raise(obs, value, bluff=bluff)
        now = obs["value"]
        keep = p * self._after(obs, now) + (1 - p) * self._after(obs, -now)
        raised = p * self._after(obs, value) + (1 - p) * self._after(obs, -value)
        return raised > keep + EDGE

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


def hand_chance(bot: SoundBot, obs: Observation) -> float | None:
    """The chance that the seat's team takes the hand, where this round's result settles it
    (module docstring); ``None`` where it does not, or where the seat cannot judge (more than
    two teams, a blind hand, a special hand)."""
    rules = bot.rules
    if rules.teams != 2 or obs["blind"] or obs["special"] is not None:
        return None
    team = obs["team"]
    settles = _settles(rules, obs["mao"], team, tuple(obs["rounds"]))
    if settles is None:
        return None
    won, tied, lost = settles
    win, tie = _round_chances(bot, obs)
    return win * won + tie * tied + (1 - win - tie) * lost


@lru_cache(maxsize=1024)
def _settles(rules: Rules, mao: int, team: int,
             results: tuple[int | None, ...]) -> tuple[float, float, float] | None:
    """What this round's result (``team`` wins it, a tie, the other team wins it) gives
    ``team`` of the hand: 1 it takes it, 0 it loses it, 0.5 not settled; ``None`` when no
    result settles it. It depends on the rules, the mão and the rounds played alone."""
    shim = MatchShim(rules, mao)
    settles = []
    for outcome in (team, None, 1 - team):
        after = [*results, outcome]
        if all(r is None for r in after):  # no round won: the variant's all-tied rule
            settles.append(0.5)
            continue
        done, winner = hand_result(shim, after)
        settles.append((1.0 if winner == team else 0.0) if done else 0.5)
    if all(v == 0.5 for v in settles):
        return None
    return settles[0], settles[1], settles[2]


def _round_chances(bot: SoundBot, obs: Observation) -> tuple[float, float]:
    """The chances that the seat's team wins and ties this round, each team putting down its
    best card (the unseen cards drawn independently from those the seat has not seen)."""
    man = obs["manilhas"]
    team = obs["team"]
    rules = bot.rules
    now = obs["round"]
    on_table = [p for p in obs["played"] if p["round"] == now]
    ours = theirs = -2
    for p in on_table:
        s = -1 if p["covered"] else bot.strength(p["card"], man)
        if rules.team_of[p["seat"]] == team:
            ours = max(ours, s)
        else:
            theirs = max(theirs, s)
    moved = {p["seat"] for p in on_table}
    seat = obs["seat"]
    if seat not in moved:
        ours = max([ours, *(bot.strength(c, man) for c in obs["hand"] or ())])
    held = rules.cards_per_player - now + 1  # cards held by a seat yet to play this round
    mine_draws = their_draws = 0
    for s in range(rules.players):
        if s == seat or s in moved:
            continue
        if rules.team_of[s] == team:
            mine_draws += held
        else:
            their_draws += held
    seen = set(obs["hand"] or ()) | {p["card"] for p in obs["played"] if p["card"]}
    seen |= {x["card"] for x in obs["shown"]} | ({obs["vira"]} if obs["vira"] else set())
    strengths = _deck_strengths(rules, tuple(man))
    pool = sorted(v for c, v in strengths.items() if c not in seen)
    if not pool:
        pool = [-1]
    levels = sorted({*pool, ours, theirs})
    n = len(pool)

    def below(v: int, draws: int, known: int) -> float:  # P(the team's best <= v)
        if known > v:
            return 0.0
        return (bisect_right(pool, v) / n) ** draws  # the pool is sorted

    win = tie = 0.0
    prev_o = prev_t = 0.0
    for v in levels:
        o, t = below(v, mine_draws, ours), below(v, their_draws, theirs)
        p_o = o - prev_o
        win += p_o * prev_t
        tie += p_o * (t - prev_t)
        prev_o, prev_t = o, t
    return win, tie


@lru_cache(maxsize=256)
def _deck_strengths(rules: Rules, manilhas: tuple[str, ...]) -> dict[str, int]:
    """Each card of the deck, by name in the deck's order, with its
    :meth:`~engine.bots.heuristic.HeuristicBot.strength` under ``manilhas``: it depends on
    the rules and the manilhas alone, and a decision's playouts make thousands of players."""
    judge = HeuristicBot(rules)
    return {card_name(c): judge.strength(card_name(c), manilhas) for c in rules.deck}
