// The player's draft of the table for one turn: sets of tiles that may be invalid while editing,
// with undo, redo and reset. Every physical tile has a uid so that two copies of "R5" stay apart.
// The server is the judge of legality; this model only keeps the edits consistent:
// a tile from the table can never go back to the rack.

function copyState(state) {
  return { sets: state.sets.map((s) => ({ id: s.id, tiles: s.tiles.slice() })), rack: state.rack.slice() };
}

export class DraftModel {
  /**
   * @param {string[][]} tableSets the turn's table, set by set (tile strings)
   * @param {string[]} rack the player's rack (tile strings)
   */
  constructor(tableSets, rack) {
    this.tiles = new Map(); // uid -> {tile, fromRack}
    let n = 0;
    const sets = tableSets.map((set, i) => ({
      id: `s${i + 1}`,
      tiles: set.map((tile) => {
        const uid = `t${n++}`;
        this.tiles.set(uid, { tile, fromRack: false });
        return uid;
      }),
    }));
    const rackUids = rack.map((tile) => {
      const uid = `r${n++}`;
      this.tiles.set(uid, { tile, fromRack: true });
      return uid;
    });
    this.nextId = sets.length + 1; // set ids are never reused within the turn
    this.history = [{ sets, rack: rackUids }];
    this.pos = 0;
  }

  get state() {
    return this.history[this.pos];
  }

  tile(uid) {
    return this.tiles.get(uid).tile;
  }

  fromRack(uid) {
    return this.tiles.get(uid).fromRack;
  }

  /** Where a tile is now: {set: id, index} or {rack: true}; null if unknown. */
  where(uid) {
    for (const s of this.state.sets) {
      const i = s.tiles.indexOf(uid);
      if (i >= 0) return { set: s.id, index: i };
    }
    return this.state.rack.includes(uid) ? { rack: true } : null;
  }

  /** The sets as tile strings, e.g. for the table text. */
  setTiles() {
    return this.state.sets.map((s) => s.tiles.map((u) => this.tile(u)));
  }

  /** A key of the draft's content (tile strings, not uids): two drafts with one key check alike. */
  contentKey() {
    return JSON.stringify(this.state.sets.map((s) => [s.id, s.tiles.map((u) => this.tile(u))]));
  }

  /** Rack tiles placed on the table this turn (uids). */
  placed() {
    const out = [];
    for (const s of this.state.sets) for (const u of s.tiles) if (this.fromRack(u)) out.push(u);
    return out;
  }

  get started() {
    return JSON.stringify(this.state) !== JSON.stringify(this.history[0]);
  }

  get canUndo() {
    return this.pos > 0;
  }

  get canRedo() {
    return this.pos < this.history.length - 1;
  }

  _push(state) {
    if (JSON.stringify(state) === JSON.stringify(this.state)) return false;
    this.history = this.history.slice(0, this.pos + 1);
    this.history.push(state);
    this.pos += 1;
    return true;
  }

  /**
   * Moves a tile. target: {set: id, before: uid|null} | {newSet: true} | {rack: true}.
   * Returns true when the draft changed; throws an Error with a readable message when the move is refused.
   */
  move(uid, target) {
    if (!this.tiles.has(uid)) throw new Error("That tile is not in this turn's draft.");
    const from = this.where(uid);
    if (!from) throw new Error("That tile is not in this turn's draft.");
    if (target.rack && !this.fromRack(uid)) {
      throw new Error(`${this.tile(uid)} was on the table when the turn began, so it must stay on the table.`);
    }
    const state = copyState(this.state);
    // take the tile out
    if (from.rack) state.rack = state.rack.filter((u) => u !== uid);
    else {
      const s = state.sets.find((x) => x.id === from.set);
      s.tiles.splice(from.index, 1);
    }
    if (target.rack) {
      state.rack.push(uid);
    } else if (target.newSet) {
      state.sets.push({ id: `s${this.nextId}`, tiles: [uid] });
    } else {
      const s = state.sets.find((x) => x.id === target.set);
      if (!s) throw new Error("That set is no longer on the table.");
      const at = target.before ? s.tiles.indexOf(target.before) : -1;
      if (at >= 0) s.tiles.splice(at, 0, uid);
      else s.tiles.push(uid);
    }
    state.sets = state.sets.filter((s) => s.tiles.length > 0);
    const changed = this._push(state);
    if (changed && target.newSet) this.nextId += 1;
    return changed;
  }

  /** Replaces the whole draft with these sets (tile strings), e.g. the hint's table. */
  load(sets) {
    const pool = new Map(); // tile -> uids, table tiles first (they must all stay on the table)
    const all = [...this.history[0].sets.flatMap((s) => s.tiles), ...this.history[0].rack];
    for (const u of all) {
      const t = this.tile(u);
      if (!pool.has(t)) pool.set(t, []);
      pool.get(t).push(u);
    }
    const state = { sets: [], rack: [] };
    const used = new Set();
    for (const set of sets) {
      const uids = [];
      for (const t of set) {
        const list = pool.get(t);
        if (!list || !list.length) throw new Error(`The play needs ${t}, which is neither on the table nor on your rack.`);
        const u = list.shift();
        used.add(u);
        uids.push(u);
      }
      state.sets.push({ id: `s${this.nextId++}`, tiles: uids });
    }
    for (const u of all) {
      if (used.has(u)) continue;
      if (!this.fromRack(u)) throw new Error(`The play leaves out ${this.tile(u)}, a table tile.`);
      state.rack.push(u);
    }
    return this._push(state);
  }

  undo() {
    if (this.canUndo) this.pos -= 1;
  }

  redo() {
    if (this.canRedo) this.pos += 1;
  }

  /** Back to the table as the turn began (itself undoable). */
  reset() {
    return this._push(copyState(this.history[0]));
  }

  /** The draft JSON of INTERFACE.md (only non-empty sets). */
  toJSON(turn, player) {
    return {
      version: 1,
      turn,
      player,
      sets: this.state.sets.filter((s) => s.tiles.length).map((s) => ({
        id: s.id,
        tiles: s.tiles.map((u) => this.tile(u)).join(" "),
      })),
    };
  }

  /** The draft as table notation for a play action. */
  tableText() {
    return this.setTiles().filter((s) => s.length).map((s) => s.join(" ")).join(" | ");
  }
}
