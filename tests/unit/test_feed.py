"""A live subscription (service.views.feed) joins its backlog and what the follower gives it: no gap, no duplicate, in order."""

from __future__ import annotations

from projections.viewers import SPECTATOR
from service.views.feed import Subscription


class NoFeed:
    def unsubscribe(self, sub) -> None:
        self.gone = sub


def entry(version: int, kind: str = "passed") -> tuple[int, str, str]:
    return (version, kind, "{}")


def test_entries_given_before_the_backlog_was_taken_follow_it_without_a_duplicate():
    sunk = []
    sub = Subscription(NoFeed(), None, SPECTATOR, 3, sunk.extend)
    sub.give([entry(5), entry(6)])  # the follower ran between registering and reading the backlog
    assert sunk == []
    assert sub.start([entry(4), entry(5)]) == [entry(4), entry(5), entry(6)]
    sub.give([entry(6), entry(7)])
    assert sunk == [entry(7)]


def test_a_refused_attempt_sharing_its_event_s_version_stays_in_the_backlog():
    sub = Subscription(NoFeed(), None, SPECTATOR, 0, lambda e: None)
    backlog = [entry(1, "created"), entry(2, "attacked"), entry(2, "move_rejected")]
    assert sub.start(backlog) == backlog


def test_a_closed_subscription_passes_nothing_on_and_leaves_the_feed():
    sunk, feed = [], NoFeed()
    sub = Subscription(feed, None, SPECTATOR, 0, sunk.extend)
    sub.start([])
    sub.close()
    sub.give([entry(1)])
    assert sunk == [] and feed.gone is sub


class _Recorder:
    def max_notification_id(self) -> int:
        return 0

    def select_notifications(self, start, limit, inclusive_of_start=True) -> list:
        return []


class _Store:
    """A store that says when it closes (service.store.application's before_close), and nothing else."""

    def __init__(self):
        self.recorder, self.quieters = _Recorder(), []

    def before_close(self, quiet) -> None:
        self.quieters.append(quiet)

    def close(self) -> None:
        for quiet in self.quieters:
            quiet()


def test_the_follower_has_stopped_reading_once_its_store_is_closed():
    from service.views.feed import Feed

    store = _Store()
    feed = Feed(store)
    with feed._lock:
        feed._ensure_running()
    thread = feed._thread
    assert thread is not None and thread.is_alive()
    store.close()
    assert not thread.is_alive()  # joined before the store's connections would close: no read races the close
