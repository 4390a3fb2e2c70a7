"""A live stream on the event loop (api.http.asgi.pump): the backlog, then each batch given, in one write per wake-up;
a comment when no news came for KEEPALIVE_SECONDS; the end at its time limit, at the game's end, or when the client goes.
No timer is armed per batch (one for the limit, one for the heartbeat)."""

from __future__ import annotations

import asyncio

from api.http import asgi


class Sub:
    closed = False

    def close(self) -> None:
        self.closed = True


def run(limit: float, given: list, backlog=(), keepalive: float = 15.0, go_after: float | None = None):
    """Pump a stream; `given`: (delay, batch) the feed hands it; returns what was written and the subscription."""

    async def main():
        inbox: asyncio.Queue = asyncio.Queue()
        sub, written = Sub(), []

        async def send(msg):
            written.append((msg["body"], msg["more_body"]))

        async def receive():
            if go_after is None:
                await asyncio.Event().wait()
            await asyncio.sleep(go_after)
            return {"type": "http.disconnect"}

        async def feed():
            for delay, batch in given:
                await asyncio.sleep(delay)
                inbox.put_nowait(batch)

        feeder = asyncio.create_task(feed())
        slot = {"subscription": sub, "backlog": list(backlog), "limit": limit, "named": True}
        await asyncio.wait_for(asgi.pump(slot, inbox, receive, send), 5)
        feeder.cancel()
        return written, sub

    saved = asgi.KEEPALIVE_SECONDS
    asgi.KEEPALIVE_SECONDS = keepalive
    try:
        return asyncio.run(main())
    finally:
        asgi.KEEPALIVE_SECONDS = saved


def test_a_stream_sends_its_backlog_then_each_batch_and_ends_at_its_time_limit():
    written, sub = run(0.3, [(0.05, [(3, "passed", "{}")])], backlog=[(2, "attacked", "{}")])
    assert written == [(b"id: 2\nevent: attacked\ndata: {}\n\n", True), (b"id: 3\nevent: passed\ndata: {}\n\n", True),
                       (b"", False)]
    assert sub.closed


def test_a_quiet_stream_gets_a_heartbeat_comment_and_a_busy_one_none():
    written, _ = run(0.35, [], keepalive=0.1)
    beats = [body for body, _ in written if body == b": heartbeat\n\n"]
    assert 1 <= len(beats) <= 4 and written[-1] == (b"", False)
    busy = [(0.02, [(v, "passed", "{}")]) for v in range(1, 16)]  # news every 20 ms, a heartbeat's turn every 150 ms
    written, _ = run(0.3, busy, keepalive=0.15)
    assert b": heartbeat\n\n" not in [body for body, _ in written]


def test_a_stream_ends_after_the_game_s_end_and_when_its_client_goes():
    written, _ = run(5, [(0.02, [(7, "seed_revealed", "{}")]), (0.02, [(8, "passed", "{}")])])
    assert written == [(b"id: 7\nevent: seed_revealed\ndata: {}\n\n", True), (b"", False)]
    written, sub = run(5, [], go_after=0.05)
    assert written == [] and sub.closed
