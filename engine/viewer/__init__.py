"""Pages for people: ``truco replay LOG --html FILE`` (a replay viewer) and the statistics of
``truco simulate`` and ``truco compare`` with ``--html FILE`` (charts).

Every page is one self-contained HTML file: its CSS, its script and its data inline, cards
drawn with CSS and suit symbols, charts as inline SVG; no network, no fonts, no images. The
page's HTML, CSS and script are package data beside this module (``assets/``).

>>> html, problem = replay_page(b'{"truco_log": 1, "variant": "paulista", "seed": 7}\\n'
...                             b'{"event": "play", "seat": 1, "card": "2h"}\\n', "a.jsonl")
>>> problem is None, html.startswith("<!DOCTYPE html>"), "http" in html.split("<body>")[1]
(True, True, False)
"""

from __future__ import annotations

import html as _html
import json
from functools import cache, partial
from pathlib import Path
from string import Template
from typing import IO, Any

from engine.i18n import _, catalog_json, current, localize_html
from engine.logread import LogProblem
from engine.telling import move_words
from engine.viewer.annotations import AnalysisMismatch, overlay
from engine.viewer.charts import compare_page, simulate_page
from engine.viewer.steps import OWN_KEYS, StepBuilder, build_steps, delta

_ASSETS = Path(__file__).resolve().parent / "assets"

__all__ = ["AnalysisMismatch", "StepBuilder", "asset", "build_steps", "compare_page",
           "embed_json", "replay_page", "simulate_page"]


@cache
def asset(name: str) -> str:
    """The text of a file of ``engine/viewer/assets``."""
    return (_ASSETS / name).read_text(encoding="utf-8")


def embed_json(data: Any) -> str:
    """``data`` as compact JSON that is safe inside a ``<script>`` element (no ``</``, no
    ``<!--``)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def replay_page(data: IO[bytes] | bytes, file: str, *, base: Path | None = None,
                analysis: object = None) -> tuple[str, LogProblem | None]:
    """The viewer page of a log, and the log's first problem (``None`` for a valid log: then
    the page shows it whole; else up to that line, the problem shown there). With
    ``analysis`` (the JSON data of ``truco analyze --json``) the page also draws the
    evaluation bar and marks the mistakes (:mod:`engine.viewer.annotations`; an analysis of
    another log raises :class:`~engine.viewer.annotations.AnalysisMismatch`)."""
    builder, problem = build_steps(data, file, base=base)
    info = dict(builder.info) or {"title": _("an invalid log"), "variant": "", "seed": None,
                                  "players": 0, "names": [], "teams": 0, "team_of": [],
                                  "ladder": [], "target": 0, "games_to_win": 0,
                                  "card_names": {}, "lines": []}
    info["file"] = file
    steps = builder.steps
    payload = {"info": info, "own": list(OWN_KEYS), "steps": delta(steps)}
    if analysis is not None and problem is None:
        rules = builder.match.rules if builder.match is not None else None
        payload["an"] = overlay(analysis, steps, info, builder.digest.hexdigest(),
                                None if rules is None else partial(move_words, rules=rules))
    names = info["names"]
    title = f"{info['title']}: {Path(file).name}"
    sub = [_("seed {seed}").format(seed=info["seed"]) if info.get("seed") is not None
           else _("recorded deals"), " · ".join(names)]
    if problem is not None:
        sub.append(_("invalid at line {line}").format(line=problem.line))
    page = Template(localize_html(asset("viewer.html"))).substitute(
        title=_html.escape(title), subtitle=_html.escape(" · ".join(s for s in sub if s)),
        css=asset("viewer.css"), script=asset("viewer.js"), data=embed_json(payload),
        i18n=embed_json(catalog_json(current(), asset("viewer.js"))), i18n_js=asset("i18n.js"))
    return page, problem
