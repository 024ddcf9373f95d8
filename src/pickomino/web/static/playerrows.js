// The "Players" list of a set-up form (lobby and score keeper): 2–7 numbered rows of a name and
// a remove button, and the "who starts" select (a seat or random), which follows the names as typed.

import { fill, h } from "./dom.js";

/**
 * Keeps the rows of `list` (an <ol>), the limits on `addButton` and the choices of `start`.
 * `limits` is [fewest, most]; `testids` name the row, its name input and its remove button.
 * `startLabel(name, number)` words a seat in `start`; "Random" comes first if `randomFirst`.
 * `extra`, if given, puts one more control after each name: `extra.control(nameInput, value)`
 * builds it, `extra.label(number)` is its aria-label.
 * Returns {add(name, value), refresh(), read()}: add() appends a row and gives its name input;
 * read() gives the rows as [{name, value}], the name trimmed, the value the extra control's.
 */
export function playerRows({ list, addButton, start, limits, testids, startLabel, randomFirst, extra }) {
  const [fewest, most] = limits;
  const parts = new WeakMap(); // row -> its controls, so renumbering need not search the row

  function add(name, value) {
    const nameInput = h("input", {
      class: "name",
      testid: testids.name,
      value: name,
      maxlength: 24,
      required: true,
      autocomplete: "off",
      placeholder: "name",
      on: { input: refresh },
    });
    const control = extra?.control(nameInput, value);
    const remove = h("button", { type: "button", class: "btn small quiet", testid: testids.remove }, "×");
    const number = h("span", { class: "seat-number" });
    const row = h("li", { class: testids.row, testid: testids.row }, number, nameInput, control, remove);
    remove.addEventListener("click", () => {
      row.remove();
      refresh();
    });
    parts.set(row, { number, nameInput, control, remove });
    list.append(row);
    refresh();
    return nameInput;
  }

  // Seat numbers, the add/remove limits and the "who starts" choices follow the rows.
  function refresh() {
    const rows = [...list.children].map((row) => ({ row, ...parts.get(row) }));
    rows.forEach(({ row, number, nameInput, control, remove }, n) => {
      row.className = `${testids.row} seat-${n}`; // seat-N gives the row its player colour
      number.textContent = String(n + 1);
      nameInput.setAttribute("aria-label", `name of player ${n + 1}`);
      control?.setAttribute("aria-label", extra.label(n + 1));
      remove.disabled = rows.length <= fewest;
      remove.setAttribute("aria-label", `remove player ${n + 1}`);
    });
    addButton.disabled = rows.length >= most;
    const chosen = start.value;
    const random = h("option", { value: "random" }, "Random");
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

  return { add, refresh, read };
}
