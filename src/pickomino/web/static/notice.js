// One message at a time in the page's notice area (the server's refusals, mostly), with the
// rule behind it as a link to the rules page. It fades by itself after a while, or goes at
// once with its close button; never while the pointer or the focus is in it (WCAG 2.2.1),
// and a focus that was in it goes back to where it came from. It never covers the control
// that has the focus.

import { fill } from "./dom.js";
import { ruleLink } from "./words.js";

const SHOWN_MS = 7000;
let timer = null;

/** Shows `message` (words already), and `rule` (e.g. "R8") as a link, if given. */
export function notice(message, rule = null) {
  const box = document.getElementById("notice");
  box.querySelector("[data-testid=notice-text]").textContent = message;
  fill(box.querySelector("[data-testid=notice-rule]"), rule ? ruleLink(rule) : null);
  box.hidden = false;
  box.classList.remove("fading");
  fadeLater(box);
}

// Fades the notice in a while, unless it is being read (the pointer or the focus in it):
// then it is asked again a while later.
function fadeLater(box) {
  clearTimeout(timer);
  timer = setTimeout(() => {
    if (box.matches(":hover, :focus-within")) fadeLater(box);
    else box.classList.add("fading");
  }, SHOWN_MS);
}

export function setupNotice() {
  const box = document.getElementById("notice");
  let cameFrom = null; // where the focus was before it entered the notice
  const stay = () => {
    if (box.classList.contains("fading")) box.classList.remove("fading");
    fadeLater(box);
  };
  const hide = () => {
    const held = box.contains(document.activeElement);
    box.hidden = true;
    clearTimeout(timer);
    if (held && cameFrom?.isConnected) cameFrom.focus();
  };
  box.addEventListener("focusin", (event) => {
    if (!box.contains(event.relatedTarget)) cameFrom = event.relatedTarget;
    stay();
  });
  box.addEventListener("mouseenter", stay);
  box.querySelector("[data-testid=notice-close]").addEventListener("click", hide);
  box.addEventListener("animationend", hide); // the fade-out ends hidden
  // A control the focus moves to is never under the notice (WCAG 2.4.11: at the top it hid
  // the bar's controls, an audit found): the notice goes to the other edge of the screen.
  document.addEventListener("focusin", (event) => {
    if (box.hidden || box.contains(event.target)) return;
    if (overlaps(box, event.target)) box.classList.toggle("below");
  });
}

function overlaps(one, other) {
  const a = one.getBoundingClientRect();
  const b = other.getBoundingClientRect();
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}
