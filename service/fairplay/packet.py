"""The fair-play review packet (issue 37 part 4, docs/fairplay.md "Review packet"): the content of the file a director
attaches to a case, built from a report (facade.screen) and its games; api.packet_html renders it.

REFEREE ONLY, like the report it is made from. Only the players (and pairs) the screen referred are in it, with both
stages' statistics and thresholds. For each it lists the decisions that weigh most in the
statistic (domain.review_packet.weighty), each with the move played, the table as that seat saw it just before (the
game's own projection for that seat, never disclosed: no other seat's hidden card), the real deal at that moment
(every card, apart and labelled as such: the reviewers judge the move against it), and where to find it in the store
(game id, the version of the position and of the move) for the links. Players are labelled "Player A",
"Player B", ... unless `names` lifts the labels; the labels are said in every text the packet carries.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from typing import Any
from uuid import UUID

from domain.fairplay import true_states
from domain.review_packet import REVIEW_NOT_VERDICT, blind_lines, blind_pairs, labels, ordered
from domain.wording import count, one_in
from projections.registry import projection_for
from projections.viewers import REFEREE, Viewer
from projections.views import view
from service.errors import NotFound

from .facade import GameInput
from .stages import calibrated_words, screen_judge_of

TEST = ("stage two, the full test: one-sided rank test: at each judged decision, where the played move's advantage in "
        "the real deal ranks among its advantages in deals sampled from what the player could see (a share in (0, 1), "
        "mean 1/2 under honest play); the shares summed over the player's decisions, their variance the larger of the "
        "exact sum and the spread of the games' sums, and the tail of the total (its method: Calibration)")
SCREEN_TEST = ("stage one, the screen, run over every player: the same rank test made cheap (no own-information "
               "analysis, fewer sampled deals a decision, each candidate judged by fewer rollouts or by what it gains "
               "at once, the game's glance); it keeps the full test's null and loses only power, and refers a player "
               "to the full test when its p-value is at or below the referral threshold")
PAIR_TEST = ("the pair test, for two players who sat together in a game of three or more seats: the same rank, with "
             "each decision of each of the two judged against the partner's real hand among hands drawn from what the "
             "seat could see; the screen over every pair, the full precision for the pairs it refers")
CALIBRATION = (
    "Why honest play gives uniform p-values: an honest player's move depends on the hidden cards only through what it "
    "saw, so the real deal is one more of the deals it could not tell apart, and its rank among the sampled deals is "
    "uniform whatever the player's skill (docs/fairplay.md, \"The test\"). The tail's method: the p-value is the "
    "larger of the exact tail of the sum of the shares if the decisions are independent (a convolution of each "
    "decision's equally likely shares) and the normal tail with each game one cluster, so it holds under either "
    "reading (docs/fairplay.md, \"The far tail\"). A panel is asked only when both stages agree (the screen refers, "
    "the full test reaches the panel's threshold), so for an honest player that chance is at most the panel's "
    "threshold; with m players the chance that any honest one is sent to a panel is at most m times it. The two "
    "stages read the same games: the full test is a sharper look at the same evidence, not new evidence.")


def calibration(games: list[str]) -> str:
    """The packet's calibration paragraph: why honest p-values are uniform, the tail's method, and what was measured
    over simulated honest players for each game of the packet (its spec's `calibrated`), or that it was not."""
    measured = " ".join(f"{title}: {said}." for title, said in calibrated_words(games).items())
    return f"{CALIBRATION} Measured (docs/fairplay.md): {measured}"


def scrub(text: str, names: dict[str, str]) -> str:
    """`text` with every player's name, as a whole word, replaced by its label (longest names first, so that "Ann"
    waits for "Ann Lee"; "Eve" is not read in "Every")."""
    for name in sorted(names, key=len, reverse=True):
        if name and name != names[name]:
            text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", names[name].replace("\\", "\\\\"), text)
    return text


def seat_view(record: Any, seat: int, move_index: int, state: Any | None = None) -> dict:
    """The table as `seat` saw it just before the record's move `move_index` (the game's projection for that seat,
    never disclosed; the players' names are not in it)."""
    if state is None:
        state = true_states(record, {seat})[move_index]
    return projection_for(record.game).table(state, Viewer.of_seat(seat), False)


def seat_view_at(app: Any, game_id: Any, seat: Any, version: Any) -> dict:
    """A finished game's view as `seat` saw it at `version` (projections.views.view, the end withheld: no other
    seat's hidden card even at the last version), its players named "seat 0", "seat 1", ... (the packet's links may
    be followed from a blind packet). Raises NotFound for a game that is not over, a seat or a version it lacks."""
    gid = UUID(str(game_id))
    game = app.game(gid)
    if not game.outcome.is_over:
        raise NotFound(f"game {gid} is not over: the fair-play pages show finished games only", field="game_id")
    if not isinstance(seat, int) or not 0 <= seat < len(game.players):
        raise NotFound(f"seat {seat!r}: the game has seats 0 to {len(game.players) - 1}", field="seat")
    if not isinstance(version, int) or not 1 <= version <= game.version:
        raise NotFound(f"version {version!r}: the game has versions 1 to {game.version}", field="version")
    out = view(app.game(gid, version), Viewer.of_seat(seat), withheld=True)
    return {**out, "players": [{**p, "name": f"seat {p['seat']}"} for p in out["players"]]}


def pretty(value: Any, indent: str = "", width: int = 100) -> str:
    """JSON for people: a value that fits `width` on one line stays on one (a card, a position), others open up."""
    flat = json.dumps(value, sort_keys=True)
    if len(indent) + len(flat) <= width or not isinstance(value, (dict, list)) or not value:
        return flat
    inner = indent + "  "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {pretty(v, inner, width)}" for k, v in sorted(value.items())]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    return "[\n" + ",\n".join(inner + pretty(v, inner, width) for v in value) + f"\n{indent}]"


def _move(record: Any, move_index: int) -> dict:
    return {k: v for k, v in record.moves[move_index].items() if k != "seat"}


def _decision(n: int, v: dict, games: dict[str, tuple[int, GameInput]], states: dict) -> dict:
    number, g = games[v["game"]]
    if v["game"] not in states:
        states[v["game"]] = true_states(g.record)
    version = g.versions[v["move_index"]] if g.versions is not None else None
    state = states[v["game"]][v["move_index"]]
    return {"n": n, "game_number": number, "game_id": g.game_id, "seat": v["seat"], "move_index": v["move_index"],
            "version": version, "position_version": None if version is None else version - 1,
            "move": json.dumps(_move(g.record, v["move_index"]), sort_keys=True),
            "seat_view": pretty(seat_view(g.record, v["seat"], v["move_index"], state)),
            "full_view": pretty(projection_for(g.record.game).table(state, REFEREE, True)),
            "weight": v["weight"], "rank": round(v["rank"], 4), "informative": v["informative"],
            "matched_perfect": v["matched_perfect"], "matched_own": v["matched_own"], "partner": v.get("partner")}


def _scrubbing(result: dict, shown: dict[str, str]) -> dict[str, str]:
    """What a blind packet writes for each name of the report: its label, or "another player" for the ones the packet
    leaves out (a name in the event's title)."""
    everyone = {line["player"] for line in result["players"]}
    everyone |= {n for pair in result.get("pairs", []) for n in pair["pair"]}
    return {n: shown.get(n, "another player") for n in everyone}


def build(result: dict, games: list[GameInput], title: str, names: bool = False, tournament_id: str | None = None,
          made_at: datetime | None = None) -> dict:
    """The packet of `result` (service.fairplay.stages.screen over `games`, in that order), for the event called
    `title` (the tournament `tournament_id`, when it is one: its director's links): the players and pairs the screen
    referred, both stages' statistics and thresholds, and their weighty decisions; blind unless `names`. Raises
    ValueError for a report kept in an older form (before the two stages)."""
    if "weighty" not in result or "thresholds" not in result:
        raise ValueError("this report was kept in an older form (before the two stages): ask for it again")
    pairs = result.get("pairs", [])
    shown = labels(result["players"], pairs)
    if names:
        shown = {n: n for n in shown}
    by_label = {g.label: (i, g) for i, g in enumerate(games, 1)}
    lines, pair_lines = blind_lines(result["players"], shown), blind_pairs(pairs, shown)
    real = {shown[line["player"]]: line["player"] for line in result["players"] if line["player"] in shown}
    by_pair = {tuple(w["pair"]): w["decisions"] for w in result.get("pair_weighty", [])}
    states: dict = {}
    referred = [{"label": line["label"], "line": line,
                 "decisions": [_decision(n, v, by_label, states)
                               for n, v in enumerate(result["weighty"].get(real[line["label"]], []), 1)]}
                for line in lines]
    pairs_referred = [{"label": line["label"], "line": line,
                       "decisions": [_decision(n, v, by_label, states)
                                     for n, v in enumerate(by_pair.get(tuple(pair["pair"]), []), 1)]}
                      for line, pair in zip(pair_lines, ordered(pairs))]
    s, t = result["settings"], result["thresholds"]
    return {
        "title": title if names else scrub(title, _scrubbing(result, shown)), "blind": not names,
        "tournament_id": tournament_id,
        "made_at": (made_at or datetime.now(timezone.utc)).strftime("%Y-%m-%d %H:%M UTC"),
        "games": [{"number": i, "game_id": g.game_id, "label": g.label if names else None, "game": g.record.game}
                  for i, g in enumerate(games, 1)],
        "games_text": count(len(games), "game"), "players_text": count(len(result["players"]), "player"),
        "pairs_text": count(len(pairs), "pair"), "pair_test": result.get("pair_test", False),
        "referred_text": count(len(lines), "player"), "pairs_referred_text": count(len(pair_lines), "pair"),
        "screen_judge": screen_judge_of(result),
        "settings": s, "thresholds": {**t, "refer_text": one_in(t["refer"]), "panel_text": one_in(t["panel"])},
        "lines": lines, "pair_lines": pair_lines, "referred": referred, "pairs_referred": pairs_referred,
        "test": TEST, "screen_test": SCREEN_TEST, "pair_test_text": PAIR_TEST,
        "calibration": calibration([g.record.game for g in games]),
        "statement": REVIEW_NOT_VERDICT,
        "reproduce": f"arbiter fairplay {'--tournament ' + tournament_id if tournament_id else 'FILES...'} "
                     f"--samples {s['own_samples']} --perfect-samples {s['perfect_samples']} "
                     f"--worlds {s['worlds']} --screen-samples {s['screen_samples']} "
                     f"--screen-worlds {s['screen_worlds']} --refer {s['refer']} --seed {s['seed']}",
    }


__all__ = ["build", "seat_view", "seat_view_at", "scrub", "TEST", "SCREEN_TEST", "PAIR_TEST", "CALIBRATION",
           "calibration"]
