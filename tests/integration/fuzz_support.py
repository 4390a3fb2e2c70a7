"""schemathesis against the API on any store: the app, a real game in progress with a dispute, and the hook that aims cases at it.

Half the cases about a game aim their `game_id` at the real game (dispute 1, an existing version)
and carry one of its tokens, so that the fuzzer reaches the 200 answers and not only the 404s.
"""

from __future__ import annotations

import os

import hypothesis.strategies as st
import schemathesis

from api import create_app

from .api_support import API, CheckedClient, TEAMS_NSEW, Table, bearer, create_stacked, play

HANDS = [["5S", "5H", "JC", "JS"], ["JH", "2D", "3D", "4D"], ["JD", "6C", "7C", "8C"], ["9C", "TC", "QC", "KC"]]

# A request body can be well formed and still refused by the game's rules (a player count the game forbids,
# a move type it lacks, a version where no move starts, a tournament's settings an edit would make invalid, a
# record that is not one, a number beyond the JSON bounds of domain.json_limits inside a free-form object): those
# answers are the documented 422 problems citing the field or the rule (contract §3), not a schema-valid request
# rejected.
# The document declares each operation's tokens (api/http/openapi.py); the cases carry real ones (the hook below), which
# schemathesis's `ignored_auth` check takes for generated ones ("API accepts invalid authentication" on a 200 for a
# genuine token). Who may call what is test_api_access.py's matrix: every route against every kind of caller.
JUDGED_BY_THE_RULES = """
[checks]
ignored_auth.enabled = false

[[operations]]
include-method = "POST"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "422", "429", "5xx"]

[[operations]]
include-method = "PATCH"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "422", "429", "5xx"]

# a consistency proof from a bigger tree to a smaller one: two sizes the schema takes, that no log ever answers
# (422 naming `new`, docs/evidence.md)
[[operations]]
include-name = "GET /api/v1/log/consistency"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "422", "429", "5xx"]
"""


def as_an_http_client_reads_it(app):
    """The app as a real HTTP client sees it: a gzip'd answer (GET /games/{id}/positions) decoded, as `requests` does.
    schemathesis's WSGI transport asks for gzip (requests' default headers) but reads the bytes as they come."""
    import gzip

    def wsgi(environ, start_response):
        kept = {}

        def start(status, headers, exc_info=None):
            kept["status"], kept["headers"], kept["exc_info"] = status, headers, exc_info
            return lambda data: None

        body = app(environ, start)
        headers = kept["headers"]
        if not any(k.lower() == "content-encoding" and v == "gzip" for k, v in headers):
            start_response(kept["status"], headers, kept["exc_info"])
            return body
        try:
            data = gzip.decompress(b"".join(body))
        finally:
            getattr(body, "close", lambda: None)()
        headers = [(k, v) for k, v in headers if k.lower() not in ("content-encoding", "content-length")]
        start_response(kept["status"], headers + [("Content-Length", str(len(data)))], kept["exc_info"])
        return [data]

    return wsgi


def examples(default: int) -> int:
    """Examples per operation: ARBITER_FUZZ_EXAMPLES (`make fuzz` sets it high), else the short run's `default`."""
    return int(os.environ.get("ARBITER_FUZZ_EXAMPLES") or default)


class FuzzTarget:
    """An app on `url` with one El Royale game where North attacked and disputed it, and its schemathesis schema."""

    def __init__(self, url: str):
        self.app = create_app({"DATABASE_URL": url, "STREAM_SECONDS": 1, "ANALYSIS_WORKERS": 1})
        self.app.test_client_class = CheckedClient
        client = self.app.test_client()
        self.table: Table = create_stacked(client, HANDS, TEAMS_NSEW)
        self.first = play(client, self.table, {"type": "attack", "cards": ["5S", "5H"]}, seat=0)
        dispute = client.post(f"{self.table.url}/disputes", headers=self.table.seat(0),
                              json={"version": self.first["events"][0]["version"], "claim": "out of order"})
        assert dispute.status_code == 201, dispute.get_data(as_text=True)
        config = schemathesis.Config.from_str(JUDGED_BY_THE_RULES)
        self.schema = schemathesis.openapi.from_wsgi(f"{API}/openapi.json", as_an_http_client_reads_it(self.app),
                                                     config=config)
        callers = st.sampled_from([None, self.table.referee_token, *self.table.seat_tokens])
        versions = st.sampled_from([1, 3, self.first["version"]])

        @self.schema.hook
        def flatmap_case(context, case):
            """Half the cases about a game aim at the real one (dispute 1, an existing version) with one of its tokens."""
            if "game_id" not in (case.path_parameters or {}):
                return st.just(case)
            return st.tuples(st.booleans(), callers, versions).map(lambda choice: self.aimed(case, *choice))

    def aimed(self, case, aim: bool, token: str | None, version: int):
        if not aim:
            return case
        case.path_parameters = {**case.path_parameters, "game_id": self.table.id}
        if "number" in case.path_parameters:
            case.path_parameters["number"] = 1
        if case.path.endswith("/bot") and token in self.table.seat_tokens:
            token = None  # a seat handed to a bot would be played on the shared table by the duty loop for the rest of the run
        if token is not None:
            case.headers = {**(case.headers or {}), **bearer(token)}
        if case.path.endswith("/replay") and isinstance(case.query, dict):
            case.query = {**case.query, "version": version}
        return case

    def close(self) -> None:
        self.app.extensions["arbiter"].app.close()
