"""The Four Virtues at the edges (contract §1, §2): cards, record moves, stored events."""

from __future__ import annotations

from ..cards import PACK, CardError, convert_cards, format_card, parse_card
from ..rules import InvalidSetup, MalformedMove

MOVE_TYPES = frozenset({"draw", "meld", "forced_discard", "add", "discard", "done", "say"})
RANK_NAMES = "A23456789T"  # the number cards' ranks (index = rank index)
_CARD_LISTS = ("cards", "order")


def pack(setup=None) -> list[int]:
    """The 52-card pack each round's `deal:r` label shuffles."""
    return list(PACK)


def check_deck(setup, deck: list[int]) -> None:
    """A stacked `deck` (round 1, FV-5.3) holds each of the 52 cards exactly once."""
    if len(deck) != 52 or len(set(deck)) != 52:
        raise InvalidSetup("deck", f"must hold each of the 52 cards exactly once (got {len(deck)} cards, {len(set(deck))} distinct)")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _cards(value, field: str) -> list[int]:
    if not isinstance(value, list):
        raise MalformedMove(field, "must be a list of card strings")
    out = []
    for i, text in enumerate(value):
        if isinstance(text, str) and text.upper() == "JK":
            raise MalformedMove(f"{field}[{i}]", "there is no joker in The Four Virtues (FV-5.4)")
        try:
            out.append(parse_card(text))
        except CardError as e:
            raise MalformedMove(f"{field}[{i}]", str(e)) from None
    return out


def _rank(text) -> int | None:
    """A rank string of a lowering: A, 2..9, 10/T, J, Q, K -> rank index; None if not a rank."""
    if not isinstance(text, str):
        return None
    t = text.upper()
    if t == "10":
        t = "T"
    full = "A23456789TJQK"
    return full.index(t) if len(t) == 1 and t in full else None


def parse_move(raw: dict, n: int) -> dict:
    """A record move's own fields (seat and type already checked); raises MalformedMove (FV-5.4)."""
    kind = raw["type"]
    move: dict = {"seat": raw["seat"], "type": kind}
    if kind == "draw":
        source = raw.get("source")
        if source not in ("stock", "discard"):
            raise MalformedMove("source", "a draw needs source 'stock' or 'discard'")
        move["source"] = source
        if source == "stock" and "count" not in raw:
            raise MalformedMove("count", "a stock draw names its count (FV-5.2)")
        if "count" in raw:
            if not _is_int(raw["count"]):
                raise MalformedMove("count", "must be an integer (FV-5.4)")
            move["count"] = raw["count"]
    elif kind in ("meld", "add", "discard", "forced_discard"):
        if "cards" not in raw:
            raise MalformedMove("cards", f"a {kind} needs a cards list")
        move["cards"] = _cards(raw["cards"], "cards")
        if kind == "add":
            if not _is_int(raw.get("meld")):
                raise MalformedMove("meld", "an add names the meld's number, an integer (FV-5.4)")
            move["meld"] = raw["meld"]
        if kind == "meld":
            if raw.get("face") is not None:
                move["face"] = _cards([raw["face"]], "face")[0]
            for key in ("force", "draw"):
                if key in raw:
                    if not _is_int(raw[key]):
                        raise MalformedMove(key, "must be an integer (FV-5.4)")
                    move[key] = raw[key]
            if "lowered" in raw:
                low = raw["lowered"]
                if not isinstance(low, dict) or set(low) != {"card", "rank"} or _rank(low.get("rank")) is None:
                    raise MalformedMove("lowered", 'must be {"card": "9H", "rank": "5"} (FV-5.4)')
                move["lowered"] = {"card": _cards([low["card"]], "lowered.card")[0], "rank": _rank(low["rank"])}
    elif kind == "say":
        if not isinstance(raw.get("text"), str):
            raise MalformedMove("text", "a say needs a text string")
        move["text"] = raw["text"]
    return move


def format_move(move: dict) -> dict:
    """The record form of a move: cards as strings."""
    out = {}
    for k, v in move.items():
        if k == "cards":
            v = [format_card(c) for c in v]
        elif k == "face":
            v = format_card(v)
        elif k == "lowered":
            v = {"card": format_card(v["card"]), "rank": "A23456789TJQK"[v["rank"]]}
        out[k] = v
    return out


def _convert(e: dict, convert) -> dict:
    """An event with every card converted: its lists, the face card, the lowered card, each score line's card."""
    out = convert_cards(e, convert, _CARD_LISTS, ("face",))
    if out.get("lowered") is not None:
        out["lowered"] = {"card": convert(out["lowered"]["card"]), "rank": out["lowered"]["rank"]}
    if "lines" in out:
        out["lines"] = [{**line, "card": convert(line["card"])} for line in out["lines"]]
    return out


def encode_event(e: dict) -> dict:
    """A domain event with its cards as strings (how it is stored)."""
    return _convert(e, format_card)


def decode_event(e: dict) -> dict:
    """The inverse of encode_event."""
    return _convert(e, parse_card)


def chance_of(event: dict) -> dict:
    """The random steps an event fixed: each round's deal (and the first dealer)."""
    if event["type"] != "dealt":
        return {}
    out = {f"deal:{event['round']}": list(event["order"])}
    if event["round"] == 1:
        out["dealer"] = event["dealer"]
    return out
