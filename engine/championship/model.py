"""A championship's definition and its teams, as plain data: what the organiser decides before
the first round (the variant, the format, the seeding, the seed) and who registered.

Names are people's input: :func:`clean_name` normalises them (Unicode NFC, spaces collapsed)
and refuses what no name holds (control and format characters, which could rewrite a
terminal's or a page's text, and names over :data:`MAX_NAME` characters). A team's key is its
name case-folded: two teams whose names differ only by case are the same team.

>>> clean_name("  Os   Zaps ")
'Os Zaps'
>>> Team.from_dict({"name": "Os Zaps", "players": ["Ana", "Bia"]}).key
'os zaps'
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from engine.errors import TrucoError

#: The longest team or player name, in characters.
MAX_NAME = 40
#: The longest title of a championship, in characters.
MAX_TITLE = 100
#: The most teams a championship takes.
MAX_TEAMS = 1024
#: The most games a pairing is played over (best of N).
MAX_BEST_OF = 9
FORMATS = ("swiss", "knockout", "round-robin")
SEEDINGS = ("draw", "given")


class ChampionshipError(TrucoError):
    """A championship's input is refused: a bad definition, a team registering twice, a log
    that does not verify, a move out of order (pairing before the results are in). ``code``
    is stable (docs/error-codes.md, "Championships"): given by a :class:`~engine.errors.Why`,
    else ``championship``.

    >>> from engine.errors import Why
    >>> err = ChampionshipError(Why("registered", "team 'A' is registered already"))
    >>> str(err), err.code
    ("team 'A' is registered already", 'registered')
    """

    def __init__(self, why: str, **kw: Any) -> None:
        self.code: str = getattr(why, "code", None) or "championship"
        super().__init__(str(why), **kw)


def clean_name(value: object, what: str = "name", limit: int = MAX_NAME) -> str:
    """``value`` as a name: NFC, spaces collapsed, 1 to ``limit`` characters without
    control or format characters. Raises :class:`ChampionshipError`.

    >>> clean_name("a\\u202eb")
    Traceback (most recent call last):
    engine.championship.model.ChampionshipError: name: 'a\\u202eb' holds a control or format \
character (U+202E)
    """
    if not isinstance(value, str):
        raise ChampionshipError(f"{what}: expected text, found {type(value).__name__}")
    raw = unicodedata.normalize("NFC", value)
    for ch in raw:
        if unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs", "Zl", "Zp"):
            raise ChampionshipError(f"{what}: {raw[:limit]!r} holds a control or format "
                                    f"character (U+{ord(ch):04X})")
    text = " ".join(raw.split())
    if not text:
        raise ChampionshipError(f"{what}: empty")
    if len(text) > limit:
        raise ChampionshipError(f"{what}: {len(text)} characters, at most {limit} "
                                f"({text[:limit]!r}...)")
    return text


@dataclass(frozen=True)
class Team:
    """A registered team: its ``name``, its players' names (the seats it holds, in order; a
    seat without a name is played by ``bot``) and the bot that fills it (``None``: people
    only, every seat named)."""

    name: str
    players: tuple[str, ...] = ()
    bot: str | None = None

    @property
    def key(self) -> str:
        """The name case-folded: what makes two registrations the same team."""
        return self.name.casefold()

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "players": list(self.players), "bot": self.bot}

    @classmethod
    def from_dict(cls, data: Any) -> Team:
        """A team from plain data, its names cleaned (:func:`clean_name`). Raises
        :class:`ChampionshipError`."""
        if not isinstance(data, dict):
            raise ChampionshipError("team: expected an object with name, players, bot")
        unknown = sorted(set(data) - {"name", "players", "bot"})
        if unknown:
            raise ChampionshipError(f"team: unknown key {unknown[0]!r}; expected name, "
                                    "players, bot")
        name = clean_name(data.get("name"), "team name")
        players = data.get("players", [])
        if not isinstance(players, list) or len(players) > 8:
            raise ChampionshipError(f"team {name!r}: players: expected a list of up to 8 names")
        bot = data.get("bot")
        if bot is not None and (not isinstance(bot, str) or not bot or len(bot) > 64):
            raise ChampionshipError(f"team {name!r}: bot: expected a bot's name")
        return cls(name, tuple(clean_name(p, f"team {name!r}: player name") for p in players),
                   bot)


@dataclass(frozen=True)
class LateStart:
    """A regulation's time rule: every game whose table is made ``after_minutes`` or more
    after the first round started is played from ``start_score`` (Tupan: "after 1h30 the
    remaining games start at 11 x 11": ``LateStart(90, 11)``)."""

    after_minutes: int
    start_score: int

    def to_dict(self) -> dict[str, int]:
        return {"after_minutes": self.after_minutes, "start_score": self.start_score}

    @classmethod
    def from_dict(cls, data: Any) -> LateStart | None:
        """``late_start`` from plain data (``None``: no time rule). Raises
        :class:`ChampionshipError` for unknown keys or values out of range (the score is
        checked against the variant's target by the championship)."""
        if data is None:
            return None
        if not isinstance(data, dict):
            raise ChampionshipError("late_start: expected {after_minutes: N, start_score: S}, "
                                    f"found {str(data)[:60]!r}")
        unknown = sorted(set(data) - {"after_minutes", "start_score"})
        if unknown:
            raise ChampionshipError(f"late_start: unknown key {str(unknown[0])[:40]!r}; "
                                    "expected after_minutes, start_score")
        missing = [k for k in ("after_minutes", "start_score") if k not in data]
        if missing:
            raise ChampionshipError(f"late_start: missing {missing[0]}")
        after = _int(data, "after_minutes", -1, "late_start.")
        score = _int(data, "start_score", -1, "late_start.")
        if not 0 <= after <= 100_000:
            raise ChampionshipError(f"late_start.after_minutes: expected 0 to 100000 minutes, "
                                    f"found {after}")
        if score < 1:
            raise ChampionshipError(f"late_start.start_score: expected a score of 1 or more, "
                                    f"found {score}")
        return cls(after, score)


@dataclass(frozen=True)
class Deadline:
    """A regulation's deadline: a game still unfinished ``after_minutes`` after its table was
    made is decided by its log as it stands (docs/championship.md, "A game's deadline")."""

    after_minutes: int

    def to_dict(self) -> dict[str, int]:
        return {"after_minutes": self.after_minutes}

    @classmethod
    def from_dict(cls, data: Any) -> Deadline | None:
        """``deadline`` from plain data (``None``: none). Raises :class:`ChampionshipError`."""
        if data is None:
            return None
        if not isinstance(data, dict) or set(data) != {"after_minutes"}:
            raise ChampionshipError("deadline: expected {after_minutes: N}, found "
                                    f"{str(data)[:60]!r}")
        after = _int(data, "after_minutes", -1, "deadline.")
        if not 1 <= after <= 100_000:
            raise ChampionshipError(f"deadline.after_minutes: expected 1 to 100000 minutes, "
                                    f"found {after}")
        return cls(after)


@dataclass(frozen=True)
class Definition:
    """What the organiser decides: ``variant`` (a shipped name, or ``variant.yaml``: the
    house file embedded in the archive), ``fmt`` (:data:`FORMATS`), ``rounds`` (Swiss; the
    other formats derive theirs), ``best_of`` (games a pairing is played over, odd),
    ``seeding`` (``draw``: an order drawn from ``seed``; ``given``: the registration order)
    and ``seed`` (the draw, and the offline bots' deals)."""

    title: str
    variant: str
    fmt: str
    rounds: int = 0
    best_of: int = 1
    seeding: str = "draw"
    seed: int = 0
    #: The fingerprint of the variant's rules (every log's ``variant_sha256`` must be it).
    variant_sha256: str = ""
    teams: tuple[Team, ...] = field(default=())
    #: The registration is closed (the teams seeded).
    closed: bool = False
    #: The time rule: later games start at a score (``None``: none).
    late_start: LateStart | None = None
    #: The time rule: a game unfinished after a time is decided as it stands.
    deadline: Deadline | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"championship": 1, "title": self.title, "variant": self.variant,
                "variant_sha256": self.variant_sha256, "format": self.fmt,
                "rounds": self.rounds, "best_of": self.best_of, "seeding": self.seeding,
                "seed": self.seed, "closed": self.closed,
                "teams": [t.to_dict() for t in self.teams],
                **({} if self.late_start is None else
                   {"late_start": self.late_start.to_dict()}),
                **({} if self.deadline is None else {"deadline": self.deadline.to_dict()})}

    @classmethod
    def from_dict(cls, data: Any) -> Definition:
        """A definition from plain data (``championship.json``), checked
        (:meth:`check`). Raises :class:`ChampionshipError`."""
        if not isinstance(data, dict) or data.get("championship") != 1:
            raise ChampionshipError('not a championship definition ({"championship": 1, ...})')
        keys = {"championship", "title", "variant", "variant_sha256", "format", "rounds",
                "best_of", "seeding", "seed", "closed", "teams", "late_start", "deadline"}
        unknown = sorted(set(data) - keys)
        if unknown:
            raise ChampionshipError(f"unknown key {unknown[0]!r}; expected one of: "
                                    f"{', '.join(sorted(keys))}")
        teams = data.get("teams", [])
        if not isinstance(teams, list):
            raise ChampionshipError("teams: expected a list")
        closed = data.get("closed", False)
        if not isinstance(closed, bool):
            raise ChampionshipError(f"closed: expected true or false, found {closed!r}")
        made = cls(title=clean_name(data.get("title", "Championship"), "title", MAX_TITLE),
                   variant=_text(data, "variant"), fmt=_text(data, "format"),
                   rounds=_int(data, "rounds", 0), best_of=_int(data, "best_of", 1),
                   seeding=_text(data, "seeding", "draw"), seed=_int(data, "seed", 0),
                   variant_sha256=_text(data, "variant_sha256", ""),
                   teams=tuple(Team.from_dict(t) for t in teams), closed=closed,
                   late_start=LateStart.from_dict(data.get("late_start")),
                   deadline=Deadline.from_dict(data.get("deadline")))
        made.check()
        return made

    def check(self) -> None:
        """Raise :class:`ChampionshipError` for a format, seeding, rounds or best-of out of
        range."""
        if self.fmt not in FORMATS:
            raise ChampionshipError(f"format: expected one of {', '.join(FORMATS)}, found "
                                    f"{self.fmt!r}")
        if self.seeding not in SEEDINGS:
            raise ChampionshipError(f"seeding: expected draw or given, found {self.seeding!r}")
        if not (1 <= self.best_of <= MAX_BEST_OF and self.best_of % 2):
            raise ChampionshipError(f"best_of: expected an odd number from 1 to "
                                    f"{MAX_BEST_OF}, found {self.best_of}")
        if self.fmt == "swiss" and not 1 <= self.rounds <= 64:
            raise ChampionshipError(f"rounds: a Swiss needs 1 to 64 rounds, found "
                                    f"{self.rounds}")
        if not 0 <= self.seed < 1 << 64:
            raise ChampionshipError(f"seed: expected 0 to 2^64-1, found {self.seed}")


def _text(data: dict[str, Any], key: str, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise ChampionshipError(f"{key}: expected text, found {value!r}")
    return value


def _int(data: dict[str, Any], key: str, default: int, where: str = "") -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ChampionshipError(f"{where}{key}: expected a whole number, found {value!r}")
    return value
