"""Hostile and broken variant files (issue 7, item 1): every one is answered by
``truco variants check`` and :func:`load_variant` with ``file:line:column: message`` (where a
position exists), exit 1, bounded time and memory, and never a traceback.

The cases below are also the table of docs/hostile-input.md: a test checks that the table shows
each case's real output. After changing a message, print the rows again with
``python -m tests.test_hostile_variants`` and paste them there.
"""

from __future__ import annotations

import os
import tempfile
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.cli import main
from engine.errors import VariantError
from engine.variant import MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES, MAX_PROBLEMS, load_variant
from tests.conftest import REPO

DOC = REPO / "docs" / "hostile-input.md"
PAULISTA = (REPO / "variants" / "paulista.yaml").read_text(encoding="utf-8")
#: A table cell shows at most this many characters of an output line.
CELL = 160


@dataclass(frozen=True)
class Case:
    """A bad input: the files written in an empty working folder, what the command is given,
    and what its first output line must say."""

    id: str
    what: str  # the bad input in words (the docs table)
    files: dict[str, str | bytes | Callable[[], bytes]]  # a callable makes large contents
    target: str = "v.yaml"
    where: str | None = "1:1"  # ``file:line:column`` the first line starts with; None: no position
    says: str = ""
    code: int = 1
    links: dict[str, str] = field(default_factory=dict)  # name -> what it points to
    command: tuple[str, ...] = ("variants", "check")  # the truco command given ``target``

    @property
    def command_line(self) -> str:
        return " ".join(("truco", *self.command, self.target))


def _bomb(levels: int = 10) -> str:
    """The "billion laughs": each level lists the one before nine times (9**10 strings)."""
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


_EXT = "extends: paulista\n"


def _many(start: str, item: str, count: int, end: str) -> bytes:
    """A variant that extends Paulista with one line: ``start``, ``count`` items (``item``
    with ``{i}`` numbered) and ``end``."""
    items = ", ".join(item.replace("{i}", str(i)) for i in range(count))
    return (_EXT + start + items + end + "\n").encode("utf-8")

CASES = [
    Case("too-big", "a file over 1 MiB", {"v.yaml": _EXT + "#" * MAX_FILE_BYTES + "\n"},
         where="v.yaml:1:1", says=f"a variant file may have at most {MAX_FILE_BYTES}"),
    Case("alias-bomb", "a \"billion laughs\" alias bomb (9^10 strings)", {"v.yaml": _bomb()},
         where="v.yaml:2:10", says="YAML aliases (*name) are not allowed"),
    Case("one-alias", "a single alias in a valid variant",
         {"v.yaml": _EXT + "game: &g {target: 12}\nmatch: *g\n"}, where="v.yaml:3:8",
         says="aliases"),
    Case("deep-lists", "10,000 nested `[`",
         {"v.yaml": _EXT + "game: " + "[" * 10_000 + "]" * 10_000 + "\n"},
         where=f"v.yaml:2:{7 + MAX_DEPTH}", says=f"nesting deeper than {MAX_DEPTH} levels"),
    Case("deep-mappings", "10,000 nested `{a: ...}`",
         {"v.yaml": _EXT + "game: " + "{a: " * 10_000 + "1" + "}" * 10_000 + "\n"},
         where="v.yaml:2:132", says=f"nesting deeper than {MAX_DEPTH} levels"),
    Case("latin-1", "Latin-1 bytes (not UTF-8)", {"v.yaml": b"extends: paulista\ntitle: Jo\xe3o\n"},
         where="v.yaml:2:10", says="not UTF-8: byte 0xe3"),
    Case("utf-16", "a UTF-16 file", {"v.yaml": _EXT.encode("utf-16")}, where="v.yaml:1:1",
         says="not UTF-8: byte 0xff"),
    Case("nul", "a NUL character", {"v.yaml": _EXT + "title: a\x00b\n"}, where="v.yaml:2:9",
         says="character U+0000 is not allowed"),
    Case("bom-ok", "a UTF-8 byte order mark (accepted)",
         {"v.yaml": b"\xef\xbb\xbf" + _EXT.encode()}, where=None, says="v.yaml: ok", code=0),
    Case("bom-error", "a byte order mark, then an error (columns count from after it)",
         {"v.yaml": b"\xef\xbb\xbf" + _EXT.encode() + b"players: x\n"}, where="v.yaml:2:10",
         says="players: expected an integer"),
    Case("tabs", "tabs for indentation", {"v.yaml": _EXT + "game:\n\ttarget: 12\n"},
         where="v.yaml:3:1", says="(YAML indents with spaces, not tabs)"),
    Case("list", "a document that is a list", {"v.yaml": "- paulista\n- mineiro\n"},
         where="v.yaml:1:1",
         says="expected a mapping of variant keys at the top level, found a list"),
    Case("scalar", "a document that is a scalar", {"v.yaml": "paulista\n"}, where="v.yaml:1:1",
         says="found a scalar"),
    Case("empty", "an empty file (or only comments)", {"v.yaml": "# nothing\n"},
         where="v.yaml:1:1", says="empty file"),
    Case("two-documents", "two documents (`---`)", {"v.yaml": _EXT + "---\nextends: mineiro\n"},
         where="v.yaml:2:1", says="expected a single YAML document, found several"),
    Case("huge-int", "10**400 where an integer goes",
         {"v.yaml": _EXT + "game:\n  target: 1" + "0" * 400 + "\n"}, where="v.yaml:3:11",
         says="game.target: expected at most 1000"),
    Case("huge-int-digits", "an integer of 5,000 digits",
         {"v.yaml": _EXT + "game:\n  target: 1" + "0" * 5000 + "\n"}, where="v.yaml:3:11",
         says="game.target: invalid value: an integer with more than 4300 digits"),
    Case("huge-players", "10**400 players", {"v.yaml": _EXT + "players: 1" + "0" * 400 + "\n"},
         where="v.yaml:2:10", says="players: expected one of"),
    Case("float-int", "12.0 where an integer goes", {"v.yaml": _EXT + "game:\n  target: 12.0\n"},
         where="v.yaml:3:11", says="game.target: expected an integer, found 12.0"),
    Case("float-players", "4.0 players", {"v.yaml": _EXT + "players: 4.0\n"},
         where="v.yaml:2:10", says="players: expected an integer, found 4.0"),
    Case("inf", "`.inf` where an integer goes", {"v.yaml": _EXT + "game:\n  target: .inf\n"},
         where="v.yaml:3:11", says="expected an integer, found Infinity"),
    Case("nan", "`.nan` where an integer goes",
         {"v.yaml": _EXT + "betting:\n  initial_value: .nan\n"}, where="v.yaml:3:18",
         says="expected an integer, found NaN"),
    Case("bool-int", "`true` where an integer goes", {"v.yaml": _EXT + "players: true\n"},
         where="v.yaml:2:10", says="players: expected an integer, found true"),
    Case("python-tag", "a Python tag (`!!python/object/apply:os.system`)",
         {"v.yaml": _EXT + "title: !!python/object/apply:os.system [echo hi]\n"},
         where="v.yaml:2:8", says="the YAML tag !!python/object/apply:os.system is not allowed"),
    Case("duplicate-key", "a duplicate key", {"v.yaml": _EXT + "players: 4\nplayers: 2\n"},
         where="v.yaml:3:1", says="duplicate key 'players' (first at line 2)"),
    Case("non-string-key", "a key that is not a string", {"v.yaml": _EXT + "? [1]\n: 1\n"},
         where="v.yaml:2:3", says="keys must be strings, found a list"),
    Case("unknown-key", "an unknown key", {"v.yaml": _EXT + "playerz: 4\n"}, where="v.yaml:2:1",
         says="unknown key 'playerz'"),
    Case("special-hands-262k", "262,000 `special_hands: [{}, …]` items (just under 1 MiB)",
         {"v.yaml": lambda: _many("special_hands: [", "{}", 262_000, "]")},
         where="v.yaml:2:39997", says=f"more than {MAX_NODES} values"),
    Case("special-hands-5k", "4,990 `special_hands` items (fewer values than the limit)",
         {"v.yaml": lambda: _many("special_hands: [", "{}", 4_990, "]")},
         where="v.yaml:2:16", says="special_hands: expected at most 32 item"),
    Case("card-names-88k", "88,000 `card_names` keys (under 1 MiB)",
         {"v.yaml": lambda: _many("card_names: {", "k{i}: x", 88_000, "}")},
         where="v.yaml:2:48881", says=f"more than {MAX_NODES} values"),
    Case("card-names-4k", "4,000 `card_names` keys (fewer values than the limit)",
         {"v.yaml": lambda: _many("card_names: {", "k{i}: x", 4_000, "}")},
         where="v.yaml:2:13", says="card_names: expected at most 68 key"),
    Case("unknown-keys-4k", "4,000 unknown keys (the first 20 problems listed, then a count)",
         {"v.yaml": lambda: _many("betting: {", "k{i}: 1", 4_000, "}")},
         where="v.yaml:2:11", says="betting.k0: unknown key 'k0'"),
    Case("extends-passwd", "`extends: /etc/passwd`", {"v.yaml": "extends: /etc/passwd\n"},
         where="v.yaml:1:10", says="/etc/passwd is not a variant file"),
    Case("extends-dotdot", "`extends: ../../../../../../etc/passwd`",
         {"v.yaml": "extends: ../../../../../../etc/passwd\n"}, where="v.yaml:1:10",
         says="is not a variant file: expected a name ending in .yaml or .yml"),
    Case("extends-device", "`extends: /dev/zero`", {"v.yaml": "extends: /dev/zero\n"},
         where="v.yaml:1:10", says="/dev/zero is not a variant file"),
    Case("extends-text-file", "`extends:` a file that is not .yaml",
         {"v.yaml": "extends: notes.txt\n", "notes.txt": "players: 4\n"}, where="v.yaml:1:10",
         says="notes.txt is not a variant file"),
    Case("extends-directory", "`extends:` a directory",
         {"v.yaml": "extends: sub/\n", "sub/x.yaml": _EXT}, where="v.yaml:1:10",
         says="'sub/' is a directory, not a variant file"),
    Case("extends-missing", "`extends:` a missing file", {"v.yaml": "extends: gone.yaml\n"},
         where="v.yaml:1:10", says="no variant file at gone.yaml"),
    Case("extends-unknown", "`extends:` an unknown name", {"v.yaml": "extends: paulistaa\n"},
         where="v.yaml:1:10", says="unknown variant 'paulistaa'"),
    Case("extends-itself", "`extends:` itself", {"v.yaml": "extends: v.yaml\n"},
         where="v.yaml:1:10", says="extends cycle: v.yaml -> v.yaml"),
    Case("extends-cycle", "two files extending each other",
         {"v.yaml": "extends: w.yaml\n", "w.yaml": "extends: v.yaml\n"}, where="w.yaml:1:10",
         says="extends cycle: v.yaml -> w.yaml -> v.yaml"),
    Case("extends-number", "`extends: 3`", {"v.yaml": "extends: 3\n"}, where="v.yaml:1:10",
         says="expected the name or path of a parent variant, found 3"),
    Case("link-to-other", "`passwd.yaml`, a link to a file not named .yaml (not read)",
         {"secret.txt": "root:SECRET:0:0\n"}, target="passwd.yaml",
         links={"passwd.yaml": "secret.txt"}, where=None,
         says="which is not a variant file: expected a name ending in .yaml or .yml (it is "
              "not read)"),
    Case("no-variant-key", "a YAML mapping with no variant key, like /etc/shadow (not quoted)",
         {"v.yaml": "root:$6$SECRET:19000:0:99999:7:::\nbin:*:19000:0:99999:7:::\n"},
         where="v.yaml:1:1", says="not a variant file: none of its 2 top-level key"),
    Case("device", "a device given as the variant (`/dev/zero`)", {}, target="/dev/zero",
         where=None, says="/dev/zero is not a variant file"),
    Case("device-link", "`zero.yaml`, a link to /dev/zero", {}, target="zero.yaml",
         links={"zero.yaml": "/dev/zero"}, where="zero.yaml:1:1", says="not a regular file"),
    Case("directory", "a directory given as the variant", {"sub/x.yaml": _EXT}, target="sub/",
         where="sub:1:1", says="is a directory, not a variant file"),
    Case("missing", "a missing file", {}, target="gone.yaml", where=None,
         says="no variant file at gone.yaml"),
]


def setup_case(case: Case, folder: Path) -> None:
    """Write the case's files (and links) into ``folder``."""
    for name, content in case.files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if callable(content):
            content = content()
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    for name, target in case.links.items():
        (folder / name).symlink_to(target)


def check_output(case: Case) -> tuple[int, str]:
    """Run the case's command (in the current folder): exit code, output. A traceback, or any
    exception but ``SystemExit``, fails the test."""
    result = CliRunner().invoke(main, [*case.command, case.target])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def cell(text: str) -> str:
    """An output line as a markdown table cell: a code span, ``|`` escaped, cut at
    :data:`CELL` characters (``…`` marks the cut)."""
    text = text if len(text) <= CELL else text[: CELL - 1] + "…"
    return "`" + text.replace("|", "\\|") + "`"


def doc_row(what: str, command: str, code: int, line: str) -> str:
    """One row of the table in docs/hostile-input.md."""
    return f"| {what} | `{command}` | {code} | {cell(line)} |"


def shown_line(output: str, says: str) -> str:
    """The output line that the table shows: the first that says ``says``."""
    return next(line for line in output.splitlines() if says in line)


def _row(case: Case, folder: Path) -> str:
    code, output = check_output(case)
    # The folder the case ran in is a new temporary one each time: the table leaves it out.
    output = output.replace(f"{folder.resolve()}{os.sep}", "")
    return doc_row(case.what, case.command_line, code, shown_line(output, case.says))


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_variants_check_answers_with_a_located_error_and_exit_1(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    setup_case(case, tmp_path)
    code, output = check_output(case)
    first = output.splitlines()[0]
    assert code == case.code, output
    assert case.says in first, output
    # Where the input has no position, the line names what the command was given.
    assert first.startswith((case.where or case.target) + ": "), output


@pytest.mark.parametrize("case", [c for c in CASES if c.code], ids=[c.id for c in CASES if c.code])
def test_load_variant_raises_a_variant_error_with_its_location(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    setup_case(case, tmp_path)
    with pytest.raises(VariantError) as info:
        load_variant(case.target)
    err = info.value
    assert case.says in str(err).splitlines()[0]
    if case.where is not None:
        file, line, column = case.where.rsplit(":", 2)
        assert (err.file, err.line, err.column) == (file, int(line), int(column))


def peak_memory(action: Callable[[], object]) -> tuple[object, int]:
    """What ``action`` returns (or the exception it raises) and the peak of memory it
    allocated, in bytes."""
    tracemalloc.start()
    try:
        try:
            outcome = action()
        except Exception as exc:  # noqa: BLE001 - the caller looks at it
            outcome = exc
        return outcome, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(("content", "says", "limit"), [
    (_bomb(levels=30), "aliases", 8),  # 9**30 strings if expanded
    (_EXT + "game: " + "[" * 10_000 + "]" * 10_000 + "\n", "nesting deeper", 16),
], ids=["alias-bomb", "deep-nesting"])
def test_refused_in_bounded_memory(tmp_path: Path, content: str, says: str, limit: int) -> None:
    path = tmp_path / "v.yaml"
    path.write_text(content, encoding="utf-8")
    err, peak = peak_memory(lambda: load_variant(path))
    assert isinstance(err, VariantError) and says in str(err)
    assert peak < limit * 2**20, peak


#: The address space ``truco variants check`` is given for a large variant (it needs about 35 MiB
#: for a shipped one): 16,000 ``special_hands: [{}, ...]`` items took 296 MB before the limits.
MEMORY_CEILING = 256 * 2**20
_UNDER_A_CEILING = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[1]), int(sys.argv[1])))
from engine.cli import main
main(["variants", "check", sys.argv[2]], prog_name="truco")
"""
LARGE = ["special-hands-262k", "special-hands-5k", "card-names-88k", "card-names-4k",
         "unknown-keys-4k"]


@pytest.mark.parametrize("case_id", LARGE)
def test_a_large_variant_is_refused_under_a_memory_ceiling_with_few_lines(
        case_id: str, tmp_path: Path) -> None:
    """Issue 26: 262,000 ``special_hands: [{}, …]`` items (under 1 MiB) died with a
    MemoryError after 54 s; 88,000 card_names keys took 430 MB and printed 88,000 lines. Now
    each is refused under :data:`MEMORY_CEILING` of address space (``RLIMIT_AS``, in a new
    process), with at most MAX_PROBLEMS lines and a count of the others."""
    import subprocess
    import sys

    case = next(c for c in CASES if c.id == case_id)
    setup_case(case, tmp_path)
    done = subprocess.run([sys.executable, "-c", _UNDER_A_CEILING, str(MEMORY_CEILING),
                           case.target], capture_output=True, text=True, timeout=300,
                          check=False, cwd=tmp_path)
    lines = done.stdout.splitlines()
    assert done.returncode == 1, done.stderr[-2000:]
    assert "Error" not in done.stderr and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert lines and case.says in lines[0]
    assert len(lines) <= MAX_PROBLEMS + 1


def test_the_problems_listed_are_the_first_and_a_count_of_the_others(tmp_path: Path) -> None:
    path = tmp_path / "v.yaml"
    path.write_bytes(_many("betting: {", "k{i}: 1", 4_000, "}"))
    with pytest.raises(VariantError) as info:
        load_variant(path)
    lines = info.value.lines()
    assert len(lines) == MAX_PROBLEMS + 1
    assert [line.split(": ")[1] for line in lines[:3]] == ["betting.k0", "betting.k1",
                                                          "betting.k2"]
    assert lines[-1] == f"{path}: {4_000 - MAX_PROBLEMS} more problems not listed (the first " \
                        f"{MAX_PROBLEMS} are)"


def test_the_values_of_a_variant_and_its_parents_count_together(tmp_path: Path) -> None:
    """:data:`MAX_NODES` bounds the whole chain of extends, not each file: 16 files of
    almost as many values each are read no further than one."""
    half = MAX_NODES // 2
    (tmp_path / "base.yaml").write_bytes(_many("title: x\ncard_names: {", "k{i}: x", half,
                                               "}"))
    (tmp_path / "v.yaml").write_text("extends: base.yaml\ntitle: [" +
                                     ", ".join(["1"] * half) + "]\n", encoding="utf-8")
    with pytest.raises(VariantError, match=f"more than {MAX_NODES} values") as info:
        load_variant(tmp_path / "v.yaml")
    assert info.value.file is not None and info.value.file.endswith("base.yaml")


def test_a_file_growing_past_the_limit_is_read_no_further(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # stat() says small, the file is large (it grew, or it is a device that reports size 0).
    path = tmp_path / "v.yaml"
    path.write_text(_EXT + "#" * (2 * MAX_FILE_BYTES) + "\n", encoding="utf-8")
    real_stat = Path.stat

    def small(self: Path, **kw: bool) -> os.stat_result:
        st = real_stat(self, **kw)
        return os.stat_result((st.st_mode, *st[1:6], 10, *st[7:]))

    monkeypatch.setattr(Path, "stat", small)
    with pytest.raises(VariantError, match=f"may have at most {MAX_FILE_BYTES}"):
        load_variant(path)


def test_floats_where_integers_go_never_reach_the_engine(tmp_path: Path) -> None:
    # 4.0 players passed the schema once and failed later in range(): a TypeError traceback.
    for key, text in (("players", "players: 4.0\n"),
                      ("cards_per_player", "cards_per_player: 3.0\n"),
                      ("betting.initial_value", "betting:\n  initial_value: 1.0\n")):
        path = tmp_path / "v.yaml"
        path.write_text(_EXT + text, encoding="utf-8")
        with pytest.raises(VariantError, match=f"{key}: expected an integer"):
            load_variant(path)


def test_a_log_header_naming_a_file_that_is_not_a_variant_is_not_read(tmp_path: Path) -> None:
    from engine.replay import verify_bytes

    log = b'{"truco_log": 1, "variant": "/etc/passwd", "seed": 1}\n'
    result = verify_bytes(log, "a.jsonl", base=tmp_path)
    assert [str(p) for p in result.problems] == [
        "a.jsonl:1: variant '/etc/passwd' is invalid: /etc/passwd is not a variant file: "
        "expected a name ending in .yaml or .yml"]


def table_rows(cases: Sequence[Case]) -> list[str]:
    """The docs table's rows of ``cases``, each run in a new empty folder."""
    rows = []
    for case in cases:
        with tempfile.TemporaryDirectory() as tmp:
            here = os.getcwd()
            os.chdir(tmp)
            try:
                setup_case(case, Path(tmp))
                rows.append(_row(case, Path(tmp)))
            finally:
                os.chdir(here)
    return rows


def test_docs_table_shows_the_real_output_of_every_case() -> None:
    doc = DOC.read_text(encoding="utf-8")
    missing = [row for row in table_rows(CASES) if row not in doc]
    assert not missing, "rows to paste (python -m tests.test_hostile_variants):\n" + "\n".join(
        missing)


if __name__ == "__main__":
    print("\n".join(table_rows(CASES)))
