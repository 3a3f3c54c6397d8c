"""``search``: determinised Monte Carlo search (perfect-information Monte Carlo over sampled
deals) from what its seat may know.

Each time it has a real choice, the bot

1. guesses the cards it cannot see, consistently with its observation: every card it has seen
   (its own hand, the vira, cards played face up, cards shown with a raise, M4, its partners'
   cards where a decision shows them, M5) stays where it is; the others (the other seats'
   hands, cards played face down, P7, its own cards in a blind hand, P6, a raise's card it was
   not shown) are dealt at random from the cards it has not seen, each seat getting as many as
   it holds. A raise by an opponent that waits for its answer is read as strength: a guess
   where the raiser's cards would not make the heuristic raise is mostly redrawn
   (:meth:`engine.bots.determinize.Determinizer.consistent_guess`; the guessing and the
   playing out are shared with `truco analyze`: :mod:`engine.bots.determinize`,
   :mod:`engine.bots.playout`);
2. builds that guess as a position (docs/positions.md) and a match from it
   (:meth:`engine.position.build`, so the engine checks the guess like any position; it has no
   generator, so no later deal is known either; the later guesses of one observation are
   placed on a copy of its first, :func:`engine.position.build_like`, refused where ``build``
   would refuse them);
3. tries each of its legal moves on a copy of that match (:meth:`Match.clone`; the last move
   on the match itself) and plays the hand out with a cheap policy: cards by a greedy rule
   of thumb (the lowest card that wins the round, else the lowest; strong leads), never a
   raise in a card's place, and the :class:`~engine.bots.sound.SoundBot` (the heuristic,
   answering raises by its team's chance to take the hand where the round settles it)
   answering raises and deciding special hands (from each seat's own observation); the
   ``policy`` keyword (``search:N:heuristic``) gives the :class:`HeuristicBot` those answers
   instead, as before issue 44, kept for comparison (:data:`POLICIES`;
   ``benchmarks/hard_policy.py``);
4. scores the end of the hand by the chance its team wins the match from the new score
   (:class:`WinChance`: a race to the target where every hand goes to a team at random), and
   plays the move with the best mean over the guesses; a raise must beat the best other move
   by :attr:`SearchBot.raise_margin`, since the hands played out have no later raise.

Why positions rather than ``Match.clone()`` with the hidden cards re-dealt: the bot is given
only its observation and its legal moves (:func:`engine.bots.choose_for`), never the match, so
what it may know is what it is given; the guess goes through the engine's own position checks,
so a wrong reconstruction is an error, not a silent mis-search. A guess placed on the laid-out
match costs a fraction of a hand played out; every move of one guess shares that guess (common
random numbers).

The budget is in iterations (``search:400``): the number of hands played out per decision,
shared among the legal moves (each guess plays every move once); an offer to raise out of turn
(M3), made before every card, gets half of it, and is passed after a quarter of that when no
raise comes within half the margin of the pass. Deterministic: its own
SplitMix64 (and the heuristic's, seeded from it) and nothing else; the same seed and the same
observations give the same moves.

>>> from engine import Match
>>> m = Match.new("paulista", seed=7)
>>> bot = SearchBot(m.rules, seed=1, budget=12)
>>> obs, legal = m.observation(1), m.legal_actions(1)
>>> move = bot.choose(obs, legal)
>>> move in legal, move == SearchBot(m.rules, seed=1, budget=12).choose(obs, legal)
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from engine.actions import Action
from engine.bots.base import derive_seed
from engine.bots.determinize import Determinizer
from engine.bots.heuristic import HeuristicBot
from engine.bots.playout import try_move
from engine.bots.sound import SoundBot
from engine.bots.winchance import WinChance as WinChance
from engine.bots.winchance import win_chance
from engine.moves.names import RAISE_KIND
from engine.observation import Observation
from engine.rules import Rules
from engine.shuffle import SplitMix64

#: The default budget: hands played out per decision (``search`` alone).
DEFAULT_BUDGET = 96
#: The players that answer raises in the hands played out, by ``policy`` name (the first is
#: the default): the sound player, or the heuristic as before issue 44 (for comparison).
POLICIES: dict[str, type[HeuristicBot]] = {"sound": SoundBot, "heuristic": HeuristicBot}


@mypyc_attr(allow_interpreted_subclasses=True)  # a bot may build on it, compiled too
class SearchBot:
    """Determinised search over the deals its observation allows (module docstring);
    ``budget``: hands played out per decision; ``policy``: who answers raises in them (a key
    of :data:`POLICIES`)."""

    name = "search"
    #: What a raise must gain over the best other move, in chance to win the match: the
    #: hands played out have no later raise, so a raise's risk is underrated (measured:
    #: without it, Mineiro's raises out of turn lose matches).
    raise_margin = 0.1

    def __init__(self, rules: Rules, seed: int = 0, *, budget: int = DEFAULT_BUDGET,
                 policy: str = "sound") -> None:
        if budget < 1:
            raise ValueError(f"a search budget is a number of iterations, 1 or more, not {budget}")
        if policy not in POLICIES:
            raise ValueError(f"unknown playout policy {policy!r}; known: {', '.join(POLICIES)}")
        self.rules = rules
        self.budget = budget
        self.policy = policy
        self.rng = SplitMix64(seed)
        player = POLICIES[policy]
        self._policy: list[HeuristicBot] = [player(rules, derive_seed(seed, 1 + s))
                                            for s in range(rules.players)]
        self._value = win_chance(rules)
        self._guesser = Determinizer(rules, self.rng, self._policy)

    # -- choosing ---------------------------------------------------------------------------
    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The move with the best mean outcome over the sampled deals (one of
        ``legal_actions``)."""
        if not legal_actions:
            raise ValueError("no legal move to choose from")
        if len(legal_actions) == 1:
            return legal_actions[0]
        obs = observation
        k = len(legal_actions)
        offer = legal_actions[-1].kind == "pass"  # a raise out of turn (M3): asked often
        rounds = max(1, self.budget // (2 * k if offer else k))
        totals = [0.0] * k
        counts = [0] * k
        team = obs["team"]
        screen = max(2, rounds // 4) if offer else 0
        for done in range(rounds):
            if done == screen and offer and max(
                    (totals[i] / counts[i] for i in range(k - 1) if counts[i]), default=-1.0) \
                    < totals[-1] / max(counts[-1], 1) + self.raise_margin / 2:
                return legal_actions[-1]  # early cut-off: no raise out of turn comes close
            m = self._guesser.guessed_match(obs)
            if m is None:
                continue
            last = k - 1
            for i, move in enumerate(legal_actions):
                trial = m.clone() if i < last else m  # the guess itself serves the last move
                if try_move(trial, move, self._policy) is None:
                    continue  # legal only with cards this guess does not give (never seen)
                totals[i] += self._value.match(trial.score, trial.games)[team] \
                    if trial.winner is None else float(trial.winner == team)
                counts[i] += 1
        # the best mean, a raise's less the margin; on a tie, not a raise, then the first
        margin = self.raise_margin
        raising = [a.kind == RAISE_KIND for a in legal_actions]
        best = max(range(k), key=lambda i: ((totals[i] / counts[i] if counts[i] else -1.0)
                                            - (margin if raising[i] else 0),
                                            not raising[i], -i))
        return legal_actions[best]

    def judge(self, observation: Observation) -> float:
        """The heuristic's measure of this seat's hand for answering or deciding
        (:meth:`HeuristicBot.judge`): partners compare it to choose who speaks for the team."""
        return self._policy[observation["seat"]].judge(observation)

    # -- the guess --------------------------------------------------------------------------
    # -- the guess (engine.bots.determinize) -------------------------------------------------
    def guess(self, obs: Observation) -> dict[str, Any]:
        """A position that agrees with everything ``obs`` shows, the hidden cards dealt at
        random from those the seat has not seen (:meth:`Determinizer.guess`)."""
        return self._guesser.guess(obs)
