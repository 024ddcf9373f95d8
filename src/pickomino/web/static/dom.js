// Tiny element builders. Every string child becomes a text node, so server and user text
// (player names are user input) is never parsed as HTML.

const SVG_NS = "http://www.w3.org/2000/svg";

/** Whether this page is one of the offline app's (pickomino/offline), whose links stay in its
 * own folder and whose API is answered in the browser. */
export const inOfflineApp = () => "offline" in document.documentElement.dataset;
// Set as properties, not attributes, so a later user edit does not hide the value.
const PROPERTIES = new Set(["value", "checked", "disabled", "selected", "hidden"]);

function children(node, kids) {
  node.append(...kids.flat(Infinity).filter((kid) => kid != null && kid !== false));
  return node;
}

/** An HTML element: h("button", {class: "btn", testid: "roll-button", on: {click}}, "Roll"). */
export function h(tag, props = {}, ...kids) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value == null || value === false) continue;
    if (key === "testid") node.dataset.testid = value;
    else if (key === "data") Object.assign(node.dataset, value);
    else if (key === "on") for (const [type, fn] of Object.entries(value)) node.addEventListener(type, fn);
    else if (PROPERTIES.has(key)) node[key] = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  return children(node, kids);
}

/**
 * Words for the eye and their twin for the ear, when the two differ: a screen reader spells
 * the dice "1 2 W" letter by letter, and hears "1, 2 and worm" instead.
 */
export const twin = (seen, heard) =>
  seen === heard
    ? seen
    : [h("span", { "aria-hidden": "true" }, seen), h("span", { class: "visually-hidden" }, heard)];

/** Replaces a node's children, with the same rules as h() for the kids. */
export function fill(node, ...kids) {
  node.replaceChildren();
  return children(node, kids);
}

const drawnFrom = new WeakMap();

/**
 * Fills `node` with `draw()`'s children only when `key` (what they are drawn from, as a
 * string) changed since it was last filled so: a part of the page that a move left as it was
 * is not laid out and painted again (a move redrew the whole table, a tenth of a second of a
 * phone's time). Only for parts without handlers of their own, which would keep old ones.
 */
export function refillFrom(node, key, draw) {
  if (drawnFrom.get(node) === key) return;
  drawnFrom.set(node, key);
  fill(node, draw());
}

/** An SVG element with plain attributes. */
export function s(tag, attrs = {}, ...kids) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value == null) continue;
    if (key === "testid") node.dataset.testid = value;
    else node.setAttribute(key, value);
  }
  return children(node, kids);
}

const FOCUSABLE = "button, a[href], input, select, textarea, summary, [tabindex]";
const usable = (node) => !node.disabled && node.getClientRects().length > 0;

/**
 * Runs `draw()`, which draws `node` anew. A focus that was on a control inside, now gone or
 * disabled, goes to the control of the same test id in the row of the same game (an element
 * with its `data-game-id`) if there is one, else at the same place (or the last of them),
 * else to the node's first control, else to the node itself: never to the page's body.
 */
export function keepFocus(node, draw) {
  const was = document.activeElement;
  const inside = was !== node && node.contains(was);
  const testid = inside ? was.dataset?.testid : null;
  const alike = () => (testid ? [...node.querySelectorAll(`[data-testid="${testid}"]`)] : []);
  const index = alike().indexOf(was);
  const game = inside ? was.closest("[data-game-id]")?.dataset.gameId : null;
  draw();
  if (!inside || (was.isConnected && usable(was))) return;
  const same = alike().filter(usable);
  const sameGame = game != null ? same.find((control) => control.closest("[data-game-id]")?.dataset.gameId === game) : null;
  const next = sameGame ?? same[Math.min(index, same.length - 1)] ?? [...node.querySelectorAll(FOCUSABLE)].find(usable);
  if (next) return next.focus();
  if (!node.hasAttribute("tabindex")) node.tabIndex = -1; // focusable by script only
  node.focus();
}

/**
 * Runs `send()` (a form's request) with `button` marked unusable meanwhile: aria-disabled, not
 * disabled, which would drop a focus on it to the page's body; a second submit while it runs
 * (Enter again) does nothing.
 */
export async function whileSending(button, send) {
  if (button.getAttribute("aria-disabled") === "true") return;
  button.setAttribute("aria-disabled", "true");
  try {
    await send();
  } finally {
    button.removeAttribute("aria-disabled");
  }
}

/** fill() for a panel drawn anew while it may hold the focus: it stays in the panel. */
export const refill = (node, ...kids) => keepFocus(node, () => fill(node, ...kids));

/**
 * refill() with `draw()`'s children, only when `key` (what they are drawn from) changed since
 * the node was last filled so: a list asked for again every few seconds is drawn anew only
 * when it changed (a screen reader keeps its place in it), and then keeps the focus on the
 * same game's control (an audit: the lobby's list, redrawn every 10 s, sent a keyboard
 * user's focus to the page's body).
 */
export function refillWhenChanged(node, key, draw) {
  if (drawnFrom.get(node) === key) return;
  drawnFrom.set(node, key);
  refill(node, draw());
}
