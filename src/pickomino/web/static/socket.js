// The game's WebSocket, reopened after a drop with a growing wait (0.5 s, 1 s, 2 s … 8 s,
// with jitter so a restarted server is not hit by every browser at once). The server's close
// codes (pickomino.web.protocol): 4403 (bad seat token) and 4404 (unknown game) are final:
// trying again cannot help; after 4408 (this page fell too far behind) and 4410 (nothing heard
// from it for too long: a sleeping tab) it reconnects as after any drop, and gets the whole
// state again; after 4429 (too many connections) it waits longer.

const FINAL_CODES = new Set([4403, 4404]);
const TOO_MANY = 4429;
const PING_MS = 25000; // keeps idle connections open through proxies
const SECRET = /^[A-Za-z0-9_-]+$/; // a seat's secret as the server makes them (URL-safe base64)

// The offline app plays a solo game in the page itself (pickomino/offline): a function that
// stands for connect() below, set once before the page connects.
let connectHere = null;
export function connectLocally(local) {
  connectHere = local;
}

/**
 * `url()` gives the address at each try, `secret()` the seat's secret then (it may change
 * meanwhile; none: a spectator), sent as a subprotocol (`seat.<secret>`, beside `pickomino`,
 * the one the server answers with): a header, which access logs do not keep, as they keep
 * an address's query. `onMessage(msg)` gets every parsed message; `onStatus(status, wait,
 * code)` hears "connecting", "online", "offline" (wait: ms until the next try; code: the
 * close code) and "closed". Returns `send(msg)`, which says whether the message could be
 * sent.
 */
export function connect(url, secret, { onMessage, onStatus }) {
  if (connectHere) return connectHere({ onMessage, onStatus });
  let socket = null;
  let failures = 0;

  function open() {
    onStatus("connecting");
    const held = secret();
    // A secret as the server makes them goes in the header; any other text (a link cut
    // short or run into a bracket) cannot be a subprotocol, so it goes in the address for
    // the server to refuse it as it would any wrong secret.
    const header = Boolean(held) && SECRET.test(held);
    const address = held && !header ? `${url()}?token=${encodeURIComponent(held)}` : url();
    socket = new WebSocket(address, header ? ["pickomino", `seat.${held}`] : ["pickomino"]);
    socket.onopen = () => onStatus("online");
    socket.onmessage = (event) => {
      failures = 0; // the server spoke: the next drop starts the backoff afresh
      onMessage(JSON.parse(event.data));
    };
    socket.onclose = (event) => {
      if (FINAL_CODES.has(event.code)) {
        onStatus("closed");
        return;
      }
      const backoff = Math.min(8000, 500 * 2 ** failures++);
      const wait = Math.max(backoff, event.code === TOO_MANY ? 5000 : 0) * (0.8 + Math.random() * 0.4);
      onStatus("offline", wait, event.code);
      setTimeout(open, wait);
    };
  }

  function send(message) {
    if (socket?.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  setInterval(() => send({ type: "ping" }), PING_MS);
  open();
  return send;
}
