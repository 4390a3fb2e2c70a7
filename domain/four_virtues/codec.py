"""The Four Virtues at the edges (contract §1, §2): cards, record moves, stored events."""

from __future__ import annotations

from ..cards import CardError, parse_card
from ..kit.codec import card_list, check_full_pack, event_codec, full_pack, is_int, move_formatter, say_text
from ..kit.moves import Field, MoveShape, cards, say
from ..rules import MalformedMove

MOVE_TYPES = frozenset({"draw", "meld", "forced_discard", "add", "discard", "done", "say"})
RANK_NAMES = "A23456789T"  # the number cards' ranks (index = rank index)
pack = full_pack  # each round's `deal:r` label shuffles the 52-card pack
check_deck = check_full_pack  # a stacked `deck` fixes round 1 (FV-5.3)

# the moves declared for generic code (domain/kit/moves.py: the OpenAPI document types each from here)
_LOWERED = (Field("card", "card", "the meld's card whose rank is lowered", "FV-3.3"),
            Field("rank", "text", "its new rank (A, 2..9, T or 10)", "FV-3.3"))
MOVES = (
    MoveShape("draw", "the turn's draw: one or two cards from the stock, or the discard pile's top card", "FV-2.2",
              (Field("source", "choice", "where the cards are taken from", "FV-2.2", choices=("stock", "discard")),
               Field("count", "int", "how many from the stock, 1 or 2 (required for the stock; none or 1 for the "
                                     "discard pile)", "FV-5.2", required=False))),
    MoveShape("meld", "lay down a new meld: three or more number cards forming a set or a run, and at most one face "
              "card", "FV-2.3",
              (cards("the meld's number cards", "FV-2.3"),
               Field("face", "card", "the one face card (J, Q or K) put into the meld: its virtue", "FV-3.1",
                     required=False),
               Field("lowered", "object", "clubs: one card of the meld lowered to a rank so that it fits", "FV-3.3",
                     required=False, fields=_LOWERED),
               Field("force", "int", "hearts: how many cards the opponent must discard", "FV-3.4", required=False),
               Field("draw", "int", "spades: how many cards the melder draws from the stock", "FV-3.5",
                     required=False)),
              (Field("force_max", "int", "hearts: the most cards `force` may name", "FV-3.4"),
               Field("draw_max", "int", "spades: the most cards `draw` may name", "FV-3.5"))),
    MoveShape("forced_discard", "the opponent's answer to a hearts meld: discard the cards owed", "FV-3.4",
              (cards("the cards discarded, in the order they go onto the pile", "FV-3.4"),),
              (Field("count", "int", "how many cards of the hand are owed", "FV-3.4"),)),
    MoveShape("add", "add number cards to a meld on the table, whoever made it", "FV-2.4",
              (Field("meld", "int", "the meld's number: 0-based, in the order melds were laid down this round",
                     "FV-5.4"),
               cards("the number cards added, judged as one", "FV-5.2"))),
    MoveShape("discard", "end the turn: one card onto the discard pile", "FV-2.1",
              (cards("the one card discarded", "FV-2.1"),)),
    MoveShape("done", "end the turn and the round without a discard: only after the stock ran out this turn",
              "FV-4.1"),
    say("FV-5.4"),
)


def _card(text) -> int:
    """A card of the 52 (FV-5.4: no joker)."""
    if isinstance(text, str) and text.upper() == "JK":
        raise CardError("there is no joker in The Four Virtues (FV-5.4)")
    return parse_card(text)


def _cards(value, field: str) -> list[int]:
    return card_list(value, field, _card)


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
            if not is_int(raw["count"]):
                raise MalformedMove("count", "must be an integer (FV-5.4)")
            move["count"] = raw["count"]
    elif kind in ("meld", "add", "discard", "forced_discard"):
        if "cards" not in raw:
            raise MalformedMove("cards", f"a {kind} needs a cards list")
        move["cards"] = _cards(raw["cards"], "cards")
        if kind == "add":
            if not is_int(raw.get("meld")):
                raise MalformedMove("meld", "an add names the meld's number, an integer (FV-5.4)")
            move["meld"] = raw["meld"]
        if kind == "meld":
            if raw.get("face") is not None:
                move["face"] = _cards([raw["face"]], "face")[0]
            for key in ("force", "draw"):
                if key in raw:
                    if not is_int(raw[key]):
                        raise MalformedMove(key, "must be an integer (FV-5.4)")
                    move[key] = raw[key]
            if "lowered" in raw:
                low = raw["lowered"]
                if not isinstance(low, dict) or set(low) != {"card", "rank"} or _rank(low.get("rank")) is None:
                    raise MalformedMove("lowered", 'must be {"card": "9H", "rank": "5"} (FV-5.4)')
                move["lowered"] = {"card": _cards([low["card"]], "lowered.card")[0], "rank": _rank(low["rank"])}
    elif kind == "say":
        move["text"] = say_text(raw)
    return move


def _lowered_move(move: dict, format) -> dict:
    if move.get("lowered") is not None:
        move["lowered"] = {"card": format(move["lowered"]["card"]), "rank": "A23456789TJQK"[move["lowered"]["rank"]]}
    return move


def _nested_cards(e: dict, convert) -> dict:
    """The cards an event holds below its fields: the lowered card, each score line's card."""
    if e.get("lowered") is not None:
        e["lowered"] = {"card": convert(e["lowered"]["card"]), "rank": e["lowered"]["rank"]}
    if "lines" in e:
        e["lines"] = [{**line, "card": convert(line["card"])} for line in e["lines"]]
    return e


format_move = move_formatter(singles=("face",), more=_lowered_move)
encode_event, decode_event = event_codec(("cards", "order"), ("face",), more=_nested_cards)


def chance_of(event: dict) -> dict:
    """The random steps an event fixed: each round's deal (and the first dealer)."""
    if event["type"] != "dealt":
        return {}
    out = {f"deal:{event['round']}": list(event["order"])}
    if event["round"] == 1:
        out["dealer"] = event["dealer"]
    return out
