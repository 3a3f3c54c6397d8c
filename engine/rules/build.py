"""Building :class:`~engine.rules.Rules` from a resolved, validated variant mapping: each block
from its YAML mapping, the defaults filled in, and the special hands in their general form with
the readers' views of the mapping form."""

from __future__ import annotations

from typing import Any

from engine.cards import parse_card
from engine.rules.blocks import (
    BettingRules,
    BothTeamsHand,
    ConcedeRules,
    CoveredCardRules,
    DeckRules,
    GameRules,
    ManilhaRules,
    MatchRules,
    OneTeamHand,
    PlayRules,
    RoundRules,
    SpecialHand,
    SpecialHandRules,
    Step,
    SuitRanking,
)
from engine.rules.core import Rules
from engine.schemas import with_defaults
from engine.sidebets import side_bets_from_data


def rules_from_data(data: dict[str, Any], source: str = "") -> Rules:
    """Build :class:`Rules` from a resolved, validated variant mapping. A key it leaves out
    takes the schema's ``default`` (:func:`with_defaults`); the rules' ``data`` is the mapping
    as given."""
    full = with_defaults(data)
    man = full["manilhas"]
    bet = full["betting"]
    play = full["play"]
    concede = full["concede"]
    target = full["game"]["target"]
    specials = special_hands_from_data(full["special_hands"])
    one, both = _views(full["special_hands"], specials, target)
    deck = full["deck"]
    vira_suit = man["mode"] == "vira_suit"
    return Rules(
        name=full.get("name", ""),
        title=full.get("title", full.get("name", "")),
        players=full["players"],
        cards_per_player=full["cards_per_player"],
        ranking=tuple(full["ranking"]),
        suit_ranking=SuitRanking(ranks=tuple(full["suit_ranking"]["ranks"]),
                                 suits=tuple(full["suit_ranking"]["suits"])),
        team_seats=tuple(tuple(seats) for seats in full["teams"]),
        deck_rules=DeckRules(
            ranks=tuple(deck["ranks"]),
            minus=tuple(parse_card(c) for c in deck["minus"]),
            plus=tuple(parse_card(c) for c in deck["plus"]),
            extra=tuple(sorted((parse_card(name), entry["above"])
                               for name, entry in deck["extra"].items()))),
        manilhas=ManilhaRules(
            mode=man["mode"],
            suit_order=tuple(man["suit_order"]),
            cards=tuple(parse_card(c) for c in man["cards"])
            if man["mode"] in ("fixed", "vira_suit") else (),
            ranks=tuple(man["ranks"]) if vira_suit else (),
            stand_in=man["stand_in"] if vira_suit else None),
        rounds=RoundRules(tied_round_leader=full["rounds"]["tied_round_leader"],
                          all_tied=full["rounds"]["all_tied"],
                          partners_tie_leader=full["rounds"]["partners_tie_leader"]),
        covered_cards=CoveredCardRules(allowed=full["covered_cards"]["allowed"],
                                       from_round=full["covered_cards"]["from_round"]),
        play=PlayRules(**{key: play[key] for key in (
            "leader_face_up", "no_cover_after_tie", "no_cover_after_partner",
            "highest_after_tied_first",
            "raiser_must_beat", "raiser_must_kill", "blind_places")}),
        betting=BettingRules(
            initial_value=bet["initial_value"],
            ladder=tuple(_step(s, target) for s in bet["ladder"]),
            raise_timing=bet["raise_timing"],
            name_card=bet["name_card"],
            refused_card_shown_in_rounds=tuple(bet["refused_card_shown_in_rounds"]),
            no_raise_when_winning=bet["no_raise_when_winning"],
            answered_by=bet["answered_by"],
            refusal=bet["refusal"],
            raise_back=bet["raise_back"]),
        special_rules=SpecialHandRules(hands=specials, one_team=one, both_teams=both),
        game=GameRules(target=target, cap_score=full["game"]["cap_score"]),
        match=MatchRules(**{key: full["match"][key] for key in (
            "games_to_win", "start_score", "start_score_from_game", "first_dealer")},
            first_dealer_suits=tuple(full["match"]["first_dealer_suits"])),
        concede_rules=ConcedeRules(allowed=concede["allowed"],
                                   instead_of_answer=concede["instead_of_answer"],
                                   in_special_hands=concede["in_special_hands"]),
        side_bets=side_bets_from_data(full),
        data=_freeze(data),
        source=source,
    )


def _step(step: dict[str, Any], target: int) -> Step:
    """One ladder step (C8): ``value: game`` or ``value: match`` stands for the target; a
    numeric value with ``worth`` (house rule) is worth the game or the match at its own value."""
    value = step["value"]
    if value in ("game", "match"):
        return Step(target, step["name"], True, value == "match")
    worth = step["worth"]
    return Step(value, step["name"], worth is not None, worth == "match")


def special_hands_from_data(special: Any) -> tuple[SpecialHand, ...]:
    """The list of special hands of a validated ``special_hands`` value: the list form as it
    is, or the mapping form (``one_team``, ``both_teams``) as the list it means: the
    both-teams hand first (it wins where both apply, P6/M6), then the one-team hand, each only
    where enabled. Keys left out take the schema's defaults."""
    special = with_defaults(special, ("special_hands",))
    if isinstance(special, list):
        return tuple(_entry(e) for e in special)
    out = []
    both, one = special["both_teams"], special["one_team"]
    if both["enabled"]:  # P6, M6
        out.append(SpecialHand(
            name=both["name"], teams="all", from_score=both["from_score"], to_score=None,
            value=both["value"], decision=False, decider="either", show_partner_cards=False,
            fold_points=0, blind=both["blind"], winner_takes_game=both["winner_takes_game"],
            raises=both["raises"], penalty_team_at_score=both["raise_penalty"],
            penalty_other_team=both["raise_penalty"]))
    if one["enabled"]:  # P5, M5
        out.append(SpecialHand(
            name=one["name"], teams="exactly_one", from_score=one["from_score"], to_score=None,
            value=one["value"], decision=one["decision"],
            decider=one["decider"],
            show_partner_cards=one["show_partner_cards"], fold_points=one["fold_points"],
            blind=one["blind"], winner_takes_game=one["winner_takes_game"],
            raises=one["raises"], penalty_team_at_score=one["raise_penalty"]["team_at_score"],
            penalty_other_team=one["raise_penalty"]["other_team"]))
    return tuple(out)


def _entry(e: dict[str, Any]) -> SpecialHand:
    """One entry of the list form, its defaults filled (a key left out means: no decision,
    not blind, the winner does not take the game, and a penalty only where ``raises:
    penalised`` gives one)."""
    when = e["when"]
    penalty = e["raise_penalty"]
    return SpecialHand(
        name=e["name"], teams=when["teams"], from_score=when["from_score"],
        to_score=when["to_score"], value=e["value"], decision=e["decision"],
        decider=e["decider"], show_partner_cards=e["show_partner_cards"],
        fold_points=e["fold_points"], blind=e["blind"],
        winner_takes_game=e["winner_takes_game"], raises=e["raises"],
        penalty_team_at_score=penalty["team_at_score"], penalty_other_team=penalty["other_team"])


def _views(special: Any, specials: tuple[SpecialHand, ...],
           target: int) -> tuple[OneTeamHand, BothTeamsHand]:
    """The readers' views :attr:`Rules.one_team` and :attr:`Rules.both_teams`: the mapping
    form as written; for the list form, its first exactly-one-team and first all-teams entries
    (disabled where there is none)."""
    if isinstance(special, dict):
        one, both = special["one_team"], special["both_teams"]
        return (OneTeamHand(
            enabled=one["enabled"], name=one["name"], from_score=one["from_score"],
            value=one["value"], decision=one["decision"],
            show_partner_cards=one["show_partner_cards"], fold_points=one["fold_points"],
            blind=one["blind"], winner_takes_game=one["winner_takes_game"],
            raises=one["raises"], penalty_team_at_score=one["raise_penalty"]["team_at_score"],
            penalty_other_team=one["raise_penalty"]["other_team"],
            decider=one["decider"]),
            BothTeamsHand(
            enabled=both["enabled"], name=both["name"], from_score=both["from_score"],
            value=both["value"], blind=both["blind"],
            winner_takes_game=both["winner_takes_game"], raises=both["raises"],
            penalty=both["raise_penalty"]))
    o = next((h for h in specials if h.teams == "exactly_one"), None)
    b = next((h for h in specials if h.teams == "all"), None)
    return (OneTeamHand(
        enabled=o is not None, name=o.name if o else "",
        from_score=o.from_score if o else target, value=o.value if o else 1,
        decision=o.decision if o else False,
        show_partner_cards=o.show_partner_cards if o else False,
        fold_points=o.fold_points if o else 0, blind=o.blind if o else False,
        winner_takes_game=o.winner_takes_game if o else False,
        raises=o.raises if o else "penalised",
        penalty_team_at_score=o.penalty_team_at_score if o else "lose_game",
        penalty_other_team=o.penalty_other_team if o else "lose_game",
        decider=o.decider if o else "either"),
        BothTeamsHand(
        enabled=b is not None, name=b.name if b else "",
        from_score=b.from_score if b else target, value=b.value if b else 1,
        blind=b.blind if b else False, winner_takes_game=b.winner_takes_game if b else False,
        raises=b.raises if b else "penalised",
        penalty=b.penalty_team_at_score if b else "lose_game"))


def _freeze(value: Any) -> Any:
    """A deep copy with plain containers, so the Rules' data cannot be changed through the
    caller's dict (it stays a dict for JSON output; Rules itself hashes on its fields)."""
    if isinstance(value, dict):
        return {k: _freeze(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_freeze(v) for v in value]
    return value
