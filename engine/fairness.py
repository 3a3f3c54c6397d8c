"""Provably fair deals (docs/log-format.md, "Committed seeds"): the commitment a table makes
to its secret seed before the first card, the players' entropy mixed into it, and the check
of a reveal against the commitment. Plain SHA-256 over ASCII text, so any program can redo it.

* ``seed``: the server's secret, an integer in ``0..2^64-1``; ``nonce``: 32 lowercase hex
  digits (16 random bytes), so that the commitment cannot be searched seed by seed.
* ``seed_commitment = SHA-256("<seed>:<nonce>")`` in lowercase hex, the seed in decimal.
* ``entropy``: one string per seat, in seat order: the seat's contribution (1 to 64 lowercase
  hex digits) or ``""`` for none.
* the seed that deals = the first 8 bytes, big-endian, of
  ``SHA-256("<seed>:<entropy 0>:<entropy 1>:...")``.

Test vectors (docs/log-format.md):

>>> commitment(7, "00" * 16)
'd04df26dd2ba3a72dae14a5d4131101086823580045c0254d431b4acec4a3d94'
>>> deal_seed(7, ["", "", "", ""])
3234201473667760003
>>> reveal_problem(commitment(7, "00" * 16), 7, "00" * 16, ["", "", "", ""], 4) is None
True
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Sequence

#: A nonce: 32 lowercase hex digits.
NONCE = re.compile(r"^[0-9a-f]{32}$")
#: A seat's entropy: up to 64 lowercase hex digits (``""``: none).
ENTROPY = re.compile(r"^[0-9a-f]{0,64}$")
#: A commitment: a SHA-256 in lowercase hex.
DIGEST = re.compile(r"^[0-9a-f]{64}$")
SEED_MAX = (1 << 64) - 1


def new_secret() -> tuple[int, str]:
    """A fresh seed and nonce from the operating system's secure source (:mod:`secrets`)."""
    return secrets.randbits(64), secrets.token_hex(16)


def commitment(seed: int, nonce: str) -> str:
    """``SHA-256("<seed>:<nonce>")`` in lowercase hex: what a table publishes before the
    first card."""
    return hashlib.sha256(f"{seed}:{nonce}".encode("ascii")).hexdigest()


def deal_seed(seed: int, entropy: Sequence[str]) -> int:
    """The seed that deals: the server's ``seed`` mixed with every seat's ``entropy`` (in seat
    order, ``""`` for a seat that gave none), the first 8 bytes of the SHA-256, big-endian.

    >>> deal_seed(1, ["ab", ""]) != deal_seed(1, ["", "ab"])
    True
    """
    text = ":".join([str(seed), *entropy])
    return int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:8], "big")


def entropy_problem(value: object) -> str | None:
    """Why ``value`` is not a seat's contribution, or ``None``."""
    if not isinstance(value, str) or not value or not ENTROPY.match(value):
        return "entropy: 1 to 64 lowercase hex digits (random bytes, e.g. 32 of them in hex)"
    return None


def reveal_problem(committed: str, seed: int, nonce: str, entropy: Sequence[str],
                   players: int) -> str | None:
    """Why a reveal does not answer the commitment ``committed`` (a table of ``players``
    seats), or ``None`` when it does."""
    if not NONCE.match(nonce):
        return f"reveal: nonce: expected 32 lowercase hex digits, found {nonce[:40]!r}"
    if len(entropy) != players:
        return f"reveal: entropy: expected one entry per seat ({players}), found {len(entropy)}"
    for seat, e in enumerate(entropy):
        if not ENTROPY.match(e):
            return (f"reveal: entropy[{seat}]: expected up to 64 lowercase hex digits, found "
                    f"{e[:40]!r}")
    found = commitment(seed, nonce)
    if found != committed:
        return (f"reveal does not match the commitment: SHA-256(\"{seed}:{nonce}\") is "
                f"{found}, the header commits to {committed}")
    return None


__all__ = ["commitment", "deal_seed", "entropy_problem", "new_secret", "reveal_problem"]
