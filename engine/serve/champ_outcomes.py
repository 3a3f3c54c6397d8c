"""The organiser's record of a table without a log (docs/championship.md, "At the live table").

``POST /api/championships/ID/outcome`` with the organiser's key records a table being played now
as a ``walkover`` (``team``: the team that came, which wins the pairing), a ``forfeit``
(``team``: the team that gave up the pairing) or ``abandoned`` (no team: the game counts for
nobody), through :meth:`~engine.championship.Championship.record_outcome`, never as a score. The
finished tables' logs are taken first, and a table that has its result already (from its
verified log, or recorded) is refused (409): a result is never overwritten.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from engine.championship import Championship, ChampionshipError
from engine.serve import language
from engine.serve.champ_held import ID
from engine.serve.championship import _champs, organiser_request
from engine.serve.guard import refusal

OUTCOME_KEYS = {"key", "table", "result", "team"}
OUTCOMES = ("walkover", "forfeit", "abandoned")


def recorded(c: Championship, table: str) -> str | None:
    """How ``table`` has its result already (``log``, ``walkover``...), or ``None``."""
    for pairings in c.rounds:
        for p in pairings:
            for g in p.games:
                if g.table == table:
                    return g.kind
    return None


async def outcome(request: Request) -> Response:
    champs = _champs(request)
    found = await organiser_request(request, OUTCOME_KEYS)
    if isinstance(found, Response):
        return found
    h, body = found
    table, kind, team = body.get("table"), body.get("result"), body.get("team")
    if not isinstance(table, str) or not ID.match(table) or kind not in OUTCOMES or not (
            team is None or isinstance(team, str) and 0 < len(team) <= 100):
        return refusal(400, "outcome", "table: a table's id (as the standings name it); "
                       f"result: one of {', '.join(OUTCOMES)}; team: a team's name")
    async with h.lock:
        await champs.refresh(h)  # a table that finished first has its log's result
        was = recorded(h.champ, table)
        if was is not None:
            how = "from its verified log" if was == "log" else f"as {was}"
            return refusal(409, "recorded", f"table {table} has its result already ({how}): "
                           "a recorded result is never overwritten")
        if all(spec.table != table for spec in h.champ.tables()):
            return refusal(404, "no_table", f"table {table} is not being played now")
        try:
            result = h.champ.record_outcome(table, kind, team)
        except ChampionshipError as exc:
            return refusal(400, "outcome", str(exc))
        await champs.refresh(h, force=True)  # saved, the table closed, the next one made
        standings = champs.view(h)["standings"]
    return JSONResponse({**result.to_dict(), "standings": standings})


def routes() -> list[Route]:
    """The outcome's route (docs/serve.md, the API)."""
    return [Route("/api/championships/{cid}/outcome", language.spoken(outcome),
                  methods=["POST"])]
