"""engine.env, the PettingZoo environment (the optional extra ``[rl]``, part of ``[test]``):
PettingZoo's own api_test for every shipped variant, masks equal to the legal moves, and a
match through the environment logged exactly as through Match."""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pytest
from helpers import doctests

pytest.importorskip("pettingzoo", reason="the optional extra [rl] (pip install -e '.[test]')")

from pettingzoo.test import api_test  # noqa: E402

import engine.env  # noqa: E402
from engine import Match  # noqa: E402
from engine.bots import seat_view  # noqa: E402
from engine.bots.base import mover_moves  # noqa: E402
from engine.env import TrucoEnv, env, raw_env  # noqa: E402
from engine.logformat import Recorder  # noqa: E402
from engine.resources import shipped_variants  # noqa: E402

SHIPPED = sorted(n for n, p in shipped_variants().items() if p.parent.name != "house")


@pytest.mark.filterwarnings("ignore:Observation space for each agent",
                            "ignore:Observation is not a NumPy array")  # a dict with the mask
@pytest.mark.parametrize("variant", SHIPPED)
def test_env_passes_pettingzoo_api_test(variant: str) -> None:
    api_test(env(variant), num_cycles=300)


def _random_match(e: TrucoEnv, seed: int, check: bool = False) -> None:
    e.reset(seed=seed)
    pick = np.random.default_rng(seed)
    while not e.match.is_over:  # type: ignore[union-attr]
        agent = e.agent_selection
        obs = e.observe(agent)
        mask = obs["action_mask"]
        if check:
            m = e.match
            assert m is not None
            seat = e.agent_seat[agent]
            view = seat_view(m, seat)[1]
            # the agent to act is the seat the drivers move (envcore writes it out)
            mover, legal = mover_moves(m)
            assert seat == mover and legal == m.legal_actions(seat)
            assert sorted(mask.nonzero()[0].tolist()) == e.legal_indices()
            assert len(e.legal_indices()) == len(view) == len(m.legal_actions(seat))
            assert sorted(e.moves.index[e.moves.key(a)] for a in view) == e.legal_indices()
            for other in e.agents:
                if other != agent:
                    assert not e.observe(other)["action_mask"].any()
            assert obs["observation"].shape == e.observation_space(agent)["observation"].shape
            assert obs["observation"].min() >= 0.0 and obs["observation"].max() <= 1.0
        e.step(int(pick.choice(mask.nonzero()[0])))


@pytest.mark.parametrize("variant", sorted(shipped_variants()))
def test_env_masks_equal_legal_actions(variant: str) -> None:
    e = raw_env(variant)
    for seed in (1, 2):
        _random_match(e, seed, check=True)


@pytest.mark.parametrize("variant", ["paulista", "mineiro", "gauderio"])
def test_env_match_logs_as_through_match(variant: str) -> None:
    out = io.StringIO()
    e = raw_env(variant, log=out)
    _random_match(e, 11)
    again = io.StringIO()
    m = Match.new(variant, seed=11)
    rec = Recorder(m, again, variant=variant)
    for action in e.history:
        rec.apply(action)
    assert m.is_over and out.getvalue() == again.getvalue()


def test_env_rewards_at_the_end_of_the_match() -> None:
    e = raw_env("paulista", hand_rewards=True)
    e.reset(seed=4)
    pick = np.random.default_rng(4)
    total = dict.fromkeys(e.agents, 0.0)
    while not e.match.is_over:  # type: ignore[union-attr]
        e.step(int(pick.choice(e.observe(e.agent_selection)["action_mask"].nonzero()[0])))
        for a in e.agents:
            total[a] += e.rewards[a]
    m = e.match
    assert m is not None
    for a, r in total.items():
        won = m.rules.team_of[e.agent_seat[a]] == m.winner
        assert (r > 1.0) if won else (r < -1.0)  # +-1 for the match, plus the hands' points


def test_env_reset_seed_is_deterministic() -> None:
    a, b = raw_env("mineiro"), raw_env("mineiro")
    _random_match(a, 3)
    _random_match(b, 3)
    assert a.history == b.history
    a.reset(seed=3)
    first = a.observe(a.agent_selection)["observation"].copy()
    a.reset(seed=3)
    assert (a.observe(a.agent_selection)["observation"] == first).all()


def test_docstring_examples_run() -> None:
    result = doctests(engine.env)
    assert result.attempted >= 1 and result.failed == 0


def _stacked(variant: str) -> object:
    """env() as it was: PettingZoo's two wrappers stacked."""
    from pettingzoo.utils import wrappers
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(variant)))


def _outcome(call: object) -> str:
    try:
        got = call()  # type: ignore[operator]
    except (AssertionError, AttributeError, KeyError, ValueError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return f"ok {got!r}"[:40]


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_env_checks_as_pettingzoos_stacked_wrappers() -> None:
    """env()'s one wrapper raises what OrderEnforcingWrapper over AssertOutOfBoundsWrapper
    raised, call for call: before reset, out of the space, in the wrong order, after the end."""
    def script(e: Any) -> list[str]:
        out = [_outcome(lambda: e.step(0)), _outcome(lambda: e.observe("seat_0")),
               _outcome(lambda: e.last()), _outcome(lambda: e.agent_iter()),
               _outcome(lambda: e.agent_selection), _outcome(lambda: e.rewards),
               _outcome(lambda: e.num_agents), str(e)]
        e.reset(seed=2)
        n = e.action_space("seat_0").n
        legal = int(e.last()[0]["action_mask"].nonzero()[0][0])
        out += [_outcome(lambda: e.step(n)), _outcome(lambda: e.step(-1)),
                _outcome(lambda: e.step(None)), _outcome(lambda: e.step(1.0)),
                _outcome(lambda: e.step(True)), _outcome(lambda: e.step(2**70)),
                _outcome(lambda: e.step(np.int64(legal))), e.agent_selection]
        it = iter(e.agent_iter())
        out += [_outcome(lambda: next(it)), _outcome(lambda: next(it))]
        e.step(int(e.last()[0]["action_mask"].nonzero()[0][0]))
        pick = np.random.default_rng(2)
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            out.append(f"{agent} {reward} {terminated}")
            e.step(None if terminated else int(pick.choice(obs["action_mask"].nonzero()[0])))
        out += [_outcome(lambda: e.step(None)), _outcome(lambda: e.last()), str(e.agents)]
        return out

    assert script(env("paulista")) == script(_stacked("paulista"))
