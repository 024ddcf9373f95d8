// JSON over fetch. A failed request throws an Error carrying the server's own words (and
// its status and rule), so the pages can show them as they are.

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

async function request(url, init) {
  let response;
  try {
    response = await fetch(url, init);
  } catch {
    throw new Error("the server cannot be reached: check your connection and try again");
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    // The status tells a refusal (400) from a stale page (409); `rule` names the game rule;
    // `problems` are a 422's items ({type, loc, msg, ctx}), for a form to mark its fields.
    throw Object.assign(new Error(describeError(data, response)), {
      status: response.status,
      rule: data?.rule ?? null,
      problems: Array.isArray(data?.detail) ? data.detail : [],
    });
  }
  return data;
}

// FastAPI answers {"detail": "text"} for our own refusals (400, 404, 409) and
// {"detail": [{"loc": [...], "msg": ...}]} for a body that fails validation (422).
function describeError(data, response) {
  const detail = data?.detail;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    return detail.map((item) => where(item.loc) + item.msg.replace(/^Value error, /, "")).join("; ");
  }
  return `${response.status} ${response.statusText}`;
}

// ["body", "seats", 0, "name"] → "seats #1 name: "
function where(loc = []) {
  const parts = loc.filter((part) => part !== "body").map((p) => (typeof p === "number" ? `#${p + 1}` : p));
  return parts.length ? `${parts.join(" ")}: ` : "";
}
