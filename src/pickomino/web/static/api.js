// JSON over fetch. A failed request throws an Error worded in the reader's language from
// what the server sent as data (a refusal's id and parameters, or a 422's list of problems),
// carrying its status and rule, so the pages can show it as it is.

import { describeError, t } from "./i18n.js";

// The offline app answers the API in the page itself (pickomino/offline): a function from
// (path, init) to a Response, set once before the page asks anything.
let answerHere = null;
export function answerLocally(answer) {
  answerHere = answer;
}
export const answeredHere = () => answerHere !== null;

export function getJSON(url, headers = {}) {
  return request(url, { headers });
}

export function postJSON(url, body, headers = {}) {
  return request(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

export function deleteJSON(url, headers = {}) {
  return request(url, { method: "DELETE", headers });
}

async function request(url, init) {
  let response;
  try {
    response = await (answerHere ? answerHere(url, init) : fetch(url, init));
  } catch {
    throw new Error(t("api.unreachable"));
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    // The status tells a refusal (400) from a stale page (409); `rule` names the game rule;
    // `problems` are a 422's items ({type, loc, ctx}), for a form to mark its fields.
    const detail = data?.detail;
    const refusal = detail && typeof detail === "object" && "id" in detail ? detail : null;
    const problems = Array.isArray(detail) ? detail : [];
    throw Object.assign(new Error(failureText(refusal, problems, response.status)), {
      status: response.status,
      rule: refusal?.rule ?? null,
      refusal,
      problems,
    });
  }
  return data;
}

function failureText(refusal, problems, status) {
  if (refusal) return describeError(refusal);
  if (problems.length) return [...new Set(problems.map(describeProblem))].join(" · ");
  return t("api.status", { status: String(status) });
}

// The problems FastAPI and pydantic name (and the server's own: same_name, start_seat,
// unprintable_name, stacked_marks, reserved_name, bot_not_open), each with its message; any other is said in general.
const PROBLEMS = {
  same_name: "validation.same_name",
  start_seat: "validation.start_seat",
  unprintable_name: "validation.unprintable_name",
  stacked_marks: "validation.stacked_marks",
  reserved_name: "validation.reserved_name",
  bot_not_open: "validation.bot_not_open",
  missing: "validation.missing",
  extra_forbidden: "validation.extra_forbidden",
  string_too_short: "validation.string_too_short",
  string_too_long: "validation.string_too_long",
  too_short: "validation.too_short",
  too_long: "validation.too_long",
  string_type: "validation.string_type",
  int_type: "validation.int_type",
  bool_type: "validation.bool_type",
  literal_error: "validation.literal_error",
  greater_than_equal: "validation.greater_than_equal",
  json_invalid: "validation.json_invalid",
  model_attributes_type: "validation.object_type",
  dict_type: "validation.object_type",
  list_type: "validation.list_type",
};
// The fields of the forms by name, as their labels say them.
const FIELDS = {
  seats: "field.players",
  names: "field.players",
  name: "field.name",
  rules: "field.rules",
  start_player: "field.start_player",
};

// The player (from 0) a problem's place names (["seats", 1, "name"]), or null.
function playerIndex(path) {
  const at = path.findIndex((part, i) => typeof part === "number" && FIELDS[path[i - 1]] === "field.players");
  return at >= 0 ? path[at] : null;
}

/** The players (from 0) a problem is about: those a name used twice names, or the one its
 * place names; none for a problem of the whole form. */
export function problemPlayers({ type, loc = [], ctx = {} }) {
  if (type === "same_name") return (ctx.players ?? []).map((number) => number - 1);
  const row = playerIndex(loc.filter((part) => part !== "body"));
  return row === null ? [] : [row];
}

/** One problem of a 422 in words, saying where: "Player 2: a name may not hold …". */
export function describeProblem({ type, loc = [], ctx = {} }) {
  const message = t(PROBLEMS[type] ?? "validation.other", ctx);
  const path = loc.filter((part) => part !== "body");
  const row = playerIndex(path);
  if (row !== null) return t("validation.player", { number: row + 1, message });
  const field = path.find((part) => typeof part === "string");
  if (field) return t("validation.field", { field: FIELDS[field] ? t(FIELDS[field]) : field, message });
  return message;
}
