"""Text for the terminal: aligned columns, and the table of a game as one seat sees it.

Everything here returns plain strings (no colours, no terminal codes), so the output is the
same on a terminal, in a pipe and in tests.

>>> print(columns([["team", "won"], ["0", "91"], ["1", "9"]]))
team  won
0      91
1       9
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.cards import COBERTA, parse_card
from engine.i18n import _, decimal, person
from engine.moves import load_kinds
from engine.rules import Rules
from engine.words import card_names, manilhas_text, named, pretty


def columns(rows: Sequence[Sequence[object]], gap: int = 2) -> str:
    """Rows of cells as aligned text: the first column left-aligned, the others right-aligned;
    a float with the decimal sign of the language spoken (:func:`engine.i18n.decimal`)."""
    text = [[decimal(str(c)) if isinstance(c, float) else str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in text if i < len(r)) for i in range(max(map(len, text)))]
    lines = []
    for row in text:
        cells = [c.ljust(widths[0]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(row)]
        lines.append((" " * gap).join(cells).rstrip())
    return "\n".join(lines)


def card_label(card: str, manilhas: Sequence[str], names: Mapping[str, str]) -> str:
    """A card for people, a manilha marked as one, with its name where the variant gives one:
    ``'3♦'``, ``'J♣ (manilha)'``, ``'4♣ (zap, manilha)'``, ``'X1 (coringa)'``."""
    text = pretty(card)
    if card not in manilhas:
        return named(card, names)
    if card in names:
        return _("{card} ({name}, manilha)").format(card=text, name=names[card])
    return _("{card} (manilha)").format(card=text)


def by_strength(cards: Sequence[str], rules: Rules, vira: str | None) -> list[str]:
    """Card names strongest first in this hand (manilhas first; equal ranks keep their order).

    >>> from engine.variant import load_variant
    >>> by_strength(["Qs", "3d", "4c", "Qh"], load_variant("mineiro"), None)
    ['4c', '3d', 'Qs', 'Qh']
    """
    strength = rules.strengths(parse_card(vira) if vira is not None else None)
    return sorted(cards, key=lambda c: -strength[parse_card(c)])


def seat_label(seat: int, me: int, names: Sequence[str] | None = None,
               team_of: Sequence[int] | None = None) -> str:
    """``'you'`` for seat ``me``; the seat's name from ``names`` (a log header's ``players``);
    else ``'partner (seat 2)'`` or ``'seat 1'`` (``team_of``: each seat's team, the rules'
    ``team_of``; by default partners sit in alternate seats)."""
    if seat == me:
        return _("you")
    if names is not None and seat < len(names):
        return names[seat]
    partners = team_of[seat] == team_of[me] if team_of is not None else seat % 2 == me % 2
    if partners:
        return _("partner (seat {seat})").format(seat=seat)
    return _("seat {seat}").format(seat=seat)


def scores_text(values: Sequence[int], team: int, sep: str = ", ") -> str:
    """A score (or games) array from ``team``'s side: ``us 3, them 5`` with two teams, each
    other team by number with more (``us 3, team 1 2, team 2 5``).

    >>> scores_text([3, 5], 1), scores_text([3, 1, 4], 0, sep=" · ")
    ('us 5, them 3', 'us 3 · team 1 1 · team 2 4')
    """
    if len(values) == 2:
        return (_("us {score}").format(score=values[team]) + sep
                + _("them {score}").format(score=values[1 - team]))
    return sep.join((_("us {score}") if t == team else _("team {team} {score}")).format(
        team=t, score=v) for t, v in enumerate(values))


def side_text(winner: int | None, team: int, teams: int) -> str:
    """Who won a round, from ``team``'s side: ``us``, ``them`` (``team N`` with more than two
    teams) or ``tied``."""
    if winner is None:
        return _("tied")
    if winner == team:
        return _("us")
    return _("them") if teams == 2 else _("team {team}").format(team=winner)


def _played(p: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """A card on the table (named where the variant names it): face down cards of others are
    ``coberta``, one's own is shown."""
    if p["card"] is None:
        return COBERTA
    return named(p["card"], names) + (f" {COBERTA}" if p["covered"] else "")


def your_cards(obs: Mapping[str, Any], rules: Rules | None = None,
               places: Sequence[int] | None = None) -> str:
    """The seat's own cards, strongest first with manilhas marked (with ``rules``), or their
    positions in a blind hand (P6): ``places``, the places they were dealt in (by default
    1 to the number of cards held)."""
    if obs["blind"]:
        shown = places if places is not None else range(1, obs["hand_size"] + 1)
        return _("Your cards (blind hand, hidden): {cards}").format(
            cards=" ".join(f"[#{i}]" for i in shown))
    cards = list(obs["hand"])
    if rules is None:
        return _("Your cards: {cards}").format(
            cards=" ".join(pretty(c) for c in cards) or _("none"))
    names = card_names(rules)
    cards = by_strength(cards, rules, obs["vira"])
    return _("Your cards, strongest first: {cards}").format(
        cards=", ".join(card_label(c, obs["manilhas"], names) for c in cards) or _("none"))


def hand_text(obs: Mapping[str, Any], first: int | None, games: bool) -> str:
    """The hand's number in its game, ``hand 3`` (``game 2 · hand 3`` where the match has more
    than one game, ``games``); ``first`` is the match's number of the game's first hand
    (``None``: unknown, the match's own number is given)."""
    if first is None:
        return _("hand {number}").format(number=obs["hand_number"])
    number = obs["hand_number"] - first + 1
    if games:
        return _("game {game} · hand {number}").format(game=sum(obs["games"]) + 1, number=number)
    return _("hand {number}").format(number=number)


def render_banner(obs: Mapping[str, Any], *, rules: Rules, names: Sequence[str] | None,
                  target: int, places: Sequence[int] | None = None,
                  first: int | None = None) -> str:
    """The start of a hand as seat ``obs['seat']`` sees it: number, dealer, mão, score, a
    special hand, the vira and manilhas, the rounds played (a banner mid-hand, after a
    resume), and the seat's cards (``places``: as for :func:`your_cards`); ``first``: as for
    :func:`hand_text`, hands numbered per game.

    >>> from engine import Match
    >>> m = Match.new("mineiro", seed=3)
    >>> print(render_banner(m.observation(0), rules=m.rules, names=None, target=12))
    ══ Hand 1 · dealer you · mão seat 1 · score us 0, them 0 (to 12)
       manilhas 4♣ zap > 7♥ copas > A♠ espadilha > 7♦ pica-fumo
       Your cards, strongest first: K♦, J♣, 4♥
    """
    me, team, score = obs["seat"], obs["team"], obs["score"]
    games = _(" · games {games}").format(games=scores_text(obs["games"], team)) \
        if any(obs["games"]) else ""
    dealer, mao = (seat_label(obs[k], me, names, rules.team_of) for k in ("dealer", "mao"))
    hand = hand_text(obs, first, rules.games_to_win > 1)
    lines = ["══ " + _("{hand} · dealer {dealer} · mão {mao} · score {score} (to {target})"
                       ).format(hand=hand[0].upper() + hand[1:], dealer=dealer, mao=mao,
                                score=scores_text(score, team), target=target) + games]
    special = obs["special"]
    if special is not None:
        whose = (_("{special}: worth {value}") if special["team"] is None else
                 _("{special} for us: worth {value}") if special["team"] == team else
                 _("{special} for them: worth {value}"))
        lines.append("   " + whose.format(special=special["name"], value=obs["value"]))
    table = []
    if obs["vira"] is not None:
        table.append(_("vira {card}").format(card=pretty(obs["vira"])))
    if obs["manilhas"]:
        table.append(manilhas_text(obs["manilhas"], card_names(rules)))
    if table:
        lines.append("   " + " · ".join(table))
    lines.extend("   " + line for line in round_lines(obs, rules, names))  # after a resume
    lines.append("   " + your_cards(obs, rules, places))
    return "\n".join(lines)


def _sung(bet: Mapping[str, Any], rules: Rules | None) -> bool:
    """A flor settled without an answer (G38 uncontested, me achico): its chain settles at
    once (``at_once``); a refused contra-flor is not."""
    spec = next((b for b in rules.side_bets if b.name == bet["bet"]), None) if rules else None
    chains = spec.flor_chains if spec is not None else None
    chain = chains.get(tuple(bet["calls"])) if chains is not None else None
    return chain is not None and chain.at_once is not None


def _killed_by(name: str, views: Sequence[Mapping[str, Any]], rules: Rules | None) -> str | None:
    """The flor whose song annulled the side bet ``name`` for the hand (G37: ``kills``), or
    ``None``."""
    for spec in rules.side_bets if rules is not None else ():
        if name in spec.kills and any(v["bet"] == spec.name and v.get("sung") for v in views):
            return spec.name
    return None


def round_lines(obs: Mapping[str, Any], rules: Rules | None,
                names: Sequence[str] | None) -> list[str]:
    """The hand's rounds so far as seat ``obs['seat']`` sees them, one line each: the cards
    played and, for a round over, who won it with which card (with ``rules``): ``Round 1:
    Bot 1 4♣, you 3♠ → us (you 3♠)``."""
    me, team, teams = obs["seat"], obs["team"], len(obs["score"])
    team_of = rules.team_of if rules is not None else None
    called = card_names(rules) if rules is not None else {}
    vira = obs["vira"]
    strength = rules.strengths(parse_card(vira) if vira is not None else None) if rules else None
    lines = []
    for rnd in range(1, obs["round"] + 1):
        cards = [p for p in obs["played"] if p["round"] == rnd]
        if not cards:
            continue
        shown = ", ".join(f"{seat_label(p['seat'], me, names, team_of)} {_played(p, called)}"
                          for p in cards)
        done = ""
        if rnd <= len(obs["rounds"]):
            winner = obs["rounds"][rnd - 1]
            done = f" → {side_text(winner, team, teams)}"
            face_up = [p for p in cards if p["card"] is not None and not p["covered"]
                       and team_of is not None and team_of[p["seat"]] == winner]
            if face_up and strength is not None:  # the first of the strongest (C5)
                best = max(face_up, key=lambda p: strength[parse_card(p["card"])])
                done += (f" ({seat_label(best['seat'], me, names, team_of)} "
                         f"{named(best['card'], called)})")
        lines.append(_("Round {round}: {cards}").format(round=rnd, cards=shown) + done)
    return lines


def render_table(obs: Mapping[str, Any], *, title: str, target: int, rules: Rules | None = None,
                 names: Sequence[str] | None = None, places: Sequence[int] | None = None,
                 first: int | None = None) -> str:
    """The table as seat ``obs['seat']`` sees it: score, hand value, vira and manilhas, the
    cards played in this hand, the pending raise, and the seat's own cards (hidden when blind;
    strongest first, manilhas marked, when ``rules`` are given; in a blind hand, ``places``
    are their places as dealt). ``names`` are the seats' names (a log header's ``players``).

    >>> from engine import Match
    >>> print(render_table(Match.new("paulista", seed=7).observation(1), title="Paulista",
    ...                    target=12).splitlines()[1])
    Score: us 0 · them 0 (to 12)
    """
    me = obs["seat"]
    team = obs["team"]
    score = obs["score"]
    called = card_names(rules) if rules is not None else {}

    def who(seat: int) -> str:
        return seat_label(seat, me, names, rules.team_of if rules is not None else None)

    hand = hand_text(obs, first, rules is not None and rules.games_to_win > 1)
    lines = [
        f"── {title} · " + _("{hand} · dealer {dealer}, mão {mao}").format(
            hand=hand, dealer=who(obs["dealer"]), mao=who(obs["mao"])),
        _("Score: {score} (to {target})").format(score=scores_text(score, team, " · "),
                                                 target=target)
        + (_(" · games {games}").format(games=scores_text(obs["games"], team))
           if any(obs["games"]) else ""),
    ]
    worth = _("Hand worth {value}").format(value=obs["value"])
    if obs["special"] is not None:
        worth += f" · {obs['special']['name']}"
    if obs["vira"] is not None:
        worth += " · " + _("vira {card}").format(card=pretty(obs["vira"]))
    if obs["manilhas"]:
        worth += " · " + manilhas_text(obs["manilhas"],
                                       card_names(rules) if rules is not None else {})
    lines.append(worth)
    lines.extend(round_lines(obs, rules, names))
    face_up = {(p["seat"], p["card"]) for p in obs["played"] if not p["covered"]}
    for s in obs["shown"]:  # M4: until the card is played, where everyone sees it anyway
        if (s["seat"], s["card"]) not in face_up:
            lines.append(_("Shown with a raise: {who} {card}").format(
                who=who(s["seat"]), card=named(s["card"], called)))
    pending = obs["pending_raise"]
    if pending is not None:
        lines.append(person(pending["seat"] == me, _("Pending: you call {raise_} ({value})"),
                            _("Pending: {who} calls {raise_} ({value})"),
                            who=who(pending["seat"]), raise_=pending["name"].upper(),
                            value=pending["value"]))
    lines.extend(_side_bet_lines(obs, rules, who))
    if obs.get("partner_hands"):
        for s, cards in sorted(obs["partner_hands"].items()):
            if s != me:
                lines.append(_("Partner's cards ({who}): {cards}").format(
                    who=who(s), cards=" ".join(named(c, called) for c in cards)))
    for kind in load_kinds().values():  # what a kind's state shows (a cut's taken cards)
        state = kind.state
        if state is not None and state.table is not None and obs.get(state.key) is not None:
            lines += state.table(obs[state.key], lambda c: named(c, called))
    lines.append(your_cards(obs, rules, places))
    return "\n".join(lines)


def _side_bet_lines(obs: Mapping[str, Any], rules: Rules | None,
                    who: Callable[[int], str]) -> list[str]:
    """The side bets on the table (G22-G32): each bet's state and the seat's own points,
    and what was declared."""
    team, teams, lines = obs["team"], len(obs["score"]), []
    for bet in obs.get("side_bets", ()):
        calls = " - ".join(bet["calls"])
        if bet["pending"]:
            state = person(bet["caller"] == obs["seat"],
                           _("you call {calls}, waiting for quero / não quero"),
                           _("{who} calls {calls}, waiting for quero / não quero"),
                           who=who(bet["caller"]), calls=calls.upper())
        elif bet["settled"]:
            how = (_("{calls} accepted: {side} scored {points}") if bet["accepted"] else
                   _("{calls} sung: {side} scored {points}") if _sung(bet, rules) else
                   _("{calls} refused: {side} scored {points}"))
            state = how.format(calls=calls, side=side_text(bet["winner"], team, teams),
                               points=bet["points"])
        elif bet.get("sung"):  # G36: the flores sung so far
            state = _("sung by {seats}").format(
                seats=", ".join(who(s) for s in bet.get("sung", ())))
        elif (killer := _killed_by(bet["bet"], obs["side_bets"], rules)) is not None:
            state = _("annulled by the {bet} sung (G37)").format(bet=killer)
        elif "sung" in bet:
            state = _("not sung")
        else:
            state = _not_called(obs, bet["bet"], rules)
        mine = _(" · your points {points}").format(points=bet["my_points"]) \
            if bet["my_points"] is not None else ""
        lines.append(f"{bet['bet'].capitalize()}: {state}{mine}")
        said = [f"{who(d['seat'])} " + (str(d["points"]) if d["points"] is not None
                                        else "são boas") for d in bet["declared"]]
        if said:
            lines.append(_("  declared: {said}").format(said=", ".join(said)))
    return lines


def _not_called(obs: Mapping[str, Any], name: str, rules: Rules | None) -> str:
    """A side bet not called: still open, or closed for the hand, with the rule (G24: only in
    its round; G25 or GH8: a truco accepted, or called, closes it)."""
    spec = next((b for b in rules.side_bets if b.name == name), None) if rules else None
    if spec is None or rules is None:
        return _("not called")
    if obs["round"] - 1 > spec.round:
        return _("not called; closed after round {round} (G24)").format(round=spec.round + 1)
    raised = obs["special"] is None and obs["value"] > rules.initial_value
    if raised or (spec.closed_by_truco == "called" and obs["pending_raise"] is not None):
        return (_("not called; closed by the truco accepted (G25)")
                if spec.closed_by_truco == "accepted"
                else _("not called; closed by the truco called (GH8)"))
    return _("not called")
