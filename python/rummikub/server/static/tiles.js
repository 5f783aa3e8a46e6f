// Tiles in the project's notation: "R10" (colour letter + number), "J" (a joker).
// Colours: K black, B blue, O orange, R red.

export const COLOUR_NAMES = { K: "black", B: "blue", O: "orange", R: "red" };
const COLOUR_ORDER = { K: 0, B: 1, O: 2, R: 3 };

/** The tiles of a rack or a set: "K1 K2 J" -> ["K1", "K2", "J"]. */
export function parseTiles(text) {
  if (!text) return [];
  return String(text).trim().split(/\s+/).filter(Boolean).map((t) => t.toUpperCase());
}

/** The sets of a table: "R1 R2 R3 | K7 B7 O7" -> [["R1","R2","R3"], ["K7","B7","O7"]]. */
export function parseTable(text) {
  if (!text || !String(text).trim()) return [];
  return String(text).split("|").map(parseTiles).filter((s) => s.length > 0);
}

/** A table as text, sets separated by " | ". */
export function tableText(sets) {
  return sets.filter((s) => s.length).map((s) => s.join(" ")).join(" | ");
}

export function isJoker(tile) {
  return tile === "J" || tile.startsWith("J");
}

/** {colour, number, joker} for a tile string. */
export function tileInfo(tile) {
  if (isJoker(tile)) return { colour: null, number: null, joker: true };
  return { colour: tile[0], number: parseInt(tile.slice(1), 10), joker: false };
}

/** What a screen reader says: "red 10", "joker". */
export function tileLabel(tile) {
  const info = tileInfo(tile);
  if (info.joker) return "joker";
  return `${COLOUR_NAMES[info.colour] || info.colour} ${info.number}`;
}

/** A set read aloud: "red 1, red 2, red 3". */
export function tilesLabel(tiles) {
  return tiles.map(tileLabel).join(", ");
}

/** Sort keys: by colour (K B O R, then number) or by number (then colour); jokers last. */
export function sortKey(tile, mode) {
  const info = tileInfo(tile);
  if (info.joker) return 1e6;
  const c = COLOUR_ORDER[info.colour] ?? 9;
  return mode === "number" ? info.number * 10 + c : c * 100 + info.number;
}

/** Count tiles by their text (a multiset as a Map). */
export function countTiles(tiles) {
  const m = new Map();
  for (const t of tiles) m.set(t, (m.get(t) || 0) + 1);
  return m;
}

/** The tiles of `a` not in `b` (multiset difference), in the order of `a`. */
export function tileDifference(a, b) {
  const left = countTiles(b);
  const out = [];
  for (const t of a) {
    const n = left.get(t) || 0;
    if (n > 0) left.set(t, n - 1);
    else out.push(t);
  }
  return out;
}

/** A tile element. `opts`: uid, interactive (focusable, draggable), small, extra classes. */
export function tileElement(tile, opts = {}) {
  const info = tileInfo(tile);
  const el = document.createElement("div");
  el.className = "tile" + (info.joker ? " joker" : ` c-${info.colour}`) + (opts.small ? " small" : "");
  el.dataset.tile = tile;
  if (opts.uid) el.dataset.uid = opts.uid;
  el.setAttribute("aria-label", tileLabel(tile));
  if (opts.interactive) {
    el.setAttribute("role", "button");
    el.tabIndex = 0;
    el.setAttribute("aria-pressed", "false");
    el.draggable = true;
  } else {
    el.setAttribute("role", "img");
  }
  const face = document.createElement("span");
  face.className = "face";
  face.setAttribute("aria-hidden", "true");
  face.textContent = info.joker ? "\u263A" : String(info.number);
  el.appendChild(face);
  return el;
}
