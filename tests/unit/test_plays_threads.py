"""plays() across threads: each thread searches in its own scratch memory, which a later thread takes over once
the first ends; the listings are the same whichever thread makes them and whatever it inherited."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from tests.helpers.positions import class_positions

from rummikub.search import plays

POSITIONS = class_positions("small", 12, base_seed=40_000) + class_positions("medium", 2, base_seed=41_000)


def _listing(i: int) -> list[tuple[str, str, int]]:
    """Position i's plays in order, with the tables and values of the first few (built when read)."""
    p = POSITIONS[i]
    listed = plays(p.table, p.rack, rules=p.rules, opened=p.opened)
    out = []
    for k, tiles in enumerate(listed.played_tiles()):
        play = listed.get(tiles) if k < 8 else None
        out.append((str(tiles), "" if play is None else str(play.table), -1 if play is None else play.value))
    return out


def test_fresh_threads_list_what_the_main_thread_lists() -> None:
    expected = [_listing(i) for i in range(len(POSITIONS))]
    assert sum(map(len, expected)) > 0
    # One short-lived thread after another: each starts with the scratch the one before it left.
    for i in range(len(POSITIONS)):
        got: list[list[tuple[str, str, int]]] = []
        worker = threading.Thread(target=lambda: got.append(_listing(i)))
        worker.start()
        worker.join()
        assert got == [expected[i]]


def test_a_pool_made_anew_each_round_lists_the_same() -> None:
    expected = [_listing(i) for i in range(len(POSITIONS))]
    for _ in range(3):
        with ThreadPoolExecutor(3) as pool:
            assert list(pool.map(_listing, range(len(POSITIONS)))) == expected


def test_a_listing_read_on_another_thread_builds_its_plays_there() -> None:
    p = POSITIONS[-1]
    listed = plays(p.table, p.rack, rules=p.rules, opened=p.opened)
    assert len(listed) > 0  # searched here; each play's table is built on the thread that reads it
    with ThreadPoolExecutor(1) as pool:
        read = pool.submit(lambda: [(str(q.tiles), str(q.table), q.value) for q in listed]).result()
    expected = _listing(len(POSITIONS) - 1)
    assert [t for t, _, _ in read] == [t for t, _, _ in expected]
    assert read[:8] == expected[:8]
