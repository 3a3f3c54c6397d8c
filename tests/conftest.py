"""Shared test helpers: where the conformance logs are, and writing files into tmp_path."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

#: The tests read English (engine.i18n): a tester's own locale (LANG=pt_BR.UTF-8) must not
#: change what they see, in this process or the commands they start. Tests of the language's
#: choice pass their environment explicitly.
os.environ["TRUCO_LANG"] = "en"

REPO = Path(__file__).resolve().parent.parent
#: The engine's own logs of the spec's example matches (tests/conformance/README.md).
CONFORMANCE = REPO / "tests" / "conformance"

WriteFile = Callable[[str, str | bytes], Path]

#: Whole test files that are slow (a real browser, Dask clusters, fuzzing, subprocesses under a
#: memory ceiling or on named pipes): ``python -m pytest -m "not slow"`` is the fast loop
#: without them (docs/development.md); CI runs everything.
SLOW_FILES = frozenset({"test_serve_flood.py",
                        "test_viewer_browser.py", "test_cluster.py", "test_cluster_bots.py",
                        "test_fuzz.py", "test_memory_ceiling.py", "test_fifos.py",
                        "test_bot_protocol.py", "test_bot_cleanup.py", "test_rule_keys_watched.py",
                        "test_viewer.py",
                        "test_machine.py", "test_search_bot.py", "test_serve_browser.py",
                        "test_analysis_variants.py", "test_docs_commands.py",
                        "test_new_kind.py", "test_analysis_exact.py",
                        "test_serve_championship.py", "test_champ_load.py",
                        "test_serve_champ_browser.py", "test_analysis_layout_browser.py",
                        "test_position.py", "test_position_refusals.py",
                        "test_analysis.py", "test_analysis_stream.py",
                        "test_hostile_variants.py", "test_bot_protocol_doc.py",
                        "test_compare.py", "test_simulate_every_variant.py",
                        "test_bot_check.py", "test_bot_events.py", "test_determinism.py",
                        "test_benchmarks.py", "test_docs_reference.py", "test_fair_marks.py"})


@pytest.fixture(autouse=True)
def _english_after() -> object:
    """A test that speaks another language (``truco --lang pt-BR``, ``i18n.use``) leaves
    English behind it for the next (and a team's word for two seats, ``i18n.team_seats``)."""
    yield
    from engine import i18n

    i18n.use(i18n.ENGLISH)
    i18n.use_team_seats(2)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in SLOW_FILES:
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def write(tmp_path: Path) -> WriteFile:
    """``write("a.yaml", text)``: a file in tmp_path (text, or bytes written as they are)."""

    def _write(name: str, content: str | bytes) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    return _write
