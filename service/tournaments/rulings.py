"""Rounds that respect rulings: what a tournament's director must see before the next round, and after a ruling.

- **Open disputes before a round.** Starting a round while a game of an earlier round has disputes awaiting a
  ruling (a seat's, or a clock's flag: every entry of `Game.disputes` without a ruling) is refused (409, field
  `confirm`) naming them, unless the director confirms; the confirmation is recorded on the tournament
  (`Tournament.OpenDisputesConfirmed`, with the director's note). Rounds that start by themselves (`auto_rounds`)
  wait for the director instead.
- **A reopened game.** A ruling whose rewind returns a finished game to play reopens it: the game is played again at
  its table (seats, clocks and bots as before the end). Its result, as recorded, stays in the standings marked
  provisional (projections/standings.py) until the game ends again.
- **Pairings made on it.** A Swiss round drawn while a result it was paired on is provisional, or whose result has
  since been reopened, is flagged for the director (`pairings_to_review`), who keeps its pairings
  (`Tournament.PairingsReviewed`, with the clause or note that justifies it) or re-pairs it
  (`Tournament.RoundRepaired`: the last round, once the reopened games have ended again and while none of its games
  has begun; its games are voided and the new tables' games created in the same save). Round-robin, team and match rounds
  are drawn without the results: their pairings cannot depend on a reopened one.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.tournament.aggregate import Tournament

from service.errors import BadInput, Conflict

DECISIONS = ("keep", "repair")
NOTE_MAX = 500


def open_disputes(app: Any, t: Tournament) -> list[dict]:
    """Every game of the tournament with disputes awaiting a ruling: [{"round", "table", "game_id", "numbers"}]."""
    out = []
    for g in t.games():
        waiting = [d["number"] for d in app.game(UUID(g["game_id"])).disputes if d.get("ruling") is None]
        if waiting:
            out.append({"round": g["round"], "table": g["table"], "game_id": g["game_id"], "numbers": waiting})
    return out


def in_words(disputes: list[dict]) -> str:
    """"round 1 table 18 (disputes 1, 2), round 1 table 19 (dispute 1)": tables counted from 1, as the page shows."""
    def one(d: dict) -> str:
        numbers = ", ".join(str(n) for n in d["numbers"])
        return f"round {d['round']} table {d['table'] + 1} (dispute{'s' if len(d['numbers']) > 1 else ''} {numbers})"

    return ", ".join(one(d) for d in disputes)


def unconfirmed(number: int, disputes: list[dict]) -> Conflict:
    """The refusal of a round started over open disputes without the director's confirmation."""
    count = sum(len(d["numbers"]) for d in disputes)
    return Conflict(f"{count} dispute{'s' if count > 1 else ''} await{'' if count > 1 else 's'} a ruling: "
                    f"{in_words(disputes)}. Rule on them first, or start round {number} anyway with confirm: true "
                    "(recorded on the tournament)", field="confirm")


def note_of(value: Any, field: str = "note") -> str:
    """A director's note: text of at most NOTE_MAX characters (none: empty)."""
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > NOTE_MAX:
        raise BadInput(f"{field}: expected a text of at most {NOTE_MAX} characters", field=field)
    return value.strip()


def to_review(doc: dict, t: Tournament) -> list[dict]:
    """The rounds whose pairings were made on a result a ruling reopened, not yet reviewed since:
    [{"round", "games": [{"round", "table", "game_id", "players", "status"}]}] (status: `reopened` while the game is
    played again, `ended again` once it is over)."""
    names = [p["name"] for p in t.players]
    by_round: dict[int, list[dict]] = {}
    for gid, reopened in (doc.get("reopened") or {}).items():
        for number in reopened.get("paired", ()):
            game = next((g for g in doc["games"] if g["game_id"] == gid), None)
            if game is None:
                continue
            outcome = doc["outcomes"].get(gid) or {}
            by_round.setdefault(number, []).append({
                "round": game["round"], "table": game["table"], "game_id": gid,
                "players": [names[p] for p in game["players"]],
                "status": "reopened" if outcome.get("provisional") else "ended again"})
    return [{"round": n, "games": sorted(games, key=lambda g: (g["round"], g["table"]))}
            for n, games in sorted(by_round.items())]


def review(t: Tournament, doc: dict, number: Any, decision: Any, clause: Any, note: Any) -> tuple[dict, str, str]:
    """Check the director's word on round `number`'s flagged pairings: the flagged round, the clause and the note
    (`keep` is recorded on `t` here; `repair` is drawn by the caller after `repair_check`); raises BadInput,
    Conflict."""
    if decision not in DECISIONS:
        raise BadInput(f"decision: expected one of {', '.join(DECISIONS)}", field="decision")
    clause_text, note_text = note_of(clause, "clause"), note_of(note)
    if not clause_text and not note_text:
        raise BadInput("note: say why (a clause, or a note): the decision is recorded for everyone", field="note")
    flagged = next((r for r in to_review(doc, t) if r["round"] == number), None)
    if flagged is None:
        raise Conflict(f"round {number}'s pairings are not flagged: no result they were made on has been reopened",
                       field="round")
    if decision == "keep":
        t.review_pairings(number, decision, [g["game_id"] for g in flagged["games"]], clause_text, note_text)
    return flagged, clause_text, note_text


def repair_check(app: Any, t: Tournament, flagged: dict) -> list[str]:
    """Whether round `flagged["round"]` can be drawn anew: the last round, not a duplicate one (its boards were dealt
    at its tables), every reopened game it was paired on over again (else the draw would read the same provisional
    result), and none of its games begun (a voided game loses nothing). Returns the games to void; raises Conflict."""
    number = flagged["round"]
    if number != len(t.rounds) or t.finished:
        raise Conflict(f"only the round being played can be re-paired; round {number} is over: keep its pairings",
                       field="decision")
    if t.rounds[-1]["boards"]:
        raise Conflict(f"round {number} is a duplicate round whose boards were dealt at its tables: they cannot be "
                       "dealt again; keep its pairings", field="decision")
    again = [g for g in flagged["games"] if g["status"] != "ended again"]
    if again:
        raise Conflict(f"round {again[0]['round']} table {again[0]['table'] + 1} is being played again: re-pair once "
                       "it has ended (the draw reads its result), or keep the pairings", field="decision")
    voided = [g["game_id"] for table in t.rounds[-1]["tables"] for g in table["games"]]
    begun = [i for i, gid in enumerate(voided) if app.game(UUID(gid)).move_versions]
    if begun:
        raise Conflict(f"round {number}'s games have begun: re-pairing would void games in play; keep its pairings",
                       field="decision")
    return voided
