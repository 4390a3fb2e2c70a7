"""A bot for any arbiter game on a client generated from the OpenAPI document (docs/bots.md, "Write your own bot").

    openapi-python-client generate --url http://HOST/api/v1/openapi.json --output-path arbiter_client --meta none
    python bot.py http://HOST GAME_ID SEAT_TOKEN arbiter_client

The stream says when something happened; the seat's view says whether it is to act and lists its legal moves; the
bot picks one at random and sends it with an idempotency key (a retry after a lost answer never plays twice).
"""
import importlib
import random
import sys
import uuid

# keys a legal-move entry adds to stand for many moves (the document's LegalMove schemas: "summary: ..."), by move
# type, and how the bot fills the field they leave open
SUMMARIES = {
    "take": lambda e, hand, r: {"cards": r.sample(e["from"], r.randint(0, e["max"]))},
    "bid": lambda e, hand, r: {"amount": r.randint(e["min"], e["max"])},
    "forced_discard": lambda e, hand, r: {"cards": r.sample(hand, e["count"])},
    "arrange": lambda e, hand, r: {"formation": r.sample(e["ranks"], len(e["ranks"]))},
    "meld": lambda e, hand, r: ({"force": r.randint(0, e["force_max"])} if "force_max" in e else
                                {"draw": r.randint(0, e["draw_max"])} if "draw_max" in e else {}),
}
SUMMARY_KEYS = {"take": ("from", "max"), "bid": ("min", "max"), "forced_discard": ("count",), "arrange": ("ranks",),
                "meld": ("force_max", "draw_max")}


def main(url: str, game_id: str, token: str, package: str, rng=random.Random()) -> None:
    client = importlib.import_module(package)
    view_of = importlib.import_module(f"{package}.api.games.get_api_v1_games_game_id_view")
    play = importlib.import_module(f"{package}.api.games.post_api_v1_games_game_id_moves")
    models = importlib.import_module(f"{package}.models")
    seat = client.AuthenticatedClient(base_url=url, token=token, raise_on_unexpected_status=True)
    last = "0"
    while True:  # the stream: one message per event; it ends after a minute (resume after `last`) or at the game's end
        with seat.get_httpx_client().stream("GET", f"/api/v1/games/{game_id}/stream", headers={"Last-Event-ID": last},
                                            timeout=None) as stream:
            for line in stream.iter_lines():
                if not line.startswith("id: "):
                    continue
                last = line[4:]
                view = view_of.sync(client=seat, game_id=game_id)
                if view.status.value == "finished":
                    return
                entries = [entry.to_dict() for entry in view.table.legal_moves or []]
                if not entries:
                    continue
                entry = rng.choice(entries)
                move = {k: v for k, v in entry.items() if k not in SUMMARY_KEYS.get(entry["type"], ())}
                move.update(SUMMARIES.get(entry["type"], lambda *_: {})(entry, view.table.hand or [], rng))
                typed = getattr(models, "".join(p.capitalize() for p in f"{view.game}_{move['type']}".replace(
                    "-", "_").split("_")) + "Move").from_dict(move)
                answer = play.sync_detailed(client=seat, game_id=game_id, body=typed, idempotency_key=uuid.uuid4().hex)
                print(move["type"], answer.status_code, flush=True)  # 409/422: a stale view; the next event tells


if __name__ == "__main__":
    main(*sys.argv[1:5])
