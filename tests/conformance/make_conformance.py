"""Make the logs of ``tests/conformance/``: the engine's own logs of the spec's example matches.

    python tests/conformance/make_conformance.py                      # rewrite them
    python tests/conformance/make_conformance.py --from DIR           # take the moves from DIR
    python tests/conformance/make_conformance.py --check [--from DIR] # exit 1 if a file differs

Only the moves are read from each source log (by default the file itself; ``--from
../shared/spec/examples`` takes them from the spec's examples). The engine writes every line:
the header from the source's variant, seed and first dealer, each move as the engine serialises
it, each deal event from the seeded shuffle (when the source has deal events), each checkpoint
as the engine computes it. A source without checkpoints gives a moves-only log. So the files are
byte-identical to the spec's examples exactly when the engine conforms to them.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path
from typing import Any

from engine.actions import Action, Deal
from engine.game import Match
from engine.logformat import Recorder
from engine.logread import CHECKPOINTS, loads_strict
from engine.replay import strip_checkpoints, verify_bytes

HERE = Path(__file__).resolve().parent


def engine_log(source: bytes, name: str) -> str:
    """The log the engine writes for the moves of ``source`` (a valid, complete log)."""
    result = verify_bytes(source, name)
    problems = [str(p) for p in result.problems]
    if result.incomplete is not None:
        problems.append(str(result.incomplete))
    if problems:
        raise SystemExit("\n".join(problems))
    lines = source.decode("utf-8").splitlines()
    header: dict[str, Any] = loads_strict(lines[0])
    events: list[dict[str, Any]] = [loads_strict(line) for line in lines[1:]]
    kinds = {e["event"] for e in events}
    match = Match.new(header["variant"], seed=header.get("seed"), dealer=header.get("dealer", 0))
    out = io.StringIO()
    rec = Recorder(match, out, variant=header["variant"], players=header.get("players"),
                   deals="deal" in kinds, fingerprint="variant_sha256" in header,
                   meta=header.get("meta"))
    for event in events:
        if event["event"] == "deal":
            if match.seed is None:  # seeded deals are the engine's own, written by the recorder
                rec.deal(Deal.of(event["dealer"], event["hands"], event.get("vira")))
        elif event["event"] not in CHECKPOINTS:
            rec.apply(Action.from_event(event))
    return out.getvalue() if kinds.intersection(CHECKPOINTS) else strip_checkpoints(out.getvalue())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--from", dest="source", type=Path, default=HERE, metavar="DIR",
                        help="read the moves of each DIR/*.jsonl (default: the files here)")
    parser.add_argument("--check", action="store_true",
                        help="compare with the files here instead of writing them")
    args = parser.parse_args()
    from engine.fileio import atomic_write_text

    sources = sorted(args.source.glob("*.jsonl"))
    if not sources:
        print(f"{args.source}: no .jsonl logs", file=sys.stderr)
        return 2
    differ = []
    for path in sources:
        text = engine_log(path.read_bytes(), str(path))
        target = HERE / path.name
        if args.check:
            if not target.is_file() or target.read_bytes() != text.encode("utf-8"):
                differ.append(path.name)
        else:
            atomic_write_text(target, text)
    for name in differ:
        print(f"tests/conformance/{name}: differs from the engine's log of {args.source / name}",
              file=sys.stderr)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
