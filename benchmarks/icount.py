"""Count what a random playout costs the CPU, instruction by instruction, for two revisions:
``python -m benchmarks.icount REV_A REV_B [--variant paulista] [--log | --env | --verify |
--search] [--cache]``. A revision that is a folder (a checkout with ``python build_native.py``
made in it, say) is measured as it is, as ``benchmarks.ab`` measures one: the compiled builds
are compared so.

Timings on a shared VM move by 10-30% with the load of other processes; the instructions a
program executes do not. Each revision (a temporary git worktree) plays seeded random matches
under valgrind's callgrind twice, ``--small`` and ``--large`` matches, with
``PYTHONHASHSEED=0``; the difference divided by the difference in hands is the cost of one
hand, start-up and imports cancelled out. ``--search`` counts a decision of the ``search`` bot
instead (``--budget``, by default the bot's own): every seat a search bot, seeded matches
played until ``--small`` and ``--large`` decisions were made (choices among two moves or more,
raises out of turn included, M3), through the bot's and the engine's oldest API, so that any
revision since the bot's can be measured. ``--verify`` counts a hand of a log verified
in-process (``engine.replay.verify_file``), of ``--large`` logs of random matches written once
by ``REV_A``. ``--cache`` adds callgrind's simulated caches and
branch predictor per hand: instruction-cache misses (``I1mr``), data-cache misses (``D1mr``,
``D1mw``), mispredicted conditional and indirect branches (``Bcm``, ``Bim``).

Instructions are not time: a revision with fewer instructions a hand can still be slower when
its code misses the caches more (docs/performance.md). Read this beside ``benchmarks.ab``.
Needs valgrind (``apt-get install valgrind``); takes a minute or two per revision.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r"""
import io, sys
from engine import Match
from engine.shuffle import SplitMix64
matches, variant, mode = int(sys.argv[1]), sys.argv[2], sys.argv[3]
units = 0
if mode == "env":  # a random agent through the AEC API: the unit is a step
    from engine.env import env
    e = env(variant=variant)
    for i in range(matches):
        e.reset(seed=i)
        rng = SplitMix64(1_000_003 + i)
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            legal = obs["action_mask"].nonzero()[0]
            e.step(None if terminated or truncated else int(legal[rng.bounded(len(legal))]))
            units += 1
    print(units)
    sys.exit()
if mode.startswith("search"):  # the search bot at every seat: the unit is a decision
    from engine.bots import SearchBot, choose_for, next_actor, out_of_turn_raise
    budget = int(mode.partition(":")[2] or 0)

    class Counted(SearchBot):
        def choose(self, observation, legal_actions):
            global units
            units += len(legal_actions) > 1
            return super().choose(observation, legal_actions)

    i = 0
    while units < matches:
        m = Match.new(variant, seed=i)
        bots = [Counted(m.rules, 1_000_003 * i + s, **({"budget": budget} if budget else {}))
                for s in range(m.players)]
        while not m.is_over and units < matches:
            action = out_of_turn_raise(m, bots)  # None where no raise out of turn (M3)
            if action is None:
                seat = next_actor(m, bots=bots)
                action = choose_for(bots[seat], m, seat)
            m.apply(action)
        i += 1
    print(units)
    sys.exit()
if mode.startswith("verify:"):  # the logs of a folder verified in-process: the unit is a hand
    from pathlib import Path
    from engine.replay import verify_file
    for path in sorted(Path(mode.partition(":")[2]).glob("*.jsonl"))[:matches]:
        got = verify_file(path)
        assert got.valid, path
        units += got.hands
    print(units)
    sys.exit()
if mode in ("log", "write"):
    from engine.logformat import Recorder
for i in range(matches):
    m = Match.new(variant, seed=i)
    rng = SplitMix64(1_000_003 + i)
    out = io.StringIO()
    apply = Recorder(m, out, variant=variant).apply if mode in ("log", "write") else m.apply
    while not m.is_over:
        legal = m.legal_actions()
        apply(legal[rng.bounded(len(legal))])
    units += m.hand_number
    if mode == "write":  # the logs that --verify verifies (sys.argv[4]: their folder)
        with open(f"{sys.argv[4]}/m{i:05d}.jsonl", "w", encoding="utf-8") as f:
            f.write(out.getvalue())
print(units)
"""

EVENTS = ("Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw", "Bc", "Bcm", "Bi",
          "Bim")
SHOWN = ("Ir", "I1mr", "D1mr", "D1mw", "Bcm", "Bim")


def _env(tree: Path) -> dict[str, str]:
    return {"PYTHONPATH": str(tree), "PYTHONHASHSEED": "0", "PATH": os.environ["PATH"]}


def count(tree: Path, matches: int, variant: str, cache: bool,
          mode: str = "moves") -> tuple[dict[str, int], int]:
    """The events callgrind collected for ``matches`` matches (``mode``: ``moves``; ``log``,
    each written by a ``Recorder``; ``env``, played through engine.env; ``search`` or
    ``search:BUDGET``, ``matches`` decisions of search bots), and the hands they had
    (``env``: the steps; ``search``: the decisions)."""
    extra = ["--cache-sim=yes", "--branch-sim=yes"] if cache else []
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          *extra, sys.executable, "-c", CHILD, str(matches), variant, mode],
                         cwd=tree, env=_env(tree), capture_output=True, text=True, check=True)
    line = next(ln for ln in run.stderr.splitlines() if "Collected :" in ln)
    values = [int(v) for v in line.split("Collected :")[1].split()]
    return dict(zip(EVENTS, values, strict=False)), int(run.stdout.split()[-1])


def per_hand(tree: Path, small: int, large: int, variant: str,
             cache: bool, mode: str = "moves") -> dict[str, float]:
    # once without valgrind: a fresh worktree compiles its modules on the first run, and the
    # compilation would be counted in the short run only
    subprocess.run([sys.executable, "-c", CHILD, "1", variant, mode],
                   cwd=tree, env=_env(tree),
                   capture_output=True, check=True)
    a, hands_a = count(tree, small, variant, cache, mode)
    b, hands_b = count(tree, large, variant, cache, mode)
    return {k: (b[k] - a[k]) / (hands_b - hands_a) for k in a}


def write_logs(tree: Path, count: int, variant: str, folder: Path) -> Path:
    """``count`` logs of random matches of ``variant`` (seeds 0 up, as the other modes play
    them) written by ``tree``'s engine into ``folder`` (made here): what ``--verify`` reads."""
    folder.mkdir()
    subprocess.run([sys.executable, "-c", CHILD, str(count), variant, "write", str(folder)],
                   cwd=tree, env=_env(tree), capture_output=True, check=True)
    return folder


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rev_a")
    ap.add_argument("rev_b")
    ap.add_argument("--variant", default="paulista")
    ap.add_argument("--small", type=int, default=30, help="matches of the short run")
    ap.add_argument("--large", type=int, default=130, help="matches of the long run")
    ap.add_argument("--log", action="store_true",
                    help="each match written to its log as it is played (engine.logformat)")
    ap.add_argument("--env", action="store_true",
                    help="per step of a random agent through engine.env's AEC API")
    ap.add_argument("--verify", action="store_true",
                    help="per hand of --large logs of random matches (written once by REV_A) "
                         "verified in-process (engine.replay.verify_file)")
    ap.add_argument("--search", action="store_true",
                    help="per decision of the search bot, every seat one (--small and --large "
                         "count decisions)")
    ap.add_argument("--budget", type=int, default=0,
                    help="with --search: the bots' budget (hands played out per decision; "
                         "default: the bot's own)")
    ap.add_argument("--cache", action="store_true",
                    help="also simulate the caches and the branch predictor")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("benchmarks.icount needs valgrind (apt-get install valgrind)", file=sys.stderr)
        return 2
    mode = ("log" if args.log else "env" if args.env else
            f"search:{args.budget or ''}" if args.search else "moves")
    with tempfile.TemporaryDirectory() as tmp:
        trees, made = {}, []
        for rev in (args.rev_a, args.rev_b):
            if Path(rev).is_dir():  # a folder, measured as it is (a compiled build made in it)
                trees[rev] = Path(rev).resolve()
                continue
            path = Path(tmp) / rev.replace("/", "_")
            subprocess.run(["git", "worktree", "add", "--detach", str(path), rev], check=True,
                           capture_output=True)
            trees[rev] = path
            made.append(path)
        if args.verify:  # the same logs for both, written by REV_A's engine
            logs = write_logs(trees[args.rev_a], args.large, args.variant, Path(tmp) / "logs")
            mode = f"verify:{logs}"
        try:
            got = {rev: per_hand(tree, args.small, args.large, args.variant, args.cache, mode)
                   for rev, tree in trees.items()}
        finally:
            for tree in made:
                subprocess.run(["git", "worktree", "remove", "--force", str(tree)],
                               capture_output=True)
    a, b = got[args.rev_a], got[args.rev_b]
    shown = SHOWN if args.cache else ("Ir",)
    what = ("per step of a random agent through engine.env" if args.env else
            "per hand of a log verified in-process" if args.verify else
            f"per decision of the search bot (budget {args.budget or 'default'})"
            if args.search else
            "per hand of a random playout" + (" with its log" if args.log else ""))
    unit = "decisions" if args.search else "matches"
    print(f"{args.variant}: {what} "
          f"({args.large} - {args.small} {unit}, PYTHONHASHSEED=0)")
    print(f"{'event':6} {args.rev_a:>14} {args.rev_b:>14}  B/A")
    for key in shown:
        print(f"{key:6} {a[key]:14,.0f} {b[key]:14,.0f}  {b[key] / a[key]:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
