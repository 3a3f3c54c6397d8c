"""``heuristic``: a sensible player that reads only its seat's observation.

- It values cards under the hand's manilhas (the observation's ``manilhas``, weakest first),
  then by the variant's ``ranking`` (P2/P3, M1/M2).
- It plays the lowest card that wins the round, ties when it cannot win, and otherwise throws
  its weakest card (face down where the variant allows, P7). When its partner is winning the
  round it throws its weakest, reinforcing a weak partner card if an opponent is still to play.
- It raises, accepts, raises back or folds by an estimate of its chances (its cards, the rounds
  already won or lost, the cards on the table) against thresholds that grow with the ladder, and
  moves those thresholds with the score: it never folds when folding loses the game, is careful
  when an accepted raise could lose the game, does not raise for nothing when the current value
  already wins it the game, and presses when the opponents are about to win.
- In a mão de dez / mão de 11 decision (M5) it values the team's cards (``partner_hands``) and
  the risk: it always plays when folding would lose the game.
- In a blind hand (P6) it cannot see its cards and plays them by position, face up.
- Offered a raise out of turn (M3: the variant lets anyone raise while a card is awaited), it
  raises when its hand is strong by the same measure as on its turn, never as a bluff.
- Side bets (envido, G22-G30; each bet read by its name, in whatever order the variant lists
  them): it starts the bet on its turn (or instead of answering a truco, G26) by its own
  points (envido from 27, real envido from 30, the falta from 31 when behind), counting a
  point more as the mão (who wins ties); it raises a call on very good points and accepts by
  its points against a threshold that grows with the chain (and with a falta), else refuses.
- Where the variant lets a player concede (*correr*), it concedes only when the hand is lost
  whatever it plays (:meth:`HeuristicBot._hopeless`, by the engine's own hand result, so for
  any number of cards): then conceding costs nothing more. It
  never concedes as an answer to a raise (it folds), nor in a blind hand (P6).

>>> from engine import Match
>>> m = Match.new("paulista", seed=7)
>>> bot = HeuristicBot(m.rules, seed=1)
>>> move = bot.choose(m.observation(1), m.legal_actions(1))
>>> move in m.legal_actions(1), move == HeuristicBot(m.rules, seed=1).choose(
...     m.observation(1), m.legal_actions(1))
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from mypy_extensions import mypyc_attr

from engine.actions import Action
from engine.bots.base import MatchShim
from engine.cards import card_name
from engine.moves.names import (
    ACCEPT_KIND,
    CONCEDE_KIND,
    DECIDE_KIND,
    ENVIDO_KIND,
    FLOR_KIND,
    FOLD_KIND,
    NAO_QUERO_KIND,
    PLAY_KIND,
    QUERO_KIND,
    RAISE_KIND,
)
from engine.moves.outcome import hand_result
from engine.observation import Observation, SideBetView
from engine.rules import Rules
from engine.shuffle import MASK64, SplitMix64
from engine.sidebets import SideBet
from engine.state import Phase

_MANILHA = 100
_NO_CARD = -2  # below a covered card (-1): nothing on the table yet


@mypyc_attr(allow_interpreted_subclasses=True)  # a bot may build on it, compiled too
class HeuristicBot:
    """A rule-of-thumb player; ``bluff`` is the chance of a first raise on a weak hand."""

    name = "heuristic"
    #: Thresholds on :meth:`_estimate` (about 0 to 2; a median hand is about 1).
    accept_base = 0.5
    accept_step = 0.05
    raise_base = 1.25

    def __init__(self, rules: Rules, seed: int = 0, *, bluff: float = 0.05) -> None:
        self.rules = rules
        self.rng = SplitMix64(seed)
        self._bluff_limit = int(bluff * MASK64)
        self._rank = rules.levels  # by rank, and extra cards (X1...) by name (C2)
        self._top = max(max(v for v in self._rank.values() if v < _MANILHA), 1)
        self._bets = {b.name: b for b in rules.side_bets}
        #: An envido call's bet (the first envido-kind bet with that call, as the engine reads
        #: a call, :func:`engine.moves.bets.bet_of_call`).
        self._envido_of: dict[str, SideBet] = {}
        for bet in rules.side_bets:
            if bet.kind == ENVIDO_KIND:
                for call in bet.calls:
                    self._envido_of.setdefault(call, bet)

    # -- valuing cards ----------------------------------------------------------------------
    def strength(self, card: str | None, manilhas: Sequence[str]) -> int:
        """Higher wins: manilhas above everything (weakest first in ``manilhas``), then the
        variant's ranking; a covered or unknown card (``None``) is -1 (P7)."""
        if card is None:
            return -1
        if card in manilhas:
            return _MANILHA + manilhas.index(card)
        return self._rank[card if card in self._rank else card[0]]

    def power(self, card: str, manilhas: Sequence[str]) -> float:
        """The card's worth in [0, 1]: the zap near 1, the weakest ordinary card 0."""
        s = self.strength(card, manilhas)
        if s >= _MANILHA:
            return min(0.88 + 0.12 * (s - _MANILHA) / max(len(manilhas) - 1, 1), 1.0)
        return 0.8 * s / self._top

    # -- choosing ---------------------------------------------------------------------------
    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The move this seat makes now, one of ``legal_actions``."""
        if not legal_actions:
            raise ValueError("no legal move to choose from")
        phase = observation["phase"]
        if phase == Phase.DECIDE:
            return self._decide(observation, legal_actions)
        if phase == Phase.SING or (phase == Phase.BET_ANSWER and any(
                v["pending"] and v.get("sung") is not None
                for v in observation["side_bets"])):
            return self._flor(observation, legal_actions)
        if phase == Phase.BET_ANSWER:
            return self._bet_answer(observation, legal_actions)
        if "side_bets" in observation:  # G24, G26: start a side bet on good points
            call = self._bet_call(observation, legal_actions)
            if call is not None:
                return call
        if phase == Phase.ANSWER:
            return self._answer(observation, legal_actions)
        return self._play_or_raise(observation, legal_actions)

    def judge(self, observation: Observation) -> float:
        """How strong this seat's own hand is for the move its team is asked now, so that the
        driver lets the stronger partner make it (:func:`engine.bots.base.stronger_seat`):
        answering a raise, :meth:`_estimate` of its cards (what it accepts and raises by);
        a side bet's call, its points in that bet (its flor's where a flor waits, 0 without
        one; a point more as the mão, as it answers by); a special hand's decision (M5), its
        own cards weighed as :meth:`_decide` weighs the team's. From ``observation`` only,
        with no random draw."""
        obs = observation
        phase = obs["phase"]
        cards = list(obs["hand"] or [])
        if phase == Phase.ANSWER:
            return self._estimate(obs, cards)
        if phase == Phase.BET_ANSWER:
            view = next((v for v in obs["side_bets"] if v["pending"]), None)
            return 0.0 if view is None else float(self._bet_points(obs, view)[0])
        if phase == Phase.DECIDE:
            return self._weigh(cards, obs["manilhas"])
        return 0.0

    # -- side bets (envido, G22-G30) --------------------------------------------------------
    def _bet_view(self, obs: Observation, bet: SideBet) -> SideBetView:
        """The observation's view of the side bet ``bet`` (by name: the variant's order of
        side bets is its own)."""
        view: SideBetView = next(v for v in obs["side_bets"] if v["bet"] == bet.name)
        return view

    def _bet_points(self, obs: Observation, view: SideBetView) -> tuple[int, int]:
        """The seat's own points in the side bet of ``view``, and how many points the bet's
        dispute is worth to the opponents' score: the margin they have to the target (the
        falta's danger)."""
        mine, theirs = _scores(obs)
        pts = view["my_points"] or 0
        if obs["mao"] == obs["seat"]:
            pts += 1  # the mão wins ties (G30)
        return pts, self.rules.target - theirs

    def _bet_call(self, obs: Observation, legal: Sequence[Action]) -> Action | None:
        """Start the side bet on good points: real envido from 30, envido from 27, the falta
        from 31 when behind (or when the opponents are near the target anyway)."""
        offered = [a for a in legal if a.kind == ENVIDO_KIND and a.call in self._envido_of]
        if not offered:
            return None
        bet = self._envido_of[offered[0].call or ""]  # several bets open: the first offered
        calls = {a.call or "": a for a in offered if self._envido_of[a.call or ""] is bet}
        pts, margin = self._bet_points(obs, self._bet_view(obs, bet))
        mine, theirs = _scores(obs)
        names = list(calls)
        chains = bet.chains
        falta = next((c for c in names if chains[(c,)].accepted is None), None)  # G29
        if falta is not None and pts >= 31 and (mine < theirs or margin <= 4):
            return calls[falta]
        if pts >= 30 and len(names) > 1:
            return calls[names[1]]
        if pts >= 27:
            return calls[names[0]]
        return None

    def _bet_answer(self, obs: Observation, legal: Sequence[Action]) -> Action:
        """Answer a side bet's call by the seat's points and what the chain costs: raise on
        very good points, accept on good ones (higher as the chain grows, or when losing it
        would lose the game), refuse otherwise."""
        view = next(v for v in obs["side_bets"] if v["pending"])
        pts, margin = self._bet_points(obs, view)
        depth = len(view["calls"])
        falta = self._bets[view["bet"]].chains[tuple(view["calls"])].accepted is None
        raises = [a for a in legal if a.kind == ENVIDO_KIND]
        if raises and pts >= 30 + depth:
            return raises[-1] if pts >= 32 else raises[0]
        accept_at = 25 + depth + (3 if falta else 0)
        if falta and margin <= 6:
            accept_at -= 2  # they are near the target: the falta costs little more
        kind = QUERO_KIND if pts >= accept_at else NAO_QUERO_KIND
        return next((a for a in legal if a.kind == kind), legal[0])

    def _flor(self, obs: Observation, legal: Sequence[Action]) -> Action:
        """G35-G40: sing the flor (compulsory: the only move, or the plain song); as the
        first holder of the other team choose by the seat's flor value (contra-flor ao resto
        from 36, contra-flor from 32, the plain compare from 27, else com flor me achico);
        answer a flor's raise the same way (accept from 30, raise over it from 35)."""
        flor = next(v for v in obs["side_bets"] if v.get("sung") is not None)
        pts = flor["my_points"] or 0
        if obs["mao"] == obs["seat"]:
            pts += 1  # the mão wins ties (G34)
        songs = {a.call or "": a for a in legal if a.kind == FLOR_KIND}
        if obs["phase"] == Phase.BET_ANSWER:  # a contra-flor waits for this team's answer
            if songs and pts >= 35:
                return next(iter(songs.values()))
            kind = QUERO_KIND if pts >= 30 else NAO_QUERO_KIND
            return next((a for a in legal if a.kind == kind), legal[0])
        if len(songs) == 1:
            return next(iter(songs.values()))
        bet = next(b for b in self.rules.side_bets if b.kind == FLOR_KIND)
        chains = bet.flor_chains or {}
        plain = bet.calls[0]
        concede = [c for c in songs if chains[(c,)].at_once == "concede"]
        raises = [c for c in songs if chains[(c,)].at_once is None]  # in the bet's order
        if raises and pts >= 36:
            return songs[raises[-1]]
        if raises and pts >= 32:
            return songs[raises[0]]
        if pts >= 27 or not concede:
            return songs.get(plain, legal[0])
        return songs[concede[0]]

    def _decide(self, obs: Observation, legal: Sequence[Action]) -> Action:
        """M5: play the special hand or fold it, judging the team's cards."""
        man = obs["manilhas"]
        team_cards: list[str] = []
        for cards in (obs.get("partner_hands") or {}).values():
            team_cards.extend(cards)
        if not team_cards and obs["hand"]:
            team_cards = list(obs["hand"])
        s = self._weigh(team_cards, man)
        mine, theirs = _scores(obs)
        # the special hand in play (its entry of the variant's list, by name)
        special = obs["special"]
        assert special is not None  # a decision is only asked in a special hand
        one = next(h for h in self.rules.special_hands
                   if h.decision and h.name == special["name"])
        if theirs + one.fold_points >= self.rules.target:
            threshold = -1.0  # folding loses the game: play whatever the cards
        elif theirs + obs["value"] >= self.rules.target or one.winner_takes_game:
            threshold = 1.35
        else:
            threshold = 0.95
        want = s >= threshold
        return next((a for a in legal if a.kind == DECIDE_KIND and a.play_on is want), legal[0])

    def _weigh(self, cards: Sequence[str], manilhas: Sequence[str]) -> float:
        """The cards' worth for a decision (M5): the best three powers, weighed 1, 0.6, 0.3."""
        powers = sorted((self.power(c, manilhas) for c in cards), reverse=True)
        return sum(w * p for w, p in zip((1.0, 0.6, 0.3), powers, strict=False))

    def _answer(self, obs: Observation, legal: Sequence[Action]) -> Action:
        """C9: accept, fold or raise back a pending raise."""
        pending = obs["pending_raise"]
        assert pending is not None  # an answer is only asked while a raise waits
        cards = list(obs["hand"] or [])
        s = self._estimate(obs, cards)
        level = self._level(pending["value"])
        mine, theirs = _scores(obs)
        target = self.rules.target
        accept_at = self.accept_base + self.accept_step * level
        if mine + pending["value"] >= target:
            accept_at -= 0.1  # winning it wins the game
        if theirs + pending["value"] >= target > theirs + obs["value"]:
            accept_at += 0.1  # accepting and losing would lose the game
        fold_loses_game = theirs + obs["value"] >= target
        raises = [a for a in legal if a.kind == RAISE_KIND]
        if raises and s >= 1.3 + 0.12 * (level + 1):
            return self._raise_with(obs, raises)
        kind = ACCEPT_KIND if fold_loses_game or s >= accept_at else FOLD_KIND
        return next(a for a in legal if a.kind == kind)

    def _play_or_raise(self, obs: Observation, legal: Sequence[Action]) -> Action:
        if legal[-1].kind == "pass":  # offered a raise out of turn (M3): only on a strong hand
            raises = [a for a in legal if a.kind == RAISE_KIND]
            if raises and self._wants_raise(obs, raises[0].value or 0, bluff=False):
                return self._raise_with(obs, raises)
            return legal[-1]
        if obs["blind"]:
            return self._blind(obs, legal)
        if legal[-1].kind == CONCEDE_KIND and self._hopeless(obs):
            return legal[-1]
        raises = [a for a in legal if a.kind == RAISE_KIND]
        plays = [a for a in legal if a.kind == PLAY_KIND]
        if raises and self._wants_raise(obs, raises[0].value or 0):
            return self._raise_with(obs, raises)
        if not plays:
            return legal[0]
        return self._pick_play(obs, plays)

    def _blind(self, obs: Observation, legal: Sequence[Action]) -> Action:
        """P6: the cards are hidden (the plays name positions); the first card, face up."""
        return next((a for a in legal if a.kind == PLAY_KIND and not a.covered), legal[0])

    def _wants_raise(self, obs: Observation, value: int, *, bluff: bool = True) -> bool:
        s = self._estimate(obs, list(obs["hand"] or []))
        level = self._level(value)
        mine, theirs = _scores(obs)
        target = self.rules.target
        threshold = self.raise_base + 0.12 * level
        if mine + obs["value"] >= target:
            threshold += 0.3  # the hand as it stands wins the game: raising only adds risk
        if theirs + value >= target > theirs + obs["value"]:
            threshold += 0.1  # losing the raised hand would lose the game
        if theirs >= target - 3 and mine < theirs:
            threshold -= 0.15  # they are about to win: press
        if s >= threshold:
            return True
        # An occasional bluff at the ladder's first step, so that a raise says less.
        return bluff and level == 0 and s >= 0.5 and self.rng.next() < self._bluff_limit

    def _raise_with(self, obs: Observation, raises: Sequence[Action]) -> Action:
        """The raise, naming (M4) the card this seat would play next."""
        if len(raises) == 1 or raises[0].card is None:
            return raises[0]
        names = [card_name(a.card) for a in raises if a.card is not None]
        best = self._best_card(obs, names)
        return next(a for a in raises if a.card is not None and card_name(a.card) == best)

    def _pick_play(self, obs: Observation, plays: Sequence[Action]) -> Action:
        face_up = {card_name(a.card): a for a in plays if not a.covered and a.card is not None}
        covered = {card_name(a.card): a for a in plays if a.covered and a.card is not None}
        if not face_up:
            return plays[0]
        name = self._best_card(obs, list(face_up))
        weakest = name == self._weakest(obs, list(face_up))
        if weakest and name in covered and self._throwaway(obs, name):
            return covered[name]
        return face_up[name]

    # -- the card to play -------------------------------------------------------------------
    def _best_card(self, obs: Observation, cards: list[str]) -> str:
        """Lead strong; else the lowest card that wins the round; else tie; else the weakest."""
        man = obs["manilhas"]
        ranked = sorted(cards, key=lambda c: self.strength(c, man))
        if len(ranked) == 1:
            return ranked[0]
        opp_best, our_best = self._table(obs)
        if opp_best == _NO_CARD and our_best == _NO_CARD:  # leading the round
            if obs["round"] == 1 and self.strength(ranked[-1], man) >= _MANILHA:
                return ranked[-2]  # keep the manilha for later rounds
            return ranked[-1]
        if our_best > opp_best:  # the partner is winning the round
            if self._opponents_after(obs) and self.power_of(our_best, man) < 0.6:
                better = [c for c in ranked if self.strength(c, man) > our_best
                          and self.power(c, man) >= 0.6]
                if better:
                    return better[0]
            return ranked[0]
        winners = [c for c in ranked if self.strength(c, man) > opp_best]
        if winners:
            return winners[0]
        ties = [c for c in ranked if self.strength(c, man) == opp_best >= 0]
        if ties:
            return ties[0]
        return ranked[0]

    def power_of(self, strength: int, manilhas: Sequence[str]) -> float:
        """:meth:`power` of a strength value."""
        if strength >= _MANILHA:
            return 0.88 + 0.12 * (strength - _MANILHA) / max(len(manilhas) - 1, 1)
        return 0.8 * max(strength, 0) / self._top

    def _weakest(self, obs: Observation, cards: list[str]) -> str:
        return min(cards, key=lambda c: self.strength(c, obs["manilhas"]))

    def _throwaway(self, obs: Observation, card: str) -> bool:
        """Whether ``card`` can neither win nor tie the round: then it may go face down."""
        opp_best, our_best = self._table(obs)
        return our_best > opp_best or self.strength(card, obs["manilhas"]) < opp_best

    def _table(self, obs: Observation) -> tuple[int, int]:
        """The strongest card on the table this round: the opponents', the partners'."""
        man = obs["manilhas"]
        team = obs["team"]
        opp = ours = _NO_CARD
        for p in obs["played"]:
            if p["round"] != obs["round"]:
                continue
            s = -1 if p["covered"] else self.strength(p["card"], man)
            if self.rules.team_of[p["seat"]] == team:
                ours = max(ours, s)
            else:
                opp = max(opp, s)
        return opp, ours

    def _opponents_after(self, obs: Observation) -> bool:
        """Whether an opponent still plays in this round after this seat."""
        n = self.rules.players
        on_table = sum(1 for p in obs["played"] if p["round"] == obs["round"])
        seat = obs["seat"]
        team_of = self.rules.team_of
        return any(team_of[(seat + k) % n] != obs["team"] for k in range(1, n - on_table))

    def _hopeless(self, obs: Observation) -> bool:
        """Whether the hand is lost whatever this seat plays: no partner plays after it in
        this round, nothing it holds beats or ties the opponents' best card on the table (so
        the round is lost), and losing this round loses the hand whatever the rounds after
        it (C7, as the engine rules it: :func:`engine.moves.outcome.hand_result` on the
        rounds so far and this one lost, to any other team or, with more than two teams,
        tied between two of them)."""
        opp_best, our_best = self._table(obs)
        if opp_best == _NO_CARD or our_best >= opp_best:
            return False
        man = obs["manilhas"]
        if any(self.strength(c, man) >= opp_best for c in obs["hand"] or ()):
            return False
        team_of = self.rules.team_of
        n = self.rules.players
        seat = obs["seat"]
        on_table = sum(1 for p in obs["played"] if p["round"] == obs["round"])
        if any(team_of[(seat + k) % n] == obs["team"] for k in range(1, n - on_table)):
            return False  # a partner still plays in this round
        team = obs["team"]
        teams = self.rules.teams
        shim = MatchShim(self.rules, obs["mao"])
        outcomes: list[int | None] = [t for t in range(teams) if t != team]
        if teams > 2:
            outcomes.append(None)  # two other teams tie this round
        for outcome in outcomes:
            results = [*obs["rounds"], outcome]
            if all(r is None for r in results):
                return False  # no round won: the variant's all-tied rule, not judged here
            done, winner = hand_result(shim, results)
            if not done or winner == team:
                return False
        return True

    # -- valuing the hand -------------------------------------------------------------------
    def _estimate(self, obs: Observation, cards: list[str]) -> float:
        """A rough measure of this seat's chance to take the hand (about 0 to 2)."""
        man = obs["manilhas"]
        team = obs["team"]
        powers = sorted((self.power(c, man) for c in cards), reverse=True)
        s = sum(w * p for w, p in zip((1.0, 0.5, 0.2), powers, strict=False))
        rounds = obs["rounds"]
        won = sum(1 for r in rounds if r == team)
        lost = sum(1 for r in rounds if r is not None and r != team)
        s += 0.5 * won - 0.5 * lost
        if rounds and rounds[0] is None:
            s += 0.1 * (won - lost)
        opp_best, our_best = self._table(obs)
        if opp_best > _NO_CARD:
            best_mine = max((self.strength(c, man) for c in cards), default=-1)
            if our_best > opp_best:
                s += 0.2
            elif best_mine <= opp_best:
                s -= 0.35
        return s

    def _level(self, value: int) -> int:
        """The step's index in the ladder (0 for the first raise)."""
        for i, step in enumerate(self.rules.ladder):
            if step.value >= value:
                return i
        return len(self.rules.ladder)


def _scores(obs: Observation) -> tuple[int, int]:
    """The seat's team's score, and the best of the other teams'."""
    team = obs["team"]
    score = obs["score"]
    return score[team], max(v for t, v in enumerate(score) if t != team)
