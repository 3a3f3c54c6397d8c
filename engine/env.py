"""A PettingZoo environment (AEC: one agent acts at a time) for any variant:
``pip install 'truco-engine[rl]'`` (pettingzoo and gymnasium), then ``engine.env.env(...)``.

>>> from engine.env import env
>>> e = env(variant="paulista")
>>> e.reset(seed=7)
>>> final = {}
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     if terminated or truncated:
...         final[agent] = reward
...         action = None
...     else:
...         action = int(e.np_random.choice(obs["action_mask"].nonzero()[0]))
...     e.step(action)
>>> sorted(final.values()), e.unwrapped.match.is_over
([-1.0, -1.0, 1.0, 1.0], True)

**Agents** are the seats, ``seat_0`` ... ``seat_{n-1}``; the agent to act is the seat the
match waits for (:func:`engine.bots.next_actor`: the turn's seat for a card, the first
challenged seat that may answer a raise, the deciding seat of a special hand). Raises out of
turn (M3) are not offered: a seat raises on its own turn or in answer to a raise.

**Actions**: one fixed ``Discrete`` space per variant, listed by :meth:`TrucoEnv.action_name`
(index: the move), each kind of move giving its own (``MoveKind.space``, :mod:`engine.moves`):

- ``play c`` for every card ``c`` of the deck (``rules.deck`` order), then ``play c covered``
  for every card where the variant allows covered cards (P7);
- ``raise``: the next step of the ladder (its value follows from the hand's), one action, or
  ``raise c`` for every card where a raise names its card (M4);
- ``accept``, ``fold``; ``decide play``, ``decide fold`` where a special hand has a decision
  (M5); ``concede`` where the variant has it;
- where a special hand is blind (P6), ``play #i`` (and ``play #i covered``, ``raise #i``) for
  every hand position ``i``: in a blind hand the seat does not know its cards, so its moves
  name positions (as a bot is offered them, :func:`engine.bots.seat_view`).

The ``action_mask`` of the agent to act is exactly its legal moves (``Match.legal_actions``,
as :func:`~engine.bots.seat_view` shows them); every other agent's mask is all zeros.

**Observations** are a dict: ``observation``, a ``float32`` vector in ``[0, 1]``, and
``action_mask`` (``int8``). The vector, for the observing seat, with seats and teams counted
from it (``0`` = itself, its team) and ``D`` the deck's size:

=====================  =====================================================================
block (length)         what it holds
=====================  =====================================================================
hand (D)               its cards (none in a blind hand); before the deal, the cards its
                       cut takes, to the cutter deciding to keep them (``cut.refusable``)
partners (D)           partners' cards a decision shows (M5)
vira (D)               the vira, if any
played (n x D)         cards played face up this hand, by seat from itself
table (D)              cards face up in the round in play
shown (D)              cards shown with a raise (M4)
covered (n)            covered cards played this hand, by seat, / cards per player
score (teams)          points by team from its own, / target
games (teams)          games by team from its own, / games to win
value (1)              the hand's value / the ladder's top
pending (1 + n)        a raise waits for an answer; its raiser by seat from itself
last raise (teams)     the team that made the last accepted raise
phase (3)              play, answer, decide (none in another phase, a kind's own, nor once
                       the match is over: the block is fixed, whatever kinds are added)
round (cards)          the round in play, one-hot
rounds (3 x cards)     each round: won by its team, lost, tied
turn (n)               whose card it is, by seat from itself
mao, dealer (2n)       the mão and the dealer, by seat from itself
flags (2)              a blind hand, a special hand
side bets              per side bet of the variant (G22-G32), in order: each call's count in
                       the chain (/ 2), a call waits for its answer, its caller by seat from
                       itself, settled, accepted, the winner by team from its own, the points
                       won / target, its own points / 40 (its own cards only)
=====================  =====================================================================

**Rewards** come at the end of the match: +1 to every seat of the winning team, -1 to the
others (``hand_rewards=True`` adds, at the end of each hand, each team's points of the hand
divided by the target to its seats, and the others' to theirs negated). ``reset(seed=...)``
deals the match from that seed (:meth:`Match.new`); without a seed, from the environment's
generator, seeded by the first ``reset`` with one.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, TextIO

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
    from pettingzoo.utils.env_logger import EnvLogger
    from pettingzoo.utils.wrappers.order_enforcing import (
        AECOrderEnforcingIterable,
        AECOrderEnforcingIterator,
    )
except ImportError as exc:  # pragma: no cover - the optional extra is missing
    raise ImportError("engine.env needs the optional extra: pip install 'truco-engine[rl]' "
                      "(pettingzoo and gymnasium)") from exc

from engine.actions import Action
from engine.envcore import Layout
from engine.game import Match, resolve_rules
from engine.logformat import Recorder
from engine.moves import load_kinds
from engine.payload import DERIVED, SLOTS
from engine.rules import Rules

__all__ = ["TrucoEnv", "env", "raw_env"]

_FLOAT32 = np.dtype(np.float32)
_INT8 = np.dtype(np.int8)

#: The Action slots that tell moves apart in the space: all but a raise's value (the space has
#: one raise, to the next step), and a blind hand's position (P6).
_KEY_SLOTS = (*(slot for slot in SLOTS if slot != "value"), "position")
_slots = attrgetter(*_KEY_SLOTS)


class _Moves:
    """The variant's fixed list of moves (the action space), from the kinds' ``space``
    (:class:`engine.moves.MoveKind`): the key of each, its name and the index of each key."""

    def __init__(self, rules: Rules) -> None:
        # a move that gives no place: after the others, in the kinds' order (DERIVED)
        listed = sorted(((place or (DERIVED + i,), kind.name, fields, name)
                         for i, kind in enumerate(load_kinds().values())
                         if kind.space is not None
                         for place, fields, name in kind.space(rules)), key=lambda e: e[0])
        self.keys: list[tuple[Any, ...]] = [
            (kind, *(fields.get(slot, SLOTS.get(slot)) for slot in _KEY_SLOTS))
            for _, kind, fields, _ in listed]
        self.names = [name for *_, name in listed]
        self.index = {k: i for i, k in enumerate(self.keys)}
        assert len(self.index) == len(self.keys), "two moves of the space share a key"

    @staticmethod
    def key(a: Action) -> tuple[Any, ...]:
        """The key of a move as a seat is offered it (:func:`seat_view`)."""
        return (a.kind, *_slots(a))


class TrucoEnv(AECEnv):  # type: ignore[misc, type-arg, unused-ignore]
    """The AEC environment of one variant (see the module docstring); build it with
    :func:`env` (wrapped with PettingZoo's checks) or :func:`raw_env`."""

    metadata = {"render_modes": ["human", "ansi"], "name": "truco_v0", "is_parallelizable": False}

    def __init__(self, variant: Rules | str, *, seed: int | None = None,
                 hand_rewards: bool = False, render_mode: str | None = None,
                 log: TextIO | None = None) -> None:
        super().__init__()
        self.rules = resolve_rules(variant)
        self.variant = variant if isinstance(variant, str) else self.rules.name
        self.hand_rewards = hand_rewards
        self.render_mode = render_mode
        self.log = log
        r = self.rules
        n = r.players
        self.possible_agents = [f"seat_{s}" for s in range(n)]
        self.agent_seat = {a: s for s, a in enumerate(self.possible_agents)}
        self.moves = _Moves(r)
        self._actions = len(self.moves.keys)
        #: Each move's action index, by the move as the seat is offered it (made as met).
        self._index_of: dict[Action, int] = {}
        #: What each step reads (the vector's layout, the index by the move's ``id``), and
        #: does: compiled with the engine (engine.envcore).
        self._layout = Layout(r, self._index, self.possible_agents, self.moves.names,
                              (np.zeros, np.frombuffer, _FLOAT32, _INT8), self)
        self._size = self._layout.size
        obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (self._size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (len(self.moves.keys),), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(len(self.moves.keys))
                              for a in self.possible_agents}
        self._seed = seed
        #: The environment's generator (numpy), seeded by ``reset(seed=...)``.
        self.np_random: Any = None
        self.match: Match | None = None
        self._recorder: Recorder | None = None
        #: The moves applied since the last reset, as the match took them.
        self.history: list[Action] = []

    # -- the spaces -------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def action_name(self, index: int) -> str:
        """The move an action index stands for, in words (``play 4c``, ``raise``...)."""
        return self.moves.names[index]

    # -- the AEC protocol -------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match dealt from ``seed`` (else from the environment's generator)."""
        if seed is not None:
            self.np_random = np.random.default_rng(seed)
        elif self.np_random is None:
            self.np_random = np.random.default_rng(self._seed)
        match_seed = seed if seed is not None else int(self.np_random.integers(0, 2**63))
        self.match = Match(self.rules, seed=match_seed)
        self._recorder = (Recorder(self.match, self.log, variant=self.variant)
                          if self.log is not None else None)
        self.history = []
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        # the steps' work is compiled (engine.envcore): it keeps these objects and changes
        # them as PettingZoo's AEC contract says, with the agent to act and its moves
        agent = self._layout.start(
            self.match, self._recorder, self.history, self.agents, self.rewards,
            self._cumulative_rewards, self.terminations, self.truncations, self.infos,
            self.hand_rewards, self.render_mode == "human")
        if agent is not None:
            self.agent_selection = agent

    def _index(self, v: Action) -> int:
        """The action index of a move as the seat is offered it."""
        i = self._index_of.get(v)
        if i is None:
            i = self._index_of[v] = self.moves.index[_Moves.key(v)]
        return i

    def legal_indices(self) -> list[int]:
        """The action indices legal for the agent to act (its mask's ones), in order."""
        return sorted(self._layout.real)

    def step(self, action: int | None) -> None:
        # compiled (engine.envcore): PettingZoo's checks of a dead agent's step, the move,
        # the rewards, the agent to act next, its moves and the infos
        m = self.match
        assert m is not None
        self._layout.step(m, self.agent_selection, action)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        # AECEnv's, compiled (engine.envcore)
        m = self.match
        assert m is not None
        return self._layout.last(m, self.agent_selection, observe)

    def observe(self, agent: str) -> dict[str, Any]:
        m = self.match
        assert m is not None
        # the vector and the mask (compiled: engine.envcore)
        return self._layout.observe(m, self.agent_seat[agent],
                                    agent == self.agent_selection and not m.is_over)

    def render(self) -> str | None:
        m = self.match
        if m is None:
            return None
        text = f"{m!r}; to act: {getattr(self, 'agent_selection', None)}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

def raw_env(variant: Rules | str, **kwargs: Any) -> TrucoEnv:
    """The environment without PettingZoo's wrappers."""
    return TrucoEnv(variant, **kwargs)


class _Checked(wrappers.OrderEnforcingWrapper):  # type: ignore[misc, type-arg, unused-ignore]
    """:func:`env`'s wrapper: PettingZoo's ``OrderEnforcingWrapper`` around the environment,
    with ``AssertOutOfBoundsWrapper``'s check of each action made in its ``step``, and, once
    reset, the loop's calls (``last``, ``observe``, ``agent_iter``'s next agent) sent straight
    to the environment rather than through the wrappers' ``__getattr__``: the same checks and
    errors as the two wrappers stacked, for less a step."""

    def __init__(self, env: TrucoEnv) -> None:
        super().__init__(env)
        self._actions = len(env.moves.keys)
        #: The compiled steps (engine.envcore) called straight from here, where the
        #: environment's step and last are TrucoEnv's (one call less a step).
        self._core = (env._layout if type(env).step is TrucoEnv.step
                      and type(env).last is TrucoEnv.last else None)

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
            return
        e = self.env
        if not e.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
            return
        self._has_updated = True
        # AssertOutOfBoundsWrapper's check; an int in the space passes it without the space
        if not (type(action) is int and 0 <= action < self._actions):
            agent = e.agent_selection
            assert (action is None and (e.terminations[agent] or e.truncations[agent])) or \
                e.action_space(agent).contains(action), "action is not in action space"
        core = self._core
        if core is not None:  # TrucoEnv.step's call
            core.step(e.match, e.agent_selection, action)
        else:
            e.step(action)

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:  # the wrappers' error for agent_selection before reset
            return super().last(observe)  # type: ignore[no-any-return]
        e = self.env
        core = self._core
        if core is not None:  # TrucoEnv.last's call
            return core.last(e.match, e.agent_selection, observe)
        return e.last(observe)  # type: ignore[no-any-return]

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _Iterable(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)


class _Iterable(AECOrderEnforcingIterable):  # type: ignore[misc, type-arg, unused-ignore]
    def __iter__(self) -> _Iterator:
        return _Iterator(self.env, self.max_iter)


class _Iterator(AECOrderEnforcingIterator):  # type: ignore[misc, type-arg, unused-ignore]
    """``AECOrderEnforcingIterator``'s next agent, read from the environment itself."""

    def __next__(self) -> str:
        checked = self.env
        e = checked.env
        if not e.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert checked._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        checked._has_updated = False
        return e.agent_selection  # type: ignore[no-any-return]


def env(variant: Rules | str, **kwargs: Any) -> Any:
    """The environment of ``variant`` (a shipped name, a file or a ``Rules``), wrapped with
    PettingZoo's order and bounds checks (``OrderEnforcingWrapper`` and
    ``AssertOutOfBoundsWrapper``'s, in one wrapper); ``seed``, ``hand_rewards``,
    ``render_mode``, ``log`` (a text stream that receives each match's log) as
    :class:`TrucoEnv` takes them."""
    return _Checked(TrucoEnv(variant, **kwargs))
