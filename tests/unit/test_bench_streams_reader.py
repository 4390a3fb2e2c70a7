"""bench.streams' subscriber reads a stream's bytes as they come (bench.streams.Messages): every event whose `data:`
line is complete, stamped with the time of the read that completed it; a line cut between two reads is not lost."""

from bench.streams import Messages

BODY = (b"retry: 1000\n\nid: 3\nevent: attacked\ndata: {\"version\": 3}\n\n: heartbeat\n\n"
        b"id: 4\ndata: {\"version\": 4}\n\nevent: analysis_progress\ndata: {\"done\": 1}\n\nid: 5\ndata: {\"version\": 5}\n\n")
EXPECTED = [(3, '{"version": 3}'), (4, '{"version": 4}'), (5, '{"version": 5}')]


def test_a_body_read_whole_gives_each_event_with_its_id_and_data():
    assert [(v, d) for v, _, d in Messages().feed(BODY, 1.0)] == EXPECTED


def test_a_body_cut_at_every_byte_gives_the_same_events_in_order():
    for cut in range(1, len(BODY)):
        reader = Messages()
        got = reader.feed(BODY[:cut], 1.0) + reader.feed(BODY[cut:], 2.0)
        assert [(v, d) for v, _, d in got] == EXPECTED, cut


def test_an_event_is_stamped_with_the_read_that_completed_its_data_line():
    reader = Messages()
    assert reader.feed(b"id: 7\ndata: {\"a\"", 1.0) == []
    assert reader.feed(b": 1}\n\n", 2.5) == [(7, 2.5, '{"a": 1}')]


def test_data_without_an_id_is_not_an_event_of_the_game():
    assert Messages().feed(b"event: analysis_progress\ndata: {\"done\": 1}\n\n", 1.0) == []
