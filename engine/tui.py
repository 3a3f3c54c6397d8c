"""Text for the terminal: aligned columns, and the table of a game as one seat sees it.

Everything here returns plain strings (no colours, no terminal codes), so the output is the
same on a terminal, in a pipe and in tests.

>>> print(columns([["team", "won"], ["0", "91"], ["1", "9"]]))
team  won
0      91
1       9
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import card_pretty, parse_card


def columns(rows: Sequence[Sequence[object]], gap: int = 2) -> str:
    """Rows of cells as aligned text: the first column left-aligned, the others right-aligned."""
    text = [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in text if i < len(r)) for i in range(max(map(len, text)))]
    lines = []
    for row in text:
        cells = [c.ljust(widths[0]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(row)]
        lines.append((" " * gap).join(cells).rstrip())
    return "\n".join(lines)


def pretty(card: str | None) -> str:
    """A card name (``'7h'``) for people (``'7♥'``); ``None`` (face down) as ``'??'``."""
    return "??" if card is None else card_pretty(parse_card(card))


def _played(p: Mapping[str, Any]) -> str:
    """A card on the table: face down cards of others are ``covered``, one's own is shown."""
    if p["card"] is None:
        return "covered"
    return pretty(p["card"]) + (" (covered)" if p["covered"] else "")


def seat_label(seat: int, me: int) -> str:
    """``'you'``, ``'partner (seat 2)'`` or ``'seat 1'`` as seen from seat ``me``."""
    if seat == me:
        return "you"
    if seat % 2 == me % 2:
        return f"partner (seat {seat})"
    return f"seat {seat}"


def render_table(obs: Mapping[str, Any], *, title: str, target: int) -> str:
    """The table as seat ``obs['seat']`` sees it: score, hand value, vira and manilhas, the
    cards played in this hand, the pending raise, and the seat's own cards (hidden when blind).

    >>> from engine import Match
    >>> print(render_table(Match.new("paulista", seed=7).observation(1), title="Paulista",
    ...                    target=12).splitlines()[1])
    Score: us 0 · them 0 (to 12)
    """
    me = obs["seat"]
    team = obs["team"]
    score = obs["score"]
    lines = [
        f"── {title} · hand {obs['hand_number']} · dealer {seat_label(obs['dealer'], me)}, "
        f"mão {seat_label(obs['mao'], me)}",
        f"Score: us {score[team]} · them {score[1 - team]} (to {target})"
        + (f" · games us {obs['games'][team]} them {obs['games'][1 - team]}"
           if any(obs["games"]) else ""),
    ]
    worth = f"Hand worth {obs['value']}"
    if obs["special"] is not None:
        worth += f" · {obs['special']['name']}"
    if obs["vira"] is not None:
        worth += f" · vira {pretty(obs['vira'])}"
    if obs["manilhas"]:
        worth += " · manilhas " + " ".join(pretty(c) for c in obs["manilhas"]) + " (weak→strong)"
    lines.append(worth)
    results = {None: "tied", team: "us", 1 - team: "them"}
    for rnd in range(1, obs["round"] + 1):
        cards = [p for p in obs["played"] if p["round"] == rnd]
        if not cards:
            continue
        shown = ", ".join(f"{seat_label(p['seat'], me)} {_played(p)}" for p in cards)
        done = f" → {results[obs['rounds'][rnd - 1]]}" if rnd <= len(obs["rounds"]) else ""
        lines.append(f"Round {rnd}: {shown}{done}")
    for s in obs["shown"]:
        lines.append(f"Shown with a raise: {seat_label(s['seat'], me)} {pretty(s['card'])}")
    pending = obs["pending_raise"]
    if pending is not None:
        lines.append(f"Pending: {seat_label(pending['seat'], me)} calls {pending['name'].upper()} "
                     f"({pending['value']})")
    if obs.get("partner_hands"):
        for s, cards in sorted(obs["partner_hands"].items()):
            if s != me:
                lines.append(f"Partner's cards ({seat_label(s, me)}): "
                             + " ".join(pretty(c) for c in cards))
    if obs["blind"]:
        lines.append("Your cards (blind hand, hidden): "
                     + " ".join(f"[#{i + 1}]" for i in range(obs["hand_size"])))
    else:
        lines.append("Your cards: " + (" ".join(pretty(c) for c in obs["hand"]) or "none"))
    return "\n".join(lines)
