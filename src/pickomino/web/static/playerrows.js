// The "Players" list of a set-up form (lobby and score keeper): 2–7 numbered rows of a name and
// a remove button, and the "who starts" select (a seat or random), which follows the names as typed.

import { describeProblem, problemPlayers } from "./api.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";

/**
 * Keeps the rows of `list` (an <ol>), the limits on `addButton` and the choices of `start`.
 * `limits` is [fewest, most]; `testids` name the row, its name input and its remove button.
 * `startLabel(name, number)` words a seat in `start`; "Random" comes first if `randomFirst`.
 * `extra`, if given, puts one more control after each name: `extra.control(nameInput, value)`
 * builds it, `extra.label(number)` is its aria-label.
 * Returns {add(name, value), refresh(), read(), refusal(failure)}: add() appends a row and gives
 * its name input; read() gives the rows as [{name, value}], the name trimmed, the value the
 * extra control's; refusal() shows the server's refusal of a name under the rows it names.
 */
export function playerRows({ list, addButton, start, limits, testids, startLabel, randomFirst, extra }) {
  const [fewest, most] = limits;
  const parts = new WeakMap(); // row -> its controls, so renumbering need not search the row
  const rowError = h("p", { class: "error row-error", testid: "row-error", role: "alert", id: `${list.id}-error` });

  function add(name, value) {
    const nameInput = h("input", {
      class: "name",
      testid: testids.name,
      value: name,
      maxlength: 24,
      required: true,
      autocomplete: "off",
      placeholder: t("setup.name_placeholder"),
      on: { input: refresh },
    });
    const control = extra?.control(nameInput, value);
    const remove = h("button", { type: "button", class: "btn small quiet", testid: testids.remove }, "×");
    const number = h("span", { class: "seat-number" });
    const row = h("li", { class: testids.row, testid: testids.row }, number, nameInput, control, remove);
    remove.addEventListener("click", () => {
      const next = row.nextElementSibling ?? row.previousElementSibling; // the focus goes there
      row.remove();
      refresh();
      parts.get(next)?.nameInput.focus();
    });
    parts.set(row, { number, nameInput, control, remove });
    list.append(row);
    refresh();
    return nameInput;
  }

  // Seat numbers, the add/remove limits and the "who starts" choices follow the rows; an edit
  // clears the marks of a refusal.
  function refresh() {
    const rows = [...list.children].map((row) => ({ row, ...parts.get(row) }));
    rowError.remove();
    rows.forEach(({ row, number, nameInput, control, remove }, n) => {
      row.className = `${testids.row} seat-${n}`; // seat-N gives the row its player colour
      number.textContent = String(n + 1);
      nameInput.setAttribute("aria-label", t("setup.name_label", { number: n + 1 }));
      nameInput.removeAttribute("aria-invalid");
      nameInput.removeAttribute("aria-describedby");
      control?.setAttribute("aria-label", extra.label(n + 1));
      remove.disabled = rows.length <= fewest;
      remove.setAttribute("aria-label", t("setup.remove_label", { number: n + 1 }));
    });
    addButton.disabled = rows.length >= most;
    const chosen = start.value;
    const random = h("option", { value: "random" }, t("setup.random"));
    const seats = rows.map(({ nameInput }, n) =>
      h("option", { value: n }, startLabel(nameInput.value, n + 1)),
    );
    fill(start, randomFirst ? [random, seats] : [seats, random]);
    start.value = [...start.options].some((o) => o.value === chosen) ? chosen : "0";
  }

  function read() {
    return [...list.children].map((row) => {
      const { nameInput, control } = parts.get(row);
      return { name: nameInput.value.trim(), value: control?.value };
    });
  }

  // A refusal about names (one used twice, one with invisible characters…): the names it is
  // about are marked invalid and described by the message, put under the last of them, and the
  // first gets the focus, to be mended. True if every problem was about a name (the form's own
  // error then stays hidden).
  function refusal(failure) {
    const problems = failure.problems ?? [];
    const named = problems.filter((problem) => problemPlayers(problem).length);
    if (!named.length) return false;
    refresh();
    const rows = [...list.children];
    const marked = [...new Set(named.flatMap(problemPlayers))].sort((a, b) => a - b).filter((n) => rows[n]);
    for (const n of marked) {
      const { nameInput } = parts.get(rows[n]);
      nameInput.setAttribute("aria-invalid", "true");
      nameInput.setAttribute("aria-describedby", rowError.id);
    }
    rows[marked.at(-1)]?.append(rowError);
    rowError.textContent = [...new Set(named.map(describeProblem))].join(" · ");
    if (marked.length) parts.get(rows[marked[0]]).nameInput.focus();
    return named.length === problems.length;
  }

  return { add, refresh, read, refusal };
}
