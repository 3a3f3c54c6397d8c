"""A table's secret seed (docs/serve.md, "Provably fair deals"): drawn from the operating
system's secure source, committed to in the table's first message and its log's header before
the first card, mixed with the person seats' entropy, revealed at the match's end
(:mod:`engine.fairness` holds the arithmetic, docs/log-format.md the form).

>>> seal = Seal(7, "00" * 16, ["", "", "", ""])
>>> seal.commitment[:12], seal.give(1, "ab"), seal.entropy
('d04df26dd2ba', None, ['', 'ab', '', ''])
>>> seal.give(1, "cd")  # the first contribution counts
>>> Seal.from_json(seal.to_json()) == seal
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.fairness import commitment, deal_seed, entropy_problem, new_secret


@dataclass
class Seal:
    """The server's secret ``seed`` and ``nonce``, each seat's ``entropy`` (``""``: none
    given), and whether the first hand is dealt (no more entropy taken)."""

    seed: int
    nonce: str
    entropy: list[str]
    dealt: bool = False

    @classmethod
    def new(cls, players: int) -> Seal:
        seed, nonce = new_secret()
        return cls(seed, nonce, [""] * players)

    @property
    def commitment(self) -> str:
        return commitment(self.seed, self.nonce)

    def deal_seed(self) -> int:
        """The seed that deals: the secret mixed with the seats' entropy."""
        return deal_seed(self.seed, self.entropy)

    def give(self, seat: int, value: object) -> str | None:
        """Take ``seat``'s entropy (before the deal only; the first one given counts); why
        it is refused, or ``None``."""
        why = entropy_problem(value)
        if why is not None:
            return why
        if self.dealt:
            return "entropy is taken before the first deal only"
        if not self.entropy[seat]:
            self.entropy[seat] = str(value)
        return None

    def reveal(self) -> dict[str, Any]:
        """What the end of the match makes public to the pages (the log's ``reveal`` line
        holds the same): the seeds as decimal strings, which a page's JavaScript reads
        exactly (its numbers are exact only up to 2^53)."""
        return {"seed": str(self.seed), "nonce": self.nonce, "entropy": list(self.entropy),
                "seed_commitment": self.commitment, "deal_seed": str(self.deal_seed())}

    def to_json(self) -> dict[str, Any]:
        """As the table's file keeps it (the server's own folder: never sent to a client)."""
        return {"seed": self.seed, "nonce": self.nonce, "entropy": list(self.entropy),
                "dealt": self.dealt}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seal:
        seal = cls(int(data["seed"]), str(data["nonce"]), [str(e) for e in data["entropy"]],
                   data.get("dealt") is True)
        if any(entropy_problem(e) for e in seal.entropy if e) or len(seal.nonce) != 32:
            raise ValueError("a table's seal: bad nonce or entropy")
        return seal
