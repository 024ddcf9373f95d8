// The rules page, /rules: the project's own rules text in the reader's language, with an
// anchor per rule, so /rules#R7 opens at rule R7 (every refusal's rule badge links there).

import { language, loadWords, t, wordsUrl } from "./i18n.js";

const $ = (id) => document.getElementById(id);

await loadWords();
document.title = t("rulespage.title", { game: t("game.name") });
try {
  const response = await fetch(wordsUrl(`${language()}/rules.html`));
  if (!response.ok) throw new Error(String(response.status));
  $("rules").innerHTML = await response.text(); // the server's own text (rendered Markdown)
  // A wide table scrolls sideways on a phone: in the tab order, so the keyboard can scroll it,
  // named by the heading it comes under (a Tab stop with no name: an audit).
  for (const table of $("rules").querySelectorAll("table")) {
    table.tabIndex = 0;
    if (!table.caption) table.setAttribute("aria-label", headingOver(table) ?? document.title);
  }
  showTarget();
} catch (failure) {
  $("rules-error").textContent = t("rulespage.failed", { why: failure.message });
  $("rules-error").hidden = false;
}
window.addEventListener("hashchange", showTarget);

// The words of the last heading before `node` in the text.
function headingOver(node) {
  for (let at = node; at && at !== $("rules"); at = at.parentElement) {
    for (let before = at.previousElementSibling; before; before = before.previousElementSibling) {
      if (/^H[1-6]$/.test(before.tagName)) return before.textContent.trim();
    }
  }
  return null;
}

// The rule the address names: scrolled to and marked (the text came after the browser
// looked for the anchor, so it did not scroll by itself).
function showTarget() {
  for (const marked of document.querySelectorAll(".target")) marked.classList.remove("target");
  const anchor = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (!anchor) return;
  const heading = anchor.closest("h1, h2, h3, h4") ?? anchor;
  heading.classList.add("target");
  heading.scrollIntoView();
}
