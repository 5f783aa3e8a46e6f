// The room's WebSocket: authenticates with the first message, reconnects after a drop (unless the
// server refused the credentials), and hands every server message to `onMessage`.

export class Connection {
  /**
   * @param {string} roomId
   * @param {object} hello the first message: {type: "hello", seat, key} or {type: "hello", watch: true}
   * @param {{onMessage: Function, onStatus: Function}} handlers
   */
  constructor(roomId, hello, handlers) {
    this.roomId = roomId;
    this.hello = hello;
    this.handlers = handlers;
    this.ws = null;
    this.closedForGood = false;
    this.retry = 0;
    this.queue = [];
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/${encodeURIComponent(this.roomId)}`;
  }

  open() {
    this.handlers.onStatus("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      ws.send(JSON.stringify(this.hello));
      this.handlers.onStatus("open");
      for (const m of this.queue.splice(0)) ws.send(JSON.stringify(m));
    });
    ws.addEventListener("message", (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        this.handlers.onMessage({ type: "error", code: "bad_message", message: "The server sent something that is not JSON." });
        return;
      }
      if (msg.type === "error" && msg.code === "auth") this.closedForGood = true;
      this.handlers.onMessage(msg);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      if (this.closedForGood) {
        this.handlers.onStatus("closed", event.reason);
        return;
      }
      this.retry += 1;
      const delay = Math.min(10000, 500 * 2 ** Math.min(this.retry, 5));
      this.handlers.onStatus("reconnecting", `Connection lost; trying again in ${Math.round(delay / 1000)} s.`);
      setTimeout(() => this.open(), delay);
    });
  }

  /** Sends a message now, or when the connection is back. */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
    else this.queue.push(msg);
  }
}
