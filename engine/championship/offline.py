"""A championship of bot teams played offline, in this process: what ``truco championship
run`` does, and how tests and organisers make an archive without a server.

Each table is played as a ``truco serve`` table with a committed seed writes it
(docs/log-format.md, "Committed seeds"): the header commits to a secret seed, every hand's
deal is in the log, the reveal is its last line, so its archive checks the fair deal too. Here
the secret is not secret: it is derived from the championship's seed and the table's id
(:func:`table_secret`), so the same definition and seed give byte-identical logs and archives.
"""

from __future__ import annotations

import hashlib
import io

from engine.bots import make_bot
from engine.championship.core import LATE_FILE, VARIANT_FILE, Championship, TableSpec
from engine.fairness import commitment, deal_seed
from engine.game import Match
from engine.logformat import Recorder
from engine.simulate import bot_seed, play_match

#: The bot of a seat no one holds and whose team names none.
DEFAULT_BOT = "random"


def table_secret(seed: int, table: str) -> tuple[int, str]:
    """The seed and nonce an offline table commits to: SHA-256 of
    ``"truco championship:<seed>:<table>"``, its first 8 bytes (big-endian) and the next 16
    (in hex).

    >>> table_secret(7, "r01-m001-g1") == table_secret(7, "r01-m001-g1")
    True
    """
    digest = hashlib.sha256(f"truco championship:{seed}:{table}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big"), digest[8:24].hex()


def header_variant(c: Championship, late: bool = False) -> str:
    """What a log in the archive's ``logs/`` calls the variant (``late``: a late game's)."""
    name = LATE_FILE if late else c.definition.variant
    return f"../{name}" if name in (VARIANT_FILE, LATE_FILE) else name


def play_table(c: Championship, spec: TableSpec) -> bytes:
    """The log of ``spec``'s table played by bots (a named seat too: offline, its team's
    bot plays it)."""
    rules = c.rules_for(spec)
    secret, nonce = table_secret(c.definition.seed, spec.table)
    entropy = [""] * rules.players
    out = io.StringIO()
    names = [player or f"{team} ({bot or DEFAULT_BOT})" for team, player, bot in spec.seats]
    meta = {"tool": "truco championship", "table": spec.table}
    # the header commits to the secret before the first card, as a sealed table's does
    Recorder(Match(rules, seed=None), out, variant=header_variant(c, spec.late), players=names,
             meta=meta, deals=True, seed_commitment=commitment(secret, nonce))
    seeded = deal_seed(secret, entropy)
    match = Match(rules, seed=seeded)
    recorder = Recorder(match, out, variant=header_variant(c, spec.late), deals=True,
                        write_header=False, position=False)
    bots = [make_bot(c.team(team).bot or DEFAULT_BOT, rules, bot_seed(seeded, seat))
            for seat, (team, _player, _bot) in enumerate(spec.seats)]
    play_match(match, bots, recorder=recorder)
    recorder.reveal(secret, nonce, entropy)
    return out.getvalue().encode("utf-8")


def play_round(c: Championship) -> None:
    """Play every table left of the current round (pairing the next round first when the
    current one is over), recording each log."""
    if c.round_done():
        c.pair_next_round()
    while specs := c.tables():
        for spec in specs:
            c.record_log(spec.table, play_table(c, spec))


def play_all(c: Championship) -> None:
    """Play ``c`` (closed) to its end, from where it stands."""
    while not c.is_over:
        play_round(c)
