"""Compare the speed of two revisions on this machine in one run:
``python -m benchmarks.ab REV_A REV_B [--modes play,log,env,search] [--rounds R]``.

A revision may also be a folder: a checkout measured as it is (with the compiled build made
there beforehand, if it is), so that a build is made once for several runs.

Each revision is checked out in a temporary git worktree (``REV+native``: with the optional
compiled build made in it, ``build_native.py``); the two are measured in alternation (A B A B
...) in fresh processes, so load on the machine falls on both alike. Prints, per measure and
variant, the median (and best) rate of each and the ratio B/A, and whether the two played the
same games (a digest of what each run played: scores, logs, observations and rewards, the
search bot's logs):

- ``play``: random playouts (every seat uniform among ``legal_actions()``), hands/s;
- ``log``: the same, each match written by a ``Recorder``, hands/s;
- ``env``: a random agent through ``engine.env``'s AEC API, steps/s;
- ``search``: the search bot (``search:BUDGET``, seats 0 and 2) against the heuristic bot,
  its decisions per second (only its own time counted), the matches' logs compared.

Then (``--verify N``, 300 by default, 0 to skip) the logs verified per second in-process
(``engine.replay.verify_file``) of the same N Paulista logs, written once by this checkout's
engine before the runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

#: The child of each measure: it runs in one revision's tree (its engine, its benchmarks) and
#: prints {"rate": units per second (higher is faster), "digest": what it played (sha256)}.
PRELUDE = r"""
import hashlib, io, json, sys, time
from engine import Match
from engine.shuffle import SplitMix64
variant, matches = sys.argv[1], int(sys.argv[2])
def timed(run):
    run(max(1, matches // 4))  # warm-up
    t0 = time.perf_counter(); units, digest = run(matches); dt = time.perf_counter() - t0
    print(json.dumps({"rate": units / dt, "digest": digest}))
"""
#: Random playouts: every seat uniform among legal_actions() (hands/s); with ``with_log``,
#: each match written to its log by a Recorder.
PLAYOUTS = r"""
from engine.logformat import Recorder
def run(n):
    hands, h = 0, hashlib.sha256()
    for i in range(n):
        m = Match.new(variant, seed=i)
        rng = SplitMix64(1_000_003 + i)
        out = io.StringIO()
        apply = Recorder(m, out, variant=variant).apply if with_log else m.apply
        while not m.is_over:
            legal = m.legal_actions()
            apply(legal[rng.bounded(len(legal))])
        hands += m.hand_number
        h.update(out.getvalue().encode() if with_log else repr(m.score).encode())
    return hands, h.hexdigest()
timed(run)
"""
CHILDREN = {
    "play": "with_log = False" + PLAYOUTS,
    "log": "with_log = True" + PLAYOUTS,
    # a random agent through engine.env's AEC API (steps/s)
    "env": r"""
from engine.env import env
e = env(variant=variant)
def run(n):
    steps, h = 0, hashlib.sha256()
    for i in range(n):
        e.reset(seed=i)
        rng = SplitMix64(1_000_003 + i)
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            legal = obs["action_mask"].nonzero()[0]
            e.step(None if terminated or truncated else int(legal[rng.bounded(len(legal))]))
            steps += 1
            h.update(obs["observation"].tobytes() + repr(reward).encode())
    return steps, h.hexdigest()
timed(run)
""",
    # the search bot (search:BUDGET) at seats 0 and 2 against the heuristic bot: its
    # decisions per second, and a digest of every move of the matches (the same decisions)
    "search": r"""
from engine.bots import make_bot
from engine.game import resolve_rules
from engine.logformat import Recorder
from engine.simulate import play_match
rules = resolve_rules(variant)
budget = int(sys.argv[3])
class Timed:  # the search bot, its decisions timed (everything else it is asked goes through)
    def __init__(self, bot):
        self.bot, self.spent, self.decisions = bot, 0.0, 0
    def choose(self, obs, view):
        t0 = time.perf_counter()
        try:
            return self.bot.choose(obs, view)
        finally:
            self.spent += time.perf_counter() - t0
            self.decisions += 1
    def __getattr__(self, name):
        return getattr(self.bot, name)
def run(n):
    h, timed = hashlib.sha256(), []
    for i in range(n):
        m = Match.new(variant, seed=i)
        bots = [make_bot(f"search:{budget}", rules, seed=i * 7 + s) if s % 2 == 0
                else make_bot("heuristic", rules, seed=i * 7 + s) for s in range(rules.players)]
        bots = [Timed(b) if s % 2 == 0 else b for s, b in enumerate(bots)]
        timed += bots[::2]
        out = io.StringIO()
        play_match(m, bots, recorder=Recorder(m, out, variant=variant))
        h.update(out.getvalue().encode())
    return sum(b.decisions for b in timed), sum(b.spent for b in timed), h.hexdigest()
run(1)
decisions, spent, digest = run(matches)
print(json.dumps({"rate": decisions / spent, "digest": digest}))
""",
}
#: What each measure counts, and in how many matches by default.
UNITS = {"play": "hands/s", "log": "hands/s", "env": "steps/s", "search": "decisions/s"}
MATCHES = {"play": 200, "log": 200, "env": 40, "search": 4}


VERIFY_CHILD = r"""
import json, sys, time
from pathlib import Path
from engine.replay import verify_file
paths = sorted(Path(sys.argv[1]).glob("*.jsonl"))
def run():
    for p in paths:
        if not verify_file(p).valid:
            raise SystemExit(f"{p} does not verify")
    return len(paths)
run()  # warm-up
t0 = time.perf_counter(); n = run(); dt = time.perf_counter() - t0
print(json.dumps({"logs_per_s": n / dt}))
"""


def write_logs(folder: Path, count: int) -> None:
    """``count`` Paulista logs, as ``benchmarks.run`` writes them (random moves, seeded)."""
    import io

    from benchmarks.run import play_random
    from engine import Match
    from engine.logformat import Recorder
    from engine.shuffle import SplitMix64

    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        m = Match.new("paulista", seed=i)
        out = io.StringIO()
        play_random(m, SplitMix64(99 + i), Recorder(m, out, variant="paulista"))
        (folder / f"m{i:05d}.jsonl").write_text(out.getvalue(), encoding="utf-8")


def measure_verify(tree: Path, folder: Path) -> float:
    out = subprocess.run([sys.executable, "-c", VERIFY_CHILD, str(folder)], cwd=tree,
                         env={"PYTHONPATH": str(tree), "PATH": os.environ["PATH"]},
                         capture_output=True, text=True, check=True)
    return float(json.loads(out.stdout)["logs_per_s"])


def measure(tree: Path, mode: str, variant: str, matches: int,
            budget: int) -> dict[str, Any]:
    out = subprocess.run([sys.executable, "-c", PRELUDE + CHILDREN[mode], variant, str(matches),
                          str(budget)], cwd=tree,
                         env={"PYTHONPATH": str(tree), "PATH": os.environ["PATH"]},
                         capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"{mode} {variant} in {tree}: {out.stderr.strip()[-2000:]}")
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def checkout(rev: str, folder: Path) -> Path | None:
    """A worktree of ``REV`` (``REV+native``: with the compiled build made in it), or ``None``
    where ``rev`` is a folder: an existing checkout, measured as it is (a compiled build made
    there beforehand, ``python build_native.py``, is used, and kept)."""
    if Path(rev).is_dir():
        return None
    base, plus, extra = rev.partition("+")
    if plus and extra != "native":
        raise SystemExit(f"{rev}: expected REV or REV+native")
    path = folder / rev.replace("/", "_")
    subprocess.run(["git", "worktree", "add", "--detach", str(path), base], check=True,
                   capture_output=True)
    if plus:
        made = subprocess.run([sys.executable, "build_native.py"], cwd=path, capture_output=True,
                              text=True)
        if made.returncode:
            raise SystemExit(f"{rev}: build_native.py failed: {made.stderr.strip()[-2000:]}")
    return path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rev_a")
    ap.add_argument("rev_b")
    ap.add_argument("--modes", default="play,log,env,search",
                    help=f"what to measure, of {', '.join(CHILDREN)} (default: all)")
    ap.add_argument("--matches", type=int, default=None,
                    help="matches per run (default: play and log 200, env 40, search 4)")
    ap.add_argument("--budget", type=int, default=64, help="the search bot's playouts a move")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--variants", default="paulista,mineiro,gauderio")
    ap.add_argument("--verify", type=int, default=300, metavar="N",
                    help="logs verified in-process per run (0: skip)")
    args = ap.parse_args()
    modes = args.modes.split(",")
    unknown = [m for m in modes if m not in CHILDREN]
    if unknown:
        ap.error(f"unknown mode {unknown[0]!r}: expected some of {', '.join(CHILDREN)}")
    revs = (args.rev_a, args.rev_b)
    with tempfile.TemporaryDirectory() as tmp:
        trees: dict[str, Path] = {}
        trees_kept: dict[str, Path] = {}
        try:
            for rev in revs:
                made = checkout(rev, Path(tmp))
                if made is None:
                    trees_kept[rev] = Path(rev).resolve()
                else:
                    trees[rev] = made
            trees.update(trees_kept)
            print(f"{'measure':18} {args.rev_a:>14} {args.rev_b:>14}  ratio   (median of "
                  f"{args.rounds} alternating runs; best in brackets)")
            for mode in modes:
                matches = args.matches or MATCHES[mode]
                for variant in args.variants.split(","):
                    got: dict[str, list[float]] = {r: [] for r in revs}
                    digests: dict[str, set[str]] = {r: set() for r in revs}
                    for _ in range(args.rounds):
                        for rev in revs:
                            r = measure(trees[rev], mode, variant, matches, args.budget)
                            got[rev].append(r["rate"])
                            digests[rev].add(r["digest"])
                    a, b = (statistics.median(got[r]) for r in revs)
                    best_a, best_b = (max(got[r]) for r in revs)
                    same = "same" if digests[revs[0]] == digests[revs[1]] else "DIFFERENT"
                    print(f"{mode + ' ' + variant:18} {a:14.0f} {b:14.0f}  {b / a:5.2f}x   "
                          f"[{best_a:.0f} {best_b:.0f} {best_b / best_a:.2f}x]  "
                          f"{UNITS[mode]}, {matches} matches; games played: {same}")
            if args.verify:
                logs = Path(tmp) / "logs"
                write_logs(logs, args.verify)
                got = {r: [] for r in revs}
                for _ in range(args.rounds):
                    for rev in revs:
                        got[rev].append(measure_verify(trees[rev], logs))
                a, b = (statistics.median(got[r]) for r in revs)
                best_a, best_b = (max(got[r]) for r in revs)
                print(f"{'verify paulista':18} {a:14.0f} {b:14.0f}  {b / a:5.2f}x   "
                      f"[{best_a:.0f} {best_b:.0f} {best_b / best_a:.2f}x]  logs/s in-process, "
                      f"{args.verify} logs")
        finally:
            for rev, tree in trees.items():
                if rev in trees_kept:
                    continue
                subprocess.run(["git", "worktree", "remove", "--force", str(tree)],
                               capture_output=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
