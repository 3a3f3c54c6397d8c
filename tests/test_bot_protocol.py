"""The bot protocol (docs/bot-protocol.md): its schemas, the engine's side of it, hostile bots,
hidden information, the built-in bots over it, and cmd: bots on the command line.

No test times anything: a timeout is asserted by its outcome, with a small per-move limit; a
guard (SIGALRM) fails a test that would hang; every test checks that no bot process is left.
"""

from __future__ import annotations

import io
import json
import signal
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from conftest import REPO

from engine import Action, Deal, Match
from engine.bots import make_bot
from engine.cli import main
from engine.logformat import Recorder
from engine.observation import to_json
from engine.protocol import parse_move, seat_events
from engine.protocol.external import BotError, Channel, ExternalBot, end_all
from engine.shuffle import SplitMix64
from engine.shuffle import deal as seeded_deal
from engine.simulate import bot_seed, play_match
from engine.variant import load_variant

SCHEMAS = REPO / "schemas" / "bot-protocol"
HOSTILE = REPO / "tests" / "bots" / "hostile.py"
PY = sys.executable
#: A guard against a hang, far above what any test here needs even on a loaded machine.
GUARD_S = 600


def hostile(mode: str, *extra: str) -> str:
    return " ".join([PY, str(HOSTILE), mode, *extra])


def schema(name: str) -> dict[str, Any]:
    return json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))


def _group_alive(pgid: int) -> bool:
    """Whether a process (not a zombie) of the process group ``pgid`` is left."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[2]) == pgid:
            return True
    return False


class Guard(Exception):
    """A test ran past its guard: something hung."""


@pytest.fixture(autouse=True)
def guard(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Fail (instead of hanging) after GUARD_S seconds; keep the bots' stderr in tmp_path; at
    the end, end every bot and check that none of the groups seen is left."""
    monkeypatch.setenv("TRUCO_BOT_STDERR", str(tmp_path / "stderr"))
    groups: list[int] = []
    start = Channel.__init__

    def started(self: Channel, *args: Any, **kwargs: Any) -> None:
        start(self, *args, **kwargs)
        groups.append(self.pid)

    monkeypatch.setattr(Channel, "__init__", started)

    def ring(_s: int, _f: FrameType | None) -> None:
        raise Guard("the test hung")

    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(GUARD_S)
    try:
        yield groups
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
        end_all()
    left = [g for g in groups if _group_alive(g)]
    assert left == [], f"bot process groups left behind: {left}"


# -- the schemas --------------------------------------------------------------------------------

def test_every_schema_is_json_schema_2020_12_and_its_examples_validate() -> None:
    files = sorted(SCHEMAS.glob("*.schema.json"))
    assert {f.name.split(".")[0] for f in files} >= {
        "hello", "id", "ready", "match", "decision", "move", "events", "end", "quit",
        "judge", "strength", "info"}
    for f in files:
        s = json.loads(f.read_text(encoding="utf-8"))
        assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        jsonschema.Draft202012Validator.check_schema(s)
        assert s["examples"], f.name
        for example in s["examples"]:
            jsonschema.Draft202012Validator(s).validate(example)
            assert example["type"] == f.name.split(".")[0]


def test_a_message_of_another_kind_fails_each_schema() -> None:
    for f in SCHEMAS.glob("*.schema.json"):
        s = json.loads(f.read_text(encoding="utf-8"))
        assert not jsonschema.Draft202012Validator(s).is_valid({"type": "nonsense"}), f.name


def _play_recorded(tmp_path: Path, variant: str, seed: int, seats: Sequence[int],
                   groups: list[int]) -> list[dict[str, Any]]:
    """A match with a recording bot at ``seats`` and heuristic elsewhere; every line each
    recording bot read, parsed."""
    rules = load_variant(variant)
    match = Match(rules, seed=seed)
    files = {s: tmp_path / f"seat{s}.jsonl" for s in seats}
    bots = [ExternalBot(rules, s, hostile("record", str(files[s]))) if s in files
            else make_bot("heuristic", rules, s) for s in range(rules.players)]
    play_match(match, bots)
    end_all()
    return [json.loads(line) for f in files.values()
            for line in f.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("variant", ["paulista", "mineiro", "gauderio"])
def test_every_message_the_engine_sends_validates_against_its_schema(
        tmp_path: Path, variant: str, guard: list[int]) -> None:
    messages = _play_recorded(tmp_path, variant, 3, [0, 1], guard)
    kinds = {m["type"] for m in messages}
    assert {"hello", "match", "decision", "events", "end", "quit"} <= kinds
    seen = [e for m in messages if m["type"] == "events" for e in m["events"]]
    assert {"play", "round", "raise", "hand"} <= {e["event"] for e in seen}
    for m in messages:
        jsonschema.Draft202012Validator(schema(m["type"])).validate(m)


def test_every_message_both_ways_validates_with_a_judging_bot(
        monkeypatch: pytest.MonkeyPatch, guard: list[int]) -> None:
    """A served heuristic judges its hand (partners choose who answers): the engine's judge
    messages and the bot's every line (id, ready, move, strength) follow their schemas."""
    sent: list[dict[str, Any]] = []
    read: list[bytes] = []
    send, read_line = Channel.send, Channel.read_line

    def keep_sent(self: Channel, message: Any, deadline: float) -> None:
        sent.append(json.loads(json.dumps(message)))
        send(self, message, deadline)

    def keep_read(self: Channel, deadline: float, budget: list[int]) -> bytes | None:
        line = read_line(self, deadline, budget)
        if line is not None:
            read.append(line)
        return line

    monkeypatch.setattr(Channel, "send", keep_sent)
    monkeypatch.setattr(Channel, "read_line", keep_read)
    rules = load_variant("mineiro")
    served = f"cmd:{PY} -m engine bot serve heuristic"
    for seed in (1, 2):
        m = Match(rules, seed=seed)
        play_match(m, [make_bot(n, rules, bot_seed(seed, s))
                       for s, n in enumerate([served, "heuristic"] * 2)])
    end_all()
    answers = [json.loads(line) for line in read]
    assert {"judge", "decision", "events", "match"} <= {m["type"] for m in sent}
    assert {"id", "ready", "move", "strength"} == {m["type"] for m in answers}
    for m in [*sent, *answers]:
        jsonschema.Draft202012Validator(schema(m["type"])).validate(m)


def test_a_match_starts_with_the_rules_truco_variants_show_prints() -> None:
    import yaml

    from engine.protocol import match_start

    shown = CliRunner().invoke(main, ["variants", "show", "gauderio"]).output
    rules = load_variant("gauderio")
    msg = match_start(rules, 1, match=0, seed=3, time={"move_ms": 1, "clock_ms": None})
    assert msg["rules"] == yaml.safe_load(shown)
    assert list(msg["rules"]) == list(yaml.safe_load(shown))
    assert (msg["seat"], msg["teams"], msg["variant_sha256"]) == (1, [0, 1, 0, 1],
                                                                  rules.fingerprint)


def test_a_decision_holds_exactly_the_seats_observation_and_legal_moves() -> None:
    from engine.protocol import decision

    m = Match.new("gauderio", seed=4)
    seat = m.turn
    msg = decision(1, m.observation(seat), m.legal_actions(seat), {"move_ms": 1, "clock_ms": None})
    assert msg["observation"] == to_json(m.observation(seat))
    assert msg["observation"]["legal"] == msg["legal"]  # the same words, as before
    assert msg["legal"] == [str(a) for a in m.legal_actions(seat)]


def test_the_notation_parses_back_every_move_a_bot_is_offered() -> None:
    for variant in ("paulista", "mineiro", "gauderio"):
        m = Match.new(variant, seed=2)
        while not m.is_over:
            for s in range(m.players):
                for a in m.legal_actions(s):
                    assert parse_move(str(a)) == a
            m.apply(m.legal_actions(m.turn if m.state == "play" else
                                    next(s for s in range(m.players) if m.legal_actions(s)))[0])
    assert parse_move("play 1 #2 covered") == Action.play_at(1, 1, True)
    assert parse_move("pass 3") == Action.pass_(3)
    for bad in ("", "play", "play x 2h", "decide 1 maybe", "accept 1 2", "play 1 #0"):
        with pytest.raises(ValueError):
            parse_move(bad)


# -- the built-in bots over the protocol: the same match ----------------------------------------

def _log(variant: str, seed: int, names: Sequence[str]) -> str:
    rules = load_variant(variant)
    m = Match(rules, seed=seed)
    bots = [make_bot(n, rules, bot_seed(seed, s)) for s, n in enumerate(names)]
    out = io.StringIO()
    play_match(m, bots, recorder=Recorder(m, out, variant=variant, players=["bot"] * m.players))
    return out.getvalue()


@pytest.mark.parametrize("variant", ["paulista", "mineiro", "gauderio"])
@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_a_served_bot_plays_the_same_match_as_in_process(variant: str, name: str) -> None:
    served = f"cmd:{PY} -m engine bot serve {name}"
    for seed in (1, 2):
        alone = _log(variant, seed, [name] * 4)
        assert _log(variant, seed, [served, name, served, name]) == alone
        assert _log(variant, seed, [name, served, name, served]) == alone


# -- hidden information -----------------------------------------------------------------------

class _Covered:
    """Plays face down where it can (so nothing public depends on its cards), passes an
    offer to raise, else the first legal move."""

    name = "covered"

    def choose(self, observation: Any, legal: Sequence[Action]) -> Action:
        for a in legal:
            if a.kind == "play" and a.covered:
                return a
        return legal[-1] if legal[-1].kind == "pass" else legal[0]


def _deals(rules: Any, seed: int, hands: int, swap: bool) -> list[Deal]:
    rng = SplitMix64(seed)
    out = []
    for k in range(hands):
        cards, vira = seeded_deal(rules.deck, rng, rules.players, rules.cards_per_player,
                                  k % rules.players, rules.has_vira)
        if swap:  # the opponents' cards, exchanged between them
            cards[1], cards[3] = cards[3], cards[1][::-1]
        out.append(Deal.of(k % rules.players, cards, vira))
    return out


def test_a_protocol_bot_receives_the_same_bytes_whatever_the_other_seats_hold(
        tmp_path: Path, guard: list[int]) -> None:
    rules = load_variant(REPO / "variants" / "house" / "covered-from-round-1.yaml")
    seen = []
    for swap in (False, True):
        path = tmp_path / f"seen-{swap}.jsonl"
        m = Match(rules, deals=_deals(rules, 9, 60, swap))
        bots = [ExternalBot(rules, 5, hostile("record", str(path))), _Covered(), _Covered(),
                _Covered()]
        play_match(m, bots)  # type: ignore[arg-type]
        assert m.is_over
        end_all()
        seen.append(path.read_bytes())
    assert len(seen[0].splitlines()) > 30
    assert seen[0] == seen[1]


def test_seat_events_leave_out_a_covered_card() -> None:
    m = Match.new(REPO / "variants" / "house" / "covered-from-round-1.yaml", seed=3)
    seat = m.turn
    other = (seat + 1) % m.players
    before = m.observation(other)
    covered = next(a for a in m.legal_actions(seat) if a.kind == "play" and a.covered)
    m.apply(covered)
    (ev,) = seat_events(before, m.observation(other))
    assert ev == {"event": "play", "round": 1, "seat": seat, "card": None, "covered": True}


# -- hostile bots -------------------------------------------------------------------------------

def _hostile_match(mode: str, groups: list[int], move_ms: int = 10_000,
                   variant: str = "paulista") -> ExternalBot:
    rules = load_variant(variant)
    m = Match(rules, seed=21)
    faults: list[str] = []
    bot = ExternalBot(rules, 1, hostile(mode), move_ms=move_ms, report=faults.append)
    bot.observe(m.observation(0))  # the match begins: its process is started
    assert bot.pid == groups[-1]
    bots = [bot, *(make_bot("random", rules, s) for s in range(1, rules.players))]
    play_match(m, bots)
    assert m.is_over  # the run goes on to the match's end
    assert len(faults) == len(bot.faults)  # each fault reported as it happened
    return bot


@pytest.mark.parametrize("mode,kind,at", [
    ("crash", "crash", 3), ("hang", "timeout", 1), ("flood", "flood", 3),
    ("fork", "timeout", 1)])
def test_a_bot_that_fails_for_good_forfeits_its_match_and_is_killed(
        mode: str, kind: str, at: int, guard: list[int]) -> None:
    """No outcome depends on the machine's speed: a bot that must time out hangs from its
    first decision (a short limit), one that answers has a limit far above what it needs."""
    bot = _hostile_match(mode, guard, move_ms=300 if kind == "timeout" else 10_000)
    assert [f["kind"] for f in bot.faults] == [kind]
    assert bot.faults[0]["decision"] == at
    assert bot.dead and bot.decisions > at  # the rest of its moves: the default move
    assert not _group_alive(guard[-1])  # killed at once, children included


def test_a_bot_that_does_not_read_its_input_forfeits_its_match(guard: list[int]) -> None:
    rules = load_variant("paulista")
    faults: list[str] = []
    bot = ExternalBot(rules, 1, hostile("deaf"), move_ms=300, report=faults.append)
    bot.observe(Match(rules, seed=21).observation(0))  # the match message: the pipe takes it
    assert bot.send({"type": "info", "pad": "x" * (1 << 20)}) is False  # more than a pipe holds
    assert [(f["kind"], f["detail"].split(";")[0]) for f in bot.faults] == [
        ("timeout", "the bot does not read its input")]
    assert bot.dead and len(faults) == 1
    assert not _group_alive(guard[-1])


def test_a_bots_stderr_is_kept_in_a_file_the_fault_names(tmp_path: Path,
                                                          guard: list[int]) -> None:
    bot = _hostile_match("crash", guard)
    (fault,) = bot.faults
    where = Path(fault["detail"].rsplit("its stderr: ", 1)[1])
    assert where.parent == tmp_path / "stderr"  # $TRUCO_BOT_STDERR
    assert where.read_text(encoding="utf-8") == "hostile: crashing on decision 3\n"


@pytest.mark.parametrize("mode", ["garbage", "illegal", "utf8"])
def test_a_bad_answer_forfeits_that_move_only(mode: str, guard: list[int]) -> None:
    bot = _hostile_match(mode, guard)
    assert bot.faults and not bot.dead
    assert len(bot.faults) == bot.decisions  # every answer bad: every move the default
    assert {f["kind"] for f in bot.faults} == {"illegal" if mode == "illegal" else "garbage"}


@pytest.mark.parametrize("mode", ["partial", "late", "good"])
def test_partial_lines_and_late_answers_cost_nothing(mode: str, guard: list[int]) -> None:
    bot = _hostile_match(mode, guard)
    assert bot.faults == [] and bot.decisions > 3


def test_the_clock_runs_out(guard: list[int]) -> None:
    rules = load_variant("paulista")
    m = Match(rules, seed=21)
    bot = ExternalBot(rules, 1, hostile("partial"), move_ms=5000, clock_ms=120,
                      report=lambda _t: None)
    bot.observe(m.observation(0))
    play_match(m, [bot, *(make_bot("random", rules, s) for s in range(1, 4))])
    assert [f["kind"] for f in bot.faults] == ["timeout"]
    assert "clock" in bot.faults[0]["detail"]


def test_the_default_move_passes_an_offer_to_raise(guard: list[int]) -> None:
    rules = load_variant("paulista")
    m = Match(rules, seed=21)
    bot = ExternalBot(rules, 1, hostile("garbage"), report=lambda _t: None)
    seat = m.turn
    offer = [Action.raise_to(seat, 3), Action.pass_(seat)]
    assert bot.choose(m.observation(seat), offer) == Action.pass_(seat)
    assert bot.choose(m.observation(seat), m.legal_actions(seat)) == m.legal_actions(seat)[0]
    assert [f["kind"] for f in bot.faults] == ["garbage", "garbage"]


@pytest.mark.parametrize("mode", ["badhello", "silent"])
def test_a_bot_that_fails_its_handshake_stops_the_run(mode: str, monkeypatch: pytest.MonkeyPatch,
                                                      guard: list[int]) -> None:
    monkeypatch.setattr("engine.protocol.external.HANDSHAKE_MS", 300)
    rules = load_variant("paulista")
    bot = ExternalBot(rules, 1, hostile(mode))
    with pytest.raises(BotError, match="failed its handshake"):
        bot.observe(Match(rules, seed=1).observation(0))


def test_a_program_that_does_not_exist_is_a_clear_error() -> None:
    rules = load_variant("paulista")
    bot = ExternalBot(rules, 1, "/no/such/bot --level 3")
    with pytest.raises(BotError, match="cannot start bot /no/such/bot"):
        bot.observe(Match(rules, seed=1).observation(0))


def test_a_bot_that_ignores_quit_and_sigterm_is_killed_at_the_end(guard: list[int]) -> None:
    bot = _hostile_match("stubborn", guard)
    assert bot.faults == []
    end_all()
    assert not _group_alive(guard[-1])


def test_keyboard_interrupt_leaves_no_bot_behind(guard: list[int]) -> None:
    rules = load_variant("paulista")
    m = Match(rules, seed=21)
    bot = ExternalBot(rules, 1, hostile("hang"), move_ms=60_000)
    bot.observe(m.observation(0))

    def interrupt(_s: int, _f: FrameType | None) -> None:
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 1.0)  # Ctrl-C while the bot hangs (its first decision)
    try:
        with pytest.raises(KeyboardInterrupt):
            play_match(m, [bot, *(make_bot("random", rules, s) for s in range(1, 4))])
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        signal.alarm(GUARD_S)
    end_all()  # what the interpreter's exit does (atexit)
    assert not _group_alive(guard[-1])


# -- where bots go: the command line ----------------------------------------------------------

def test_cmd_bots_play_a_tournament() -> None:
    bots = f"cmd:{hostile('good')},random"
    result = CliRunner().invoke(main, ["tournament", "-v", "paulista", "--bots", bots,
                                       "--games", "2", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["pairings"][0]["matches"] == 4
    assert "bot_faults" not in json.loads(result.stdout)  # none: the report as it was


def test_the_reports_count_each_bots_faults(monkeypatch: pytest.MonkeyPatch,
                                            guard: list[int]) -> None:
    """Each fault is told on standard error as it happens, and the report of the run counts
    them by bot and kind (``bot_faults``, only where a bot failed), the same for any --jobs."""
    runner = CliRunner()  # (the default per-move limit: far above what an answer needs)
    garbage = f"cmd:{hostile('garbage')}"
    args = ["simulate", "-v", "paulista", "-n", "2", "--bots", f"{garbage},random"]
    one, two = (runner.invoke(main, [*args, "--json", *jobs]) for jobs in ([], ["--jobs", "2"]))
    assert (one.exit_code, two.exit_code) == (0, 0), one.output + two.output
    counted = json.loads(one.stdout)["bot_faults"]
    told = one.stderr.count(": garbage: not a JSON object")
    assert counted == {garbage: {"garbage": told}} and told > 20
    assert json.loads(two.stdout)["bot_faults"] == counted
    text = runner.invoke(main, args).stdout
    assert text.rstrip().endswith(f"bot faults (each told on standard error): {garbage}: "
                                  f"{told} garbage")
    hang = f"cmd:{hostile('hang')}"  # it hangs from its first decision
    monkeypatch.setenv("TRUCO_BOT_MOVE_MS", "300")
    result = runner.invoke(main, ["tournament", "-v", "paulista", "--bots", f"random,{hang}",
                                  "--games", "1", "--json"])
    assert json.loads(result.stdout)["bot_faults"] == {hang: {"timeout": 4}}  # 2 seats, 2 matches


def test_cmd_without_a_command_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["simulate", "-v", "paulista", "--bots", "cmd:"])
    assert result.exit_code == 2
    assert "cmd: needs a command" in result.output
