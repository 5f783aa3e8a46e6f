// The game page: one seat's (or a spectator's) view of a room, live over a WebSocket.
// The server is the only judge: every draft edit is sent as a `check`, and Play is enabled only when the
// server's latest `checked` answer for exactly this draft says it is legal.

import { Connection } from "./connection.js";
import { DraftModel } from "./draft.js";
import {
  countTiles, parseTable, parseTiles, sortKey, tileDifference, tileElement, tilesLabel,
} from "./tiles.js";

const $ = (id) => document.getElementById(id);
const CHECK_DELAY_MS = 150;

// ---- where we are: /room/<id>#seat=N&key=K or #watch ------------------------------------------------------

function readLocation() {
  const parts = location.pathname.split("/").filter(Boolean);
  const roomId = decodeURIComponent(parts[parts.length - 1] || "");
  const hash = new URLSearchParams(location.hash.replace(/^#/, ""));
  if (hash.has("seat") && hash.has("key")) {
    return { roomId, seat: parseInt(hash.get("seat"), 10), key: hash.get("key"), watch: false };
  }
  return { roomId, seat: null, key: null, watch: true };
}

const where = readLocation();

// ---- page state ---------------------------------------------------------------------------------------

const S = {
  msg: null, // the latest `state` message
  view: null,
  room: null,
  clockOffset: 0, // server time minus this browser's time, seconds
  draft: null, // DraftModel for the current turn (or a read-only one off turn)
  draftKey: null,
  selected: null, // uid of the selected tile
  sortMode: "colour",
  check: null, // {key, answer} the latest checked answer and the draft content it answers
  checkSeq: 0,
  checkPending: [], // [{id, key}] checks sent and not answered yet
  checkTimer: null,
  hint: null, // {action, turn}
  hintSeq: 0,
  status: "connecting",
  dragging: false, // while a tile is dragged the page is not redrawn, so nothing moves under the pointer
  renderDeferred: false,
  shownEnd: null, // the outcome last scrolled into view
};

const conn = new Connection(
  where.roomId,
  where.watch ? { type: "hello", watch: true } : { type: "hello", seat: where.seat, key: where.key },
  { onMessage, onStatus },
);

// ---- messages ---------------------------------------------------------------------------------------------

function onStatus(status, detail) {
  S.status = status;
  if (status === "reconnecting") showMessage(detail || "Connection lost; reconnecting.", "warn");
  if (status === "open") {
    hideMessage("warn");
    // answers lost with the old connection never come: check the draft again
    if (S.checkPending.length) {
      S.checkPending = [];
      scheduleCheck();
    }
  }
  if (status === "closed") showMessage(detail || "The server closed the connection.");
  renderStatus();
}

function onMessage(msg) {
  switch (msg.type) {
    case "state":
      onState(msg);
      break;
    case "checked":
      onChecked(msg);
      break;
    case "hint":
      onHint(msg);
      break;
    case "error":
      onError(msg);
      break;
    default:
      break; // unknown message types are ignored on purpose (newer servers may send more)
  }
}

function onState(msg) {
  S.msg = msg;
  S.room = msg.room || S.room;
  if (typeof msg.server_time === "number") S.clockOffset = msg.server_time - Date.now() / 1000;
  if (!msg.view) {
    // a friend room before every person has joined
    S.view = null;
    S.draft = null;
    S.draftKey = null;
    hideHint();
    renderWaiting();
    return;
  }
  $("waiting-panel").hidden = true;
  S.view = msg.view;
  const v = S.view;
  const key = `${v.turn}|${v.current_player}|${v.table}|${v.rack ?? ""}|${msg.your_turn}`;
  if (key !== S.draftKey) {
    S.draftKey = key;
    S.draft = new DraftModel(parseTable(v.table), parseTiles(v.rack || ""));
    S.selected = null;
    S.check = null;
    S.checkPending = [];
    clearTimeout(S.checkTimer);
    S.checkTimer = null;
    markChecking();
    if (!S.hint || S.hint.turn !== v.turn) hideHint();
  }
  if (v.outcome) hideHint();
  render();
  const ended = v.outcome ? `${v.turn}|${JSON.stringify(v.outcome)}` : null;
  if (ended && ended !== S.shownEnd) {
    S.shownEnd = ended;
    reveal($("end-panel"));
  }
}

function onChecked(msg) {
  try {
    applyChecked(msg);
  } finally {
    markChecking();
  }
}

function applyChecked(msg) {
  let entry;
  if (msg.id !== undefined && msg.id !== null) {
    const i = S.checkPending.findIndex((p) => p.id === msg.id);
    if (i < 0) return; // an answer for a draft of an earlier turn
    entry = S.checkPending[i];
    S.checkPending.splice(0, i + 1);
  } else {
    entry = S.checkPending.shift(); // answers come in the order the checks were sent
    if (!entry) return;
  }
  if (!S.draft || entry.key !== S.draft.contentKey()) {
    renderDraftState();
    return; // the draft changed since; a newer check is on its way
  }
  S.check = { key: entry.key, answer: msg };
  render();
}

function onHint(msg) {
  if (!S.view) return;
  S.hint = { action: msg.action ?? null, turn: S.view.turn };
  renderHint();
  render();
  reveal($("hint-panel"));
}

/** Scrolls a panel into view when it is off screen (on a phone the side panels sit below the rack). */
function reveal(el) {
  if (el.hidden) return;
  const box = el.getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight) el.scrollIntoView({ block: "nearest" });
}

function onError(msg) {
  // a refused check or hint still counts as answered, so Play does not wait for it forever
  if (msg.id !== undefined && msg.id !== null) {
    const i = S.checkPending.findIndex((p) => p.id === msg.id);
    if (i >= 0) S.checkPending.splice(0, i + 1);
    markChecking();
  }
  showMessage(msg.message || `Error: ${msg.code || "unknown"}`);
  addLocalLog(`Error: ${msg.message || msg.code}`);
  render();
}

// ---- actions ----------------------------------------------------------------------------------------------

function send(msg) {
  conn.send(msg);
}

function canEdit() {
  return Boolean(S.msg && S.msg.your_turn && S.view && !S.view.outcome && S.draft && !where.watch);
}

function edited() {
  S.check = null;
  scheduleCheck();
  render();
}

function scheduleCheck() {
  clearTimeout(S.checkTimer);
  S.checkTimer = null;
  if (S.draft && S.draft.started && canEdit()) S.checkTimer = setTimeout(sendCheck, CHECK_DELAY_MS);
  markChecking();
}

/** body[data-checking="1"] while a check is waiting to be sent or answered (for scripts and tests). */
function markChecking() {
  document.body.dataset.checking = S.checkTimer || S.checkPending.length ? "1" : "0";
}

function sendCheck() {
  S.checkTimer = null;
  markChecking();
  if (!S.draft || !canEdit()) return;
  const key = S.draft.contentKey();
  const id = ++S.checkSeq;
  S.checkPending.push({ id, key });
  send({ type: "check", id, draft: S.draft.toJSON(S.view.turn, where.seat) });
  markChecking();
  renderDraftState();
}

function moveTile(uid, target) {
  if (!canEdit()) {
    showMessage("It is not your turn: the table cannot be changed now.");
    return false;
  }
  try {
    const changed = S.draft.move(uid, target);
    S.selected = null;
    if (changed) edited();
    else render();
    return changed;
  } catch (e) {
    showMessage(e.message);
    return false;
  }
}

function select(uid) {
  if (!canEdit()) {
    showMessage("It is not your turn: you can look, but not move tiles.");
    return;
  }
  S.selected = S.selected === uid ? null : uid;
  render();
  focusTile(uid);
}

function commit() {
  if (!commitReady()) return;
  send({ type: "action", action: { kind: "play", table: S.draft.tableText() } });
  $("commit").disabled = true;
}

function drawOrPass() {
  if (!S.msg) return;
  if (S.msg.can_draw) send({ type: "action", action: { kind: "draw" } });
  else if (S.msg.can_pass) send({ type: "action", action: { kind: "pass" } });
}

function commitReady() {
  return Boolean(canEdit() && S.draft.started && S.check && S.check.answer.legal
    && S.check.key === S.draft.contentKey() && S.checkPending.length === 0);
}

// ---- rendering --------------------------------------------------------------------------------------------

function renderWaiting() {
  renderStatus();
  const panel = $("waiting-panel");
  panel.hidden = false;
  const seats = S.room && Array.isArray(S.room.seats) ? S.room.seats : [];
  const missing = seats.filter((s) => s.kind === "human" && !s.joined && !s.connected).map((s) => seatName(s.seat));
  $("waiting-text").textContent = missing.length
    ? `The game starts when ${missing.join(", ")} ${missing.length > 1 ? "have" : "has"} joined with their invite link${missing.length > 1 ? "s" : ""}.`
    : "The game is about to start.";
  const list = $("players");
  list.replaceChildren();
  for (const s of seats) {
    const li = document.createElement("li");
    li.className = "player";
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = seatName(s.seat);
    const state = document.createElement("span");
    state.className = "badge" + (s.connected ? "" : " off");
    state.textContent = s.kind !== "human" ? "ready" : s.connected ? "here" : s.joined ? "away" : "not joined yet";
    li.append(name, state);
    list.appendChild(li);
  }
}

function seatName(seat) {
  const info = S.room && Array.isArray(S.room.seats) ? S.room.seats.find((s) => s.seat === seat) || S.room.seats[seat] : null;
  const kind = info && info.kind ? info.kind : null;
  let name = `Seat ${seat + 1}`;
  if (kind && kind !== "human") name += ` (${kind === "external" ? "external bot" : `${kind} bot`})`;
  if (seat === where.seat) name += " (you)";
  return name;
}

function render() {
  if (!S.view) return;
  if (S.dragging) {
    S.renderDeferred = true;
    return;
  }
  S.renderDeferred = false;
  const focus = captureFocus();
  renderStatus();
  renderTable();
  renderRack();
  renderControls();
  renderDraftState();
  renderPlayers();
  renderLog();
  renderEnd();
  renderHint();
  restoreFocus(focus);
}

/** What has the keyboard focus among the things a redraw replaces (a tile, a set's slot, New set). */
function captureFocus() {
  const el = document.activeElement;
  if (!el || !el.closest) return null;
  if (el.dataset.uid) return { uid: el.dataset.uid };
  if (el.classList.contains("slot")) return { slot: el.dataset.setId };
  if (el.id === "new-set") return { newSet: true };
  return null;
}

function restoreFocus(focus) {
  if (!focus || (document.activeElement && document.activeElement !== document.body)) return;
  let el = null;
  if (focus.uid) el = document.querySelector(`.tile[data-uid="${CSS.escape(focus.uid)}"]`);
  else if (focus.slot) el = document.querySelector(`.slot[data-set-id="${CSS.escape(focus.slot)}"]`);
  else if (focus.newSet) el = $("new-set");
  if (el && !el.disabled) el.focus();
}

function renderStatus() {
  $("room-name").textContent = where.roomId ? `room ${where.roomId}` : "";
  const el = $("turn-status");
  if (!S.view) {
    el.textContent = S.status === "connecting" ? "Connecting\u2026" : "Waiting for players\u2026";
    document.body.dataset.phase = "waiting";
    return;
  }
  const v = S.view;
  if (v.outcome) el.textContent = "Game over";
  else if (S.msg.your_turn) el.textContent = "Your turn";
  else el.textContent = `${seatName(v.current_player)} to play`;
  if (where.watch) el.textContent = `Watching \u00b7 ${el.textContent}`;
  el.classList.toggle("mine", Boolean(S.msg.your_turn && !v.outcome));
  // for scripts and tests: which turn is shown and whose it is
  document.body.dataset.turn = String(v.turn);
  document.body.dataset.phase = v.outcome ? "over" : S.msg.your_turn ? "mine" : "waiting";
  document.body.classList.toggle("watching", where.watch);
}

function renderTable() {
  const table = $("table");
  table.replaceChildren();
  const editable = canEdit();
  const answer = S.check && S.draft && S.check.key === S.draft.contentKey() ? S.check.answer : null;
  const problems = answer ? answer.problems || [] : [];
  const sets = S.draft ? S.draft.state.sets : [];
  sets.forEach((set, i) => {
    const el = document.createElement("div");
    el.className = "set";
    el.dataset.setId = set.id;
    el.setAttribute("role", "listitem");
    const tiles = set.tiles.map((u) => S.draft.tile(u));
    const mine = problems.filter((p) => p.set === set.id);
    let verdict = "";
    if (answer) {
      el.classList.add(mine.length ? "invalid" : "valid");
      verdict = mine.length ? `, not valid: ${mine.map((p) => p.message).join("; ")}` : ", valid";
    } else if (S.draft.started && editable) {
      el.classList.add("pending");
    }
    el.setAttribute("aria-label", `Set ${i + 1}: ${tilesLabel(tiles)}${verdict}`);
    const row = document.createElement("div");
    row.className = "set-tiles";
    for (const uid of set.tiles) row.appendChild(makeTile(uid, editable));
    if (editable) {
      const slot = document.createElement("button");
      slot.type = "button";
      slot.className = "slot";
      slot.textContent = "+";
      slot.dataset.setId = set.id;
      slot.disabled = !S.selected;
      slot.setAttribute("aria-label", `Put the selected tile at the end of set ${i + 1}`);
      slot.addEventListener("click", () => {
        const uid = S.selected;
        if (uid && moveTile(uid, { set: set.id, before: null })) focusTile(uid);
      });
      row.appendChild(slot);
      addDropTarget(el, (uid, event) => {
        const onTile = event.target.closest(".tile");
        const before = onTile && onTile.dataset.uid !== uid ? onTile.dataset.uid : null;
        moveTile(uid, { set: set.id, before });
      });
      el.addEventListener("click", (event) => {
        if (S.selected && !event.target.closest(".tile") && !event.target.closest(".slot")) {
          moveTile(S.selected, { set: set.id, before: null });
        }
      });
    }
    el.appendChild(row);
    if (mine.length) {
      const why = document.createElement("div");
      why.className = "reason";
      why.textContent = mine.map((p) => p.message).join("; ");
      el.appendChild(why);
    }
    table.appendChild(el);
  });
  if (!sets.length) {
    const empty = document.createElement("p");
    empty.className = "muted empty-table";
    empty.textContent = "The table is empty.";
    table.appendChild(empty);
  }
  if (editable) {
    const zone = document.createElement("button");
    zone.type = "button";
    zone.id = "new-set";
    zone.className = "new-set";
    zone.textContent = "New set";
    zone.setAttribute("aria-label", "Start a new set with the selected tile (N)");
    zone.addEventListener("click", () => {
      const uid = S.selected;
      if (uid) {
        if (moveTile(uid, { newSet: true })) focusTile(uid);
      } else showMessage("Select a tile first (click it, or focus it and press Enter), then choose New set.");
    });
    addDropTarget(zone, (uid) => moveTile(uid, { newSet: true }));
    table.appendChild(zone);
  }
}

function makeTile(uid, editable) {
  const tile = S.draft.tile(uid);
  const el = tileElement(tile, { uid, interactive: true });
  if (S.draft.fromRack(uid) && !(S.draft.where(uid) || {}).rack) el.classList.add("placed");
  if (uid === S.selected) {
    el.classList.add("selected");
    el.setAttribute("aria-pressed", "true");
  }
  if (S.hint && S.hint.highlight && S.hint.highlight.has(uid)) el.classList.add("hinted");
  el.draggable = editable;
  el.addEventListener("click", (event) => {
    event.stopPropagation();
    select(uid);
  });
  el.addEventListener("keydown", (event) => onTileKey(event, uid));
  el.addEventListener("dragstart", (event) => {
    if (!canEdit()) {
      event.preventDefault();
      return;
    }
    event.dataTransfer.setData("text/plain", uid);
    event.dataTransfer.effectAllowed = "move";
    el.classList.add("dragging");
    document.body.classList.add("is-dragging");
    S.dragging = true;
  });
  el.addEventListener("dragend", () => {
    el.classList.remove("dragging");
    document.body.classList.remove("is-dragging");
    endDrag();
  });
  return el;
}

function endDrag() {
  if (!S.dragging) return;
  S.dragging = false;
  if (S.renderDeferred) render();
}

function addDropTarget(el, onDrop) {
  el.addEventListener("dragover", (event) => {
    if (!canEdit()) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
    el.classList.add("drop-hover");
  });
  el.addEventListener("dragleave", (event) => {
    if (!el.contains(event.relatedTarget)) el.classList.remove("drop-hover");
  });
  el.addEventListener("drop", (event) => {
    event.preventDefault();
    event.stopPropagation();
    el.classList.remove("drop-hover");
    endDrag();
    const uid = event.dataTransfer.getData("text/plain");
    if (uid) onDrop(uid, event);
  });
}

function rackUids() {
  if (!S.draft) return [];
  const uids = S.draft.state.rack.slice();
  uids.sort((a, b) => sortKey(S.draft.tile(a), S.sortMode) - sortKey(S.draft.tile(b), S.sortMode) || (a < b ? -1 : 1));
  return uids;
}

function renderRack() {
  const area = $("rack-area");
  area.hidden = where.watch;
  if (where.watch) return;
  const rack = $("rack");
  rack.replaceChildren();
  const editable = canEdit();
  for (const uid of rackUids()) {
    const item = makeTile(uid, editable);
    item.setAttribute("role", "button");
    rack.appendChild(item);
  }
  if (!rack.children.length) {
    const p = document.createElement("p");
    p.className = "muted";
    p.textContent = S.view && S.view.rack ? "All your tiles are on the table." : "Your rack is empty.";
    rack.appendChild(p);
  }
  if (!rack.dataset.bound) {
    rack.dataset.bound = "1";
    addDropTarget(rack, (uid) => moveTile(uid, { rack: true }));
    rack.addEventListener("click", (event) => {
      if (S.selected && !event.target.closest(".tile") && !(S.draft.where(S.selected) || {}).rack) {
        moveTile(S.selected, { rack: true });
      }
    });
  }
  $("sort-colour").setAttribute("aria-pressed", String(S.sortMode === "colour"));
  $("sort-number").setAttribute("aria-pressed", String(S.sortMode === "number"));
}

function renderControls() {
  const editable = canEdit();
  const msg = S.msg || {};
  $("undo").disabled = !editable || !S.draft.canUndo;
  $("redo").disabled = !editable || !S.draft.canRedo;
  $("reset").disabled = !editable || !S.draft.started;
  $("hint").disabled = !editable;
  const draw = $("draw");
  draw.textContent = msg.can_pass && !msg.can_draw ? "Pass" : "Draw";
  draw.disabled = !editable || !(msg.can_draw || msg.can_pass);
  draw.title = S.draft && S.draft.started ? "Drawing ends the turn and drops this draft" : "";
  $("commit").disabled = !commitReady();
}

function renderDraftState() {
  if (S.dragging) {
    S.renderDeferred = true;
    return;
  }
  const el = $("draft-status");
  el.replaceChildren();
  if (!S.view || where.watch || S.view.outcome) return;
  const v = S.view;
  const opened = Array.isArray(v.opened) ? v.opened[where.seat] : true;
  const threshold = v.rules && typeof v.rules.opening_threshold === "number" ? v.rules.opening_threshold : 30;
  const answer = S.check && S.draft && S.check.key === S.draft.contentKey() ? S.check.answer : null;
  const parts = [];
  if (!opened && threshold > 0) {
    let points = 0;
    if (answer && typeof answer.opening_points === "number") points = answer.opening_points;
    const span = document.createElement("span");
    span.id = "opening-points";
    span.className = "opening " + (points >= threshold ? "ok" : "short");
    span.textContent = `Opening: ${points} of ${threshold} points`;
    parts.push(span);
  }
  if (canEdit() && S.draft.started) {
    const span = document.createElement("span");
    span.id = "draft-verdict";
    if (!answer || S.checkPending.length) {
      span.className = "verdict pending";
      span.textContent = "Checking the draft\u2026";
    } else if (answer.legal) {
      span.className = "verdict ok";
      span.textContent = "The draft is legal: press Play to commit it.";
    } else {
      span.className = "verdict bad";
      const whole = (answer.problems || []).filter((p) => p.set === null || p.set === undefined);
      const perSet = (answer.problems || []).length - whole.length;
      const bits = whole.map((p) => p.message);
      if (perSet) bits.unshift(`${perSet} set${perSet > 1 ? "s are" : " is"} not valid`);
      span.textContent = `Not legal yet: ${bits.join("; ") || "see the outlined sets"}.`;
    }
    parts.push(span);
  } else if (canEdit()) {
    const span = document.createElement("span");
    span.className = "muted";
    span.textContent = S.msg.can_draw ? "Place tiles from your rack, or draw." : "Place tiles from your rack, or pass.";
    parts.push(span);
  }
  el.replaceChildren(...parts);
  $("commit").disabled = !commitReady();
}

function renderPlayers() {
  const v = S.view;
  const list = $("players");
  list.replaceChildren();
  const sizes = v.rack_sizes || [];
  for (let seat = 0; seat < v.players; seat++) {
    const li = document.createElement("li");
    li.className = "player" + (seat === v.current_player && !v.outcome ? " current" : "") + (seat === where.seat ? " me" : "");
    const info = S.room && Array.isArray(S.room.seats) ? S.room.seats.find((s) => s.seat === seat) : null;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = seatName(seat);
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = `${sizes[seat] ?? "?"} tile${sizes[seat] === 1 ? "" : "s"}`;
    li.append(name, count);
    if (Array.isArray(v.opened) && !v.opened[seat]) {
      const o = document.createElement("span");
      o.className = "badge";
      o.textContent = "not opened";
      li.appendChild(o);
    }
    if (info && info.connected === false && info.kind === "human") {
      const o = document.createElement("span");
      o.className = "badge off";
      o.textContent = "away";
      li.appendChild(o);
    }
    if (seat === v.current_player && !v.outcome) li.setAttribute("aria-current", "true");
    list.appendChild(li);
  }
  $("pool").textContent = `Pool: ${v.pool_size} tile${v.pool_size === 1 ? "" : "s"}`;
  const link = $("record-link");
  let href = `/api/rooms/${encodeURIComponent(where.roomId)}/record`;
  if (!where.watch && v.outcome) href += `?seat=${where.seat}&key=${encodeURIComponent(where.key)}`;
  link.href = href;
  link.setAttribute("download", `rummikub-${where.roomId}.json`);
}

const localLog = [];

function addLocalLog(text) {
  localLog.push(text);
  renderLog();
}

function describeEvent(e) {
  const who = typeof e.player === "number" ? seatName(e.player) : "Someone";
  const kind = e.type || e.kind;
  const cause = e.cause && e.cause !== "player" && e.cause !== "move" ? ` (${String(e.cause).replace(/_/g, " ")})` : "";
  if (kind === "play") {
    const played = parseTiles(e.played || "");
    return `${who} played ${played.length ? played.join(" ") : "tiles"}${cause}`;
  }
  if (kind === "draw") {
    const n = typeof e.count === "number" ? e.count : Array.isArray(e.tiles) ? e.tiles.length : 1;
    const tiles = Array.isArray(e.tiles) && e.player === where.seat ? `: ${e.tiles.join(" ")}` : "";
    return `${who} drew ${n} tile${n === 1 ? "" : "s"}${tiles}${cause}`;
  }
  if (kind === "pass") return `${who} passed${cause}`;
  return `${who}: ${kind || "event"}${cause}`;
}

function renderLog() {
  const log = $("log");
  if (!S.view) return;
  const items = (S.view.history || []).map(describeEvent).concat(localLog);
  log.replaceChildren();
  for (let i = items.length - 1; i >= 0 && i >= items.length - 60; i--) {
    const li = document.createElement("li");
    li.textContent = items[i];
    log.appendChild(li);
  }
  if (!items.length) {
    const li = document.createElement("li");
    li.className = "muted none";
    li.textContent = "No turns yet.";
    log.appendChild(li);
  }
}

function fraction(text) {
  const s = String(text);
  if (!s.includes("/")) return s;
  const [a, b] = s.split("/").map(Number);
  return (a / b).toFixed(1).replace(/\.0$/, "");
}

function renderEnd() {
  const panel = $("end-panel");
  const out = S.view.outcome;
  panel.hidden = !out;
  if (!out) return;
  const winners = out.winners || [];
  const how = out.termination === "rummikub" ? "emptied their rack" : out.termination === "pool_exhausted"
    ? "had the lowest rack when the pool ran out" : `won (${out.termination})`;
  const names = winners.map(seatName).join(" and ");
  $("end-text").textContent = winners.length ? `${names} ${how}.` : "The game is over.";
  const body = $("scores").querySelector("tbody");
  body.replaceChildren();
  for (let seat = 0; seat < S.view.players; seat++) {
    const tr = document.createElement("tr");
    if (winners.includes(seat)) tr.className = "winner";
    const cells = [seatName(seat), String((out.rack_values || [])[seat] ?? ""), fraction((out.scores || [])[seat] ?? "")];
    cells.forEach((text, i) => {
      const td = document.createElement(i === 0 ? "th" : "td");
      if (i === 0) td.scope = "row";
      td.textContent = text;
      tr.appendChild(td);
    });
    body.appendChild(tr);
  }
  const room = S.room || {};
  const m = room.match || null;
  let text = "";
  if (m && Array.isArray(m.totals)) {
    const total = m.total_games > 1 ? `game ${m.games_played} of ${m.total_games}` : "one game";
    const per = m.totals.map((t, i) => `${seatName(i)} ${fraction(t)} point${fraction(t) === "1" ? "" : "s"}`
      + (Array.isArray(m.wins) ? `, ${m.wins[i]} win${m.wins[i] === 1 ? "" : "s"}` : ""));
    text = `Match (${total}): ${per.join("; ")}.`;
    if (m.over && Array.isArray(m.winners) && m.winners.length) text += ` ${m.winners.map(seatName).join(" and ")} won the match.`;
  }
  $("match-scores").textContent = text;
  const matchOver = room.status === "match_over" || Boolean(m && m.over);
  $("next-game").hidden = where.watch || matchOver;
  $("rematch").hidden = where.watch;
  $("next-game").disabled = room.status !== undefined && room.status !== "game_over";
  $("rematch").disabled = room.status !== undefined && room.status !== "game_over" && room.status !== "match_over";
}

function renderHint() {
  const panel = $("hint-panel");
  if (!S.hint || !S.view || S.hint.turn !== S.view.turn || S.view.outcome) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const action = S.hint.action;
  const box = $("hint-table");
  box.replaceChildren();
  panel.dataset.kind = action ? action.kind : "none";
  if (!action || action.kind !== "play") {
    panel.dataset.table = "";
    $("hint-text").textContent = S.msg && S.msg.can_pass && !S.msg.can_draw
      ? "No play from your rack fits: pass." : "No play from your rack fits: draw a tile.";
    $("hint-use").hidden = true;
    S.hint.highlight = new Set();
    return;
  }
  panel.dataset.table = action.table;
  const sets = parseTable(action.table);
  const before = parseTable(S.view.table).flat();
  const played = tileDifference(sets.flat(), before);
  // highlight one rack tile per played tile
  const highlight = new Set();
  const rack = S.draft ? S.draft.history[0].rack : [];
  const left = played.slice();
  for (const uid of rack) {
    const i = left.indexOf(S.draft.tile(uid));
    if (i >= 0) {
      highlight.add(uid);
      left.splice(i, 1);
    }
  }
  S.hint.highlight = highlight;
  $("hint-text").textContent = `Best play: ${played.length} tile${played.length === 1 ? "" : "s"} (${played.join(" ")}), giving this table:`;
  const onTable = countTiles(before); // table tiles are not highlighted; the rest come from the rack
  for (const set of sets) {
    const row = document.createElement("div");
    row.className = "set mini";
    row.setAttribute("aria-label", tilesLabel(set));
    for (const t of set) {
      const el = tileElement(t, { small: true });
      if (onTable.get(t)) onTable.set(t, onTable.get(t) - 1);
      else el.classList.add("hinted");
      row.appendChild(el);
    }
    box.appendChild(row);
  }
  $("hint-use").hidden = false;
}

function hideHint() {
  S.hint = null;
  $("hint-panel").hidden = true;
}

// ---- the clock --------------------------------------------------------------------------------------------

function tickClock() {
  const el = $("clock");
  const v = S.view;
  if (!v || v.deadline === null || v.deadline === undefined || v.outcome) {
    el.hidden = true;
    return;
  }
  const left = Math.max(0, v.deadline - (Date.now() / 1000 + S.clockOffset));
  el.hidden = false;
  const m = Math.floor(left / 60);
  const s = Math.floor(left % 60);
  el.textContent = `${m}:${String(s).padStart(2, "0")} left`;
  el.classList.toggle("urgent", left < 10);
  el.setAttribute("aria-label", `${Math.ceil(left)} seconds left for ${S.msg && S.msg.your_turn ? "your" : "this"} turn`);
}

setInterval(tickClock, 250);

// ---- messages to the user ---------------------------------------------------------------------------------

let messageKind = null;

function showMessage(text, kind = "error") {
  messageKind = kind;
  $("message-text").textContent = text;
  const box = $("message");
  box.className = `message ${kind}`;
  box.hidden = false;
}

function hideMessage(kind) {
  if (kind && messageKind !== kind) return;
  $("message").hidden = true;
}

// ---- keyboard ---------------------------------------------------------------------------------------------

function focusTile(uid) {
  const el = document.querySelector(`.tile[data-uid="${CSS.escape(uid)}"]`);
  if (el) el.focus();
}

/** Focusable things in reading order, grouped by row (each set, then the rack). */
function rows() {
  const out = [];
  for (const set of document.querySelectorAll("#table .set-tiles")) {
    out.push([...set.querySelectorAll(".tile, .slot:not([disabled])")]);
  }
  const ns = $("new-set");
  if (ns) out.push([ns]);
  const rack = [...document.querySelectorAll("#rack .tile")];
  if (rack.length) out.push(rack);
  return out.filter((r) => r.length);
}

function onTileKey(event, uid) {
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    select(uid);
  }
}

/** Arrow keys move the focus: left and right within a row (a set, New set, the rack), up and down between rows. */
function onArrow(event) {
  const here = event.target.closest && event.target.closest(".tile, .slot, #new-set");
  if (!here || here.closest("#hint-panel")) return false;
  const all = rows();
  const r = all.findIndex((row) => row.includes(here));
  if (r < 0) return false;
  const c = all[r].indexOf(here);
  const key = event.key;
  let target = null;
  if (key === "ArrowLeft") target = all[r][Math.max(0, c - 1)];
  if (key === "ArrowRight") target = all[r][Math.min(all[r].length - 1, c + 1)];
  if (key === "ArrowUp" && r > 0) target = all[r - 1][Math.min(c, all[r - 1].length - 1)];
  if (key === "ArrowDown" && r < all.length - 1) target = all[r + 1][Math.min(c, all[r + 1].length - 1)];
  if (target) target.focus();
  return true;
}

document.addEventListener("keydown", (event) => {
  const tag = event.target && event.target.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  const ctrl = event.ctrlKey || event.metaKey;
  if (event.key.startsWith("Arrow") && !ctrl && !event.altKey) {
    if (onArrow(event)) event.preventDefault();
  } else if (ctrl && (event.key === "z" || event.key === "Z") && !event.shiftKey) {
    event.preventDefault();
    doUndo();
  } else if (ctrl && (event.key === "y" || ((event.key === "z" || event.key === "Z") && event.shiftKey))) {
    event.preventDefault();
    doRedo();
  } else if (!ctrl && !event.altKey && S.selected && (event.key === "n" || event.key === "N")) {
    event.preventDefault();
    const uid = S.selected;
    if (moveTile(uid, { newSet: true })) focusTile(uid);
  } else if (!ctrl && !event.altKey && S.selected && (event.key === "b" || event.key === "B")) {
    event.preventDefault();
    const uid = S.selected;
    if (moveTile(uid, { rack: true })) focusTile(uid);
  } else if (event.key === "Escape") {
    if (S.selected) {
      S.selected = null;
      render();
    } else hideMessage();
  }
});

// ---- buttons ----------------------------------------------------------------------------------------------

function doUndo() {
  if (!canEdit() || !S.draft.canUndo) return;
  S.draft.undo();
  S.selected = null;
  edited();
}

function doRedo() {
  if (!canEdit() || !S.draft.canRedo) return;
  S.draft.redo();
  S.selected = null;
  edited();
}

$("undo").addEventListener("click", doUndo);
$("redo").addEventListener("click", doRedo);
$("reset").addEventListener("click", () => {
  if (canEdit() && S.draft.reset()) {
    S.selected = null;
    edited();
  }
});
$("commit").addEventListener("click", commit);
$("draw").addEventListener("click", drawOrPass);
$("hint").addEventListener("click", () => {
  if (!canEdit()) return;
  send({ type: "hint", id: `h${++S.hintSeq}` });
  $("hint-text").textContent = "Asking the solver\u2026";
});
$("hint-close").addEventListener("click", () => {
  hideHint();
  render();
});
$("hint-use").addEventListener("click", () => {
  if (!S.hint || !S.hint.action || S.hint.action.kind !== "play" || !canEdit()) return;
  try {
    if (S.draft.load(parseTable(S.hint.action.table))) edited();
  } catch (e) {
    showMessage(e.message);
  }
});
$("sort-colour").addEventListener("click", () => {
  S.sortMode = "colour";
  renderRack();
});
$("sort-number").addEventListener("click", () => {
  S.sortMode = "number";
  renderRack();
});
$("next-game").addEventListener("click", () => send({ type: "next_game" }));
$("rematch").addEventListener("click", () => send({ type: "rematch" }));
$("message-close").addEventListener("click", () => hideMessage());

if (!where.roomId) showMessage("This page needs a room: open it from the lobby or from an invite link.");
else conn.open();

