// One Tab stop for a row of buttons that belong together (the dice of a roll, the tiles to
// choose from, the score keeper's tiles offered as a result): the arrow keys, Home and End move along the row and Tab goes on past it, the
// WAI-ARIA toolbar pattern. Eight dice were eight Tab stops before Stop.

// A row: left and right (up and down still scroll the page, as in a horizontal toolbar).
const MOVES = { ArrowRight: 1, ArrowLeft: -1 };

// Each row's place (by its name): the buttons it had and the one its Tab stop was on. A state
// arriving while a keyboard player moved along the tiles (somebody came, a vote) drew the row
// anew and the focus went back to the first tile, where Enter takes another than the one chosen
// (the page puts a focus lost so on the row's Tab stop: game.js).
const places = new Map();

/**
 * Makes `group` a toolbar named `label`; call it again after each redraw of its buttons (or of
 * the row itself): the Tab stop stays on the button it was on (the same action, or the same
 * place in a roll drawn again), else goes to the first button. Returns `group`.
 */
export function roving(group, label) {
  const buttons = stops(group);
  if (!buttons.length) {
    group.removeAttribute("role"); // the dice of somebody else's turn: pictures, no toolbar
    group.removeAttribute("aria-label");
    places.delete(label);
    return group;
  }
  group.setAttribute("role", "toolbar");
  group.setAttribute("aria-label", label);
  if (!group.dataset.roving) {
    group.dataset.roving = "on";
    group.addEventListener("keydown", (event) => move(group, event));
    group.addEventListener("focusin", (event) => stopAt(group, event.target));
  }
  const place = places.get(label);
  const row = keys(buttons);
  const again = place?.row === row.join(" ") ? buttons[row.indexOf(place.stop)] : null;
  stopAt(group, again ?? buttons[0]);
  return group;
}

// Buttons, and tiles made buttons (the score keeper's, role=button among pictures of tiles).
const stops = (group) => [...group.querySelectorAll("button:not(:disabled), [role=button]")];

// What a button is in its row: its action (a tile to take, a result to enter), else its place
// and face (a die).
const keys = (buttons) =>
  buttons.map((b, i) => b.dataset.action ?? b.dataset.entry ?? `${i}${b.dataset.face ?? ""}`);

function stopAt(group, target) {
  const buttons = stops(group);
  if (!buttons.includes(target)) return;
  for (const button of buttons) button.tabIndex = button === target ? 0 : -1;
  const row = keys(buttons);
  places.set(group.getAttribute("aria-label"), { row: row.join(" "), stop: row[buttons.indexOf(target)] });
}

function move(group, event) {
  if (event.ctrlKey || event.altKey || event.metaKey) return;
  const buttons = stops(group);
  const at = buttons.indexOf(document.activeElement);
  if (at < 0) return;
  let next;
  if (event.key in MOVES) next = (at + MOVES[event.key] + buttons.length) % buttons.length;
  else if (event.key === "Home") next = 0;
  else if (event.key === "End") next = buttons.length - 1;
  else return;
  event.preventDefault();
  buttons[next].focus(); // focusin moves the Tab stop along
}
