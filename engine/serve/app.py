"""The web application of ``truco serve`` (Starlette): the pages, the JSON API that creates
tables, and the websocket each seat and spectator plays through (docs/serve.md).

The protocol, in JSON text messages: the client's first message is ``{"type": "join",
"token": T}``; the server answers ``hello`` (the table's facts and words) and ``state`` (the
position as the token's seat may see it), then a ``state`` after every change. A seat sends
``{"type": "move", "move": "play 1 4c"}`` (a move of its ``legal`` list). Anything refused
gets ``{"type": "error", "code": C, "message": M}`` and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from engine import i18n
from engine.bots import bot_problem
from engine.errors import TrucoError, VariantError
from engine.i18n import _
from engine.resources import shipped_variants
from engine.serve import champ_outcomes, champ_pages, championship, language
from engine.serve.conn import Conn, read, send_error, turn_away
from engine.serve.guard import (
    CHECK_KEYS,
    CREATE_KEYS,
    Limits,
    OneRequestAConnection,
    house_of,
    player_names,
    refusal,
    request_object,
)
from engine.serve.store import (
    HOUSE_FILE,
    LEVELS,
    Store,
    check_house,
    shipped,
    variant_errors,
)
from engine.serve.table import HUMAN, Refusal, Table
from engine.variant import load
from engine.viewer import asset, embed_json

_ASSETS = Path(__file__).resolve().parent / "assets"


def _closed(table_id: str, ended: str | None = None) -> str:
    """What a connection to a closed table is told (``closed``, then 4410); ``ended``: why
    it closed before its match ended (a championship's outcome, :meth:`Server.retire`)."""
    links = {"log": f"/t/{table_id}/log", "replay": f"/t/{table_id}/replay"}
    if ended is None:
        return _("the match is over and the table has closed: its log and replay stay "
                 "({log}, {replay})").format(**links)
    if ended == "deadline":
        return _("the championship's deadline has come: this table has closed, decided as it "
                 "stood, and what was played stays ({log}, {replay})").format(**links)
    result = {"walkover": _("a walkover"), "forfeit": _("a forfeit")}.get(ended, _("abandoned"))
    return _("the championship's organiser recorded this table as {result}: it has closed, "
             "no move is taken, and what was played stays ({log}, {replay})").format(
                 result=result, **links)
class Server:
    """The tables in memory, their connections, and the files under ``data``."""

    def __init__(self, data: Path, limits: Limits | None = None,
                 bot_commands: dict[str, str] | None = None) -> None:
        self.limits = limits or Limits()
        self.bot_commands = dict(bot_commands or {})
        self.store = Store(data, bot_commands=self.bot_commands)
        self.tables: dict[str, Table] = {}
        self.conns: dict[str, list[Conn]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        #: When each person seat that was joined was left without a connection (a seat
        #: never joined is not timed: the game waits for its person).
        self.empty_since: dict[tuple[str, int], float] = {}
        self.over_since: dict[str, float] = {}
        #: The tables no person has joined yet, since when; and who created each table.
        self.unjoined: dict[str, float] = {}
        self.creator: dict[str, str] = {}
        self.created: dict[str, list[float]] = {}  # by client: when it created its tables

    def start(self) -> None:
        """Pick up the tables of the data folder (each one that cannot be read is told)."""
        for table in self.store.load_all():
            self.add(table, self.store.moved.get(table.id, set()))
        for problem in self.store.problems:
            print(f"truco serve: a table not picked up: {problem}", file=sys.stderr)

    def add(self, table: Table, joined: set[int] | None = None, creator: str = "") -> None:
        """Hold ``table``; ``joined``: its person seats known to have been played (a table
        read back), timed from now while nobody is at them."""
        self.tables[table.id] = table
        self.conns.setdefault(table.id, [])
        self.locks.setdefault(table.id, asyncio.Lock())
        now = time.monotonic()
        for seat in joined or ():
            self.empty_since[(table.id, seat)] = now
        if table.hashes and not joined and not table.match.is_over:
            self.unjoined[table.id] = now
        if creator:
            self.creator[table.id] = creator

    def too_many(self, client: str) -> str | None:
        """Why ``client`` (an address) may create no table now, or ``None``: it has
        :attr:`Limits.client_tables` in play, or created :attr:`Limits.client_creations` in
        the last :attr:`Limits.window` seconds."""
        limits, now = self.limits, time.monotonic()
        times = [t for t in self.created.get(client, []) if now - t < limits.window]
        self.created[client] = times
        if len(times) >= limits.client_creations:
            return _("one client may create at most {n} tables in {seconds} seconds").format(
                n=limits.client_creations, seconds=f"{limits.window:g}")
        held = sum(1 for t, who in self.creator.items() if who == client
                   and t in self.tables and not self.tables[t].match.is_over)
        if held >= limits.client_tables:
            return _("one client may have at most {n} tables in play: finish one, or wait "
                     "{seconds} seconds for those nobody joined to be removed").format(
                n=limits.client_tables, seconds=f"{limits.unjoined:g}")
        return None

    def close(self) -> None:
        """The server stops: every table's bot programs are ended (none outlives it)."""
        for table in list(self.tables.values()):
            table.close()

    def lock(self, table_id: str) -> asyncio.Lock:
        """The table's lock (a table that closed meanwhile: a lock of its own, unshared)."""
        return self.locks.get(table_id) or asyncio.Lock()

    async def retire(self, table: Table, ended: str | None = None) -> None:
        """A finished table leaves memory: marked closed on disk (its log is given from
        there), out of every registry, its connections told and closed. ``ended``: a table
        closed before its match ended (a championship's outcome: ``walkover``...)."""
        async with self.lock(table.id):
            table.retired = ended is not None or table.retired  # a move waiting: refused
            await asyncio.to_thread(table.close)  # ended at the match's end, as a rule
            with contextlib.suppress(OSError, ValueError):
                await asyncio.to_thread(self.store.close, table, ended)
            conns = self.forget(table)
        for conn in conns:
            with contextlib.suppress(Exception):  # a connection closing already
                with i18n.using(conn.lang):
                    told = _closed(table.id, ended)
                await send_error(conn.ws, "closed", told)
                await conn.ws.close(4410)

    def forget(self, table: Table) -> list[Conn]:
        """``table`` out of every registry (closed); its connections, to be told."""
        self.tables.pop(table.id, None)
        self.locks.pop(table.id, None)
        self.over_since.pop(table.id, None)
        self.unjoined.pop(table.id, None)
        self.creator.pop(table.id, None)
        for seat in table.hashes:
            self.empty_since.pop((table.id, seat), None)
        return self.conns.pop(table.id, [])

    def players(self) -> list[str]:
        """What a seat may be given: a person, a level, a bot the server was started with."""
        return [HUMAN, *LEVELS, *self.bot_commands]

    # -- telling the connections -------------------------------------------------------------
    async def broadcast(self, table: Table) -> None:
        """Every connection of ``table`` its state message, all built from one position
        (under the table's lock: no move is made while they are)."""
        conns = list(self.conns.get(table.id, ()))
        texts = {}
        async with self.lock(table.id):
            seats = table.rules.players // table.rules.teams  # a team's word, by its seats
            for seat, lang in {(c.seat, c.lang) for c in conns}:
                with i18n.using(lang), i18n.team_seats(seats):
                    texts[seat, lang] = table.message(seat)
        for conn in conns:
            with contextlib.suppress(Exception):  # a connection closing: its loop ends it
                await conn.ws.send_text(texts[conn.seat, conn.lang])

    async def sweep(self) -> None:
        """The stand-in bot for each awaited person seat left empty past the wait; each
        finished table past :attr:`Limits.linger` leaves memory (:meth:`retire`)."""
        now = time.monotonic()
        for table in list(self.tables.values()):
            if table.match.is_over and \
                    now - self.over_since.setdefault(table.id, now) >= self.limits.linger:
                await self.retire(table)
        for table_id, since in list(self.unjoined.items()):
            idle = self.tables.get(table_id)
            if idle is not None and now - since >= self.limits.unjoined:
                await asyncio.to_thread(self.store.remove, table_id)  # then gone from disk
                await self.retire(idle)
        wait = self.limits.seat_timeout
        if wait is None:
            return
        for table in list(self.tables.values()):
            for seat in table.awaited():
                left_at = self.empty_since.get((table.id, seat))  # None: never joined
                if table.online.get(seat, 0) == 0 and left_at is not None and \
                        now - left_at >= wait:
                    async with self.lock(table.id):
                        await asyncio.to_thread(table.stand_in, seat)
                    await self.broadcast(table)


def _asset(name: str) -> str:
    return (_ASSETS / name).read_text(encoding="utf-8")


def _page(request: Request, name: str, **values: str) -> HTMLResponse:
    """A page of ``assets/`` in the request's language (:func:`engine.serve.language.page`),
    its CSS (the viewer's and this page's) and script inline."""
    return language.page(request, _asset(f"{name}.html"),
                         css=asset("viewer.css") + _asset("serve.css"),
                         script=_asset(f"{name}.js"), **values)


async def lobby(request: Request) -> Response:
    server: Server = request.app.state.server
    variants = []
    for name in sorted(shipped_variants()):
        r = load(name)
        variants.append({"name": name, "title": r.title or r.name, "players": r.players,
                         "team_of": list(r.team_of)})
    with i18n.using(language.language(request)):
        labels = {p: _("a person (invite link)") if p == HUMAN else _("bot: {kind}").format(
            kind=_level(p)) for p in server.players()}
    data = {"variants": variants, "players": server.players(), "labels": labels}
    return _page(request, "lobby", data=embed_json(data))


def _level(player: str) -> str:
    """A seat's choice of the lobby for people: a level's name translated, a bot the
    operator named as named."""
    said = {"easy": _("easy"), "medium": _("medium"), "hard": _("hard")}
    return said.get(player, player)


async def check(request: Request) -> Response:
    server: Server = request.app.state.server
    body = await request_object(request, server.limits, CHECK_KEYS)
    if isinstance(body, Response):
        return body
    house = house_of(body)
    try:
        if house is not None:
            with tempfile.TemporaryDirectory(dir=server.store.root, prefix=".check-") as t:
                rules = await asyncio.to_thread(check_house, house[1], house[0], Path(t))
        else:
            rules = shipped(body.get("variant"))
    except VariantError as exc:
        return refusal(400, "variant", variant_errors(exc))
    return JSONResponse({"title": rules.title or rules.name, "players": rules.players,
                         "team_of": list(rules.team_of)})


async def create(request: Request) -> Response:
    server: Server = request.app.state.server
    limits = server.limits
    client = request.client.host if request.client else "?"
    body = await request_object(request, limits, CREATE_KEYS)
    if isinstance(body, Response):
        return body
    if sum(not t.match.is_over for t in server.tables.values()) >= limits.tables:
        return refusal(503, "full", _("this server plays at most {n} tables at once").format(
            n=limits.tables))
    why = server.too_many(client)
    if why is not None:
        return refusal(429, "too_many_tables", why)
    seats = body.get("seats")
    seed = body.get("seed")
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        return refusal(400, "seats", _("seats: a list of 'human' or a bot level per seat"))
    unknown = [s for s in seats if s not in server.players()]
    if unknown:
        return refusal(400, "seats", _("{player} is not a player here: {players}").format(
            player=repr(unknown[0]), players=", ".join(server.players())))
    if seed is not None and (type(seed) is not int or not 0 <= seed < 1 << 64):
        return refusal(400, "seed", _("seed: an integer from 0 to 2**64-1"))
    if seed is not None and HUMAN in seats and not server.limits.fixed_seeds:
        return refusal(400, "seed", _("seed: only a table of bots may be given a seed "
                                      "(whoever chose it would know every hand); the server "
                                      "draws a secret one (truco serve --fixed-seeds allows "
                                      "it, for tests)"))
    players = [LEVELS.get(str(s), str(s)) for s in seats]
    for p in players:
        if p != HUMAN and p not in server.bot_commands and bot_problem(p):
            return refusal(400, "seats", str(bot_problem(p)))
    names = player_names(body.get("names"), len(seats))
    if isinstance(names, str):
        return refusal(400, "names", names)
    try:
        table = await asyncio.to_thread(
            server.store.create, str(body.get("variant", "")), players, seed=seed,
            house=house_of(body), names=names)
    except VariantError as exc:
        return refusal(400, "variant", variant_errors(exc))
    except Refusal as exc:
        return refusal(400, exc.code, exc.message)
    except TrucoError as exc:
        return refusal(400, "invalid", str(exc))
    server.add(table, creator=client)
    server.created.setdefault(client, []).append(time.monotonic())
    links = [{"seat": s, "link": f"/t/{table.id}#k={tok}"}
             for s, tok in sorted(table.tokens.items())]
    return JSONResponse({"table": table.id, "title": table.rules.title or table.rules.name,
                         "seats": links, "spectator": f"/t/{table.id}#k="
                                                      f"{table.spectator_token}"}, 201)


async def page(request: Request) -> Response:
    server: Server = request.app.state.server
    table_id = request.path_params["table"]
    if table_id not in server.tables:
        if server.store.closed_log(table_id) is not None:  # closed: the game in the viewer
            return RedirectResponse(f"/t/{table_id}/replay", 303)
        lang = language.language(request)
        with i18n.using(lang):
            said = html.escape(_("no such table"))
        return HTMLResponse(f'<!DOCTYPE html><html lang="{lang}"><title>{said}</title>'
                            f"<p>{said}</p>", 404)
    return _page(request, "table", table=table_id)


async def finished(request: Request) -> tuple[str, str] | Response:
    """The finished table's id and log: from memory, or from the data folder for a table
    that has closed."""
    server: Server = request.app.state.server
    table_id = request.path_params["table"]
    table = server.tables.get(table_id)
    if table is None:
        path = server.store.closed_log(table_id)
        if path is None:
            return refusal(404, "no_table", _("no such table"))
        try:
            return table_id, await asyncio.to_thread(server.store.read_log, path)
        except (OSError, ValueError):
            return refusal(404, "no_table", _("no such table: its log cannot be read"))
    if not table.match.is_over:
        return refusal(409, "not_over", _("the log is given when the match is over (it "
                                          "holds every hand's cards)"))
    return table_id, table.out.getvalue()


async def log(request: Request) -> Response:
    found = await finished(request)
    if isinstance(found, Response):
        return found
    table_id, text = found
    return Response(text, media_type="application/x-ndjson", headers={
        "Content-Disposition": f'attachment; filename="truco-{table_id}.jsonl"'})


async def house_file(request: Request) -> Response:
    """The house variant an upload table's log names (``variant.yaml``), once the log is
    given: saved beside the log, ``truco verify`` checks the log as served."""
    server: Server = request.app.state.server
    found = await finished(request)
    if isinstance(found, Response):
        return found
    table_id = found[0]
    try:
        text = await asyncio.to_thread(server.store.house_text, table_id)
    except (OSError, ValueError):
        return refusal(404, "no_variant_file", _("this table plays a shipped variant"))
    return Response(text, media_type="application/yaml", headers={
        "Content-Disposition": f'attachment; filename="{HOUSE_FILE}"'})


async def replay(request: Request) -> Response:
    server: Server = request.app.state.server
    found = await finished(request)
    if isinstance(found, Response):
        return found
    table_id, text = found
    page = await asyncio.to_thread(server.store.replay_html, table_id, text)
    return HTMLResponse(page, headers={"Content-Language": language.language(request)})


async def socket(ws: WebSocket) -> None:
    await _play(ws.app.state.server, ws)


def build_app(server: Server) -> Starlette:
    """The Starlette application serving ``server``'s tables."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await asyncio.to_thread(server.start)
        await asyncio.to_thread(app.state.champs.start)  # after the tables they play at
        app.state.champs.resume()  # the tables a stop left unmade, made in the background
        for table in server.tables.values():
            server.locks[table.id] = asyncio.Lock()
        task = asyncio.create_task(_sweeper(server))
        try:
            yield
        finally:
            task.cancel()
            await asyncio.to_thread(server.close)

    app = Starlette(routes=[
        Route("/", lobby), Route("/favicon.ico", lambda request: Response(status_code=204)),
        Route("/api/check", language.spoken(check), methods=["POST"]),
        Route("/api/tables", language.spoken(create), methods=["POST"]), Route("/t/{table}", page),
        Route("/t/{table}/log", language.spoken(log)),
        Route(f"/t/{{table}}/{HOUSE_FILE}", language.spoken(house_file)),
        Route("/t/{table}/replay", language.spoken(replay)),  # the viewer in its language
        WebSocketRoute("/t/{table}/ws", socket), *championship.routes(),
        *champ_outcomes.routes(), *champ_pages.routes()], lifespan=lifespan,
        middleware=[Middleware(OneRequestAConnection)])
    app.state.server = server
    app.state.champs = championship.Championships(server)
    return app


async def _sweeper(server: Server) -> None:
    limits = server.limits
    waits = [w / 4 for w in (limits.seat_timeout, limits.linger, limits.unjoined) if w]
    tick = max(0.05, min([1.0, *waits]))
    while True:
        await asyncio.sleep(tick)
        with contextlib.suppress(Exception):
            await server.sweep()


async def _join(server: Server, ws: WebSocket, table: Table) -> Conn | None:
    for _try in range(3):  # a few tries at the join message, then the door closes
        data = await read(server.limits, ws, None)
        if data == "closed":
            return None
        if not isinstance(data, dict):
            continue
        token = data.get("token")
        if data["type"] != "join" or not isinstance(token, str):
            await send_error(ws, "join_first", 'the first message is {"type": "join", '
                                                '"token": ...}')
            continue
        seat = table.seat_of(token)
        if seat is None:
            await turn_away(ws, "bad_token", _("this link opens no seat of this table"), 4403)
            return None
        return Conn(ws, None if seat < 0 else seat, float(server.limits.burst),
                     name=data.get("name"), entropy=data.get("entropy"), lang=i18n.current())
    await ws.close(4400)
    return None


async def _play(server: Server, ws: WebSocket) -> None:
    await ws.accept()
    # the words sent to this connection (its task's) in its page's language: ``?lang=``
    i18n.use(language.offered(ws.query_params.get(language.PARAM)) or i18n.ENGLISH)
    table_id = ws.path_params["table"]
    table = server.tables.get(table_id)
    if table is None:
        if server.store.closed_log(table_id) is not None:
            why = await asyncio.to_thread(server.store.ended, table_id)
            return await turn_away(ws, "closed", _closed(table_id, why), 4410)
        return await turn_away(ws, "no_table", _("no such table"), 4404)
    # ... and of its teams in their words (jogador, dupla, equipe: engine.i18n.team_context)
    i18n.use_team_seats(table.rules.players // table.rules.teams)
    try:  # the join within the limit's seconds, or the connection is closed
        conn = await asyncio.wait_for(_join(server, ws, table), server.limits.join)
    except WebSocketDisconnect:
        return
    except TimeoutError:
        return await turn_away(ws, "join_first", "no join message in time", 4408)
    if conn is None:
        return
    if server.tables.get(table.id) is not table:  # it closed while the join was awaited
        why = await asyncio.to_thread(server.store.ended, table.id)
        return await turn_away(ws, "closed", _closed(table.id, why), 4410)
    seat = conn.seat
    limits = server.limits
    if sum(c.seat == seat for c in server.conns[table.id]) >= limits.link:
        return await turn_away(ws, "too_many_connections", _(
            "at most {n} connections at once on one link").format(n=limits.link), 4429)
    server.conns[table.id].append(conn)
    if seat is not None:
        server.unjoined.pop(table.id, None)
    async with server.lock(table.id):  # not while a stand-in plays in its thread
        dealt, bad_entropy = table.joined(-1 if seat is None else seat, conn.entropy)
        if dealt:  # the first deal: the bots play
            await asyncio.to_thread(table.run_bots)
    try:
        await ws.send_text(table.hello(seat))
        if bad_entropy is not None:  # told, the join stands
            await send_error(ws, "entropy", bad_entropy)
        if conn.name is not None:
            await _rename(server, table, conn, conn.name)
        await server.broadcast(table)
        while True:
            data = await read(server.limits, ws, conn)
            if data == "closed":
                break
            refused = not isinstance(data, dict) or await _handle(server, table, conn, data)
            conn.refused = conn.refused + 1 if refused else 0
            if conn.refused >= limits.refused:
                await send_error(ws, "flood", _("{n} refused messages in a row: the "
                                                 "connection is closed").format(
                                                     n=limits.refused))
                await ws.close(1008)
                break
    except WebSocketDisconnect:
        pass
    finally:
        with contextlib.suppress(KeyError, ValueError):  # not if the table closed
            server.conns[table.id].remove(conn)
        if seat is not None:
            async with server.lock(table.id):
                if table.left(seat):  # an offer to raise out of turn lapsed: bots play on
                    await asyncio.to_thread(table.run_bots)
            if table.online.get(seat, 0) == 0 and table.id in server.tables:
                server.empty_since[(table.id, seat)] = time.monotonic()
        await server.broadcast(table)


async def _handle(server: Server, table: Table, conn: Conn, data: dict[str, Any]) -> bool:
    """Answer a client's message; whether it was refused."""
    ws = conn.ws
    kind = data["type"]
    if kind == "state":  # the position again (a page that lost track), marked as the answer
        ref = data.get("ref")
        async with server.lock(table.id):
            text = table.message(conn.seat)
        if type(ref) is int:
            text = text[:-1] + f',"ref":{ref}}}'
        await ws.send_text(text)
        return False
    if kind == "name":
        return await _rename(server, table, conn, data.get("name"))
    if kind != "move":
        await send_error(ws, "unknown_type", f"{kind[:40]!r} is not a message: move, state, "
                                              "name")
        return True
    if conn.seat is None:
        await send_error(ws, "spectator", _("a spectator makes no moves"))
        return True
    async with server.lock(table.id):
        try:
            await asyncio.to_thread(table.submit, conn.seat, data.get("move"))
        except Refusal as exc:
            await send_error(ws, exc.code, exc.message)
            return True
        except ValueError as exc:  # a bot program that failed mid-move (a TrucoError too)
            await send_error(ws, "table_error",
                              _("the table could not go on: {problem}").format(problem=exc))
    await server.broadcast(table)
    return False


async def _rename(server: Server, table: Table, conn: Conn, value: object) -> bool:
    """A person names their seat (where the lobby did not); whether it was refused."""
    names = player_names([value], 1)
    if isinstance(names, str) or names is None or names[0] is None or conn.seat is None:
        await send_error(conn.ws, "name", _("a spectator has no name to give")
                         if conn.seat is None else _("a name of 1 to 24 printable characters"))
        return True
    async with server.lock(table.id):
        try:
            await asyncio.to_thread(table.rename, conn.seat, names[0])
        except Refusal as exc:
            await send_error(conn.ws, exc.code, exc.message)
            return True
    await server.broadcast(table)
    return False
