"""The page in a real browser: a whole game against a bot played by clicks and drags, a phone-size layout,
and placement by keyboard alone (issue 17, parts 4 and 6).

The tests start ``rummikub serve`` on a free loopback port with a fresh database and drive Debian's
``chromium`` through the ``playwright`` package (``executable_path``; no browser is downloaded). They are
skipped, saying why, when either is missing. Screenshots go to a temporary folder, or to the folder named
by ``RUMMIKUB_E2E_SCREENSHOTS``; ``RUMMIKUB_E2E_URL`` points the tests at a server that is already running.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if os.environ.get("RUMMIKUB_REQUIRE_BROWSER"):  # CI sets it: there a missing browser is a failure, not a skip
    assert CHROMIUM is not None, "RUMMIKUB_REQUIRE_BROWSER is set but chromium is not installed"
    import playwright.sync_api as sync_api
else:
    pytestmark = pytest.mark.skipif(CHROMIUM is None,
                                    reason="Debian's chromium is not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")

SEED = 37  # a two-player standard deal that ends in about 16 turns each when both sides play the solver's best move
MAX_TURNS = 400  # a guard: a game that runs longer than this is a bug, not a slow game
HAND_PLAYS = 8  # plays built tile by tile with drags and clicks; later ones take the hint's "Use this play"


# ---- the server -------------------------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve_command(port: int, db: Path) -> list[str]:
    import rummikub

    # the command line's entry point, run by this interpreter (so the server is the package under test)
    rummikub_cmd = [sys.executable, "-c", "import sys; from rummikub.cli import main; sys.exit(main())"]
    help_text = subprocess.run(rummikub_cmd + ["serve", "--help"], capture_output=True, text=True, timeout=60,
                               env=_env(rummikub.__file__)).stdout
    cmd = rummikub_cmd + ["serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db)]
    if "--bot-delay" in help_text:
        cmd += ["--bot-delay", "0"]
    return cmd


def _env(package_file: str) -> dict[str, str]:
    """The environment for the server: the same rummikub package the tests import."""
    env = dict(os.environ)
    root = str(Path(package_file).resolve().parent.parent)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a running ``rummikub serve`` (stopped after the module's tests)."""
    external = os.environ.get("RUMMIKUB_E2E_URL")
    if external:
        yield external.rstrip("/")
        return
    import rummikub

    port = _free_port()
    folder = tmp_path_factory.mktemp("serve")
    log = (folder / "server.log").open("w")
    proc = subprocess.Popen(_serve_command(port, folder / "rooms.sqlite3"), stdout=log, stderr=subprocess.STDOUT,
                            env=_env(rummikub.__file__))
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(base + "/", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.flush()
                raise RuntimeError(f"rummikub serve did not start: {(folder / 'server.log').read_text()[-2000:]}")
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = os.environ.get("RUMMIKUB_E2E_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def _open_page(browser: Any, **context: Any) -> tuple[Any, list[str]]:
    """A new page whose script errors and failed requests are collected (the tests assert there are none)."""
    ctx = browser.new_context(**context)
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(f"script error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
    page.on("response", lambda r: problems.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)
    return page, problems


def _post_room(server: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    req = urllib.request.Request(server + "/api/rooms", data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def _create_room(server: str, seats: list[str], seed: int | None) -> dict[str, Any]:
    """A standard, untimed room (with the seed when the server takes one)."""
    body: dict[str, Any] = {"rules": {"preset": "standard", "overrides": {"turn_seconds": None}}, "seats": seats}
    if seed is not None:
        body["seed"] = seed
    status, room = _post_room(server, body)
    assert status == 201, (status, room)
    return room


@pytest.fixture(scope="module")
def seed(server: str) -> int | None:
    """SEED when the server lets a room fix its deal, else None (a random deal: the game only takes longer)."""
    status, _ = _post_room(server, {"rules": {"preset": "standard"}, "seats": ["human", "easy"], "seed": SEED})
    return SEED if status == 201 else None


# ---- reading and driving the page --------------------------------------------------------------------------

def _wait_for_turn(page: Any, after: int) -> tuple[str, int]:
    """Waits until the page shows a turn later than ``after`` that is ours, or the end; returns (phase, turn)."""
    page.wait_for_function(
        """(after) => { const b = document.body.dataset;
             return b.turn !== undefined && (b.phase === 'over' || (b.phase === 'mine' && Number(b.turn) > after)); }""",
        arg=after, timeout=30_000)
    data = page.evaluate("() => ({phase: document.body.dataset.phase, turn: Number(document.body.dataset.turn)})")
    return str(data["phase"]), int(data["turn"])


def _draft(page: Any) -> dict[str, Any]:
    """The draft as the page shows it: sets (id, [uid, tile]...) and the rack ([uid, tile]...)."""
    result: dict[str, Any] = page.evaluate("""() => ({
        sets: [...document.querySelectorAll('#table .set')].map(s => ({id: s.dataset.setId,
               tiles: [...s.querySelectorAll('.tile')].map(t => [t.dataset.uid, t.dataset.tile])})),
        rack: [...document.querySelectorAll('#rack .tile')].map(t => [t.dataset.uid, t.dataset.tile])})""")
    return result


def _settled(page: Any) -> None:
    """Waits until the page has no draft check in flight (its answer redraws the outlines and reasons)."""
    page.wait_for_function("() => document.body.dataset.checking !== '1'")


def _tile(page: Any, uid: str) -> Any:
    return page.locator(f'.tile[data-uid="{uid}"]')


class Mover:
    """Moves tiles the ways a person does, taking turns between drag and drop and select-then-click."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.moves = 0
        self.drags = 0
        self.clicks = 0

    def _by_drag(self) -> bool:
        _settled(self.page)
        self.moves += 1
        return self.moves % 2 == 1

    def to_new_set(self, uid: str) -> str:
        if self._by_drag():
            _tile(self.page, uid).drag_to(self.page.locator("#new-set"))
            self.drags += 1
        else:
            _tile(self.page, uid).click()
            self.page.locator("#new-set").click()
            self.clicks += 1
        return self._set_of(uid)

    def to_set_end(self, uid: str, set_id: str) -> None:
        slot = self.page.locator(f'.set[data-set-id="{set_id}"] .slot')
        if self._by_drag():
            _tile(self.page, uid).drag_to(slot)
            self.drags += 1
        else:
            _tile(self.page, uid).click()
            slot.click()
            self.clicks += 1
        assert self._set_of(uid) == set_id

    def before(self, uid: str, other: str) -> None:
        _settled(self.page)
        _tile(self.page, uid).drag_to(_tile(self.page, other), target_position={"x": 4, "y": 10})
        self.drags += 1

    def _set_of(self, uid: str) -> str:
        set_id: str = self.page.locator(f'#table .set:has(.tile[data-uid="{uid}"])').get_attribute("data-set-id")
        return set_id


def _play_hint(page: Any, mover: Mover, hint_table: str) -> None:
    """Builds the hint's table on the page by moving tiles one at a time, then commits it."""
    target = [s.split() for s in hint_table.split("|") if s.strip()]
    draft = _draft(page)
    current = {s["id"]: [t for _, t in s["tiles"]] for s in draft["sets"]}
    claimed: set[str] = set()
    plan: list[tuple[list[str], str | None, str]] = []  # (tiles still to add, set id to extend, where)
    for tiles in target:
        for sid, have in current.items():
            if sid in claimed or len(have) > len(tiles):
                continue
            if tiles[:len(have)] == have:
                claimed.add(sid)
                plan.append((tiles[len(have):], sid, "end"))
                break
            if tiles[len(tiles) - len(have):] == have:
                claimed.add(sid)
                plan.append((tiles[:len(tiles) - len(have)], sid, "front"))
                break
        else:
            plan.append((tiles, None, "new"))

    def source(tile: str) -> str:
        """A uid showing ``tile``: from a table set being taken apart first, else from the rack."""
        now = _draft(page)
        for s in now["sets"]:
            if s["id"] in claimed:
                continue
            for uid, t in s["tiles"]:
                if t == tile:
                    return str(uid)
        for uid, t in now["rack"]:
            if t == tile:
                return str(uid)
        raise AssertionError(f"no {tile} left to place for the hint {hint_table!r}: {now}")

    for tiles, sid, where in plan:
        if not tiles:
            continue
        if where == "front" and sid is not None:
            first = page.locator(f'.set[data-set-id="{sid}"] .tile').first.get_attribute("data-uid")
            for tile in tiles:  # each before the set's old first tile, so the order comes out as planned
                mover.before(source(tile), first)
            continue
        if sid is None:
            uid = source(tiles[0])
            sid = mover.to_new_set(uid)
            claimed.add(sid)
            tiles = tiles[1:]
        for tile in tiles:
            mover.to_set_end(source(tile), sid)
    shown = sorted(" ".join(t for _, t in s["tiles"]) for s in _draft(page)["sets"])
    assert shown == sorted(" ".join(s) for s in target), f"the page's draft {shown} is not the hint {target}"
    commit = page.locator("#commit")
    sync_api.expect(commit).to_be_enabled()
    commit.click()


def _show_invalid_draft(page: Any, path: Path) -> None:
    """Starts a new set with one rack tile and adds the same tile to a table set (neither makes a valid set),
    checks that the page outlines both sets invalid with the server's reasons and keeps Play disabled, takes
    the screenshot, then undoes both edits."""
    before = _draft(page)
    lone = before["rack"][0][0]
    set_id = before["sets"][0]["id"]
    matches = [uid for uid, tile in before["rack"][1:] if tile == before["rack"][0][1]]
    other = matches[0] if matches else before["rack"][-1][0]
    _tile(page, lone).drag_to(page.locator("#new-set"))
    _settled(page)
    _tile(page, other).drag_to(page.locator(f'.set[data-set-id="{set_id}"] .slot'))
    _settled(page)
    alone = page.locator(f'#table .set.invalid:has(.tile[data-uid="{lone}"])')
    sync_api.expect(alone).to_be_visible()
    sync_api.expect(alone.locator(".reason")).not_to_be_empty()
    sync_api.expect(page.locator("#commit")).to_be_disabled()
    sync_api.expect(page.locator("#draft-verdict")).to_contain_text("Not legal")
    page.mouse.move(0, 0)
    page.screenshot(path=str(path))
    page.locator("#undo").click()
    page.locator("#undo").click()
    sync_api.expect(page.locator(f'#rack .tile[data-uid="{lone}"]')).to_be_visible()
    sync_api.expect(page.locator(f'#rack .tile[data-uid="{other}"]')).to_be_visible()
    assert _draft(page) == before


# ---- the tests ----------------------------------------------------------------------------------------------

def test_a_whole_game_against_a_bot(server: str, browser: Any, shots: Path, seed: int | None) -> None:
    """From the lobby to the scores: every turn asks for the hint and builds its table by drags and clicks
    (after HAND_PLAYS such plays, by the hint's "Use this play"), then commits, or draws when there is no play;
    mid-game one invalid draft is shown (outlined, with its reason) and undone."""
    started = time.monotonic()
    page, problems = _open_page(browser, viewport={"width": 1280, "height": 800})
    page.goto(f"{server}/" + (f"?seed={seed}" if seed is not None else ""))
    page.locator("#preset").select_option("standard")
    page.locator("#clock").set_checked(False)
    page.locator("#seat-count").select_option("2")
    page.locator("#seat-1").select_option("medium")
    page.locator("#create-room").click()
    page.wait_for_url("**/room/**")
    sync_api.expect(page.locator("#rack .tile").first).to_be_visible()
    assert page.locator("#rack .tile").count() >= 14
    labels = page.locator("#rack .tile").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert all(label == "joker" or label.split()[0] in {"black", "blue", "orange", "red"} for label in labels)

    mover = Mover(page)
    turn = -1
    plays = draws = 0
    mine = 0
    shot_start = shot_invalid = False
    while True:
        phase, turn = _wait_for_turn(page, turn)
        if phase == "over":
            break
        assert plays + draws < MAX_TURNS, "the game did not end"
        mine += 1
        if not shot_invalid and mine >= 5 and len(_draft(page)["sets"]) >= 3 and len(_draft(page)["rack"]) >= 2:
            _show_invalid_draft(page, shots / "mid-game-invalid-draft.png")
            shot_invalid = True
        page.locator("#hint").click()
        panel = page.locator("#hint-panel")
        sync_api.expect(panel).to_be_visible()
        page.wait_for_function("() => document.getElementById('hint-panel').dataset.kind !== undefined")
        kind = panel.get_attribute("data-kind")
        if not shot_start:  # the first turn, with the hint's tiles highlighted on the rack
            page.mouse.move(0, 0)
            page.screenshot(path=str(shots / "start.png"))
            shot_start = True
        if kind == "play" and plays < HAND_PLAYS:
            _play_hint(page, mover, panel.get_attribute("data-table") or "")
            plays += 1
        elif kind == "play":  # the rest of a long game by the hint's button (a bounded runtime on a busy machine)
            page.locator("#hint-use").click()
            commit = page.locator("#commit")
            sync_api.expect(commit).to_be_enabled()
            commit.click()
            plays += 1
        else:
            page.locator("#draw").click()
            draws += 1

    end = page.locator("#end-panel")
    sync_api.expect(end).to_be_visible()
    rows = page.locator("#scores tbody tr")
    assert rows.count() == 2
    scores = rows.evaluate_all("rs => rs.map(r => r.lastElementChild.textContent)")
    assert all(s.strip() for s in scores), scores
    sync_api.expect(page.locator("#scores tr.winner")).to_have_count(1)
    sync_api.expect(page.locator("#next-game")).to_be_visible()
    sync_api.expect(page.locator("#rematch")).to_be_visible()
    record = page.locator("#record-link").get_attribute("href")
    assert record and "/record?seat=0&key=" in record
    got = page.request.get(server + record)  # the finished game's full record, for this seat's key
    assert got.ok, (got.status, got.text()[:300])
    assert isinstance(got.json(), dict) and got.json()
    page.screenshot(path=str(shots / "end.png"))

    assert shot_invalid, "the game ended before a fifth turn with three sets on the table"
    assert plays >= 3 and mover.drags >= 3 and mover.clicks >= 3, (plays, mover.drags, mover.clicks)
    assert problems == [], problems
    print(f"\nwhole game: {plays} plays, {draws} draws, {mover.drags} drags, {mover.clicks} clicks, "
          f"{time.monotonic() - started:.1f} s")


def test_phone_size_layout(server: str, browser: Any, shots: Path, seed: int | None) -> None:
    """At 375x667 nothing scrolls sideways, tiles stay legible and the turn's controls fit on the screen."""
    room = _create_room(server, ["human", "medium"], seed)
    page, problems = _open_page(browser, viewport={"width": 375, "height": 667}, is_mobile=True, has_touch=True)
    page.goto(server + room["seats"][0]["url"])
    sync_api.expect(page.locator("#rack .tile").first).to_be_visible()
    _wait_for_turn(page, -1)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 375, f"the page is {width} px wide on a 375 px screen"
    tile = page.locator("#rack .tile").first.bounding_box()
    assert tile["width"] >= 28 and tile["height"] >= 36, tile
    size = page.locator("#rack .tile .face").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 16, f"tile numbers are {size} px"
    for button in ("#commit", "#draw", "#hint", "#undo"):
        box = page.locator(button).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375, (button, box)
        assert box["height"] >= 32, (button, box)
    # a tap-select, tap-place move works with touch
    first = page.locator("#rack .tile").first
    uid = first.get_attribute("data-uid")
    first.tap()
    page.locator("#new-set").tap()
    sync_api.expect(page.locator(f'#table .tile[data-uid="{uid}"]')).to_be_visible()
    _settled(page)
    page.screenshot(path=str(shots / "phone.png"), full_page=True)
    page.locator("#reset").tap()
    sync_api.expect(page.locator(f'#rack .tile[data-uid="{uid}"]')).to_be_visible()
    assert problems == [], problems


def test_keyboard_only_placement(server: str, browser: Any, seed: int | None) -> None:
    """Tab reaches the rack; Enter selects; arrows reach New set and a set's slot; Ctrl+Z undoes each move."""
    room = _create_room(server, ["human", "medium"], seed)
    page, problems = _open_page(browser, viewport={"width": 1280, "height": 800})
    page.goto(server + room["seats"][0]["url"])
    _wait_for_turn(page, -1)
    sync_api.expect(page.locator("#rack .tile").first).to_be_visible()
    sets_before = page.locator("#table .set").count()

    def active() -> dict[str, Any]:
        got: dict[str, Any] = page.evaluate("""() => { const e = document.activeElement;
            return {id: e.id, uid: e.dataset.uid || null, inRack: !!e.closest('#rack'), cls: e.className,
                    outline: getComputedStyle(e).outlineStyle}; }""")
        return got

    for _ in range(80):  # Tab until a rack tile has the focus
        page.keyboard.press("Tab")
        if active()["inRack"]:
            break
    first = active()
    assert first["inRack"] and first["uid"], "Tab never reached the rack"
    assert first["outline"] != "none", "the focused tile shows no focus ring"
    page.keyboard.press("Enter")
    sync_api.expect(_tile(page, first["uid"])).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("ArrowUp")
    assert active()["id"] == "new-set"
    page.keyboard.press("Enter")
    placed = page.locator(f'#table .set:has(.tile[data-uid="{first["uid"]}"])')
    sync_api.expect(placed).to_have_count(1)
    assert active()["uid"] == first["uid"], "the focus did not follow the placed tile"
    set_id = placed.get_attribute("data-set-id")

    page.keyboard.press("ArrowDown")  # New set
    page.keyboard.press("ArrowDown")  # the rack
    second = active()
    assert second["inRack"] and second["uid"] and second["uid"] != first["uid"]
    page.keyboard.press("Space")
    sync_api.expect(_tile(page, second["uid"])).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("ArrowUp")  # New set
    page.keyboard.press("ArrowUp")  # the new set's first tile
    page.keyboard.press("ArrowRight")  # its slot
    assert "slot" in active()["cls"]
    page.keyboard.press("Enter")
    tiles = page.locator(f'.set[data-set-id="{set_id}"] .tile')
    sync_api.expect(tiles).to_have_count(2)
    assert tiles.evaluate_all("els => els.map(e => e.dataset.uid)") == [first["uid"], second["uid"]]

    page.keyboard.press("Control+z")
    sync_api.expect(tiles).to_have_count(1)
    page.keyboard.press("Control+z")
    sync_api.expect(page.locator("#table .set")).to_have_count(sets_before)
    page.keyboard.press("Control+y")
    sync_api.expect(tiles).to_have_count(1)
    assert problems == [], problems


def test_draft_model_in_the_browser(server: str, browser: Any) -> None:
    """The page's draft module (draft.js), run by the browser: edits, the table-tile rule, undo/redo/reset,
    fresh set ids, and the draft JSON of INTERFACE.md."""
    page, problems = _open_page(browser)
    page.goto(server + "/")
    got = page.evaluate("""async () => {
        const { DraftModel } = await import('/static/draft.js');
        const d = new DraftModel([['R1', 'R2', 'R3'], ['K7', 'B7', 'O7']], ['R4', 'R7', 'J']);
        const out = {};
        const rack = d.state.rack;                        // uids of R4, R7, J
        const k7 = d.state.sets[1].tiles[0];
        out.start = [d.tableText(), d.started, d.canUndo];
        d.move(rack[0], {set: 's1', before: null});       // R4 to the end of the run
        d.move(rack[1], {set: 's2', before: k7});         // R7 before K7
        out.edited = [d.tableText(), d.placed().length, d.started];
        try { d.move(k7, {rack: true}); out.refused = null; } catch (e) { out.refused = e.message; }
        out.afterRefusal = d.tableText();
        d.move(rack[2], {newSet: true});                  // the joker alone: a new set s3
        d.move(k7, {set: 's3', before: null});
        out.json = d.toJSON(5, 0);
        d.undo(); d.undo();
        out.undone = [d.tableText(), d.canRedo];
        d.redo();
        out.redone = d.tableText();
        d.move(rack[2], {rack: true});                    // the joker back: set s3 is gone
        d.move(rack[2], {newSet: true});                  // a newer set never takes s3's id again
        out.ids = d.state.sets.map(s => s.id);
        d.reset();
        out.reset = [d.tableText(), d.state.rack.length, d.canUndo];
        d.load([['R1', 'R2', 'R3', 'R4'], ['J', 'K7', 'B7', 'O7']]);
        out.loaded = [d.tableText(), d.state.rack.map(u => d.tile(u))];
        try { d.load([['R1', 'R2', 'R3']]); out.loadRefused = null; } catch (e) { out.loadRefused = e.message; }
        return out;
    }""")
    assert got["start"] == ["R1 R2 R3 | K7 B7 O7", False, False]
    assert got["edited"] == ["R1 R2 R3 R4 | R7 K7 B7 O7", 2, True]
    assert "K7" in got["refused"] and "table" in got["refused"]
    assert got["afterRefusal"] == "R1 R2 R3 R4 | R7 K7 B7 O7"
    assert got["json"] == {"version": 1, "turn": 5, "player": 0, "sets": [
        {"id": "s1", "tiles": "R1 R2 R3 R4"}, {"id": "s2", "tiles": "R7 B7 O7"}, {"id": "s3", "tiles": "J K7"}]}
    assert got["undone"] == ["R1 R2 R3 R4 | R7 K7 B7 O7", True]
    assert got["redone"] == "R1 R2 R3 R4 | R7 K7 B7 O7 | J"
    assert got["ids"] == ["s1", "s2", "s4"]
    assert got["reset"] == ["R1 R2 R3 | K7 B7 O7", 3, True]
    assert got["loaded"] == ["R1 R2 R3 R4 | J K7 B7 O7", ["R7"]]
    assert "K7" in got["loadRefused"]
    assert problems == [], problems


def test_friend_room_invite_links_and_spectator(server: str, browser: Any) -> None:
    """The lobby's friend room gives a link per person and a spectator link; the game starts when both
    people are in; the spectator sees the table and the counts but no rack and no controls."""
    lobby, problems = _open_page(browser, viewport={"width": 1000, "height": 800})
    lobby.goto(server + "/")
    lobby.locator('input[name="mode"][value="friends"]').check()
    lobby.locator("#seat-count").select_option("3")
    sync_api.expect(lobby.locator("#seat-1")).to_have_value("human")
    lobby.locator("#seat-2").select_option("easy")
    lobby.locator("#create-room").click()
    sync_api.expect(lobby.locator("#invites")).to_be_visible()
    links = lobby.locator("#links input").evaluate_all("els => els.map(e => e.value)")
    assert len(links) == 3, links  # seat 1, seat 2, spectators
    assert "#seat=0&key=" in links[0] and "#seat=1&key=" in links[1] and links[2].endswith("#watch")
    assert links[0].split("key=")[1] != links[1].split("key=")[1]

    first, p1 = _open_page(browser, viewport={"width": 1000, "height": 800})
    first.goto(links[0])
    sync_api.expect(first.locator("#waiting-panel")).to_be_visible()
    sync_api.expect(first.locator("#waiting-text")).to_contain_text("Seat 2")
    second, p2 = _open_page(browser, viewport={"width": 1000, "height": 800})
    second.goto(links[1])
    for page in (first, second):
        sync_api.expect(page.locator("#waiting-panel")).to_be_hidden()
        sync_api.expect(page.locator("#rack .tile")).to_have_count(14)
    watcher, p3 = _open_page(browser, viewport={"width": 1000, "height": 800})
    watcher.goto(links[2])
    sync_api.expect(watcher.locator("#turn-status")).to_contain_text("Watching")
    sync_api.expect(watcher.locator("#players li")).to_have_count(3)
    sync_api.expect(watcher.locator("#rack-area")).to_be_hidden()
    assert watcher.locator("#rack .tile").count() == 0
    assert problems == p1 == p2 == p3 == []
