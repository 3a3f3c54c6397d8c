"""The championship's pages for people (docs/championship.md, "The pages").

``/c/ID`` (the public standings and rounds, rendered here, no script), ``/c/ID/register`` (a
team's registration: the link the organiser sends), ``/c/ID/team`` (a team's own page: its
tables' seat links) and ``/c/ID/organise`` (the organiser's). Each of the last three
holds its key in the URL's fragment (``#key=...``: never sent to the server, so never in its
logs) and its script calls the JSON API with it (``engine/serve/assets/champ.js``); nothing is
served here but the page, in the request's language (:func:`engine.serve.language.page`).
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from engine import i18n
from engine.i18n import _
from engine.serve import language
from engine.serve.championship import _champs, _held, current, said
from engine.viewer import asset, embed_json

_ASSETS = Path(__file__).resolve().parent / "assets"
#: The pages, by the last part of their path.
PAGES = ("register", "team", "organise")


async def champ_page(request: Request) -> Response:
    h = _champs(request).held.get(request.path_params["cid"])
    which = request.path_params["page"]
    if h is None or which not in PAGES:
        return HTMLResponse("<!DOCTYPE html><title>404</title><p>no such page</p>", 404)
    data = {"page": which, "championship": h.id, "seats": h.champ.seats_per_team}
    return language.page(
        request, (_ASSETS / "champ.html").read_text(encoding="utf-8"),
        (_ASSETS / "champ.js").read_text(encoding="utf-8"),
        title=html.escape(h.champ.definition.title), data=embed_json(data),
        standings=f"/c/{h.id}",
        css=asset("viewer.css") + (_ASSETS / "serve.css").read_text(encoding="utf-8"))


async def standings_page(request: Request) -> Response:
    found = await _held(request)
    if isinstance(found, Response):
        return HTMLResponse("<!DOCTYPE html><title>404</title><p>no such championship</p>",
                            404)
    view = await current(_champs(request), found[0], language.language(request))
    with i18n.using(language.language(request)):
        late = late_mark(view)
        body = _standings_html(view) + "".join(_round_html(r, late)
                                               for r in view["round_data"])
    template = (_ASSETS / "championship.html").read_text(encoding="utf-8")
    return language.page(request, template, "", title=html.escape(view["title"]),
                         body=body, css=asset("viewer.css") +
                         (_ASSETS / "serve.css").read_text(encoding="utf-8"))


def _states() -> dict[str, str]:
    return {"registration": _("registration open"), "closed": _("registration closed"),
            "playing": _("playing"), "over": _("over")}


def late_mark(view: dict[str, Any]) -> str:
    """The marker of a game played at the late variant (``late_start``), or ``""``."""
    rule = view.get("late_start")
    return "" if rule is None else _("late: from {score} × {score}").format(
        score=rule["start_score"])


def _standings_html(view: dict[str, Any]) -> str:
    e = html.escape
    head = "".join(f"<th>{e(w)}</th>" for w in (
        "#", _("team"), _("played"), _("won"), _("drawn"), _("lost"), _("points"),
        "Buchholz"))
    rows = "".join(
        f"<tr><td>{r['rank']}</td><td>{e(r['team'])}</td><td>{r['played']}</td>"
        f"<td>{r['won']}</td><td>{r['drawn']}</td><td>{r['lost']}</td>"
        f"<td>{r['points']}</td><td>{r['buchholz']}</td></tr>" for r in view["standings"])
    teams = ", ".join(e(t["name"]) for t in view["teams"]) or "&mdash;"
    words = {"teams": _("Teams"), "standings": _("Standings")}
    return (f'<p class="sub">{e(view["format"])} &middot; {e(view["variant"])} &middot; '
            f'{e(_states()[view["state"]])}</p><p>{e(words["teams"])}: {teams}</p>'
            f'<h2>{e(words["standings"])}</h2><table class="standings"><tr>{head}</tr>{rows}'
            "</table>")


def _round_html(data: dict[str, Any], late: str) -> str:
    """A round's pairings and games (``late``: the marker of a game played late)."""
    e = html.escape

    def mark(game: dict[str, Any]) -> str:
        return f' <span class="late">({e(late)})</span>' if game.get("late") else ""

    items = []
    words = {"bye": _("bye"), "replay": _("replay"), "watch": _("watch"),
             "preparing": _("being prepared"), "round": _("Round {n}").format(n=data["round"])}
    for p in data["pairings"]:
        teams = " &times; ".join(e(t) for t in p["teams"])
        if p.get("bye"):
            items.append(f"<li>{teams}: {e(words['bye'])}</li>")
            continue
        games = []
        for g in p.get("games", []):
            told = e(g["winner"] or "") if g["result"] == "log" else e(said(g, p["teams"]))
            score = "&ndash;".join(map(str, g.get("score") or []))
            link = f' <a href="{e(g["replay"])}">{e(words["replay"])}</a>' if "replay" in g else ""
            games.append(f"{e(g['table'])}: {told} {score}{mark(g)}{link}")
        games += [f'{e(t["table"])}: <a href="{e(t["watch"])}">{e(words["watch"])}</a>'
                  f"{mark(t)}" for t in p.get("playing", []) if "watch" in t]
        games += [f'{e(t["table"])}: {e(words["preparing"])}{mark(t)}'
                  for t in p.get("playing", []) if t.get("preparing")]
        winner = f" &rarr; {e(p['winner'])}" if p.get("winner") else ""
        items.append(f"<li>{teams}{winner}<br>{'<br>'.join(games)}</li>")
    return (f"<h2>{e(words['round'])}</h2><ul class=\"pairings\">"
            + "".join(items) + "</ul>")


def routes() -> list[Route]:
    """The pages' routes (docs/championship.md)."""
    return [Route("/c/{cid}", standings_page), Route("/c/{cid}/{page}", champ_page)]
