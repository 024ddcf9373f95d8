// One message at a time in the page's notice area (the server's refusals, mostly). It
// fades by itself after a while, or goes at once with its close button.

const SHOWN_MS = 7000;
let timer = null;

export function notice(message, rule = null) {
  const box = document.getElementById("notice");
  // The engine's messages may start with their rule ("R8: …"): show it once, as the badge.
  const text = rule && message.startsWith(`${rule}: `) ? message.slice(rule.length + 2) : message;
  box.querySelector("[data-testid=notice-text]").textContent = text;
  box.querySelector("[data-testid=notice-rule]").textContent = rule ? `rule ${rule}` : "";
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
