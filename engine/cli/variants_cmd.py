"""``truco variants``: list, show and check variant files."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from engine.errors import VariantError
from engine.resources import data_dir, shipped_variants
from engine.variant import load_variant


@click.group()
def variants() -> None:
    """List, show and check variants."""


@variants.command("list")
def list_() -> None:
    """List the shipped variants."""
    root = data_dir("variants")
    for name, path in shipped_variants().items():
        rules = load_variant(name)
        where = path.relative_to(root).as_posix()
        click.echo(f"{name:30} {rules.title}  [{where}]")


@variants.command()
@click.argument("variant")
def show(variant: str) -> None:
    """Print the resolved rules of VARIANT (a shipped name or a YAML path) as JSON."""
    rules = load_variant(variant if variant in shipped_variants() else Path(variant))
    out = dict(rules.data)
    out["variant_sha256"] = rules.fingerprint
    click.echo(json.dumps(out, indent=2, ensure_ascii=False))


@variants.command()
@click.argument("files", nargs=-1, required=True)
def check(files: tuple[str, ...]) -> None:
    """Validate variant files; print every problem as file:line:column: path: message."""
    bad = 0
    for ref in files:
        try:
            load_variant(ref if ref in shipped_variants() else Path(ref))
        except VariantError as exc:
            bad += 1
            for line in exc.lines():
                click.echo(line)
        else:
            click.echo(f"{ref}: ok")
    if bad:
        sys.exit(1)
