"""The verifier reads every kind of event the game aggregate can store: a kind it does not list would make every
genuine game holding one look damaged ("not a known event")."""

from domain.game import Chained, Game
from service.verification.stored_rows import GAME_EVENTS


def test_every_event_a_game_can_store_is_known_to_the_verifier():
    declared = {c for c in vars(Game).values() if isinstance(c, type) and issubclass(c, Chained)}
    assert declared, "the game declares its chained events"
    assert declared | {Game.Created} == set(GAME_EVENTS)


def _created(**drop_or_add):
    from domain.records import parse

    game = Game.start(parse({"format": "arbiter.record/1", "game": "small-battle", "options": {},
                             "players": [{"name": "A"}, {"name": "B"}], "moves": []}))
    created = next(e for e in game.collect_events() if isinstance(e, Game.Created))
    for name, value in drop_or_add.items():
        if value is None:
            del created.__dict__[name]
        else:
            created.__dict__[name] = value
    return created


def test_a_created_row_stored_before_delays_clocks_and_the_imported_mark_has_the_right_shape():
    from eventsourcing.utils import get_topic

    from service.verification.row_shapes import HINTS, shape_ok, shape_problem

    topic = get_topic(Game.Created)
    cls, hints = HINTS[topic]
    assert shape_ok(_created(), topic) and shape_problem(_created(), cls, hints) is None
    old = _created(imported=None, time_control=None, spectator_delay=None)
    assert shape_ok(old, topic) and shape_problem(old, cls, hints) is None
    for damaged, problem in ((_created(seed=None), "field 'seed' is missing"),
                             (_created(imported="yes"), "field 'imported' is a str where a bool belongs"),
                             (_created(extra=1), "field 'extra' does not belong")):
        assert not shape_ok(damaged, topic)
        assert problem in shape_problem(damaged, cls, hints)


def test_a_refused_attempt_stored_before_record_move_has_the_right_shape():
    from uuid import uuid4

    from eventsourcing.utils import get_topic

    from domain.attempts import Attempts
    from service.verification.row_shapes import HINTS, shape_ok, shape_problem

    attempts = Attempts.open(uuid4())
    attempts.refuse("seat:0", {"type": "pass"}, "X-1", "not now", 3, "v")
    refused = [e for e in attempts.collect_events() if isinstance(e, Attempts.Refused)][0]
    topic = get_topic(Attempts.Refused)
    cls, hints = HINTS[topic]
    assert refused.record_move is None and shape_ok(refused, topic)
    del refused.__dict__["record_move"]
    assert shape_ok(refused, topic) and shape_problem(refused, cls, hints) is None
    del refused.__dict__["reason"]
    assert not shape_ok(refused, topic) and "field 'reason' is missing" in shape_problem(refused, cls, hints)
