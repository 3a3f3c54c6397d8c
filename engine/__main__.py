"""``python -m engine``: the ``truco`` command line."""

from engine.cli import main

main(prog_name="truco")
