"""The command line's arguments and streams, as a user meets them (issue 25): a closed pipe,
bad and missing files, unknown variant names, files written."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import REPO


@pytest.mark.parametrize("args", [["variants", "list"], ["replay", "replays/mineiro-seed1.jsonl"]])
def test_a_closed_pipe_ends_a_command_quietly_with_exit_0(args: list[str]) -> None:
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line (as after `| head -1`)
    try:
        done = subprocess.run([sys.executable, "-m", "engine.cli", *args], stdout=write,
                              stderr=subprocess.PIPE, cwd=REPO, timeout=120)
    finally:
        os.close(write)
    assert done.stderr == b""
    assert done.returncode == 0
