"""Tournament standings: the fold of a tournament's events and the end of its games into one document, and its
standings (service/adapters/standings_store.py keeps the documents in the store, like the catalogue's rows).

Two kinds of events are folded:

- the tournament's own events (domain/tournament/aggregate.py): settings, players, rounds, byes, its games and
  the seating of each (which player sat at which seat);
- the end of any of those games (the generic ``Game.SeedRevealed``: result, winner, scores) and a rewind that
  reopens one (``Game.Rewound``); no game's own event kinds are read. A finished game a ruling reopens keeps its
  result, marked ``provisional``, until it ends again; ``reopened`` names the Swiss rounds drawn on that result
  (drawn before the rewind, or while it was provisional) until the director reviews them (``PairingsReviewed``, or ``RoundRepaired``: the round
  drawn anew, its unplayed games voided).

Rows are JSON documents under a key: ``t:<tournament id>`` (the tournament's document) and ``g:<game id>`` (which
tournament a game belongs to). ``doc_standings(doc)`` turns a document into standings with the pure rules of
domain/tournament/standings.py, so the live standings, a rebuild from an empty table and the fold over every event
(service.adapters.standings_store.fold_all) are the same function of the same events.
"""

from __future__ import annotations

import copy
import logging
from typing import Any, Callable, Sequence

from domain.game import Game
from domain.games import spec_for
from domain.tournament.aggregate import Tournament
from domain.tournament.crosstable import crosstable
from domain.tournament.standings import rank_by_of, standings

log = logging.getLogger("arbiter.standings")
Doc = dict[str, Any]


def evolve(load: Callable[[str], Doc | None], event: Any, seq: int) -> dict[str, Doc]:
    """The rows one event changes ({key: new document}); `load` reads a row (already changed ones included)."""
    if isinstance(event, Tournament.Created):
        key = f"t:{event.originator_id}"
        if load(key) is not None:
            return {}
        return {key: {"id": str(event.originator_id), "seq": seq, "settings": copy.deepcopy(event.settings),
                      "players": [], "rounds": 0, "games": [], "byes": [], "outcomes": {}, "finished": None}}
    if isinstance(event, Tournament.Event):
        key = f"t:{event.originator_id}"
        doc = load(key)
        if doc is None:
            return {}
        doc = copy.deepcopy(doc)
        changed = {key: doc}
        if isinstance(event, Tournament.PlayerEntered):
            doc["players"].append({"name": event.name} if event.team is None else {"name": event.name, "team": event.team})
        elif isinstance(event, Tournament.RoundStarted):
            doc["rounds"] = event.number
            doc["byes"] += [[event.number, p] for p in event.byes]
            doc.setdefault("tables", {})[str(event.number)] = [list(t["players"]) for t in event.tables]
            if event.pairing == "swiss":  # drawn from the standings: on every result still provisional
                for gid, reopened in (doc.get("reopened") or {}).items():
                    if (doc["outcomes"].get(gid) or {}).get("provisional"):
                        reopened["paired"] = [*reopened["paired"], event.number]
        elif isinstance(event, Tournament.RoundRepaired):  # drawn anew: the voided games are no longer its games
            doc["games"] = [g for g in doc["games"] if g["game_id"] not in event.voided]
            doc["byes"] = [b for b in doc["byes"] if b[0] != event.round] + [[event.round, p] for p in event.byes]
            doc["tables"][str(event.round)] = [list(t["players"]) for t in event.tables]
            for gid in event.games:
                reopened = (doc.get("reopened") or {}).get(gid)
                if reopened is not None:
                    reopened["paired"] = [n for n in reopened["paired"] if n != event.round]
        elif isinstance(event, Tournament.PairingsReviewed):
            for gid in event.games:
                reopened = (doc.get("reopened") or {}).get(gid)
                if reopened is not None:
                    reopened["paired"] = [n for n in reopened["paired"] if n != event.round]
        elif isinstance(event, Tournament.GameStarted):
            players = doc["tables"][str(event.round)][event.table]
            doc["games"].append({"round": event.round, "table": event.table, "index": event.index, "board": event.board,
                                 "game_id": event.game_id, "players": list(players)})
            changed[f"g:{event.game_id}"] = {"tournament": doc["id"]}
        elif isinstance(event, Tournament.Edited):
            doc["settings"] = copy.deepcopy(event.settings)
        elif isinstance(event, Tournament.Deleted):
            doc["deleted"] = True
        elif isinstance(event, Tournament.BoardReleased):
            doc["released"] = [*doc.get("released", []), event.board]
        elif isinstance(event, Tournament.Finished):
            doc["finished"] = event.reason
        return changed
    if isinstance(event, (Game.SeedRevealed, Game.Rewound)):
        link = load(f"g:{event.originator_id}")
        if link is None:
            return {}
        key = f"t:{link['tournament']}"
        doc = copy.deepcopy(load(key))
        gid = str(event.originator_id)
        if isinstance(event, Game.SeedRevealed):
            doc["outcomes"][gid] = {"status": "finished", "result": event.result, "winner": copy.deepcopy(event.winner),
                                    "scores": None if event.scores is None else list(event.scores)}
        else:
            spec = spec_for(doc["settings"]["game"])
            outcome = spec.decider.outcome(spec.codec.load_state(event.state))
            before = doc["outcomes"].get(gid)
            if outcome.is_over:
                doc["outcomes"][gid] = {"status": "finished", "result": outcome.result, "winner": outcome.winner_json(),
                                        "scores": None if outcome.scores is None else list(outcome.scores)}
            elif before is not None:  # a finished game reopened by a ruling: its result stands, provisional
                doc["outcomes"][gid] = {**before, "provisional": True}
                if not before.get("provisional"):
                    _reopened(doc, gid)
        return {key: doc}
    return {}


def _reopened(doc: Doc, gid: str) -> None:
    """Record that a ruling reopened a finished game: the Swiss rounds already drawn after its round were paired on
    its result (service/tournaments/rulings.py flags them for the director)."""
    game = next((g for g in doc["games"] if g["game_id"] == gid), None)
    later = [] if game is None or doc["settings"].get("format") != "swiss" else list(range(game["round"] + 1, doc["rounds"] + 1))
    entry = (doc.get("reopened") or {}).get(gid) or {"paired": []}
    doc["reopened"] = {**(doc.get("reopened") or {}), gid: {"paired": sorted(set(entry["paired"]) | set(later))}}


def fold_batch(batch: Sequence[tuple[int, Any]], load: Callable[[str], Doc | None],
               before_each: Callable[[int], None]) -> dict[str, Doc]:
    """Fold (notification id, event) pairs; returns every row to write."""
    rows: dict[str, Doc] = {}

    def current(key: str) -> Doc | None:
        return rows[key] if key in rows else load(key)

    for nid, event in batch:
        before_each(nid)
        if event is None:
            continue
        try:
            rows.update(evolve(current, event, nid))
        except Exception:  # a damaged event (arbiter verify reports it): the rows stay as they were
            log.warning("standings: notification %s cannot be applied", nid)
    return rows


def _doc_games(doc: Doc) -> list[dict]:
    games = []
    for g in doc["games"]:
        outcome = doc["outcomes"].get(g["game_id"], {"status": "in_progress", "result": None, "winner": None, "scores": None})
        games.append({**g, **outcome})
    return games


def doc_standings(doc: Doc) -> dict:
    """A tournament document's standings (domain/tournament/standings.py), ranked as its settings say."""
    return standings(doc["players"], _doc_games(doc), [tuple(b) for b in doc["byes"]], rank_by_of(doc["settings"]))


def doc_crosstable(doc: Doc, order: Sequence[int] | None = None) -> list[dict]:
    """A tournament document's crosstable (domain/tournament/crosstable.py), rows and columns in `order`."""
    return crosstable(doc["players"], _doc_games(doc), [tuple(b) for b in doc["byes"]], order)
