// One message at a time in the page's notice area (the server's refusals, mostly), with the
// rule behind it as a link to the rules page. It fades by itself after a while, or goes at
// once with its close button.

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
  clearTimeout(timer);
  timer = setTimeout(() => box.classList.add("fading"), SHOWN_MS);
}

export function setupNotice() {
  const box = document.getElementById("notice");
  const hide = () => {
    box.hidden = true;
    clearTimeout(timer);
  };
  box.querySelector("[data-testid=notice-close]").addEventListener("click", hide);
  box.addEventListener("animationend", hide); // the fade-out ends hidden
}
