"""Who may call what (contract §3): every route × every kind of caller, errors as problem+json, tokens kept secret.

The game under test ("the table") is a stacked four-seat game, North and South against East and West,
in which North (seat 0) has attacked East with 5S 5H and filed dispute 1 against that attack: South
(seat 2) is now to act. The access matrix below is the specification, written out cell by cell.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from .api_support import API, TEAMS_NSEW, assert_problem, bearer, create, create_stacked, play, to_act

# North 5 5 J J; East defends with JH; South holds JD; West nothing useful (worked example 3).
HANDS = [["5S", "5H", "JC", "JS"], ["JH", "2D", "3D", "4D"], ["JD", "6C", "7C", "8C"], ["9C", "TC", "QC", "KC"]]
WINNING_LINE = [  # revised edition: NS win when North throws in its last two jacks (ER-4.1, ER-4.2)
    (0, {"type": "attack", "cards": ["5S", "5H"]}), (2, {"type": "pass"}), (3, {"type": "pass"}),
    (0, {"type": "pass"}), (1, {"type": "beat", "cards": ["JH"]}), (2, {"type": "throw_in", "cards": ["JD"]}),
    (3, {"type": "pass"}), (0, {"type": "throw_in", "cards": ["JC", "JS"]}),
]
NORTH, SOUTH = 0, 2
RECORD = Path(__file__).resolve().parent.parent / "records" / "el-royale" / "example3-06-revised.json"

# ---------------------------------------------------------------- the access matrix

CALLERS = ("none", "actor", "other_seat", "referee", "other_game", "forged", "bad_header")
# none:        no Authorization header (a spectator)
# actor:       the seat token of the seat to act (South)
# other_seat:  another seat's token (North, not to act)
# referee:     the referee token of this game
# other_game:  the referee token of another game: recognised as foreign (403)
# forged:      "<this game's id hex>.<random secret>": the right shape, never issued (401)
# bad_header:  an Authorization header that is not "Bearer <token>" (401)

ACCESS = {  # route: expected status per caller, in the order of CALLERS (game in progress)
    #                                        none actor other  ref  game forged header
    "POST /games":                          (201, 201,  201,  201, 201,  201,  201),  # routes without a game
    "GET /games":                           (200, 200,  200,  200, 200,  200,  200),  # take no token: they
    "POST /records":                        (201, 201,  201,  201, 201,  201,  201),  # ignore the header
    "GET /openapi.json":                    (200, 200,  200,  200, 200,  200,  200),
    "GET /keys":                            (200, 200,  200,  200, 200,  200,  200),  # evidence (docs/evidence.md)
    "GET /checkpoints":                     (200, 200,  200,  200, 200,  200,  200),
    "POST /receipts/verify":                (200, 200,  200,  200, 200,  200,  200),
    "GET /games/{id}":                      (200, 200,  200,  200, 403,  401,  401),
    "GET /games/{id}/view":                 (401, 200,  200,  200, 403,  401,  401),
    "POST /games/{id}/moves":               (401, 200,  422,  403, 403,  401,  401),  # not North's turn: ER-3.0
    "GET /games/{id}/events":               (200, 200,  200,  200, 403,  401,  401),
    "GET /games/{id}/replay":               (401, 200,  200,  200, 403,  401,  401),
    "GET /games/{id}/positions":            (401, 200,  200,  200, 403,  401,  401),  # the replay's, every version
    "GET /games/{id}/audit":                (403, 403,  403,  200, 403,  401,  401),
    "GET /games/{id}/audit/verify":         (200, 200,  200,  200, 403,  401,  401),
    "POST /games/{id}/disputes":            (401, 201,  201,  403, 403,  401,  401),
    "POST /games/{id}/disputes/{n}/ruling": (401, 403,  403,  200, 403,  401,  401),
    "POST /games/{id}/name":                (401, 200,  200,  403, 403,  401,  401),  # a seat names itself
    "GET /games/{id}/record":               (403, 403,  403,  200, 403,  401,  401),
    "GET /games/{id}/stream":               (200, 200,  200,  200, 403,  401,  401),
    "POST /games/{id}/bot":                 (401, 201,  201,  403, 403,  401,  401),  # a seat hands itself to a bot
    "DELETE /games/{id}/bot":               (401, 404,  404,  403, 403,  401,  401),  # and takes itself back (none here)
    "POST /games/{id}/analysis":            (403, 403,  403,  202, 403,  401,  401),  # North's: the referee's till the end
    "GET /games/{id}/analysis/{job}":       (404, 404,  404,  404, 403,  401,  401),  # (no such job)
    "DELETE /games/{id}/analysis/{job}":    (404, 404,  404,  404, 403,  401,  401),  # (no such job to cancel)
    "POST /games/{id}/studies":             (403, 403,  403,  201, 403,  401,  401),  # the referee's till the end
}

ACCESS_FINISHED = {  # once the game is over the audit log, the record and the replay are anyone's
    #                                        none seat0 seat1  ref  game forged header
    "GET /games/{id}/audit":                (200, 200,  200,  200, 403,  401,  401),
    "GET /games/{id}/record":               (200, 200,  200,  200, 403,  401,  401),
    "GET /games/{id}/view":                 (401, 200,  200,  200, 403,  401,  401),
    "POST /games/{id}/moves":               (401, 422,  422,  403, 403,  401,  401),  # a finished game takes no move
    "GET /games/{id}/replay":               (200, 200,  200,  200, 403,  401,  401),  # the public replay needs no token
    "GET /games/{id}/positions":            (200, 200,  200,  200, 403,  401,  401),
    "POST /games/{id}/analysis":            (202, 202,  403,  202, 403,  401,  401),  # North's: its own, or anyone's
}

GAME_ROUTES = [route for route in ACCESS if "{id}" in route]


class Scene:
    """The table, a second game, and the requests of every route."""

    def __init__(self, client):
        self.client = client
        self.table = create_stacked(client, HANDS, TEAMS_NSEW)
        first = play(client, self.table, WINNING_LINE[0][1], seat=NORTH)
        self.disputed_version = first["events"][0]["version"]
        self.receipt = first["receipt"]
        filed = client.post(f"{self.table.url}/disputes", headers=self.table.seat(NORTH),
                            json={"version": self.disputed_version, "claim": "East was not asked first"})
        assert filed.status_code == 201, filed.get_data(as_text=True)
        assert to_act(client, self.table) == SOUTH
        self.other = create(client, 2)
        self.forged = self.table.forged_token()

    def headers(self, caller: str, actor: int = SOUTH, other_seat: int = NORTH) -> dict:
        return {
            "none": {},
            "actor": self.table.seat(actor),
            "other_seat": self.table.seat(other_seat),
            "referee": self.table.referee,
            "other_game": bearer(self.other.referee_token),
            "forged": bearer(self.forged),
            "bad_header": {"Authorization": f"Basic {self.table.seat_tokens[actor]}"},
        }[caller]

    def request(self, route: str, game_id: str | None = None, dispute: int = 1) -> tuple[str, str, dict | None]:
        """(method, url, json body) of a route aimed at the table (or at `game_id`)."""
        method, path = route.split(" ", 1)
        gid = self.table.id if game_id is None else game_id
        url = API + path.replace("{id}", gid).replace("{n}", str(dispute)).replace("{job}", "0123456789abcdef")
        body = {
            "POST /games": {"game": "el-royale", "options": {}, "players": [{"name": "North"}, {"name": "South"}]},
            "POST /records": json.loads(RECORD.read_text()),
            "POST /games/{id}/moves": {"type": "pass"},
            "POST /games/{id}/disputes": {"version": self.disputed_version, "claim": "the pass was out of order"},
            "POST /games/{id}/disputes/{n}/ruling": {"decision": "rejected", "remedy": "none", "note": "play on"},
            "POST /games/{id}/name": {"name": "Boreas"},
            "POST /games/{id}/analysis": {"seat": NORTH, "samples": 4},
            "POST /games/{id}/studies": {"version": self.disputed_version, "seat": NORTH},
            "POST /receipts/verify": self.receipt,
        }.get(route)
        if route == "GET /games/{id}/replay":
            url += f"?version={self.disputed_version}"
        return method, url, body

    def call(self, route: str, headers: dict, game_id: str | None = None, dispute: int = 1):
        method, url, body = self.request(route, game_id, dispute)
        response = self.client.open(url, method=method, json=body, headers=headers)
        if route.endswith("/stream"):
            response.close()  # the status and headers are all a matrix cell needs
        return response


@pytest.fixture
def scene(client) -> Scene:
    return Scene(client)


def cells(matrix: dict) -> list:
    return [pytest.param(route, caller, status, id=f"{route} as {caller}")
            for route, statuses in matrix.items() for caller, status in zip(CALLERS, statuses, strict=True)]


def check_cell(response, route: str, status: int, scene: Scene) -> None:
    text = "" if route.endswith("/stream") and response.status_code == 200 else response.get_data(as_text=True)
    assert response.status_code == status, f"{route}: expected {status}, got {response.status_code}: {text[:300]}"
    if status >= 400:
        assert_problem(response, status)
        for token in [*scene.table.tokens, scene.forged, *scene.other.tokens]:
            assert token not in text, "an error message repeats a token"
    elif route.endswith("/stream"):
        assert response.mimetype == "text/event-stream"
    else:
        assert response.mimetype == "application/json"


@pytest.mark.parametrize("route, caller, status", cells(ACCESS))
def test_each_route_answers_each_kind_of_caller_as_the_access_matrix_says(scene, route, caller, status):
    response = scene.call(route, scene.headers(caller))
    check_cell(response, route, status, scene)


@pytest.mark.parametrize("route, caller, status", cells(ACCESS_FINISHED))
def test_once_the_game_is_won_the_audit_record_and_replay_are_anyone_s(scene, route, caller, status):
    for seat, move in WINNING_LINE[1:]:
        play(scene.client, scene.table, move, seat=seat)
    assert scene.client.get(scene.table.url).get_json()["status"] == "finished"
    response = scene.call(route, scene.headers(caller, actor=NORTH, other_seat=1))
    check_cell(response, route, status, scene)


def test_the_access_matrix_names_every_route_the_app_serves(app):
    """A route added to the app without a row in the matrix fails here."""
    served = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith(API + "/") or rule.rule == f"{API}/health":
            continue
        if rule.rule.startswith(f"{API}/tournaments"):  # their own matrix: test_api_tournament_schema.py
            continue
        if rule.rule.startswith((f"{API}/studies/", f"{API}/log/")):  # a study's own rules: test_api_studies.py; the
            continue  # transparency log's routes take no token (test_transparency_log.py, test_api_schema.py)
        path = rule.rule[len(API):].replace("<game_id>", "{id}").replace("<int:number>", "{n}").replace("<job_id>", "{job}")
        served |= {f"{m} {path}" for m in rule.methods - {"HEAD", "OPTIONS"}}
    assert served == set(ACCESS)


def test_the_seat_to_act_and_the_other_seat_are_who_the_matrix_says(scene):
    """The matrix's `actor` is the only seat whose view lists legal moves."""
    legal = {seat: scene.client.get(f"{scene.table.url}/view", headers=scene.table.seat(seat)).get_json()["table"]["legal_moves"]
             for seat in range(4)}
    assert legal[SOUTH] and not legal[NORTH] and not legal[1] and not legal[3]


# ---------------------------------------------------------------- unknown and malformed game ids

UNKNOWN_IDS = [str(uuid.uuid4()), "nope", "12345", "00000000-0000-0000-0000-00000000000g", "%20", "a" * 300]


@pytest.mark.parametrize("game_id", UNKNOWN_IDS, ids=["unknown", "word", "digits", "bad-hex", "blank", "long"])
@pytest.mark.parametrize("route", GAME_ROUTES)
@pytest.mark.parametrize("caller", ["none", "referee"])
def test_a_game_id_that_names_no_game_is_404(scene, route, caller, game_id):
    response = scene.call(route, scene.headers(caller), game_id=game_id)
    body = assert_problem(response, 404)
    assert scene.table.referee_token not in json.dumps(body)


def test_a_ruling_on_a_dispute_that_was_never_filed_is_404(scene):
    response = scene.call("POST /games/{id}/disputes/{n}/ruling", scene.table.referee, dispute=7)
    assert "7" in assert_problem(response, 404)["detail"]


def test_a_replay_of_a_version_the_game_never_reached_is_404(scene):
    response = scene.client.get(f"{scene.table.url}/replay?version=999", headers=scene.table.referee)
    assert "999" in assert_problem(response, 404)["detail"]


# ---------------------------------------------------------------- errors are problems


def test_an_illegal_move_is_422_and_cites_its_rule(scene):
    response = scene.client.post(f"{scene.table.url}/moves", headers=scene.table.seat(SOUTH),
                                 json={"type": "beat", "cards": ["JD"]})  # South is no defender
    body = assert_problem(response, 422)
    assert body["rule"].startswith("ER-"), body


def test_a_move_out_of_turn_is_422_citing_the_turn_rule(scene):
    response = scene.client.post(f"{scene.table.url}/moves", headers=scene.table.seat(NORTH), json={"type": "pass"})
    assert assert_problem(response, 422)["rule"] == "ER-3.0"


def test_a_stale_expected_version_is_409_and_writes_nothing(scene):
    client, table = scene.client, scene.table
    before = client.get(table.url).get_json()
    events_before = client.get(f"{table.url}/events", headers=table.referee).get_json()
    response = client.post(f"{table.url}/moves", headers=table.seat(SOUTH),
                           json={"type": "pass", "expected_version": 1})  # before the deal: the position moved since
    body = assert_problem(response, 409)
    assert str(before["version"]) in body["detail"]
    after = client.get(table.url).get_json()
    assert (after["version"], after["chain_head"]) == (before["version"], before["chain_head"])
    assert client.get(f"{table.url}/events", headers=table.referee).get_json() == events_before
    fresh = client.post(f"{table.url}/moves", headers=table.seat(SOUTH),
                        json={"type": "pass", "expected_version": before["version"]})
    assert fresh.status_code == 200, fresh.get_data(as_text=True)


@pytest.mark.parametrize("route", ["POST /games", "POST /records", "POST /games/{id}/moves", "POST /games/{id}/disputes"])
def test_a_body_over_256_kib_is_refused_with_413(scene, route):
    _, url, _ = scene.request(route)
    before = scene.client.get(scene.table.url).get_json()["version"]
    huge = json.dumps({"type": "say", "text": "x" * (256 * 1024)})
    response = scene.client.post(url, data=huge, content_type="application/json", headers=scene.table.seat(SOUTH))
    assert_problem(response, 413)
    assert scene.client.get(scene.table.url).get_json()["version"] == before


@pytest.mark.parametrize("route", ["POST /games", "POST /records", "POST /games/{id}/moves",
                                   "POST /games/{id}/disputes", "POST /games/{id}/disputes/{n}/ruling"])
def test_a_body_that_is_not_json_is_400_saying_so(scene, route):
    _, url, _ = scene.request(route)
    headers = scene.table.referee if route.endswith("ruling") else scene.table.seat(SOUTH)
    response = scene.client.post(url, data='{"type": "pass",', content_type="application/json", headers=headers)
    assert "JSON" in assert_problem(response, 400)["detail"]


@pytest.mark.parametrize("route, body, field", [
    ("POST /games", {"players": [{"name": "North"}, {"name": "South"}]}, "game"),
    ("POST /games", {"game": "el-royale"}, "players"),
    ("POST /games", {"game": "el-royale", "players": [{"team": "NS"}, {"name": "South"}]}, "name"),
    ("POST /games/{id}/moves", {"cards": ["JD"]}, "type"),
    ("POST /games/{id}/disputes", {"version": 4}, "claim"),
    ("POST /games/{id}/disputes", {"claim": "no"}, "version"),
    ("POST /games/{id}/disputes/{n}/ruling", {"remedy": "none"}, "decision"),
])
def test_a_missing_field_is_422_naming_the_field(scene, route, body, field):
    _, url, _ = scene.request(route)
    headers = scene.table.referee if route.endswith("ruling") else scene.table.seat(SOUTH)
    response = scene.client.post(url, json=body, headers=headers)
    problem = assert_problem(response, 422)
    assert field in problem["detail"], problem
    assert problem.get("field", "").split(".")[-1] == field, problem


def test_a_replay_without_a_version_is_422_naming_it(scene):
    response = scene.client.get(f"{scene.table.url}/replay", headers=scene.table.referee)
    assert assert_problem(response, 422)["field"] == "version"


def test_a_method_a_route_lacks_is_405_with_its_allow_header(scene):
    response = scene.client.delete(scene.table.url)
    assert_problem(response, 405)
    assert set(response.headers["Allow"].replace(" ", "").split(",")) >= {"GET"}


def test_an_unknown_path_is_a_404_problem(client):
    assert_problem(client.get(f"{API}/no/such/thing"), 404)


def test_an_unauthorized_answer_is_a_problem_that_names_the_token_not_the_secret(scene):
    response = scene.client.get(f"{scene.table.url}/view", headers=bearer(scene.forged))
    body = assert_problem(response, 401)
    assert "token" in body["detail"]
    assert scene.forged not in json.dumps(body) and scene.forged.split(".", 1)[1] not in json.dumps(body)


# ---------------------------------------------------------------- tokens never leak


def test_no_token_appears_in_the_event_log_audit_record_or_error_messages(scene):
    client, table = scene.client, scene.table
    ruled = scene.call("POST /games/{id}/disputes/{n}/ruling", table.referee)
    assert ruled.status_code == 200
    texts = {}
    for name, headers in [("spectator", {}), ("referee", table.referee)] + [(f"seat {s}", table.seat(s)) for s in range(4)]:
        texts[f"events as {name}"] = client.get(f"{table.url}/events", headers=headers).get_data(as_text=True)
    texts["audit (in play)"] = client.get(f"{table.url}/audit", headers=table.referee).get_data(as_text=True)
    texts["record (in play)"] = client.get(f"{table.url}/record", headers=table.referee).get_data(as_text=True)
    texts["catalogue"] = client.get(f"{API}/games").get_data(as_text=True)
    refusals = [(route, caller) for route in GAME_ROUTES for caller in ("other_game", "forged", "bad_header")]
    refusals += [("GET /games/{id}/audit", "actor"), ("GET /games/{id}/record", "other_seat"),
                 ("POST /games/{id}/moves", "other_seat"), ("POST /games/{id}/moves", "referee"),
                 ("POST /games/{id}/disputes", "referee"), ("POST /games/{id}/disputes/{n}/ruling", "actor")]
    for route, caller in refusals:  # foreign, forged and misplaced tokens
        response = scene.call(route, scene.headers(caller))
        assert response.status_code >= 400, (route, caller)
        texts[f"{route} as {caller}"] = response.get_data(as_text=True)
    for seat, move in WINNING_LINE[1:]:
        play(client, table, move, seat=seat)
    texts["audit (over)"] = client.get(f"{table.url}/audit").get_data(as_text=True)
    texts["record (over)"] = client.get(f"{table.url}/record").get_data(as_text=True)
    texts["events (over)"] = client.get(f"{table.url}/events").get_data(as_text=True)
    texts["verify (over)"] = client.get(f"{table.url}/audit/verify").get_data(as_text=True)
    secrets_ = [*table.tokens, *scene.other.tokens, scene.forged]
    leaks = [(where, token) for where, text in texts.items() for token in secrets_ if token in text]
    assert not leaks, leaks
