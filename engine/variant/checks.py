"""What the schema cannot say about a variant: the cross-key checks, block by block (the deck
and manilhas, betting, rounds and play, teams, special hands, side bets), each problem located
where the user wrote it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from engine.errors import VariantError
from engine.i18n import Said, mark
from engine.variant.betting_checks import _answer_errors, _ladder_errors
from engine.variant.deck_checks import _deck_errors
from engine.variant.messages import Err, _where
from engine.variant.reader import KeyPath, _Doc
from engine.variant.side_bet_checks import _side_bet_errors
from engine.variant.special_checks import _special_errors

#: The move kinds' own cross-key checks, ``check(d, err)``, in the order the kinds register
#: (:class:`engine.moves.VariantBlock`): run after the base blocks' checks.
KIND_CHECKS: list[Callable[[dict[str, Any], Err], Iterator[VariantError]]] = []


def _semantic_errors(doc: _Doc, d: dict[str, Any]) -> Iterator[VariantError]:
    """What the schema cannot say: cross-key consistency, of ``d``, the document's data with
    the schema's defaults filled in (where a key's being written matters, ``doc`` says)."""

    def err(path: KeyPath, message: str, also: tuple[KeyPath, ...] = (),
            **fields: object) -> VariantError:
        # A rule that ties several keys is reported at ``path``, unless only one of the
        # ``also`` keys was written in the file being loaded: the user changed that one.
        # ``message`` is a template of the catalog, written with ``fields`` (a :class:`Said`:
        # the English for programs, said again in the reader's language by engine.variant.told).
        said = message if isinstance(message, Said) else Said.of(message, **fields)
        for p in (path, *also):
            if _where(doc, p)["file"] == doc.file:
                return VariantError(said, **_where(doc, p))
        return VariantError(said, **_where(doc, path))

    yield from _deck_errors(d, err)
    yield from _ladder_errors(d, err)
    yield from _answer_errors(d, err)
    yield from _round_errors(d, err)
    yield from _team_errors(d, err)
    yield from _match_errors(d, err)
    for i, rank in enumerate(d["suit_ranking"]["ranks"]):  # P3 (house)
        if rank not in d["ranking"]:
            yield err(("suit_ranking", "ranks", i), mark("expected a rank of ranking "
                      "({ranking}), found {rank}"), (("ranking",),),
                      ranking=" ".join(d["ranking"]), rank=rank)
    def stated(path: KeyPath) -> bool:  # whether a file wrote the key (d has the defaults)
        return path in doc.marks

    yield from _special_errors(d, err, stated)
    yield from _side_bet_errors(d, err, stated)
    for check in KIND_CHECKS:
        yield from check(d, err)


def _round_errors(d: dict[str, Any], err: Err) -> Iterator[VariantError]:
    """``covered_cards``, ``rounds`` and ``play`` (P7, C6, C7, C8 house rules): rounds that
    exist, and constraints on covered cards and raises where there are some."""
    if d["covered_cards"]["from_round"] > d["cards_per_player"]:
        yield err(("covered_cards", "from_round"), mark("there is no such round"))
    if d["rounds"]["tied_round_leader"] == "mao" and d["cards_per_player"] <= 3:
        # C7: a tie after a round won decides the hand; a tie in round 1 (or rounds 1 and 2)
        # leaves the mão leading under every rule
        yield err(("rounds", "tied_round_leader"), mark(
            "with 3 cards or fewer the round after a tie is led by the mão anyway: expected "
            "cards_per_player of at least 4 for tied_round_leader: mao, found {found}"),
            (("cards_per_player",),), found=d["cards_per_player"])
    play = d["play"]
    for key in ("leader_face_up", "no_cover_after_tie", "no_cover_after_partner"):
        if play[key] and not d["covered_cards"]["allowed"]:
            yield err(("play", key), mark("play.{key} constrains covered cards: expected "
                      "covered_cards.allowed: true, found false"),
                      (("covered_cards", "allowed"),), key=key)
    if play["highest_after_tied_first"] and d["cards_per_player"] < 3:
        yield err(("play", "highest_after_tied_first"), mark(
            "after a tied first round each player has one card left: expected "
            "cards_per_player of at least 3, found {found}"), (("cards_per_player",),),
            found=d["cards_per_player"])
    for key in ("raiser_must_beat", "raiser_must_kill"):
        if play[key] and not d["betting"]["ladder"]:
            yield err(("play", key), mark("play.{key} constrains raises: expected a "
                      "betting.ladder with a step, found none"), (("betting", "ladder"),),
                      key=key)


def _match_errors(d: dict[str, Any], err: Err) -> Iterator[VariantError]:
    """``match`` (C11 house): a starting score below the target, from a game the match has."""
    match, target = d["match"], d["game"]["target"]
    if match["start_score"] >= target:
        yield err(("match", "start_score"), mark(
            "a game starting at the target would be won before it is played: expected a "
            "start_score below game.target ({target}), found {found}"), (("game", "target"),),
            target=target, found=match["start_score"])
    teams = len(d["teams"]) or 2
    most = teams * (match["games_to_win"] - 1) + 1  # the games of the longest match
    if match["start_score_from_game"] > most:
        yield err(("match", "start_score_from_game"), mark(
            "a match has at most {most} game: expected a start_score_from_game of at most "
            "{most}, found {found}") if most == 1 else mark(
            "a match has at most {most} games: expected a start_score_from_game of at most "
            "{most}, found {found}"), (("match", "games_to_win"),), most=most,
            found=match["start_score_from_game"])


def _team_errors(d: dict[str, Any], err: Err) -> Iterator[VariantError]:
    """``teams`` (C1, house): every seat in one team; without teams, an even table."""
    players = d["players"]
    if d["teams"]:
        seen: dict[int, int] = {}
        for t, seats in enumerate(d["teams"]):
            for i, seat in enumerate(seats):
                if seat >= players:
                    yield err(("teams", t, i), mark("expected a seat 0..{last}, found {seat}"),
                              (("players",),), last=players - 1, seat=seat)
                elif seat in seen:
                    yield err(("teams", t, i), mark("seat {seat} is in team {team} already"),
                              seat=seat, team=seen[seat])
                else:
                    seen[seat] = t
        missing = [s for s in range(players) if s not in seen]
        if missing:
            yield err(("teams",), mark("every seat plays for a team: seats {seats} are in "
                      "none") if len(missing) > 1 else mark("every seat plays for a team: seat "
                      "{seats} is in none"), (("players",),), seats=", ".join(map(str, missing)))
    elif players % 2:
        yield err(("players",), mark("{players} players cannot sit as two teams in alternate "
                  "seats: expected teams (three players each for himself: [[0], [1], [2]])"),
                  players=players)
