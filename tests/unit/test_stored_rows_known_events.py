"""The verifier reads every kind of event the game aggregate can store: a kind it does not list would make every
genuine game holding one look damaged ("not a known event")."""

from domain.game import Chained, Game
from service.verification.stored_rows import GAME_EVENTS


def test_every_event_a_game_can_store_is_known_to_the_verifier():
    declared = {c for c in vars(Game).values() if isinstance(c, type) and issubclass(c, Chained)}
    assert declared, "the game declares its chained events"
    assert declared | {Game.Created} == set(GAME_EVENTS)
