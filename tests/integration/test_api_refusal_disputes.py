"""A seat may dispute the refusal of its own move (it claims the move was wrongly refused), and disputes carry times.

The 422 answer to an illegal move names its `attempt` number; `POST /disputes {attempt, claim}` disputes that
refusal. Another seat's refusals stay secret: their numbers answer exactly as numbers never used.
"""

from __future__ import annotations

from .api_support import API, TEAMS_NSEW, assert_problem, create_stacked, play

HANDS = [["5S", "5H", "JC", "JS"], ["JH", "2D", "3D", "4D"], ["JD", "6C", "7C", "8C"], ["9C", "TC", "QC", "KC"]]
NORTH, EAST, SOUTH = 0, 1, 2


def refused(client, table, seat: int, move: dict) -> dict:
    response = client.post(f"{table.url}/moves", json=move, headers=table.seat(seat))
    return assert_problem(response, 422)


def test_a_seat_disputes_the_refusal_of_its_own_attempt_by_the_number_its_422_answer_gave(client):
    table = create_stacked(client, HANDS, TEAMS_NSEW)
    version = client.get(table.url).get_json()["version"]
    problem = refused(client, table, NORTH, {"type": "attack", "cards": ["5S", "JC"]})
    assert problem["attempt"] == 1 and problem["rule"]
    response = client.post(f"{table.url}/disputes", headers=table.seat(NORTH),
                           json={"attempt": problem["attempt"], "claim": "two fives and a jack is a fair attack"})
    assert response.status_code == 201, response.get_data(as_text=True)
    dispute = response.get_json()
    assert dispute["attempt"] == 1 and dispute["seat"] == NORTH and dispute["version"] == version
    assert dispute["ruling"] is None and dispute["filed_time"].endswith("+00:00") and dispute["filed_at"] == version + 1
    assert client.get(table.url).get_json()["disputes"][0]["attempt"] == 1


def test_another_seat_s_refused_attempt_cannot_be_disputed_and_answers_as_a_number_never_used(client):
    table = create_stacked(client, HANDS, TEAMS_NSEW)
    refused(client, table, NORTH, {"type": "attack", "cards": ["5S", "JC"]})
    theirs = assert_problem(client.post(f"{table.url}/disputes", headers=table.seat(EAST), json={"attempt": 1, "claim": "x"}), 422)
    never = assert_problem(client.post(f"{table.url}/disputes", headers=table.seat(EAST), json={"attempt": 9, "claim": "x"}), 422)
    assert theirs["field"] == never["field"] == "attempt"
    assert theirs["detail"].replace("1", "N") == never["detail"].replace("9", "N")


def test_a_ruling_on_a_refusal_may_uphold_it_but_cannot_rewind_what_never_happened(client):
    table = create_stacked(client, HANDS, TEAMS_NSEW)
    attempt = refused(client, table, NORTH, {"type": "attack", "cards": ["5S", "JC"]})["attempt"]
    client.post(f"{table.url}/disputes", headers=table.seat(NORTH), json={"attempt": attempt, "claim": "fair"})
    rewind = client.post(f"{table.url}/disputes/1/ruling", headers=table.referee,
                         json={"decision": "upheld", "remedy": "rewind", "note": "n"})
    assert assert_problem(rewind, 422)["field"] == "remedy"
    ruled = client.post(f"{table.url}/disputes/1/ruling", headers=table.referee,
                        json={"decision": "rejected", "remedy": "none", "note": "ER-3.1: one rank per attack"})
    assert ruled.status_code == 200
    ruling = ruled.get_json()["ruling"]
    assert ruling["note"] == "ER-3.1: one rank per attack" and ruling["ruled_time"].endswith("+00:00")
    assert isinstance(ruling["ruled_at"], int)


def test_a_dispute_names_a_move_version_or_an_attempt_and_says_so_when_it_names_neither(client):
    table = create_stacked(client, HANDS, TEAMS_NSEW)
    play(client, table, {"type": "attack", "cards": ["5S", "5H"]}, seat=NORTH)
    problem = assert_problem(client.post(f"{table.url}/disputes", headers=table.seat(EAST), json={"claim": "no"}), 422)
    assert problem["field"] == "version" and "attempt" in problem["detail"]
    bad = client.post(f"{API}/games/{table.id}/disputes", headers=table.seat(EAST), json={"attempt": 0, "claim": "no"})
    assert assert_problem(bad, 422)["field"] == "attempt"


def test_a_refusal_answers_its_number_for_its_seat_beside_the_streams_and_a_repeated_key_answers_both_again(client):
    """North is refused, East twice, North again: North's second refusal is the stream's fourth (`attempt` 4,
    `seat_attempt` 2), the number the pages show; the same request with the same key answers the same numbers."""
    table = create_stacked(client, HANDS, TEAMS_NSEW)
    refused(client, table, NORTH, {"type": "attack", "cards": ["5S", "JC"]})
    for _ in range(2):
        assert refused(client, table, EAST, {"type": "attack", "cards": ["JH"]})["seat_attempt"] in (1, 2)
    move = {"type": "attack", "cards": ["5S", "JS"], "idempotency_key": "k-north"}
    problem = refused(client, table, NORTH, move)
    assert (problem["attempt"], problem["seat_attempt"]) == (4, 2)
    again = refused(client, table, NORTH, move)
    assert (again["attempt"], again["seat_attempt"]) == (4, 2)
