"""The feed's thread hands a batch to a thousand streams of one event loop (api.http.asgi.Mail): one wake-up of the
loop for all of them, each stream's batches in its inbox in the order given."""

from __future__ import annotations

import asyncio
import threading

from api.http.asgi import Mail


def test_a_fan_out_to_many_streams_wakes_the_loop_once_and_keeps_each_stream_s_order():
    loop = asyncio.new_event_loop()
    try:
        mail, wakeups = Mail(loop), []
        threadsafe = loop.call_soon_threadsafe
        loop.call_soon_threadsafe = lambda *a: wakeups.append(a) or threadsafe(*a)
        inboxes = [asyncio.Queue() for _ in range(1000)]

        def fan_out() -> None:  # the feed's thread: two batches for every stream
            for batch in ("first", "second"):
                for i, inbox in enumerate(inboxes):
                    mail.post(inbox, [(i, batch)])

        thread = threading.Thread(target=fan_out)
        thread.start()
        thread.join()
        loop.run_until_complete(asyncio.sleep(0))
        assert len(wakeups) == 1, f"{len(wakeups)} wake-ups of the loop for one fan-out"
        for i, inbox in enumerate(inboxes):
            assert [inbox.get_nowait() for _ in range(inbox.qsize())] == [[(i, "first")], [(i, "second")]]
        mail.post(inboxes[0], [(0, "third")])  # delivered: the next post wakes the loop again
        loop.run_until_complete(asyncio.sleep(0))
        assert len(wakeups) == 2 and inboxes[0].get_nowait() == [(0, "third")]
    finally:
        loop.close()
