"""``truco variants``: list, show, check, draw and print the schema of variants.

Exit codes: 0 ok, 1 a variant is invalid (every problem printed as
``file:line:column: key.path: message``), 2 usage errors (click's own).
"""

from __future__ import annotations

import sys
from typing import Any

import click
import yaml

from engine.errors import VariantError
from engine.machine import DiagramUnavailable
from engine.machine import diagram as machine_diagram
from engine.resources import data_dir, shipped_variants
from engine.schemas import render_schema, variant_schema
from engine.variant import load_variant, resolved_document
from engine.variant.told import told_lines


class _Dumper(yaml.SafeDumper):
    """Writes short lists on one line (``ranks: [A, '2', ...]``), as the shipped files do."""


class _FlowDict(dict[str, Any]):
    """A mapping written on one line: a ladder step, ``{value: 3, name: truco}``."""


def _represent_list(dumper: yaml.SafeDumper, items: list[Any]) -> yaml.Node:
    if items and all(isinstance(x, dict) for x in items):
        return dumper.represent_sequence("tag:yaml.org,2002:seq", [_FlowDict(x) for x in items],
                                         flow_style=False)
    flat = not any(isinstance(x, (dict, list)) for x in items)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", items, flow_style=flat)


def _represent_dict(dumper: yaml.SafeDumper, data: dict[str, Any]) -> yaml.Node:
    flow = isinstance(data, _FlowDict) and not any(isinstance(v, (dict, list))
                                                   for v in data.values())
    return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=flow)


_Dumper.add_representer(list, _represent_list)
_Dumper.add_representer(dict, _represent_dict)
_Dumper.add_representer(_FlowDict, _represent_dict)


@click.group()
def variants() -> None:
    """List, show and check variants."""


@variants.command("list")
def list_() -> None:
    """List the shipped variants: name, title and file."""
    root = data_dir("variants")
    for name, path in shipped_variants().items():
        rules = load_variant(name)
        where = path.relative_to(root).as_posix()
        click.echo(f"{name:30} {rules.title}  [{where}]")


@variants.command()
@click.argument("variant")
def show(variant: str) -> None:
    """Print VARIANT (a shipped name or a YAML path) fully resolved, as a YAML variant file
    that extends nothing. Its fingerprint (a log's variant_sha256) is in the first line."""
    rules = load_variant(variant)
    click.echo(f"# variant_sha256: {rules.fingerprint}")
    text = yaml.dump(resolved_document(rules.data), Dumper=_Dumper, sort_keys=False,
                     allow_unicode=True, width=100)
    click.echo(text, nl=False)


@variants.command()
@click.argument("files", nargs=-1, required=True)
def check(files: tuple[str, ...]) -> None:
    """Validate variant FILES (paths or shipped names). Prints `NAME: ok` for each valid one,
    and every problem of an invalid one as file:line:column: key.path: message (in the
    language asked for, engine.variant.told). Exits 1 if any is invalid."""
    bad = 0
    for ref in files:
        try:
            load_variant(ref)
        except VariantError as exc:
            bad += 1
            for err, line in zip(exc.errors, told_lines(exc), strict=True):
                click.echo(line if err.file else f"{ref}: {line}")
        else:
            click.echo(f"{ref}: ok")
    if bad:
        sys.exit(1)


variants.add_command(check, "validate")


@variants.command()
@click.argument("variant")
@click.option("--format", "fmt", type=click.Choice(["mermaid", "svg"]), default="mermaid",
              show_default=True,
              help="mermaid: a stateDiagram-v2 (nothing to install); svg: drawn by Graphviz "
                   "(needs the graphviz Python package and the dot program).")
def diagram(variant: str, fmt: str) -> None:
    """Print VARIANT's state machine (a shipped name or a YAML path): its phases, and its
    moves as transitions labelled with the trigger and the conditions that decide them."""
    rules = load_variant(variant)
    try:
        text = machine_diagram(rules, fmt)
    except DiagramUnavailable as exc:
        click.echo(f"truco: {exc}", err=True)
        sys.exit(1)
    click.echo(text.rstrip("\n"))


@variants.command()
def schema() -> None:
    """Print the JSON Schema of variant files."""
    click.echo(render_schema(variant_schema()), nl=False)  # as schemas/ holds it, never stale
