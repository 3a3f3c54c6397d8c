"""Replaying game logs through the engine: verification, and logs annotated with their
checkpoints.

A :class:`Replayer` takes the positioned items of :func:`engine.logread.read_log`, builds the
:class:`~engine.game.Match` the header describes, applies every move and deal, compares each
checkpoint with the engine's, and tells a :class:`Visitor` what happened. Visitors decide what a
problem means (python-chess style: one reader, several handlers):

- :class:`Visitor` itself is strict: it raises the first problem (a :class:`LogProblem`).
- :class:`Collector` is lenient: it notes every problem and lets the replay go on as far as it
  makes sense (a checkpoint mismatch or a seeded deal mismatch go on with the engine's view; an
  illegal move stops the replay, but the remaining lines are still checked as JSON and schema).
  A line that cannot be read (bad JSON or UTF-8), or a move that fails the schema, stops the
  replay the same way: the move it stood for is unknown, so the moves after it are not judged
  against a state it left undefined (no knock-on "illegal move" on the next good line). A bad
  checkpoint line, a blank line or a second header lose no move: the replay goes on.
- :class:`Annotator` writes the log again with every checkpoint filled in.
- :class:`engine.transcript.Transcript` writes it for people.

The package's modules: :mod:`engine.replay.replayer` (the replayer and the visitors it tells),
:mod:`engine.replay.fast` (its fast path: lines met before, replayed from what was made of their
bytes), :mod:`engine.replay.verify` (verifying a log, its :class:`ReplayResult`) and
:mod:`engine.replay.annotate` (a log with its checkpoints filled in, or taken out).

>>> result = verify_bytes(b'{"truco_log": 1, "variant": "paulista", "seed": 7}\\n'
...                       b'{"event": "play", "seat": 1, "card": "2h"}\\n', "a.jsonl")
>>> result.valid, result.incomplete is not None
(True, True)
>>> str(result.incomplete)
'a.jsonl:2: incomplete: the log ends before the match is over (hand 1, score [0, 0], games [0, 0])'
"""

from __future__ import annotations

from engine.replay.annotate import Annotator, annotate, strip_checkpoints
from engine.replay.fast import IGNORED_KEYS
from engine.replay.replayer import (
    MAX_PROBLEMS,
    Collector,
    Replayer,
    Visitor,
    header_rules,
    resolve_variant,
)
from engine.replay.verify import ReplayResult, replay, verify_bytes, verify_file

__all__ = [
    "IGNORED_KEYS", "MAX_PROBLEMS", "Annotator", "Collector", "ReplayResult", "Replayer",
    "Visitor", "annotate", "header_rules", "replay", "resolve_variant", "strip_checkpoints",
    "verify_bytes", "verify_file",
]
