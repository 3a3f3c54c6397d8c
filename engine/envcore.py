"""The work of each step of the environment (:mod:`engine.env`): the agent to act with its
moves by action index, and the observation vector's entries. Compiled with the engine
(``build_native.py``), where ``engine.env`` stays interpreted (it subclasses PettingZoo's
classes and builds numpy arrays); so it reads the match natively and leaves numpy one call
a vector: it writes the vector's float32 bytes, which ``engine.env`` hands numpy whole
(``numpy.frombuffer``; an item of a numpy array costs several times a memoryview's).

The vector's blocks are ``engine.env``'s docstring's; only what :meth:`Match.observation`
gives the seat is read (its own cards, not in a blind hand; the partners' cards a decision
shows; the cards played face up; its own points), so that a seat's vector never changes
when cards hidden from it do (tests/test_env_episodes.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from engine.actions import Action
from engine.bots.base import viewed_moves
from engine.cards import Card
from engine.game import Match
from engine.logformat import Recorder
from engine.moves import PHASES, cards_held, hands_seen
from engine.moves.bets import own_points
from engine.rules import Rules
from engine.state import Phase

__all__ = ["BY_ID", "Layout"]

#: How many moves :attr:`Layout.by_id` keeps before it starts again.
BY_ID = 4096


class Layout:
    """One variant's observation vector and action indices: what does not change in a
    match, made once an environment; ``index(move)`` gives a move's action index as a seat
    is offered it (the environment's space)."""

    def __init__(self, rules: Rules, index: Callable[[Action], int], agents: list[str],
                 names: list[str], arrays: tuple[Callable[..., Any], Callable[..., Any], Any, Any],
                 owner: Any) -> None:
        self.rules = rules
        self.index = index
        #: numpy's ``zeros`` and ``frombuffer``, float32 and int8 (this module leaves numpy to
        #: engine.env, which has it): an observation's two arrays.
        self.zeros_of, self.from_bytes, self.float32, self.int8 = arrays
        #: The environment (engine.env.TrucoEnv): what a step sets there besides its dicts.
        self.owner = owner
        #: Each agent's seat.
        self.seat_of: dict[str, int] = {a: s for s, a in enumerate(agents)}
        #: The agents by seat, and the moves' names by action index.
        self.agents = agents
        self.names = names
        #: The mask of no move, as int8 bytes.
        self.no_moves = bytes(len(names))
        r = rules
        self.players = n = r.players
        self.cpp = cpp = r.cards_per_player
        self.teams = teams = r.teams
        self.team_of: list[int] = list(r.team_of)
        self.target = r.target
        self.games_to_win = r.games_to_win
        #: Each card's place in the deck, by its code (a list: codes are small numbers).
        self.card_index: list[int] = [-1] * (max(r.deck) + 1)
        for i, c in enumerate(r.deck):
            self.card_index[c] = i
        self.deck_size = d = len(r.deck)
        self.side_bets: list[Any] = list(r.side_bets)
        #: Each side bet's calls, in order.
        self.calls: list[list[str]] = [list(b.calls) for b in r.side_bets]
        self.size: int = (d * (5 + n) + n + 2 * teams + 1 + (1 + n) + teams + 3 + cpp + 3 * cpp
                          + n + 2 * n + 2
                          + sum(len(b.calls) + 1 + n + 2 + teams + 2 for b in r.side_bets))
        self.top: int = max([r.initial_value, *(s.value for s in r.ladder)])
        #: The phase block's places (fixed, whatever phases the kinds add).
        self.phase_at: dict[str, int] = {Phase.PLAY.value: 0, Phase.ANSWER.value: 1,
                                         Phase.DECIDE.value: 2}
        self.play = Phase.PLAY.value
        #: Each move's action index by the move's ``id``, with the move (the listed moves are
        #: the move table's, made once: no hash of an Action a step).
        self.by_id: dict[int, tuple[Action, int]] = {}
        #: Each seat's own side bet points, as the vector gives them, with the deal they
        #: come from: (dealt hands, vira, blind, points by side bet).
        self.own: list[tuple[Any, Card | None, bool, list[float]] | None] = [None] * n
        # what an episode holds (start): the environment's own objects, which a step changes
        self.recorder: Recorder | None = None
        self.history: list[Action] = []
        self.live: list[str] = []
        self.rewards: dict[str, float] = {}
        self.cumulative: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.hand_rewards = False
        self.human = False
        #: The last step gave rewards (else ``rewards`` is all zeros and stays so).
        self.rewarded = False
        #: The agent to act's moves by action index (the real moves), and the agent whose infos
        #: hold its legal moves (None: every agent's infos are empty).
        self.real: dict[int, Action] = {}
        self.actor: str | None = None

    def start(self, m: Match, recorder: Recorder | None, history: list[Action], live: list[str],
              rewards: dict[str, float], cumulative: dict[str, float],
              terminations: dict[str, bool], truncations: dict[str, bool],
              infos: dict[str, dict[str, Any]], hand_rewards: bool, human: bool) -> str | None:
        """A new episode (the environment's reset): its objects, kept for the steps; the agent
        to act (None once the match is over)."""
        self.recorder = recorder
        self.history = history
        self.live = live
        self.rewards = rewards
        self.cumulative = cumulative
        self.terminations = terminations
        self.truncations = truncations
        self.infos = infos
        self.hand_rewards = hand_rewards
        self.human = human
        self.rewarded = False
        self.real = {}
        self.actor = None
        if m.is_over:
            return None
        return self.select(m)

    def step(self, m: Match, agent: str, action: Any) -> None:
        """The environment's ``step`` (PettingZoo's AEC contract): ``action`` of ``agent``,
        the agent to act; a dead agent's step is PettingZoo's own (``_was_dead_step``)."""
        owner = self.owner
        if self.terminations[agent] or self.truncations[agent]:
            owner._was_dead_step(action)
            return
        assert action is not None
        i = int(action)
        move = self.real.get(i)
        if move is None:
            raise ValueError(f"{agent}: action {action} ({self.names[i]}) is not legal now; "
                             f"legal: {self.infos[agent].get('legal')}")
        live = self.live
        self.cumulative[agent] = 0.0
        rewards = self.rewards
        if self.rewarded:  # else the rewards are zeros already
            rewards = self.rewards = dict.fromkeys(live, 0.0)
            owner.rewards = rewards
            self.rewarded = False
        hand_rewards = self.hand_rewards
        score_before: list[int] = []
        games_before: list[int] = []
        hand = 0
        if hand_rewards:
            score_before = m.score[:]
            hand = m.hand_number
            games_before = m.games[:]
        recorder = self.recorder
        if recorder is not None:
            recorder.apply(move)
        else:
            m.apply(move)
        self.history.append(move)
        team_of = self.team_of
        seat_of = self.seat_of
        if hand_rewards and (m.hand_number != hand or m.is_over):
            self.rewarded = True
            r = self.rules
            gained = [(m.score[t] - score_before[t]) if m.games == games_before
                      else (r.target if m.games[t] > games_before[t] else 0)
                      for t in range(r.teams)]
            for a in live:
                t = team_of[seat_of[a]]
                mine = gained[t]
                theirs = sum([g for u, g in enumerate(gained) if u != t])
                rewards[a] += (mine - theirs) / r.target
        if m.is_over:
            self.rewarded = True
            terminations = self.terminations
            for a in live:
                rewards[a] += 1.0 if team_of[seat_of[a]] == m.winner else -1.0
                terminations[a] = True
        else:
            owner.agent_selection = self.select(m)
        if self.rewarded:  # PettingZoo's _accumulate_rewards: adding zeros would change nothing
            cumulative = self.cumulative
            for a, reward in rewards.items():
                cumulative[a] += reward
        if self.human:
            owner.render()

    def last(self, m: Match, agent: str, observe: bool) -> tuple[Any, float, bool, bool,
                                                                 dict[str, Any]]:
        """PettingZoo's ``last``: the observation of ``agent``, the agent to act (if
        ``observe``), its cumulative reward, flags and infos."""
        return (self.observe(m, self.seat_of[agent], not m.is_over) if observe else None,
                self.cumulative[agent], self.terminations[agent], self.truncations[agent],
                self.infos[agent])

    def select(self, m: Match) -> str:
        """The agent to act (the seat :func:`engine.bots.base.mover_moves` gives, written out
        here: tests/test_env.py checks they agree), with its moves by action index kept
        (:attr:`real`: the real ones, whatever the seat sees); its infos new, with its
        ``legal`` moves' names in order, and the infos of the agent that had them before new
        and empty (the others' are empty already: a dict handed out is never changed)."""
        waiting = PHASES.get(m.state)
        if waiting is None:
            raise ValueError(f"nobody moves while the match is in {m.state!r}")
        seats = waiting.movers(m)
        seat = seats[0]
        legal: list[Action] = []
        if len(seats) > 1:
            for s in seats:
                legal = m.legal_actions(s)
                if legal:
                    seat = s
                    break
        if not legal:
            legal = m.legal_actions(seat)
        # the moves as the seat sees them (engine.bots.seat_view's, without its observation):
        # the same as the real ones but in a blind hand
        view = viewed_moves(m, seat, legal) if m.hand.blind else legal
        if len(view) != len(legal):
            raise ValueError("a view of the moves is not one to one")
        by_id = self.by_id
        if len(by_id) > BY_ID:  # a blind hand's views are new moves each time
            by_id.clear()
        real: dict[int, Action] = {}
        for k in range(len(legal)):
            v = view[k]
            got = by_id.get(id(v))  # the move kept with its index: its id stays its own
            if got is None:
                got = (v, self.index(v))
                by_id[id(v)] = got
            real[got[1]] = legal[k]
        self.real = real
        infos = self.infos
        agent = self.agents[seat]
        actor = self.actor
        if actor is not None and actor != agent:
            infos[actor] = {}
        self.actor = agent
        names = self.names
        infos[agent] = {"legal": [names[i] for i in sorted(real)]}
        return agent

    def observe(self, m: Match, seat: int, acting: bool) -> dict[str, Any]:
        """The observing seat's observation: its vector (:meth:`image`) and its mask, the
        action indices of :attr:`real` if it is the agent to act (``acting``), else none."""
        mask = bytearray(self.no_moves)
        if acting:
            for i in self.real:
                mask[i] = 1
        return {"observation": self.image(m, seat),
                "action_mask": self.from_bytes(mask, self.int8)}

    def image(self, m: Match, seat: int) -> Any:
        """The observing seat's vector: a float32 numpy array of zeros whose entries are
        written through a memoryview (numpy called once a vector, not once an entry: an
        entry costs a fraction of a numpy array's item)."""
        vector = self.zeros_of(self.size, self.float32)
        self.write(m, seat, cast("memoryview[float]", memoryview(vector)))
        return vector

    def write(self, m: Match, seat: int, v: memoryview[float]) -> None:
        """Write the observing seat's vector into ``v`` (float32, zeros): its entries that
        are not zero."""
        n = self.players
        cpp = self.cpp
        teams = self.teams
        team = self.team_of[seat]
        h = m.hand
        state = m.state
        at = self._cards(m, seat, v)
        rnd = m.round
        now = rnd.number
        score, games = m.score, m.games
        for t in range(teams):
            if score[t]:
                v[at + (t - team) % teams] = min(score[t] / self.target, 1.0)
            if games[t]:
                v[at + teams + (t - team) % teams] = min(games[t] / self.games_to_win, 1.0)
        at += 2 * teams
        if h.value:
            v[at] = min(h.value / self.top, 1.0)
        at += 1
        pending = h.pending
        if pending is not None:
            v[at] = 1.0
            v[at + 1 + (pending[0] - seat) % n] = 1.0
        at += 1 + n
        last = h.last_raise_team
        if last is not None:
            v[at + (last - team) % teams] = 1.0
        at += teams
        phase = self.phase_at.get(state)
        if phase is not None:  # nothing at the match's end
            v[at + phase] = 1.0
        at += 3
        v[at + min(now + 1, cpp) - 1] = 1.0
        at += cpp
        results = h.results
        for i in range(min(len(results), cpp)):
            w = results[i]
            v[at + 3 * i + (2 if w is None else 0 if w == team else 1)] = 1.0
        at += 3 * cpp
        if state == self.play:
            v[at + (rnd.turn - seat) % n] = 1.0
        at += n
        dealer = m.dealer
        v[at + (dealer + 1 - seat) % n] = 1.0  # the mão: the dealer's next seat
        v[at + n + (dealer - seat) % n] = 1.0
        at += 2 * n
        if h.blind:
            v[at] = 1.0
        if h.rule is not None:
            v[at + 1] = 1.0
        at += 2
        if h.side is not None:
            at = self._side_bets(m, seat, at, v)
        if at != self.size:
            raise AssertionError(f"the vector's blocks end at {at}, not {self.size}")

    def _cards(self, m: Match, seat: int, v: memoryview[float]) -> int:
        """The card blocks (hand, partners, vira, played by seat, table, shown, covered by
        seat), from the vector's start: where they end."""
        n = self.players
        d = self.deck_size
        index = self.card_index
        h = m.hand
        if not h.blind:
            for c in h.hands[seat]:
                v[index[c]] = 1.0
        shows = m.move_table  # what the variant's kinds may show (most show nothing)
        if shows.held:
            for c in cards_held(m, seat):  # before the deal (a cut's taken cards, its cutter's)
                v[index[c]] = 1.0
        if shows.sees:
            for s in hands_seen(m, seat):  # by a kind's rule (M5: a decision, the partners')
                if s != seat:
                    for c in h.hands[s]:
                        v[d + index[c]] = 1.0
        vira = h.vira
        if vira is not None:
            v[2 * d + index[vira]] = 1.0
        at = 3 * d
        table = at + d * n
        now = m.round.number
        covered = [0] * n
        for number, s, c, cov in h.played:
            rs = (s - seat) % n
            if cov:  # P6, P7: counted, never named
                covered[rs] += 1
            else:
                v[at + d * rs + index[c]] = 1.0
                if number == now:
                    v[table + index[c]] = 1.0
        at = table + d
        for _, c in h.shown:
            v[at + index[c]] = 1.0
        at += d
        for i in range(n):
            k = covered[i]
            if k:
                v[at + i] = k / self.cpp
        return at + n

    def _side_bets(self, m: Match, seat: int, at: int, v: memoryview[float]) -> int:
        """The side bet blocks (G22-G32) from ``at``: where they end. Of the points, only the
        seat's own, from its own dealt cards (none in a blind hand)."""
        n = self.players
        teams = self.teams
        team = self.team_of[seat]
        h = m.hand
        side = h.side
        assert side is not None
        dealt, vira, blind = h.dealt, h.vira, h.blind
        mine = self.own[seat]
        if mine is None or mine[0] is not dealt or mine[1] != vira or mine[2] != blind:
            # the seat's own points change with the deal only: made once a deal (the dealt
            # hands, a tuple the cache holds, are replaced, never changed, by the next deal)
            own: Any = dealt[seat] if dealt and not blind else ()
            mine = (dealt, vira, blind,
                    [min((own_points(bet, own, vira) or 0) / 40, 1.0) for bet in self.side_bets])
            self.own[seat] = mine
        points = mine[3]
        for j in range(len(side)):
            b = side[j]
            calls = self.calls[j]
            chain = b.chain
            if chain:
                for i in range(len(calls)):
                    k = chain.count(calls[i])
                    if k:
                        v[at + i] = min(k / 2, 1.0)
            at += len(calls)
            if b.pending:
                v[at] = 1.0
            caller = b.caller
            if caller is not None:
                v[at + 1 + (caller - seat) % n] = 1.0
            at += 1 + n
            if b.settled:
                v[at] = 1.0
            if b.accepted:
                v[at + 1] = 1.0
            at += 2
            winner = b.winner
            if winner is not None:
                v[at + (winner - team) % teams] = 1.0
            at += teams
            if b.points:
                v[at] = min(b.points / self.target, 1.0)
            if points[j]:
                v[at + 1] = points[j]
            at += 2
        return at
