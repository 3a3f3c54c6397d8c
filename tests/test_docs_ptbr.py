"""The player's pages of the docs in Portuguese (issue 43) are kept in step: every command of
``docs/pt-BR/play.md`` and ``docs/pt-BR/serve.md`` runs (in a scratch folder, with the
shipped replays), a ``console`` block's output is what the command prints, and its commands
are those of the English page (``docs/serve.md``: up to its part translated) said with
``--lang pt-BR``. A block marked ``<!-- docs-test: skip (why) -->`` (a server) is not run,
as in tests/test_docs_commands.py."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO

from engine.cli import main

PAGES = [("docs/play.md", "docs/pt-BR/play.md"), ("docs/serve.md", "docs/pt-BR/serve.md")]
#: Where the part of an English page that its Portuguese page translates ends.
PART_ENDS = {"docs/serve.md": "\n## The server is the authority"}
BLOCK = re.compile(r"(<!-- docs-test: skip \([^)]*\) -->\n)?```(console|sh)\n(.*?)```", re.S)


def _blocks(page: str) -> list[tuple[str, str]]:
    text = (REPO / page).read_text(encoding="utf-8")
    text = text.split(PART_ENDS[page])[0] if page in PART_ENDS else text
    return [(kind, body) for skip, kind, body in BLOCK.findall(text) if not skip]


def _commands(page: str) -> list[tuple[list[str], str, list[str]]]:
    """Each command of the page: its arguments (after ``truco``), its input (a ``printf``
    piped into it) and, in a ``console`` block, the output shown; ``[]`` before each
    block."""
    out: list[tuple[list[str], str, list[str]]] = []
    for kind, body in _blocks(page):
        out.append(([], "", []))  # each block in a folder of its own
        lines = body.splitlines()
        if kind == "console":
            command = lines[0].removeprefix("$ ")
            given, _, command = command.rpartition("|") if "|" in command else ("", "", command)
            typed = shlex.split(given)[1].encode().decode("unicode_escape") if given else ""
            out.append((shlex.split(command, comments=True)[1:], typed, lines[1:]))
        else:
            out += [(shlex.split(line, comments=True)[1:], "", []) for line in lines
                    if line.strip()]
    return out


@pytest.mark.parametrize(("english", "page"), PAGES)
def test_the_commands_of_a_portuguese_page_run(english: str, page: str, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    commands = _commands(page)
    assert len(commands) > 3
    for n, (args, typed, shown) in enumerate(commands):
        if not args:
            shutil.copytree(REPO / "replays", tmp_path / str(n) / "replays")
            monkeypatch.chdir(tmp_path / str(n))
            continue
        result = CliRunner().invoke(main, args, input=typed)
        assert result.exit_code == 0, (args, result.output)
        if shown:
            printed = result.stdout.splitlines()
            assert printed[:len(shown)] == shown, (args, result.stdout)


@pytest.mark.parametrize(("english", "page"), PAGES)
def test_a_portuguese_page_has_the_commands_of_the_english_one(english: str, page: str) -> None:
    def plain(args: list[str]) -> list[str]:
        return [a for i, a in enumerate(args) if a != "--lang" and args[i - 1:i] != ["--lang"]]

    ours = [(plain(a), typed) for a, typed, _ in _commands(page)]
    theirs = [(a, typed) for a, typed, _ in _commands(english)]
    assert ours == theirs
