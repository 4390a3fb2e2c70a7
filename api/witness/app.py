"""The witness's HTTP app (C2SP tlog-witness): `POST /add-checkpoint`, and `GET /` naming the witness.

Thin: the body goes to service.witness's Witness, its Answer comes back as it is. Every answer is plain text; a body
over MAX_BODY is refused (413), any other HTTP error names itself in one line, and an unexpected failure is a 500
without a traceback (logged on the server's side)."""

from __future__ import annotations

import logging

from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException

from service.witness.protocol import MAX_BODY, TEXT
from service.witness.witness import Witness

log = logging.getLogger("arbiter.witness")


def create_witness_app(witness: Witness, max_body: int = MAX_BODY) -> Flask:
    """The app serving `witness`."""
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = max_body

    @app.post("/add-checkpoint")
    def add_checkpoint():
        answer = witness.add_checkpoint(request.get_data())
        return Response(answer.body, status=answer.status, content_type=answer.content_type)

    @app.get("/")
    def identity():
        lines = [f"arbiter witness {witness.cosigner.name}", f"verifier key: {witness.verifier_key}",
                 "protocol: C2SP tlog-witness, POST /add-checkpoint", "logs:"]
        lines += [f"  {origin}" for origin in sorted(witness.logs)]
        return Response("\n".join(lines) + "\n", content_type=TEXT)

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):
        text = f"{e.code} {e.name}"
        if e.code == 413:
            text += f": the body is larger than {max_body} bytes"
        elif e.code == 405:
            text += f": {request.method} {request.path} is not served (POST /add-checkpoint, GET /)"
        response = Response(text + "\n", status=e.code, content_type=TEXT)
        for name, value in e.get_headers():
            if name.lower() == "allow":
                response.headers[name] = value
        return response

    @app.errorhandler(Exception)
    def unexpected(e: Exception):
        log.exception("arbiter witness: unexpected failure")
        return Response("500 Internal Server Error: the witness failed; nothing was cosigned\n", status=500,
                        content_type=TEXT)

    return app
