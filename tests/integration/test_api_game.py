"""A whole four-seat team game played over HTTP to a win (contract §3), then checked from every angle.

The deal is worked example 5 of the rulebook (tests/unit/test_worked_examples.py), seated as North, East,
South, West with North and South ("NS") against East and West ("EW"): four battles, four cards drawn
(AC by West, AD by East, AH and AS by South), and North wins for NS by throwing in its last two tens
(ER-4.1, ER-4.2). Every move goes through POST /moves with the token of the seat whose view lists
legal moves; the plan names the seat only to check that the service agrees whose turn it is.
"""

from __future__ import annotations

import hashlib
import json
import time

import pytest

from domain.records import parse, replay

from .api_support import API, TEAMS_NSEW, Table, cards_in, create_stacked, referee_view

HANDS = [["4C", "4D", "4H", "TC"], ["TH", "2C", "7D", "8D"], ["TS", "3C", "6S", "9S"], ["TD", "5H", "7H", "9H"]]
DRAWS = ["AC", "AD", "AH", "AS"]  # off the deck in this order: West (B1), East and South (B2), South (B3)
NORTH, EAST, SOUTH, WEST = range(4)


def mv(seat, kind, *cards):
    return (seat, {"type": kind, "cards": list(cards)} if cards else {"type": kind})


def passes(*seats):
    return [mv(seat, "pass") for seat in seats]


PLAN = [  # revised edition
    mv(WEST, "attack", "TD"), *passes(EAST, SOUTH, WEST), mv(NORTH, "concede"),  # B1: North takes TD
    mv(EAST, "attack", "2C"), *passes(WEST, NORTH, EAST), mv(SOUTH, "beat", "3C"),  # B2
    *passes(WEST, NORTH, EAST),  # reinforce window
    *passes(EAST, WEST, NORTH),  # claim window: the pile is discarded, East then South draw
    mv(SOUTH, "attack", "6S"), *passes(NORTH, EAST, SOUTH), mv(WEST, "concede"),  # B3
    mv(NORTH, "attack", "4C", "4D", "4H"), *passes(SOUTH, WEST, NORTH), mv(EAST, "beat", "TH"),  # B4
    mv(SOUTH, "throw_in", "TS"), *passes(WEST), mv(NORTH, "throw_in", "TC", "TD"),  # NS win
]
AFTER_B2 = 16  # moves played when battle 2 is over and East and South have drawn AD and AH


def whose_turn(client, table: Table) -> int:
    """The one seat whose own view lists legal moves (and the referee's view agrees)."""
    listing = [seat for seat in range(4)
               if client.get(f"{table.url}/view", headers=table.seat(seat)).get_json()["table"]["legal_moves"]]
    assert len(listing) == 1, f"seats listing legal moves: {listing}"
    assert referee_view(client, table)["table"]["to_act"] == listing[0]
    return listing[0]


def same_move(a: dict, b: dict) -> bool:
    return a["type"] == b["type"] and sorted(a.get("cards", [])) == sorted(b.get("cards", []))


def play_plan(client, table: Table, moves) -> list[dict]:
    """Play the moves over HTTP, each by the seat whose turn the views say it is; returns the answers."""
    answers = []
    for planned_seat, move in moves:
        seat = whose_turn(client, table)
        assert seat == planned_seat, f"{move}: the views say seat {seat} is to act"
        legal = client.get(f"{table.url}/view", headers=table.seat(seat)).get_json()["table"]["legal_moves"]
        assert any(same_move(move, m) for m in legal), f"{move} is not among seat {seat}'s legal moves {legal}"
        version = client.get(table.url).get_json()["version"]
        response = client.post(f"{table.url}/moves", headers=table.seat(seat), json={**move, "expected_version": version})
        assert response.status_code == 200, response.get_data(as_text=True)
        answer = response.get_json()
        assert answer["version"] > version and answer["events"][0]["actor"] == f"seat:{seat}"
        answers.append(answer)
    return answers


@pytest.fixture
def table(client) -> Table:
    return create_stacked(client, HANDS, TEAMS_NSEW, starter=WEST, deck_top=DRAWS)


@pytest.fixture
def finished(client, table) -> Table:
    play_plan(client, table, PLAN)
    return table


def sse(text: str) -> list[dict]:
    """The messages of a text/event-stream body: each a dict of its fields (comments and retry skipped)."""
    out = []
    for block in text.split("\n\n"):
        fields = {}
        for line in block.splitlines():
            if line.startswith(":") or ":" not in line:
                continue
            name, _, value = line.partition(":")
            fields[name] = value[1:] if value.startswith(" ") else value
        if "data" in fields:
            out.append(fields)
    return out


def test_a_team_game_played_over_http_ends_in_a_win_for_north_and_south(client, finished):
    game = client.get(finished.url).get_json()
    assert game["status"] == "finished" and game["result"] == "win"
    assert game["winner"] == {"seats": [NORTH, SOUTH], "team": "NS"}
    assert game["table"]["outcome"] == {"result": "win", "winner": {"seats": [NORTH, SOUTH], "team": "NS"}}
    assert [p["name"] for p in game["players"]] == ["North", "East", "South", "West"]
    assert [p["team"] for p in game["players"]] == TEAMS_NSEW
    assert game["table"]["battle_pile"] == ["4C", "4D", "4H", "TH", "TS", "TC", "TD"]
    hands = {s["seat"]: set(s["hand"]) for s in game["table"]["seats"]}  # the whole table is public once over
    assert hands == {NORTH: set(), EAST: {"7D", "8D", "AD"}, SOUTH: {"AH", "AS", "9S"}, WEST: {"5H", "7H", "9H", "AC", "6S"}}


def test_the_finished_game_reveals_its_seed_and_the_seed_matches_the_commitment(client, table):
    before = client.get(table.url).get_json()
    assert "seed" not in before
    play_plan(client, table, PLAN)
    game = client.get(table.url).get_json()
    assert game["seed"] == "00ff"
    assert game["commitment"] == before["commitment"] == hashlib.sha256(bytes.fromhex("00ff")).hexdigest()


def test_a_finished_game_takes_no_further_move(client, finished):
    response = client.post(f"{finished.url}/moves", headers=finished.seat(EAST), json={"type": "pass"})
    assert response.status_code == 422


def test_a_finished_game_s_replay_is_public_without_a_token_and_shows_no_more_than_its_public_audit(client, table):
    """No token: 401 while the game runs; once over, every version is a spectator's replay, whose cards are all in
    the audit log that the end makes public (the end discloses the game, nothing earlier)."""
    play_plan(client, table, PLAN[:3])
    assert client.get(f"{table.url}/replay?version=2").status_code == 401
    play_plan(client, table, PLAN[3:])
    audit = client.get(f"{table.url}/audit").get_data(as_text=True)
    for version in range(1, client.get(table.url).get_json()["version"] + 1):
        response = client.get(f"{table.url}/replay?version={version}")
        assert response.status_code == 200, response.get_data(as_text=True)
        replay = response.get_json()
        assert replay["version"] == version and replay["viewer"] == {"role": "spectator", "seat": None}
        assert cards_in(json.dumps(replay["table"])) <= cards_in(audit)


def test_the_audit_of_the_finished_game_verifies_its_chain_and_calls_its_deal_stacked(client, finished):
    verification = client.get(f"{finished.url}/audit/verify").get_json()
    game = client.get(finished.url).get_json()
    chain, deal = verification["chain"], verification["deal"]
    assert chain["ok"] is True and chain["broken_at"] is None
    assert chain["head"] == game["chain_head"] and chain["length"] == game["version"]
    assert deal["stacked"] is True and deal["fair"] is False and "stacked" in deal["status"]
    assert deal["seed"] == "00ff" and deal["commitment"] == game["commitment"]
    assert deal["shuffles"] and all(s["verified"] for s in deal["shuffles"])
    audit = client.get(f"{finished.url}/audit").get_json()  # anyone's once over
    assert audit["chain_head"] == game["chain_head"] and len(audit["entries"]) == game["version"]


def test_the_exported_record_replays_to_the_same_final_table(client, finished):
    doc = client.get(f"{finished.url}/record").get_json()
    assert doc["format"] == "arbiter.record/1" and doc["game"] == "el-royale"
    assert doc["players"] == [{"name": n, "team": t} for n, t in zip(["North", "East", "South", "West"], TEAMS_NSEW)]
    assert [{"seat": m["seat"], "type": m["type"], **({"cards": m["cards"]} if "cards" in m else {})} for m in doc["moves"]] \
        == [{"seat": seat, **move} for seat, move in PLAN]
    verdict = replay(parse(doc)).verdict()
    assert verdict["status"] == "finished" and verdict["result"] == "win" and verdict["illegal"] is None
    assert verdict["winner"] == {"seats": [NORTH, SOUTH], "team": "NS"}
    assert verdict["moves_applied"] == len(PLAN)
    table = referee_view(client, finished)["table"]
    final = verdict["final"]
    assert {int(k): sorted(v) for k, v in final["hands"].items()} == {s["seat"]: sorted(s["hand"]) for s in table["seats"]}
    for key in ("battle_pile", "deck_count", "discard_count", "battles", "eliminated"):
        assert final[key] == table[key], key


def test_the_exported_record_imports_as_a_finished_win(client, finished):
    doc = client.get(f"{finished.url}/record").get_json()
    response = client.post(f"{API}/records", json=doc)
    assert response.status_code == 201, response.get_data(as_text=True)
    verdict = response.get_json()["verdict"]
    assert (verdict["status"], verdict["result"], verdict["winner"]["team"]) == ("finished", "win", "NS")


def test_a_seat_s_event_stream_carries_its_event_log_and_no_other_seat_s_drawn_card(client, table):
    play_plan(client, table, PLAN[:AFTER_B2])
    response = client.get(f"{table.url}/stream", headers=table.seat(NORTH))  # STREAM_SECONDS = 1
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    text = response.get_data(as_text=True)
    messages = sse(text)
    log = client.get(f"{table.url}/events", headers=table.seat(NORTH)).get_json()
    assert [(int(m["id"]), m["event"], json.loads(m["data"])) for m in messages] == [(e["version"], e["type"], e) for e in log]
    drew = [json.loads(m["data"])["data"] for m in messages if m["event"] == "drew"]
    assert drew == [{"seat": WEST}, {"seat": EAST}, {"seat": SOUTH}]  # seen drawn, never what
    assert not cards_in(text) & set(DRAWS)


def test_a_seat_s_event_stream_shows_that_seat_its_own_drawn_card(client, table):
    play_plan(client, table, PLAN[:AFTER_B2])
    text = client.get(f"{table.url}/stream", headers=table.seat(EAST)).get_data(as_text=True)
    drew = [json.loads(m["data"])["data"] for m in sse(text) if m["event"] == "drew"]
    assert drew == [{"seat": WEST}, {"seat": EAST, "card": "AD"}, {"seat": SOUTH}]
    assert not cards_in(text) & {"AC", "AH", "AS"}


def test_an_event_stream_resumes_after_last_event_id(client, table):
    play_plan(client, table, PLAN[:AFTER_B2])
    headers = {**table.seat(NORTH), "Last-Event-ID": "10"}
    ids = [int(m["id"]) for m in sse(client.get(f"{table.url}/stream", headers=headers).get_data(as_text=True))]
    assert ids and ids[0] == 11 and ids == sorted(ids)


def test_the_event_stream_of_a_finished_game_ends_with_the_revealed_seed(app, client, finished):
    app.config["STREAM_SECONDS"] = 30
    started = time.monotonic()
    text = client.get(f"{finished.url}/stream").get_data(as_text=True)
    assert time.monotonic() - started < 10, "the stream of a finished game should end once drained"
    messages = sse(text)
    assert messages[-1]["event"] == "seed_revealed" and json.loads(messages[-1]["data"])["data"]["seed"] == "00ff"
