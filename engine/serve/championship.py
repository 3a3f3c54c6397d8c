"""Championships at the live table (docs/championship.md, "At the live table").

An organiser creates a championship (``POST /api/championships``) and is given two keys: the
organiser's (closing the registration, starting each round) and the registration's (teams
register with it). Each team is given its team key. The server keeps only their SHA-256
(:func:`~engine.serve.table.token_hash`, as a table keeps its seats'). A team's players open
their seats with tokens derived from the team key (:func:`seat_token`): a championship table's
person seats hold the hashes of the seated team's tokens, so its seat links go to that team
only, through its team key, and no plain token is kept on disk.

Each pairing's table is an ordinary server table (its folder under ``--data``); its result is
taken only from its finished log, through :meth:`Championship.record_log`. A championship
lives in ``DATA/championships/ID/``: ``archive/`` (the archive, as ``truco championship
verify`` and :func:`~engine.championship.load_archive` read it, written again after every
change) and ``serve.json`` (the key hashes and the server table of each championship table).
A restarted server reads both back: the archive replays every recorded log, and a table in
play is the store's (its log read back).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from engine import i18n
from engine.championship import (
    Championship,
    ChampionshipError,
    TableSpec,
    load_archive,
    write_archive,
)
from engine.errors import TrucoError, VariantError
from engine.fileio import atomic_write_text
from engine.i18n import _
from engine.reading import read_regular
from engine.serve import language
from engine.serve.champ_held import (
    ARCHIVE,
    FOLDER,
    ID,
    KEYS_FILE,
    Host,
    Hosted,
    matches,
    read_keys,
    seat_token,
)
from engine.serve.guard import house_of, refusal, request_object
from engine.serve.store import HOUSE_FILE, LEVELS, check_house, shipped, variant_errors
from engine.serve.table import HUMAN, Refusal, Table, new_token, token_hash
from engine.variant import trusted_variants_only

CREATE_KEYS = {"variant", "upload", "format", "rounds", "best_of", "seeding", "title",
               "late_start", "deadline"}
TEAM_KEYS = {"key", "name", "players", "bot"}


class Championships:
    """The championships of a server, under ``DATA/championships``."""

    def __init__(self, server: Host, now: Callable[[], float] = time.time) -> None:
        self.server = server
        #: The clock of the championships' time rules (``late_start``); tests set a fake one.
        self.now = now
        self.root = server.store.root / FOLDER
        self.held: dict[str, Hosted] = {}
        #: What makes a championship table's server table (:meth:`Store.create`'s keywords),
        #: in a worker thread; a test holds it to see a round answered before its tables.
        self.make_table: Callable[..., Table] = server.store.create

    # -- on disk ---------------------------------------------------------------------------
    def start(self) -> None:
        """Read back every championship (one that cannot be read is told, and left)."""
        if not self.root.is_dir():
            return
        for folder in sorted(self.root.iterdir()):
            if folder.is_symlink() or not folder.is_dir() or not ID.match(folder.name):
                continue
            try:
                champ = load_archive(folder / ARCHIVE, self.clock)
                data = read_keys(json.loads(read_regular(folder / KEYS_FILE, 1 << 22)),
                             champ.seats_per_team)
                if champ.definition.late_start is not None:  # as each table was made
                    for table, entry in data["tables"].items():
                        champ.given_late(table, entry.get("late") is True, entry.get("listed"))
            except (TrucoError, OSError, ValueError, RecursionError) as exc:
                print(f"truco serve: a championship not picked up: {folder.name}: {exc}",
                      file=sys.stderr)
                continue
            h = self.held[folder.name] = Hosted(folder.name, champ, data["organiser"],
                                                data["registration"], data["teams"],
                                                data["tables"])
            for entry in data["tables"].values():  # awaited by the championship: kept
                self.server.unjoined.pop(entry["server"], None)
            for table, kind in self.outcome_tables(h):  # a crash left them open: closed now
                table.close()
                self.server.store.close(table, kind)
                self.server.forget(table)

    def resume(self) -> None:
        """The tables a stop left unmade (a round paired, its tables not all made) made now,
        in the background (in the server's loop, once :meth:`start` has read them back)."""
        for h in self.held.values():
            self.kick(h)

    def outcome_tables(self, h: Hosted) -> list[tuple[Table, str]]:
        """The server tables still held whose games were recorded without their match's end
        (a walkover, forfeit or abandoned table, or a log cut at the deadline), each with
        its kind: to be closed, no move taken."""
        found = []
        for game in (g for r in h.champ.rounds for p in r for g in p.games if g.kind != "log"):
            entry = h.tables.get(game.table)
            table = None if entry is None else self.server.tables.get(entry["server"])
            if table is not None:
                found.append((table, game.kind))
        return found

    def clock(self) -> float:
        """:attr:`now` read when called (a championship keeps this, not the clock)."""
        return self.now()

    def save(self, h: Hosted, archive: bool = True) -> None:
        """The keys, then the archive (a crash between them leaves a key with nothing to
        open: harmless); with ``archive`` false the keys alone (a table just made: what a
        restart needs to find it, its result taken again from its log)."""
        folder = self.root / h.id
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write_text(folder / KEYS_FILE, json.dumps(h.keys_data(), indent=1) + "\n")
        if archive:
            write_archive(h.champ, folder / ARCHIVE, replace=True)
        h.shown = {}  # changed: no reader is shown the view from before the change

    def create(self, body: dict[str, Any]) -> tuple[Hosted, str, str]:
        """A new championship of ``body`` (a shipped variant, or an uploaded house variant:
        its resolved rules embedded), saved; with its organiser's and registration's keys."""
        for key in ("rounds", "best_of"):
            if key in body and type(body[key]) is not int:
                raise ChampionshipError(f"{key}: expected a whole number, found {body[key]!r}")
        house = house_of(body)
        if house is None:
            shipped(body.get("variant"))  # a shipped variant's name, nothing else
        with tempfile.TemporaryDirectory(dir=self.server.store.root, prefix=".champ-") as t:
            if house is not None:
                check_house(house[1], house[0], Path(t))
            with trusted_variants_only([Path(t)]):
                champ = Championship.create(
                    str(body.get("variant")) if house is None else Path(t) / HOUSE_FILE,
                    fmt=body.get("format", ""), rounds=body.get("rounds", 0),
                    best_of=body.get("best_of", 1), seeding=body.get("seeding", "draw"),
                    seed=secrets.randbits(63), title=body.get("title", "Championship"),
                    late_start=body.get("late_start"), deadline=body.get("deadline"),
                    now=self.clock)
        cid = secrets.token_urlsafe(6)
        while cid in self.held or (self.root / cid).exists() or not cid[0].isalnum():
            cid = secrets.token_urlsafe(6)
        organiser, registration = new_token(), new_token()
        h = Hosted(cid, champ, token_hash(organiser), token_hash(registration))
        self.save(h)
        self.held[cid] = h
        return h, organiser, registration

    def register(self, h: Hosted, body: dict[str, Any]) -> tuple[str, str]:
        """Register ``body``'s team (its bot a level); its name and team key."""
        bot = body.get("bot")
        if bot is not None and (not isinstance(bot, str) or bot not in LEVELS):
            raise ChampionshipError(f"bot: one of {', '.join(LEVELS)}, or none")
        team = h.champ.register({"name": body.get("name"), "players": body.get("players", []),
                                 "bot": None if bot is None else LEVELS[bot]})
        key = new_token()
        h.teams[team.key] = {"hash": token_hash(key), "seats": [
            token_hash(seat_token(key, k)) for k in range(h.champ.seats_per_team)]}
        try:
            self.save(h)
        except BaseException:
            del h.champ.teams[team.key], h.teams[team.key]
            raise
        return team.name, key

    # -- the tables ------------------------------------------------------------------------
    def settle(self, h: Hosted) -> bool:
        """Take each finished table's result from its log; whether any was taken."""
        changed = False
        for spec in h.champ.tables():
            entry = h.tables.get(spec.table)
            text = None if entry is None else self._finished_log(entry["server"])
            if entry is None or text is None:
                continue
            try:
                h.champ.record_log(spec.table, text.encode("utf-8"), log_table=entry["server"])
                changed = True
            except ChampionshipError as exc:
                if str(exc) not in h.problems:
                    h.problems.append(str(exc))
        return changed

    def _finished_log(self, sid: str) -> str | None:
        """The log of the server table ``sid`` once its match is over, else ``None``."""
        table = self.server.tables.get(sid)
        if table is not None:
            return table.out.getvalue() if table.match.is_over else None
        path = self.server.store.closed_log(sid)
        if path is None:
            return None
        try:
            return self.server.store.read_log(path)
        except (OSError, ValueError):
            return None

    def kick(self, h: Hosted) -> None:
        """The server tables of the tables to play now that have none made in the background
        (:meth:`make`), unless it is making them already."""
        if h.maker is None and any(s.table not in h.tables for s in h.champ.tables()):
            h.ready.clear()
            h.maker = asyncio.create_task(self.make(h))

    async def make(self, h: Hosted) -> None:
        """Make the server table of each table to play now that has none, one after the
        other, in a worker thread (a table of bots is played out as it is made), outside the
        championship's lock; each one held, its keys saved and its result taken as it is
        made, the archive written once the tables to make are made (not for each: it holds
        every log of the championship)."""
        made = False
        try:
            while True:
                async with h.lock:
                    spec = next((s for s in h.champ.tables() if s.table not in h.tables), None)
                    if spec is None and made:  # the archive, then any table a result opened
                        await self.refresh(h, force=True)
                        made = False
                        continue
                    if spec is None:
                        return
                    seating = self.seating(h, spec)
                try:
                    table = await asyncio.to_thread(self.make_table, **seating)
                except (TrucoError, Refusal, OSError) as exc:  # tried again at the next look
                    if (why := f"table {spec.table} could not be made: {exc}") not in \
                            h.problems:
                        h.problems.append(why)
                    if made:
                        async with h.lock:
                            await self.refresh(h, force=True)
                    return
                async with h.lock:
                    self.hold(h, spec, table)
                    await self.refresh(h, force=True, archive=False)
                    made = True
        finally:
            h.maker = None
            h.ready.set()

    def seating(self, h: Hosted, spec: TableSpec) -> dict[str, Any]:
        """What :attr:`make_table` is given for ``spec``'s server table: its person seats
        opened by their team's tokens, a late table at the time rule's variant."""
        c = h.champ
        players, names, hashes = [], [], {}
        given: dict[str, int] = {}
        for seat, (team, player, bot) in enumerate(spec.seats):
            key = c.team(team).key
            k = given[key] = given.get(key, -1) + 1
            if player is not None:
                players.append(HUMAN)
                names.append(player)
                hashes[seat] = h.teams[key]["seats"][k]
            else:
                players.append(str(bot))
                names.append(f"{team} ({bot})")
        house = None if c.variant_yaml is None else (HOUSE_FILE, c.variant_yaml)
        if spec.late and c.late_yaml is not None:  # the time rule's variant, as a house one
            house = (HOUSE_FILE, c.late_yaml)
        return {"variant": c.definition.variant, "players": players, "names": names,
                "hashes": hashes, "house": house}

    def hold(self, h: Hosted, spec: TableSpec, table: Table) -> None:
        """``table``, made for ``spec``, held by the server and the championship; a table
        whose result was recorded while it was made (an outcome) is taken away."""
        if all(s.table != spec.table for s in h.champ.tables()):
            table.close()
            self.server.store.remove(table.id)
            return
        listed = h.champ.made.get(spec.table)  # when the time rule took its variant
        h.tables[spec.table] = {"server": table.id, "watch": table.spectator_token,
                                **({"late": True} if spec.late else {}),
                                **({} if listed is None else {"listed": listed}),
                                **({} if h.champ.definition.deadline is None else
                                   {"made": self.now()})}  # its deadline runs from now
        self.server.add(table)
        self.server.unjoined.pop(table.id, None)  # the championship awaits its players

    async def cut(self, h: Hosted) -> bool:
        """Each table in play past the championship's ``deadline`` (minutes since it was
        made): its log as it stands recorded (a ``deadline`` result) and no move taken after
        (:meth:`refresh` closes it); a knockout's game level then plays on. Whether any was
        cut."""
        rule = h.champ.definition.deadline
        if rule is None:
            return False
        cut = False
        for spec in h.champ.tables():
            entry = h.tables.get(spec.table) or {}
            table = self.server.tables.get(entry.get("server", ""))
            due = entry.get("made", self.now()) + 60 * rule.after_minutes
            if table is None or self.now() < due:
                continue
            async with self.server.lock(table.id):
                if table.match.is_over:  # its log's result, taken as any
                    continue
                try:
                    await asyncio.to_thread(h.champ.record_log, spec.table,
                                            table.out.getvalue().encode("utf-8"),
                                            log_table=table.id, cut=True)
                except ChampionshipError as exc:
                    if exc.code != "level_at_deadline" and str(exc) not in h.problems:
                        h.problems.append(str(exc))
                    continue
                table.retired = cut = True
        return cut

    async def refresh(self, h: Hosted, force: bool = False, archive: bool = True) -> None:
        """The results taken (:meth:`settle`, in a thread), the change saved, the tables
        recorded without their end closed, the tables to make now given to :meth:`make`
        (under the championship's lock)."""
        cut = await self.cut(h)
        changed = await asyncio.to_thread(self.settle, h)
        if changed or force or cut:
            await asyncio.to_thread(self.save, h, archive)
        for held, ended in self.outcome_tables(h):  # closed: no move taken, watchers told
            await self.server.retire(held, ended)
        self.kick(h)

    # -- what is shown ---------------------------------------------------------------------
    def view(self, h: Hosted) -> dict[str, Any]:
        """The public view: the definition, the standings, every round's pairings with each
        game's result and its table's links (no key, no seat link)."""
        c, d = h.champ, h.champ.definition
        live = {spec.table: spec for spec in c.tables()}
        rounds = []
        for number in range(1, len(c.rounds) + 1):
            data = c.round_data(number)
            for p in data["pairings"]:
                for g in p.get("games", []):
                    g.update(self._links(h, g["table"], False))
                    if g["result"] != "log":  # in words, in the request's language
                        g["said"] = said(g, p["teams"])
                now = [{"table": t, **self._links(h, t, True),
                        **({} if t in h.tables else {"preparing": True}),  # being made
                        **({} if d.late_start is None else {"late": s.late})}
                       for t, s in live.items()
                       if s.round == number and s.pairing == p["pairing"]]
                if now:
                    p["playing"] = now
            rounds.append(data)
        state = "over" if c.is_over else "playing" if c.rounds else \
            "closed" if c.order else "registration"
        return {"championship": h.id, "title": d.title, "variant": d.variant,
                "format": d.fmt, "best_of": d.best_of, "late_start": None if
                d.late_start is None else d.late_start.to_dict(),
                "rounds": c.total_rounds if c.order else d.rounds, "state": state,
                "teams": [t.to_dict() for t in c.teams.values()],
                "standings": c.standings(), "round_data": rounds, "problems": h.problems}

    def _links(self, h: Hosted, table: str, live: bool) -> dict[str, str]:
        entry = h.tables.get(table)
        if entry is None:
            return {}
        sid = entry["server"]
        return {"server_table": sid, "watch": f"/t/{sid}#k={entry['watch']}"} if live else \
            {"server_table": sid, "replay": f"/t/{sid}/replay"}

    def team_view(self, h: Hosted, key: str, team_key: str) -> dict[str, Any]:
        """What a team's key opens: its tables now, with its own seats' links."""
        c = h.champ
        team = c.teams[key]
        tables = []
        for spec in c.tables():
            if team.name not in spec.teams or spec.table not in h.tables:
                continue
            sid = h.tables[spec.table]["server"]
            seats, k = [], 0
            for seat, (name, player, _bot) in enumerate(spec.seats):
                if name != team.name:
                    continue
                if player is not None:
                    seats.append({"seat": seat, "player": player,
                                  "link": f"/t/{sid}#k={seat_token(team_key, k)}"})
                k += 1
            other = spec.teams[1 - spec.teams.index(team.name)]
            tables.append({"table": spec.table, "round": spec.round, "game": spec.game,
                           "opponent": other, "server_table": sid, "seats": seats})
        return {"championship": h.id, "team": team.name, "tables": tables}


# -- the routes --------------------------------------------------------------------------------
def _champs(request: Request) -> Championships:
    found: Championships = request.app.state.champs
    return found


async def _held(request: Request, keys: set[str] | None = None
                ) -> tuple[Hosted, dict[str, Any]] | Response:
    """The championship of the path and the request's object (``keys``: its keys; ``None``:
    a GET), or the refusal."""
    h = _champs(request).held.get(request.path_params["cid"])
    if h is None:
        return refusal(404, "no_championship", "no such championship")
    if keys is None:
        return h, {}
    body = await request_object(request, _champs(request).server.limits, keys, source=False)
    return body if isinstance(body, Response) else (h, body)


async def organiser_request(request: Request, keys: set[str]
                            ) -> tuple[Hosted, dict[str, Any]] | Response:
    """:func:`_held`, refused (403) unless the request's ``key`` is the organiser's."""
    found = await _held(request, keys)
    if not isinstance(found, Response) and not matches(found[1].get("key"), found[0].organiser):
        return refusal(403, "bad_key", "this key does not organise this championship")
    return found


async def create(request: Request) -> Response:
    champs = _champs(request)
    body = await request_object(request, champs.server.limits, CREATE_KEYS)
    if isinstance(body, Response):
        return body
    try:
        h, organiser, registration = await asyncio.to_thread(champs.create, body)
    except VariantError as exc:
        return refusal(400, "variant", variant_errors(exc))
    except (TrucoError, TypeError) as exc:
        return refusal(400, "championship", str(exc))
    base = f"/api/championships/{h.id}"
    return JSONResponse({"championship": h.id, "organiser_key": organiser,
                         "registration_key": registration, "standings": f"/c/{h.id}",
                         "organise": f"/c/{h.id}/organise#key={organiser}",  # champ_pages
                         "register": f"/c/{h.id}/register#key={registration}",
                         "api": base}, 201)


async def register(request: Request) -> Response:
    found = await _held(request, TEAM_KEYS)
    if isinstance(found, Response):
        return found
    h, body = found
    if not matches(body.get("key"), h.registration):
        return refusal(403, "bad_key", "this key does not register teams here")
    async with h.lock:
        try:
            name, key = await asyncio.to_thread(_champs(request).register, h, body)
        except ChampionshipError as exc:
            twice = exc.code == "registered"
            return refusal(409 if twice else 400, "registered" if twice else "team", str(exc))
    return JSONResponse({"team": name, "team_key": key}, 201)


async def organise(request: Request) -> Response:
    """``close`` (the registration) or ``round`` (pair and start the next one)."""
    champs = _champs(request)
    found = await organiser_request(request, {"key"})
    if isinstance(found, Response):
        return found
    h, body = found
    action = request.url.path.rsplit("/", 1)[1]
    async with h.lock:
        await champs.refresh(h)
        try:
            if action == "close":
                order = h.champ.close()
                await asyncio.to_thread(champs.save, h)
                return JSONResponse({"order": order})
            if len(champs.server.tables) + len(h.champ.order) // 2 > champs.server.limits.tables:
                return refusal(503, "full", "this server has no room for a round's tables now")
            h.champ.pair_next_round()
            await champs.refresh(h, force=True)  # saved; its tables made in the background
        except ChampionshipError as exc:
            return refusal(409, "out_of_turn", str(exc))
        view = champs.view(h)
    return JSONResponse({"round": len(h.champ.rounds),
                         "pairings": view["round_data"][-1]["pairings"]})


async def team(request: Request) -> Response:
    found = await _held(request, {"key"})
    if isinstance(found, Response):
        return found
    h, body = found
    key = h.team_of(body.get("key"))
    if key is None:
        return refusal(403, "bad_key", "this key opens no team of this championship")
    async with h.lock:
        await _champs(request).refresh(h)
        return JSONResponse(_champs(request).team_view(h, key, body["key"]))


async def current(champs: Championships, h: Hosted, lang: str) -> dict[str, Any]:
    """The championship's view in ``lang``, its results brought up to date; while another
    request holds the championship (its logs being replayed), the last view shown in
    that language, marked ``"updating": true``, at once instead of after it."""
    shown = h.shown.get(lang)
    if h.lock.locked() and shown is not None:
        return {**shown, "updating": True}
    async with h.lock:
        await champs.refresh(h)
        with i18n.using(lang):
            view = champs.view(h)
    h.shown[lang] = view
    return view


async def standings_json(request: Request) -> Response:
    found = await _held(request)
    if isinstance(found, Response):
        return found
    return JSONResponse(await current(_champs(request), found[0], language.language(request)))


def said(game: dict[str, Any], teams: list[str]) -> str:
    """A result recorded without a log (walkover, forfeit, abandoned table), or decided at
    the deadline, in words."""
    if game["result"] == "deadline":
        return _("level at the deadline") if game["winner"] is None else _(
            "{team} wins at the deadline").format(team=game["winner"])
    if game["result"] == "walkover":
        return _("{team} wins by walkover").format(team=game["winner"])
    if game["result"] == "forfeit":
        return _("{team} forfeited").format(team=teams[1 - teams.index(game["winner"])])
    return _("abandoned")


def routes() -> list[Route]:
    """The championship's routes (docs/serve.md, the API)."""
    base = "/api/championships/{cid}"
    spoken = language.spoken  # the API's answers in the request's language, as the lobby's
    return [Route("/api/championships", spoken(create), methods=["POST"]),
            Route(f"{base}/teams", spoken(register), methods=["POST"]),
            Route(f"{base}/team", spoken(team), methods=["POST"]),
            Route(f"{base}/close", spoken(organise), methods=["POST"]),
            Route(f"{base}/round", spoken(organise), methods=["POST"]),
            Route(base, spoken(standings_json))]
