// The lobby: create an AI room (you against bots; opens your seat at once) or a friend room (invite
// links per seat and a spectator link, each with a copy button).

import { tileElement } from "./tiles.js";

const $ = (id) => document.getElementById(id);
const BOTS = [
  ["easy", "easy bot"],
  ["medium", "medium bot"],
  ["hard", "hard bot"],
  ["external", "external bot (connects over WebSocket)"],
];

function showMessage(text) {
  $("message-text").textContent = text;
  $("message").hidden = false;
}

$("message-close").addEventListener("click", () => {
  $("message").hidden = true;
});

for (const t of ["R10", "B11", "O12", "K13", "J"]) $("tiles-demo").appendChild(tileElement(t));

function mode() {
  return document.querySelector('input[name="mode"]:checked').value;
}

function maxSeats() {
  return $("preset").value === "large" ? 6 : 4;
}

function fillSeatCount() {
  const select = $("seat-count");
  const current = parseInt(select.value || "2", 10);
  select.replaceChildren();
  for (let n = 2; n <= maxSeats(); n++) {
    const o = document.createElement("option");
    o.value = String(n);
    o.textContent = String(n);
    select.appendChild(o);
  }
  select.value = String(Math.min(current, maxSeats()));
}

function renderSeats(keep = true) {
  const box = $("seats");
  const previous = keep ? [...box.querySelectorAll("select")].map((s) => s.value) : [];
  box.replaceChildren();
  const n = parseInt($("seat-count").value, 10);
  for (let seat = 0; seat < n; seat++) {
    const row = document.createElement("div");
    row.className = "seat-row";
    const name = document.createElement("span");
    name.className = "seat-name";
    name.textContent = `Seat ${seat + 1}`;
    row.appendChild(name);
    if (seat === 0) {
      const you = document.createElement("span");
      you.textContent = "you";
      row.appendChild(you);
    } else {
      const select = document.createElement("select");
      select.id = `seat-${seat}`;
      select.setAttribute("aria-label", `Seat ${seat + 1} is played by`);
      const options = mode() === "friends" ? [["human", "a friend (invite link)"], ...BOTS] : BOTS;
      for (const [value, label] of options) {
        const o = document.createElement("option");
        o.value = value;
        o.textContent = label;
        select.appendChild(o);
      }
      const keep = previous[seat - 1];
      select.value = keep && options.some(([v]) => v === keep) ? keep : options[mode() === "friends" ? 0 : 1][0];
      row.appendChild(select);
    }
    box.appendChild(row);
  }
}

function syncClock() {
  // classic has a clock of its own; the checkbox says whether the room keeps one
  if ($("preset").value === "classic") $("clock").checked = true;
  $("clock-seconds").disabled = !$("clock").checked;
}

$("preset").addEventListener("change", () => {
  fillSeatCount();
  renderSeats();
  syncClock();
});

$("clock").addEventListener("change", syncClock);
$("seat-count").addEventListener("change", () => renderSeats());
for (const r of document.querySelectorAll('input[name="mode"]')) r.addEventListener("change", () => renderSeats(false));

fillSeatCount();
renderSeats();
syncClock();

function roomRequest() {
  const n = parseInt($("seat-count").value, 10);
  const seats = ["human"];
  for (let seat = 1; seat < n; seat++) seats.push($(`seat-${seat}`).value);
  const overrides = {};
  if ($("clock").checked) {
    const seconds = parseFloat($("clock-seconds").value);
    if (!(seconds > 0)) throw new Error("The turn clock needs a positive number of seconds.");
    overrides.turn_seconds = seconds;
  } else {
    overrides.turn_seconds = null;
  }
  const body = { rules: { preset: $("preset").value, overrides }, seats };
  const rounds = parseInt($("rounds").value, 10);
  if (!(rounds >= 1 && rounds <= 10)) throw new Error("Rounds must be a whole number from 1 to 10.");
  if (rounds > 1) body.rounds = rounds;
  // a fixed deal for demonstrations and tests: open the lobby as /?seed=N
  const seed = new URLSearchParams(location.search).get("seed");
  if (seed !== null && /^\d+$/.test(seed)) body.seed = parseInt(seed, 10);
  return body;
}

function absolute(url) {
  return new URL(url, location.href).href;
}

function linkRow(label, url, openable) {
  const li = document.createElement("li");
  const name = document.createElement("span");
  name.className = "label";
  name.textContent = label;
  const input = document.createElement("input");
  input.type = "text";
  input.readOnly = true;
  input.value = absolute(url);
  input.setAttribute("aria-label", `${label} link`);
  const copy = document.createElement("button");
  copy.type = "button";
  copy.textContent = "Copy";
  copy.setAttribute("aria-label", `Copy the ${label} link`);
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(input.value);
      copy.textContent = "Copied";
    } catch {
      input.select();
      const ok = document.execCommand && document.execCommand("copy");
      copy.textContent = ok ? "Copied" : "Select and copy";
    }
    setTimeout(() => { copy.textContent = "Copy"; }, 2000);
  });
  li.append(name, input, copy);
  if (openable) {
    const a = document.createElement("a");
    a.href = url;
    a.textContent = "Open";
    li.appendChild(a);
  }
  return li;
}

$("create").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("message").hidden = true;
  let body;
  try {
    body = roomRequest();
  } catch (e) {
    showMessage(e.message);
    return;
  }
  const button = $("create-room");
  button.disabled = true;
  try {
    const res = await fetch("/api/rooms", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    let data = null;
    try {
      data = await res.json();
    } catch {
      data = null;
    }
    if (!res.ok) {
      const why = data && (data.message || data.detail || data.error);
      throw new Error(why ? String(why) : `The server refused the room (HTTP ${res.status}).`);
    }
    if (mode() === "ai" && !data.seats.some((s) => s.kind === "external")) {
      const mine = data.seats.find((s) => s.kind === "human") || data.seats[0];
      location.assign(mine.url);
      return;
    }
    const list = $("links");
    list.replaceChildren();
    for (const s of data.seats) {
      if (s.kind !== "human" && s.kind !== "external") continue;
      const label = s.seat === 0 ? "Seat 1 (you)" : `Seat ${s.seat + 1}${s.kind === "external" ? " (bot)" : ""}`;
      list.appendChild(linkRow(label, s.url, s.seat === 0));
    }
    list.appendChild(linkRow("Spectators", data.watch, true));
    $("invites").hidden = false;
    $("invites").scrollIntoView({ behavior: "smooth" });
  } catch (e) {
    showMessage(e.message || String(e));
  } finally {
    button.disabled = false;
  }
});
