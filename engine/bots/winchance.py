"""The value of a score to the ``search`` bot (:mod:`engine.bots.search`): each team's chance
to win the match from it, under a simple model of the hands still to come."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.rules import Rules


class WinChance:
    """The chance that a team wins the match from a score, under a simple model: every hand
    goes to one of the teams with equal chance, for the variant's first value (40%), or the
    first, second or third step of its ladder (35%, 15%, 10%: about what bots' matches show);
    every later game is won by each team with equal chance.

    >>> from engine.variant import load_variant
    >>> w = WinChance(load_variant("paulista"))
    >>> round(w.game([0, 0])[0], 6), w.game([11, 0])[0] > 0.8, w.game([0, 11])[0] < 0.2
    (0.5, True, True)
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        values = [rules.initial_value] + [s.value for s in rules.ladder[:3]]
        weights = (0.4, 0.35, 0.15, 0.1)[:len(values)]
        total = sum(weights)
        self._points = tuple((v, w / total) for v, w in zip(values, weights, strict=False))
        self._teams = rules.teams
        self._game = lru_cache(maxsize=None)(self._game_needs)
        self._match = lru_cache(maxsize=None)(self._match_needs)
        self._matches: dict[tuple[int, ...], tuple[float, ...]] = {}

    def _game_needs(self, needs: tuple[int, ...]) -> tuple[float, ...]:
        teams = self._teams
        out = [0.0] * teams
        share = 1.0 / teams
        for t in range(teams):
            for v, w in self._points:
                left = needs[t] - v
                if left <= 0:
                    out[t] += share * w
                    continue
                nxt = list(needs)
                nxt[t] = left
                for u, p in enumerate(self._game(tuple(nxt))):
                    out[u] += share * w * p
        return tuple(out)

    def _match_needs(self, needs: tuple[int, ...]) -> tuple[float, ...]:
        teams = self._teams
        out = [0.0] * teams
        for t in range(teams):
            if needs[t] <= 1:
                out[t] += 1.0 / teams
                continue
            nxt = list(needs)
            nxt[t] -= 1
            for u, p in enumerate(self._match(tuple(nxt))):
                out[u] += p / teams
        return tuple(out)

    def game(self, score: Sequence[int]) -> tuple[float, ...]:
        """Each team's chance to win the game in play from ``score``."""
        target = self.rules.target
        return self._game(tuple(max(target - s, 1) for s in score))

    def match(self, score: Sequence[int], games: Sequence[int]) -> tuple[float, ...]:
        """Each team's chance to win the match from ``score`` in the game in play and
        ``games`` won (worked out once per score and games: a search asks it for every hand
        played out)."""
        key = (*score, *games)
        got = self._matches.get(key)
        if got is None:
            got = self._matches[key] = self._match_from(score, games)
        return got

    def _match_from(self, score: Sequence[int], games: Sequence[int]) -> tuple[float, ...]:
        need = self.rules.games_to_win
        q = self.game(score)
        teams = self._teams
        out = [0.0] * teams
        for t in range(teams):
            if need - games[t] <= 1:
                out[t] += q[t]
                continue
            nxt = [need - g for g in games]
            nxt[t] -= 1
            for u, p in enumerate(self._match(tuple(nxt))):
                out[u] += q[t] * p
        return tuple(out)


@lru_cache(maxsize=64)
def win_chance(rules: Rules) -> WinChance:
    """The :class:`WinChance` of a variant (made once)."""
    return WinChance(rules)
