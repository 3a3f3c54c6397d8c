"""A move kind is its module (issue 41, "one way for each thing"): code outside
``engine/moves/`` does not repeat a kind's name as a string. Where it branches on what a move
does it asks the kind; where it speaks about one kind (a bot's strategy about raising) it reads
the name from :mod:`engine.moves.names`. The strings left are counted here: those of the
exemptions below (a phase, a log event or a variant key that happens to be spelled like a
kind), and at most :data:`MOST` others, so that renaming or adding a kind does not mean
editing general code."""

from __future__ import annotations

import ast
from collections import Counter

from conftest import REPO

from engine.moves import KINDS, load_kinds

#: The strings spelled like a kind that may stay, by (module, string): how many, and why.
EXEMPT: dict[tuple[str, str], tuple[int, str]] = {
    # the machine's phases, defined once (Phase and its Final strings), named like their kinds
    **{("engine/state.py", name): (2, "phase definition")
       for name in ("deal", "decide", "play", "cut")},
    # the log format (LOG-FORMAT.md): the "deal" event and the items the reader sorts it into
    ("engine/actions.py", "deal"): (1, "the deal event of a log"),
    ("engine/logcheck.py", "deal"): (3, "the deal event / log item kind"),
    ("engine/logread.py", "deal"): (2, "the deal event / log item kind"),
    ("engine/logversion.py", "deal"): (3, "the deal event's format version"),
    ("engine/replay/replayer.py", "deal"): (7, "the deal log item and its problems' event"),
    # the bot protocol's public events (docs/protocol.md)
    ("engine/protocol/__init__.py", "play"): (1, "the protocol's play event"),
    ("engine/protocol/__init__.py", "raise"): (1, "the protocol's raise event"),
    # the variant file's format: its "play" and "concede" blocks, a side bet's "kind" value
    # (envido or flor) and a flor chain's "at_once" value ("concede": com flor me achico)
    ("engine/rules/build.py", "play"): (1, "the variant's play block"),
    ("engine/rules/build.py", "concede"): (1, "the variant's concede block"),
    ("engine/rules/core.py", "play"): (6, "the variant's play block"),
    ("engine/rules/core.py", "concede"): (1, "the variant's concede block"),
    ("engine/variant/checks.py", "play"): (4, "the variant's play block"),
    ("engine/variant/side_bet_checks.py", "concede"): (2, "the variant's concede block"),
    ("engine/variant/side_bet_checks.py", "flor"): (3, "a side bet's kind value"),
    ("engine/sidebets.py", "envido"): (2, "a side bet's kind value"),
    ("engine/sidebets.py", "flor"): (2, "a side bet's kind value"),
    ("engine/sidebets.py", "concede"): (1, "a flor chain's at_once value"),
    ("engine/bots/heuristic.py", "concede"): (1, "a flor chain's at_once value"),
    ("engine/telling.py", "concede"): (1, "a flor chain's at_once value"),
    ("engine/viewer/steps.py", "concede"): (1, "a flor chain's at_once value"),
    # the command line: the `truco play` command, and a word a person types to raise
    ("engine/cli/__init__.py", "play"): (2, "the truco play command"),
    ("engine/cli/play_cmd.py", "play"): (1, "the truco play command's function"),
    ("engine/cli/play_input.py", "raise"): (1, "a word typed to raise"),
}
#: The most kind-named strings allowed outside engine/moves/ besides the exemptions.
MOST = 40


def _docstrings(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def kind_literals() -> list[tuple[str, int, str]]:
    """Every string constant outside ``engine/moves/`` (docstrings aside) equal to a kind's
    name: (module, line, string)."""
    names = set(load_kinds()) | set(KINDS)
    found: list[tuple[str, int, str]] = []
    for path in sorted((REPO / "engine").rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        if rel.startswith("engine/moves/"):
            continue
        found += [(rel, line, name) for line, name in _literals(path.read_text("utf-8"), names)]
    return sorted(found)


def _literals(text: str, names: set[str]) -> list[tuple[int, str]]:
    tree = ast.parse(text)
    docs = _docstrings(tree)
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and node.value in names and id(node) not in docs]


def test_kind_names_are_not_repeated_outside_the_kinds() -> None:
    found = kind_literals()
    per = Counter((rel, name) for rel, _, name in found)
    over = [f"{rel}: {per[rel, name]} {name!r}, {most} exempt ({why})"
            for (rel, name), (most, why) in EXEMPT.items() if per[rel, name] > most]
    assert over == [], "more exempt strings than listed:\n" + "\n".join(over)
    counted = [f"{rel}:{line}: {name!r}" for rel, line, name in found
               if (rel, name) not in EXEMPT]
    assert len(counted) <= MOST, (f"{len(counted)} kind names outside engine/moves/ (at most "
                                  f"{MOST}); ask the kind or read engine.moves.names:\n"
                                  + "\n".join(counted))


def test_the_count_sees_a_kind_name() -> None:
    """The counter finds a kind's name in code, not in a docstring nor another string."""
    text = '"""play"""\n\n\ndef f(a):\n    """fold"""\n    return a.kind == "fold" or "x"\n'
    assert _literals(text, set(load_kinds())) == [(6, "fold")]


def test_each_kind_module_takes_its_name_from_names() -> None:
    from engine.moves import names
    declared = {v for k, v in vars(names).items() if k.endswith("_KIND")}
    assert declared <= set(load_kinds()), declared - set(KINDS)
