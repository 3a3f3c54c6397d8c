"""Every command block of the README and of the docs pages runs, in order, as a newcomer would
run it, and prints what the page shows (docs/development.md, "Commands in the docs").

Each page runs in a temporary folder of its own, holding a copy of the checkout's ``replays/``,
``variants/``, ``examples/`` and ``tests/conformance/``; files the page asks to save ("Save
this as `my-house.yaml`") are saved there when the page reaches them. A ``sh`` or ``console``
block is run command by command (``sh -c``, no terminal: standard input is empty); in a block
of ``$`` prompts the lines below a command are its standard output, compared line by line (a
line ``...`` stands for any lines: the variable or long part left out). A command must exit 0,
or the code its comment says (``# exits 1: ...``). What makes the environment
(``python3 -m venv``, ``. .venv/bin/activate``, ``pip install``, ``pip wheel``, with any
variables set before it) is taken as done. A command
that needs a terminal, a server, another program or a long time is left out by an HTML comment
just before its block, with the reason: ``<!-- docs-test: skip (starts a server) -->`` (the
whole block) or ``<!-- docs-test: skip 2, 3 (needs Node.js) -->`` (its 2nd and 3rd commands).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import REPO

PAGES = ["README.md", *sorted(str(p.relative_to(REPO)) for p in (REPO / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\S*)\s*$")
MARK = re.compile(r"^<!-- docs-test: skip(?P<which>(?: \d+,?)*) \((?P<why>[^)]+)\) -->$")
SAVE = re.compile(r"[Ss]aved? (?:this )?as `([^`/]+)`")
EXITS = re.compile(r"#[^'\"]*\bexits? (\d)\b")
ENVIRONMENT = re.compile(
    r"^(\w+=\S* )*(python3 -m venv |\. \.venv/bin/activate$|pip (install|wheel) )")
COPIED = ["replays", "variants", "examples", "tests/conformance"]
#: A guard against a hang, far above what any command of the docs needs.
GUARD_S = 1800


@dataclass
class Command:
    text: str
    line: int
    number: int
    output: list[str] | None = None

    @property
    def exit_code(self) -> int:
        said = EXITS.search(self.text)
        return int(said.group(1)) if said else 0


@dataclass
class Block:
    line: int
    lang: str
    body: list[str]
    save: str | None = None
    skip: dict[int | None, str] = field(default_factory=dict)

    def commands(self) -> list[Command]:
        """The block's commands, numbered from 1, with the output shown under each."""
        out: list[Command] = []
        prompts = any(x.startswith("$ ") for x in self.body)
        pending = ""
        for i, text in enumerate(self.body):
            where = self.line + 1 + i
            if prompts and not pending:
                if not text.startswith("$ "):
                    if out and out[-1].output is not None:
                        out[-1].output.append(text)
                    continue
                text = text[2:]
            if text.endswith("\\"):
                pending += text[:-1]
                continue
            text, pending = pending + text, ""
            if text.strip():
                out.append(Command(text, where, len(out) + 1, [] if prompts else None))
        return out


def blocks(page: str) -> list[Block]:
    """The fenced blocks of a page, with the marks before each and the file the prose before
    it says to save it as."""
    out: list[Block] = []
    lines = (REPO / page).read_text(encoding="utf-8").splitlines()
    prose: list[str] = []
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if fence is None:
            prose.append(lines[i])
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
        block = Block(i + 1, fence.group(1), lines[i + 1:end])
        for text in reversed(prose):
            mark = MARK.match(text)
            if mark is None:
                break
            numbers = [int(n) for n in mark.group("which").replace(",", " ").split()]
            for n in numbers or [None]:
                block.skip[n] = mark.group("why")
        saved = SAVE.findall(" ".join(prose[-3:]))
        block.save = saved[-1] if saved else None
        out.append(block)
        prose = []
        i = end + 1
    return out


def _runnable(text: str) -> str:
    """The command without what makes the environment (taken as done)."""
    return " && ".join(p for p in text.split(" && ") if not ENVIRONMENT.match(p.strip()))


def _matches(shown: list[str], printed: list[str]) -> bool:
    """Whether the printed lines are those shown, ``...`` standing for any lines."""
    if not shown:
        return not printed
    if shown[0] == "...":
        return any(_matches(shown[1:], printed[k:]) for k in range(len(printed) + 1))
    return bool(printed) and shown[0] == printed[0] and _matches(shown[1:], printed[1:])


def _folder(tmp_path: Path) -> Path:
    for name in COPIED:
        shutil.copytree(REPO / name, tmp_path / name)
    return tmp_path


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["TRUCO_BOT_STDERR"] = str(tmp_path / ".bot-stderr")
    env["COLUMNS"] = "100"
    return env


@pytest.mark.parametrize("page", PAGES)
def test_every_command_of_the_page_runs_and_prints_what_it_shows(
        page: str, tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    env = _env(tmp_path)
    for block in blocks(page):
        if block.save is not None and block.lang not in ("sh", "console"):
            (folder / block.save).write_text("\n".join(block.body) + "\n", encoding="utf-8")
        if block.lang not in ("sh", "console"):
            continue
        assert all(why.strip() for why in block.skip.values())
        if None in block.skip:
            continue
        for command in block.commands():
            if command.number in block.skip:
                continue
            text = _runnable(command.text)
            if not text:
                continue
            done = subprocess.run(["sh", "-c", text], cwd=folder, env=env, text=True,
                                  stdin=subprocess.DEVNULL, capture_output=True,
                                  timeout=GUARD_S, check=False)
            said = f"{page}:{command.line}: {command.text}\n{done.stdout}{done.stderr}"
            assert done.returncode == command.exit_code, said
            if command.output is not None:
                shown = [x.rstrip() for x in command.output]
                printed = [x.rstrip() for x in done.stdout.splitlines()]
                while shown and not shown[-1]:
                    shown.pop()
                while printed and not printed[-1]:
                    printed.pop()
                assert _matches(shown, printed), said


def test_the_docs_marks_are_read_as_written() -> None:
    """Every ``docs-test`` comment is a mark the runner understands, just before a block."""
    for page in PAGES:
        lines = (REPO / page).read_text(encoding="utf-8").splitlines()
        for i, text in enumerate(lines):
            if text.startswith("<!--") and "docs-test" in text:
                assert MARK.match(text), f"{page}:{i + 1}: {text}"
                after = next(x for x in lines[i + 1:] if not MARK.match(x))
                assert after.startswith("```"), f"{page}:{i + 1}: not just before a block"


def test_the_runner_reads_prompts_outputs_exit_codes_and_elisions() -> None:
    block = Block(1, "console", ["$ truco a   # exits 1: why", "one", "two", "$ truco b \\",
                                 "  --c"])
    a, b = block.commands()
    assert (a.text, a.output, a.exit_code) == ("truco a   # exits 1: why", ["one", "two"], 1)
    assert (b.text, b.output, b.number, b.exit_code) == ("truco b   --c", [], 2, 0)
    assert _matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert _matches(["a", "..."], ["a"]) and not _matches(["a", "d"], ["a", "b", "d"])
    assert _runnable("python3 -m venv .venv && . .venv/bin/activate && pip install . && truco x") \
        == "truco x"
    assert _runnable("TRUCO_NATIVE=1 pip install .       # compiled") == ""
