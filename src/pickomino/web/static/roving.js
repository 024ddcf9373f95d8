// One Tab stop for a row of buttons that belong together (the dice of a roll, the tiles to
// choose from): the arrow keys, Home and End move along the row and Tab goes on past it, the
// WAI-ARIA toolbar pattern. Eight dice were eight Tab stops before Stop.

// A row: left and right (up and down still scroll the page, as in a horizontal toolbar).
const MOVES = { ArrowRight: 1, ArrowLeft: -1 };

/**
 * Makes `group` a toolbar named `label`; call it again after each redraw of its buttons: the
 * Tab stop stays at the place it had in the row, or goes to the first button. Returns `group`.
 */
export function roving(group, label) {
  const buttons = stops(group);
  if (!buttons.length) {
    group.removeAttribute("role"); // the dice of somebody else's turn: pictures, no toolbar
    group.removeAttribute("aria-label");
    return group;
  }
  group.setAttribute("role", "toolbar");
  group.setAttribute("aria-label", label);
  if (!group.dataset.roving) {
    group.dataset.roving = "on";
    group.addEventListener("keydown", (event) => move(group, event));
    group.addEventListener("focusin", (event) => stopAt(group, event.target));
  }
  stopAt(group, buttons[Number(group.dataset.stop)] ?? buttons[0]);
  return group;
}

const stops = (group) => [...group.querySelectorAll("button:not(:disabled)")];

function stopAt(group, target) {
  const buttons = stops(group);
  if (!buttons.includes(target)) return;
  for (const button of buttons) button.tabIndex = button === target ? 0 : -1;
  group.dataset.stop = buttons.indexOf(target);
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
