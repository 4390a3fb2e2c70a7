"""Helpers for tests: stacked decks and record documents."""

from __future__ import annotations

from domain.cards import PACK, format_card, parse_card
from domain.records import parse, replay


def stacked_deck(hands: list[list[str]], dealer: int = 0, deck_top: list[str] = ()) -> list[str]:
    """A 52-card deck order dealing `hands[seat]` (4 cards each, ER-2.1) and then `deck_top` first off the deck.

    The deal goes one card at a time clockwise beginning with the dealer; the rest of the pack
    follows in unshuffled order.
    """
    n = len(hands)
    order: list[str | None] = [None] * (4 * n)
    for seat, hand in enumerate(hands):
        assert len(hand) == 4, f"seat {seat} must be dealt 4 cards"
        for k, card in enumerate(hand):
            order[k * n + (seat - dealer) % n] = card
    used = [parse_card(c) for c in order] + [parse_card(c) for c in deck_top]
    assert len(set(used)) == len(used), "a card is dealt twice"
    rest = [format_card(c) for c in PACK if c not in set(used)]
    return [format_card(parse_card(c)) for c in order] + [format_card(parse_card(c)) for c in deck_top] + rest


def record(hands, moves, edition="revised", teams=None, dealer=0, starter=0, deck_top=(), **extra) -> dict:
    """A stacked-deck `arbiter.record/1` document; moves are (seat, type, cards-or-None) tuples or dicts."""
    players = [{"name": f"P{i}"} if teams is None else {"name": f"P{i}", "team": teams[i]} for i in range(len(hands))]
    doc = {"format": "arbiter.record/1", "game": "el-royale", "options": {"edition": edition, **extra.pop("options", {})},
           "players": players, "seed": "00ff", "deck": stacked_deck(hands, dealer, deck_top),
           "dealer": dealer, "starter": starter, "moves": [_move(m) for m in moves]}
    doc.update(extra)
    return doc


def _move(m):
    if isinstance(m, dict):
        return m
    seat, kind, *rest = m
    out = {"seat": seat, "type": kind}
    if rest and rest[0] is not None:
        out["cards"] = list(rest[0])
    return out


def verdict(doc: dict) -> dict:
    """The contract §2 verdict of a record document."""
    return replay(parse(doc)).verdict()


def drop_store_schema(conn, schema: str) -> None:
    """Drop a PostgreSQL test store's schema with its evidence (the `<schema>_evidence` schema and its writer role,
    service.evidence.pg_tables), on an autocommit psycopg connection."""
    from psycopg import sql

    for name in (schema, f"{schema}_evidence"):
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name)))
    conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(f"{schema}_evidence_writer")))
