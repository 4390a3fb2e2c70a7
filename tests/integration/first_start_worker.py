"""A separate process opening fresh stores at the same moment as its siblings (run by test_first_start with spawn).

For each URL in turn, every process waits at a barrier and then opens the store the way a serving worker's first
requests do: the Referee (the events' and snapshots' tables), then, after a second barrier, several threads at once
each open the catalogue and the standings read models (their tables and the tracking table with its migration
record), create a game and catch both up. Whatever any of them raises is reported with its traceback.
"""

from __future__ import annotations

import threading
import traceback
from service.play.new_games import CreateGame


SPEC = {"game": "el-royale", "options": {"edition": "revised"}, "players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]}


def open_at_once(urls: list[str], threads: int, barrier, results, name: str) -> None:
    """Puts (name, [traceback, ...]) on `results`: an empty list when every opening of every store went well."""
    errors: list[str] = []
    try:
        from service.adapters.catalogue_store import Catalogue
        from service.adapters.standings_store import Standings
        from service.play.referee import Referee
    except BaseException:
        results.put((name, [traceback.format_exc()]))
        barrier.abort()
        return
    for url in urls:
        try:
            barrier.wait(timeout=120)
            app = Referee(url)  # referenced until closed below: a collected application closes its pool
            barrier.wait(timeout=120)
        except threading.BrokenBarrierError:
            errors.append("a sibling process gave up (broken barrier)")
            break
        except BaseException:
            errors.append(f"{url}: Referee\n{traceback.format_exc()}")
            barrier.abort()
            break
        inner = threading.Barrier(threads, timeout=60)

        def read_models() -> None:
            try:
                inner.wait()
                models = [model.for_app(app) for model in (Catalogue, Standings)]
                app.create_game(CreateGame.from_body(SPEC))
                for model in models:
                    model.catch_up()
                models[0].list()
            except BaseException:
                errors.append(f"{url}: read models\n{traceback.format_exc()}")

        workers = [threading.Thread(target=read_models) for _ in range(threads)]
        for t in workers:
            t.start()
        for t in workers:
            t.join(timeout=120)
        app.close()  # a round's connections are not needed in the next
    results.put((name, errors))
