"""The championship's pages for people (docs/championship.md, "The pages").

``/c/ID/register`` (a team's registration: the link the organiser sends), ``/c/ID/team`` (a
team's own page: its tables' seat links) and ``/c/ID/organise`` (the organiser's). Each page
holds its key in the URL's fragment (``#key=...``: never sent to the server, so never in its
logs) and its script calls the JSON API with it (``engine/serve/assets/champ.js``); nothing is
served here but the page, in the request's language (:func:`engine.serve.language.page`).
"""

from __future__ import annotations

import html
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from engine.serve import language
from engine.serve.championship import _champs
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


def routes() -> list[Route]:
    """The pages' route (docs/championship.md)."""
    return [Route("/c/{cid}/{page}", champ_page)]
