// A line chart as inline SVG: one line per series over the same steps, a legend, a marker
// that can be moved to one step (the replay's current turn), and the same values as a table
// to open (a picture alone tells a screen reader only its title).

import { h, s } from "./dom.js";
import { t } from "./i18n.js";

const W = 640;
const H = 240;
const PAD = { left: 34, right: 14, top: 14, bottom: 30 };

// A round top and bottom for the y axis (0 unless a value is below it) and a tick step
// giving at most ~6 grid lines.
function yScale(min, max) {
  const step = Math.max(1, Math.ceil((max - min) / 6));
  return { top: Math.max(step, Math.ceil(max / step) * step), bottom: Math.floor(min / step) * step, step };
}

/**
 * `series` are [{name, values, className}] (values per step, all the same length; below 0
 * too); `labels[i]` names step i on the x axis. The y axis reaches the highest value, or
 * `top` (in steps of `step`) when given; `shown(v)` writes each line's last value in the
 * legend and the table, whose first column `stepName` heads. Returns {node, mark(i)}.
 */
export function lineChart({ series, labels, title, stepName, top: fixedTop, step: fixedStep, shown = String }) {
  const steps = Math.max(1, labels.length - 1);
  const values = series.flatMap((line) => line.values);
  const { top, bottom, step } = fixedTop
    ? { top: fixedTop, bottom: 0, step: fixedStep }
    : yScale(Math.min(0, ...values), Math.max(1, ...values));
  const x = (i) => PAD.left + (i / steps) * (W - PAD.left - PAD.right);
  const y = (v) => H - PAD.bottom - ((v - bottom) / (top - bottom)) * (H - PAD.top - PAD.bottom);
  const every = Math.max(1, Math.ceil(labels.length / 8)); // at most ~8 x labels

  const grid = [];
  for (let v = bottom; v <= top; v += step) {
    grid.push(
      s("line", { class: "grid", x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v) }),
      s("text", { class: "tick", x: PAD.left - 6, y: y(v) + 4, "text-anchor": "end" }, String(v)),
    );
  }
  // Every `every`-th step is labelled, and the last one, unless the two would overlap.
  const last = labels.length - 1;
  labels.forEach((label, i) => {
    if (i === last || (i % every === 0 && last - i >= every / 2)) {
      grid.push(
        s("text", { class: "tick", x: x(i), y: H - PAD.bottom + 18, "text-anchor": "middle" }, label),
      );
    }
  });
  const marker = s("line", { class: "marker", y1: PAD.top, y2: H - PAD.bottom, x1: x(0), x2: x(0) });
  const lines = series.map((line, n) =>
    s("path", {
      class: `line ${line.className}`,
      testid: "chart-line",
      "data-series": n,
      d: line.values.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)} ${y(v).toFixed(1)}`).join(" "),
    }),
  );

  const svg = s(
    "svg",
    { class: "chart", testid: "chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": title },
    s("title", {}, title),
    grid,
    marker,
    lines,
  );
  const legend = h(
    "ul",
    { class: "legend", testid: "chart-legend" },
    series.map((line) =>
      h(
        "li",
        { class: line.className },
        h("span", { class: "swatch" }),
        line.name,
        " ",
        h("strong", {}, shown(line.values.at(-1))),
      ),
    ),
  );
  return {
    node: h("figure", { class: "chart-box" }, svg, legend, valuesTable({ series, labels, title, stepName, shown })),
    mark(i) {
      marker.setAttribute("x1", x(i));
      marker.setAttribute("x2", x(i));
    },
  };
}

/** The chart's values as a table, closed until asked for: a row per step, a column per line. */
function valuesTable({ series, labels, title, stepName, shown }) {
  return h(
    "details",
    { class: "chart-table", testid: "chart-table" },
    h("summary", {}, t("chart.as_table")),
    h(
      "div",
      { class: "table-scroll", tabindex: "0", role: "region", "aria-label": title }, // scrolled by keyboard too
      h(
        "table",
        {},
        h("caption", {}, title),
        h("thead", {}, h("tr", {}, [stepName, ...series.map((line) => line.name)].map((name) => h("th", { scope: "col" }, name)))),
        h(
          "tbody",
          {},
          labels.map((label, i) =>
            h("tr", {}, h("th", { scope: "row" }, label), series.map((line) => h("td", {}, shown(line.values[i])))),
          ),
        ),
      ),
    ),
  );
}
