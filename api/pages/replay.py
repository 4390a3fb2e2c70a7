"""The replay viewer (issue 10, part 2): the table at any version beside the game's move list, the record's download,
and the upload of a record file with its verdict.

The move list is the viewer's own event log (`ViewsFacade.replay_log`: exactly what GET /events gives that caller, told
in words), so it shows no card the caller's view does not show: a seat sees its own cards, a spectator the public
ones, everyone everything once the game is over. Each entry is a link to its version (`?version=N`, no script
needed) and has an anchor (`#vN`, a refusal `#vN-attemptK`) that the audit and the disputes link to;
static/replay.js adds the arrow keys and keeps the current entry in sight; a long game's list is drawn in part
(api.pages.move_window). The computer analysis control (api.pages.analysis, static/analysis.js) and the link that
opens a study at the version shown appear for the seats this viewer may analyse or study.

The routes belong to the pages' blueprint (api.pages.blueprint), so their endpoints are `pages.*`.
"""

from __future__ import annotations

import json

from flask import Response, abort, current_app, make_response, redirect, render_template, request, url_for
from werkzeug.exceptions import RequestEntityTooLarge

from domain import json_limits
from domain.games import spec_for

from service.errors import ServiceError

from api.current import arbiter, studies
from api.http.positions import positions_response

from . import identities, move_window
from .blueprint import page_token, page_view, pages
from service.play.new_games import ImportRecord

UPLOAD_FIELD = "record"
MAX_FILENAME = 200  # the uploaded file's name, shown on the verdict page (carried in its address)


@pages.app_template_global()
def entry_anchor(entry: dict) -> str:
    """The anchor of an event-log entry in the move list: `v<version>`, a refused attempt `v<version>-attempt<n>`."""
    if entry.get("type") == "move_rejected":
        return f"v{entry['version']}-attempt{(entry.get('data') or {}).get('attempt')}"
    return f"v{entry['version']}"


def move_list(entries: list[dict], disputes: list[dict], illegal: dict | None = None) -> list[dict]:
    """The move list's items, in log order: each entry with its `kind` (`event`, `refusal`, `dispute`, `ruling`,
    `rewind`, `talk`, `setup`), its anchor, the disputes filed against it (claim and ruling, shown in place) and
    `illegal` on the refused attempt that stopped an uploaded record (`illegal`: the verdict's, or None).

    Compact (issue 27): a `decision` is a seat's move (an event whose actor is a seat); what the engine did after it
    (a deal, a draw, "battle started", the seed revealed) is `folded` under it (`under`: the decision's version, or
    the game's creation for what came before the first move), shown when the reader opens it. Every entry keeps its
    own line and anchor (the audit's and the disputes' links land on it), in log order."""
    kinds = {"move_rejected": "refusal", "dispute_filed": "dispute", "dispute_ruled": "ruling", "rewound": "rewind",
             "said": "talk", "created": "setup", "seed_revealed": "setup", "player_named": "setup"}
    items, marked, head = [], False, None
    for e in entries:
        kind = kinds.get(e["type"], "event")
        attempt = (e.get("data") or {}).get("attempt")
        if kind == "refusal":
            against = [d for d in disputes if d.get("attempt") is not None and d.get("attempt") == attempt]
        elif kind in ("event", "talk"):
            against = [d for d in disputes if d.get("attempt") is None and d.get("version") == e["version"]]
        else:
            against = []
        first_illegal = bool(illegal) and kind == "refusal" and not marked
        marked = marked or first_illegal
        decision = kind == "event" and str(e.get("actor") or "").startswith("seat:")
        item = {"entry": e, "kind": kind, "anchor": entry_anchor(e), "disputes": against,
                "illegal": illegal if first_illegal else None, "decision": decision, "under": None, "folded": 0}
        if decision or e["type"] == "created":
            head = item
        elif kind in ("event", "setup") and head is not None and not against:
            item["under"] = head["entry"]["version"]
            head["folded"] += 1
        items.append(item)
    return items


@pages.get("/games/<game_id>/replay")
def replay(game_id: str):
    """Step through the game event by event, as this viewer may see it, with the move list beside the table."""
    facade, token, viewer, latest = page_view(game_id)
    try:
        version = int(request.args.get("version", latest["version"]))
    except ValueError:
        abort(400)
    version = max(1, min(version, latest["version"]))
    view = facade.views.replay(game_id, token, version) if token else facade.views.public_replay(game_id, version)
    events = facade.views.replay_log(game_id, token)
    current = next((e for e in events if e["version"] == version and e["type"] != "move_rejected"), None)
    refusals = [e for e in events if e["version"] == version and e["type"] == "move_rejected"]  # the referee's, or all once over
    talk = [e for e in events if e["type"] == "said" and e["version"] <= version][-8:]
    downloadable = viewer.role == "referee" or latest["status"] == "finished"
    moves = move_list(events, latest["disputes"])
    # what this viewer may ask of the study room (api.pages.analysis, the study form): the services' own rules
    analysis_seats, study_seats = facade.analysis.seats(game_id, token), studies().seats(game_id, token)
    return render_template("replay.html", view=view, viewer=viewer, latest=latest["version"], version=version, event=current,
                           refusals=refusals, talk=talk, moves=moves, window=move_window.window(moves, version),
                           downloadable=downloadable, analysis_seats=analysis_seats, study_seats=study_seats,
                           seat_fields=sorted(spec_for(view["game"]).codec.seat_fields))


@pages.get("/games/<game_id>/replay/moves.json")
def replay_moves(game_id: str):
    """The page's viewer's move list, every line (api.pages.move_window.lines_document: the same lines the page draws,
    from the same log, so no card the viewer may not see), loaded once by static/replay.js to draw a long list's
    blocks as they scroll into sight, the refusals above the board and the table talk at each version."""
    facade, token, _, view = page_view(game_id)
    items = move_list(facade.views.replay_log(game_id, token), view["disputes"])
    return positions_response(move_window.lines_document(items, view, game_id))


@pages.get("/games/<game_id>/replay/positions.json")
def replay_positions(game_id: str):
    """The page's viewer's positions (every version's view, compact: GET /api/v1/games/{id}/positions for the identity
    this browser acts as, as the replay page would draw them), loaded once by static/replay.js."""
    facade, token = arbiter(), page_token(game_id)
    doc = facade.views.positions(game_id, token) if token else facade.views.public_positions(game_id)
    return positions_response(doc)


@pages.get("/games/<game_id>/record.json")
def download_record(game_id: str):
    """The game's `arbiter.record/1` document as a file (the referee's; anyone's once the game is over)."""
    facade = arbiter()
    doc = facade.views.record(game_id, page_token(game_id))  # Forbidden while the game runs: the error page says why
    body = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"  # the document's own key order (format first)
    name = f"{doc.get('game', 'game')}-{str(game_id)[:8]}.json"
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"})


@pages.get("/records/upload")
def upload_form():
    """The form that uploads a record file to be verified."""
    return render_template("record_upload.html", error=None, result=None)


@pages.post("/records/upload")
def upload():
    """Verify an uploaded record (as POST /api/v1/records does: it becomes a stored game) and show the verdict with
    the record's move list, the first illegal move marked with its clause and reason. This browser becomes the
    imported game's referee (its token in the game's cookie), so the replay of a game still in progress opens.
    A file that is not a record (not JSON, too big, the wrong shape) is refused on the page, and nothing is stored."""
    limit = int(current_app.config.get("MAX_CONTENT_LENGTH") or 256 * 1024)
    try:
        upload_file = request.files.get(UPLOAD_FIELD)
    except RequestEntityTooLarge:
        return _upload_error(f"the file is too big: a record may be at most {limit // 1024} KiB", 413)
    if upload_file is None or not upload_file.filename:
        return _upload_error("choose a record file (arbiter.record/1, JSON) to upload", 422)
    data = upload_file.read(limit + 1)
    if len(data) > limit:
        return _upload_error(f"the file is too big: a record may be at most {limit // 1024} KiB", 413)
    try:
        doc = json_limits.loads(data)
    except json_limits.LimitError as e:
        return _upload_error(f"{upload_file.filename} is not a record: {e}", 422)
    try:
        imported = arbiter().play.import_record(ImportRecord.from_body(doc))
    except ServiceError as e:
        return _upload_error(f"{upload_file.filename} is not a valid record: {e.detail}", e.status)
    # POST/redirect/GET: the verdict gets an address of its own; reloading it imports nothing again
    response = make_response(redirect(url_for("pages.verdict", game_id=imported["id"],
                                              file=upload_file.filename[:MAX_FILENAME]), 303))
    identities.remember(response, imported["id"], imported["referee_token"])
    return response


@pages.get("/records/<game_id>/verdict")
def verdict(game_id: str):
    """An uploaded record's verdict and its move list, the first illegal move marked with its clause and reason, read
    back from the stored game (PlayFacade.verdict): the page the upload redirects to. The referee's (the uploading
    browser) while the game is in progress, anyone's once it is over."""
    facade, token, _, view = page_view(game_id)
    found = facade.play.verdict(game_id, token)
    outcome = found["verdict"]
    moves = move_list(facade.views.replay_log(game_id, token), view["disputes"], outcome.get("illegal"))
    response = make_response(render_template("record_upload.html", error=None, result=found, verdict=outcome,
                                             view=view, moves=moves,
                                             filename=request.args.get("file", "")[:MAX_FILENAME]))
    response.headers["Cache-Control"] = "no-store"
    return response


def _upload_error(message: str, status: int):
    return render_template("record_upload.html", error=message, result=None), status
