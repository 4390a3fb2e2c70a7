"""Checks on stored games: the hash chain and snapshots, the fair deal, and a replay under the current engine.

Every check works for any game: it reads the game's decider from the registry and never
asks which game it is.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.utils import get_topic

from domain import ENGINE_VERSION
from domain.attempts import attempts_id
from domain.audit import verify_chain
from domain.game import ENGINE, Game
from domain.games import decider_for, spec_for
from domain.randomness import Chance, commitment
from domain.records import parse, replay

from service.errors import NotFound
from service.play.application import Referee

from .stored_rows import ATTEMPT_EVENTS, Damage, Reading, read_game, read_stream

def check_chain(app: Referee, game_id: UUID, kept_head: str | None = None, kept_length: int | None = None) -> dict:
    """Verify a game's stored hash chain (optionally against a head a player or referee kept), its rows and snapshots.

    Every stored row is decoded and checked on its own (stored_rows): a row that no longer decodes, a
    field missing or of the wrong type, an event that cannot be applied, a snapshot that differs from
    its events — each is listed in `problems` at its version. `broken_at` and `problem` give the first
    break of the hash chain, else the first damage found. Raises NotFound only for a game with no rows.
    """
    reading = read_game(app, game_id)
    if not reading.events and reading.unreadable is None:
        raise NotFound(f"no game with id {game_id}")
    return chain_report(app, game_id, reading, kept_head, kept_length)


def chain_report(app: Referee, game_id: UUID, reading: Reading, kept_head: str | None, kept_length: int | None) -> dict:
    """check_chain's report from rows already read (service.verification.integrity reads them once for every check)."""
    return chain_report_of(app, game_id, reading, kept_head, kept_length)


def chain_report_of(app: Referee, game_id: UUID, reading: Reading, kept_head: str | None, kept_length: int | None,
                    attempt_rows: list | None = None) -> dict:
    """chain_report, with the attempts stream's rows already read in bulk (`attempt_rows`)."""
    if reading.unreadable is None:
        report = verify_chain(reading.events, kept_head, kept_length, reading.hashes)
    else:  # the log cannot be read to its end: a kept head cannot be compared with it
        report = verify_chain(reading.events, hashes=reading.hashes)
    damage = list(reading.damage)
    attempts = _attempts_problem(app, game_id, attempt_rows)
    if attempts:
        damage.append(attempts)
    problems = sorted(damage, key=lambda d: (d.version is None, d.version or 0))
    if not report.ok:
        problems.insert(0, Damage(report.broken_at, report.problem))
    first = problems[0] if problems else None
    if not report.ok and reading.unreadable and reading.unreadable.version < report.broken_at:
        first = reading.unreadable
    out = report.as_dict()
    if first is not None:
        out.update(ok=False, broken_at=first.version, problem=first.problem)
    out["problems"] = [d.as_dict() for d in problems]
    return out


def _attempts_problem(app: Referee, game_id: UUID, rows: list | None = None) -> Damage | None:
    """A damaged row or a break in the chain of the game's refused attempts (their own stream, domain.attempts), if any."""
    reading = read_stream(app, attempts_id(game_id), ATTEMPT_EVENTS, name="refused attempt entry", rows=rows)
    if reading.damage:
        return Damage(None, reading.damage[0].problem)
    report = verify_chain(reading.events)
    if not report.ok:
        return Damage(None, f"the refused attempts' chain breaks at entry {report.broken_at}: {report.problem}")
    return None


class _SeedCheck(Chance):
    """The chance of a stored game's re-decision: gives each label the outcome the store holds, and notes
    whether the revealed seed alone gives the same (contract §4); a label the store lacks comes from the seed."""

    __slots__ = ("stored", "seeded", "checked")

    def __init__(self, seed: str, stored: dict):
        super().__init__(seed)
        self.stored = stored
        self.seeded = Chance(seed)
        self.checked: list[tuple[str, bool]] = []

    def shuffle(self, label, items):
        mine = self.seeded.shuffle(label, items)
        got = self.stored.get(label, mine)
        self.checked.append((label, got == mine))
        return list(got)

    def randbelow(self, label, n):
        mine = self.seeded.randbelow(label, n)
        got = self.stored.get(label, mine)
        self.checked.append((label, got == mine))
        return got


def _decisions(decider, events: list) -> list[tuple[Any, list]]:
    """The stored game cut into decisions: (the move or None for the opening / a Rewound event, its game events)."""
    out: list[tuple[Any, list]] = [(None, [])]
    for e in events[1:]:
        if isinstance(e, Game.Rewound):
            out.append((e, []))
        elif isinstance(e, Game.Happened):
            event = decider.decode_event(e.data)
            if e.actor != ENGINE:
                out.append((decider.move_of(event), [(e, event)]))
            else:
                out[-1][1].append((e, event))
    return out


PENDING = "pending: the seed is revealed when the game ends"


def check_deal(app: Referee, game_id: UUID, events: list | None = None) -> dict:
    """The fair-deal check (contract §4), for any game: every random step re-decided from the revealed seed.

    The opening and each move are decided again by the game's own decider, with a chance that
    hands out the outcomes the store holds (so play follows the stored line) and checks each
    against what the seed alone gives for the same cards. `consistent` says whether the stored
    game agrees with its revealed seed (an integrity check); `fair` says more: consistent, and
    dealt by arbiter from a seed it drew (a stacked deck or a creator's seed is provenance, not
    tampering: consistent but never fair).
    """
    events = app.stored_events(game_id) if events is None else events
    if not events:
        raise NotFound(f"no game with id {game_id}")
    created = events[0]
    revealed = next((e.seed for e in events if isinstance(e, Game.SeedRevealed)), None)
    out = {"commitment": created.commitment, "seed": revealed, "stacked": created.stacked,
           "seed_given": created.seed_given, "fixed_outcomes": sorted(created.outcomes), "shuffles": [], "fair": None,
           "consistent": None}
    if revealed is None:
        out["status"] = PENDING
        return out
    if commitment(revealed) != created.commitment:
        out.update(fair=False, consistent=False, status="the revealed seed does not match the commitment")
        return out
    decider = decider_for(created.game)
    setup = decider.configure(created.options, created.players, created.dealer, created.starter)
    state = decider.initial_state(setup)
    problems: list[str] = []
    for decision, stored in _decisions(decider, events):
        if isinstance(decision, Game.Rewound):
            state = decider.load_state(decision.state)
            continue
        results: dict = {}
        for _, event in stored:
            results.update(decider.chance_of(event))
        if results:
            chance = _SeedCheck(revealed, results)
            version = stored[0][0].originator_version
            try:
                if decision is None:
                    decider.start(setup, chance)
                else:
                    decider.decide(state, decision, chance)
            except Exception as e:  # the stored line cannot be decided again: not the seed's game
                problems.append(f"version {version}: the stored move cannot be decided again ({type(e).__name__})")
            for label, ok in chance.checked:
                fixed = label in created.outcomes or (label == "dealer" and created.dealer is not None) \
                    or (label == "starter" and created.starter is not None)
                out["shuffles"].append({"label": label, "version": version, "fixed_by_record": fixed, "verified": ok or fixed})
                if not ok and not fixed:
                    problems.append(f"version {version}: {label} is not the seed's shuffle or roll")
        for _, event in stored:
            state = decider.evolve(state, event)
    reveal_at = next(e.originator_version for e in events if isinstance(e, Game.SeedRevealed))
    resumed = any(isinstance(e, Game.Rewound) and e.originator_version > reveal_at for e in events)
    if resumed:
        problems.append(f"play resumed after a rewind once the seed had been revealed (version {reveal_at}): "
                        "every later draw was known in advance")
    return deal_verdict(out, created, problems)


def deal_verdict(out: dict, created: Any, problems: list[str]) -> dict:
    """check_deal's conclusion: consistent and fair (or not), and the status that says why."""
    out["consistent"] = not problems
    out["fair"] = not problems and not created.stacked and not created.seed_given and not created.outcomes
    if problems:
        out["status"] = "; ".join(problems)
    elif created.stacked or created.outcomes:
        out["status"] = "consistent, but not a random deal: the record fixed the deck or shuffles (stacked game)"
    elif created.seed_given:
        out["status"] = "consistent, but the seed was chosen by the game's creator, not drawn by arbiter"
    else:
        out["status"] = "fair: the commitment and every shuffle match the revealed seed"
    return out


def check_evidence(app: Referee, game_id: UUID, events: list | None = None) -> dict | None:
    """The game's own evidence check, where its spec declares one (`honesty(events, seed)`: commitments made at
    the table checked against the revealed seed): None for games without one, `{"status": "pending"}` until the
    seed is revealed."""
    events = app.stored_events(game_id) if events is None else events
    if not events:
        raise NotFound(f"no game with id {game_id}")
    decider = decider_for(events[0].game)
    if spec_for(events[0].game).honesty is None:
        return None
    revealed = next((e.seed for e in events if isinstance(e, Game.SeedRevealed)), None)
    return evidence_report(decider, [decider.decode_event(e.data) for e in events if isinstance(e, Game.Happened)]
                           if revealed is not None else [], revealed)


def evidence_report(decider: Any, decoded: list, revealed: str | None) -> dict | None:
    """check_evidence's report from the game's Happened events decoded already (`decoded`, in order) and its revealed
    seed (None while the game goes on)."""
    check = spec_for(decider.GAME).honesty
    if check is None:
        return None
    if revealed is None:
        return {"ok": None, "status": "pending: checked once the game ends and its seed is revealed"}
    report = check(decoded, revealed)
    report["status"] = "every commitment and every strike checks" if report["ok"] else "; ".join(report["problems"])
    return report


def game_ids(app: Referee) -> list[UUID]:
    """Every stored game's id, in creation order (from the notification log's Created events)."""
    topic = get_topic(Game.Created)
    ids, start = [], 0
    while True:
        batch = app.recorder.select_notifications(start=start, limit=500, topics=[topic], inclusive_of_start=False)
        if not batch:
            return ids
        ids.extend(n.originator_id for n in batch)
        start = batch[-1].id


def reverify(app: Referee, game_id: UUID, game: Game | None = None) -> dict:
    """Replay a stored game's moves with the current engine and say whether its outcome would differ
    (`game`: the game already folded from its events, else loaded from the store)."""
    game = app.game(game_id) if game is None else game
    doc = game.to_record(reveal_seed=True)
    doc["players"] = game.setup.players()  # as set up: a name given at the table (PlayerNamed) is no move to re-decide
    result = replay(parse(doc))
    now = result.state
    same_state = now == game.state
    differs = []
    if result.illegal is not None:
        differs.append(f"move {result.illegal['move_index']} is now illegal ({result.illegal['rule']}: {result.illegal['reason']})")
    if game.decider.outcome(now) != game.outcome:
        differs.append(f"the outcome would be {game.decider.outcome(now).result!r} instead of {game.outcome.result!r}")
    elif not same_state:
        differs.append("the final position would differ")
    return {"id": str(game_id), "played_under": game.engine_version, "current_engine": ENGINE_VERSION,
            "moves": game.move_count, "same": not differs, "differences": differs}
