// What this browser remembers between visits: the seat secret of each game (so /games/{id}
// alone reopens your seat; the server replaces a link's secret by one for this browser alone
// when it gives the seat), the invite links of games created here, the last name typed,
// whether dice roll with an animation, whether the coach is on (and from which label it
// warns), how much the announcements say, and the language chosen (i18n.js). localStorage may
// be off (private modes): then nothing is remembered and nothing breaks.

export function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key));
  } catch {
    return null;
  }
}

export function write(key, value) {
  try {
    if (value == null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* storage unavailable: forget quietly */
  }
}

/** Marks that this browser goes to `gameId` as the rematch it accepted (see arrivingFromRematch). */
export function goingToRematch(gameId) {
  write(`pickomino.rematch.${gameId}`, true);
}

/** Whether this page load arrives at `gameId` from its rematch (said once: the mark goes). */
export function arrivingFromRematch(gameId) {
  const marked = read(`pickomino.rematch.${gameId}`) === true;
  write(`pickomino.rematch.${gameId}`, null);
  return marked;
}

/** This browser's seat secret for a game (remembered from now on if `kept` is given). */
export function seatToken(gameId, kept) {
  if (kept) write(`pickomino.token.${gameId}`, kept);
  return kept || read(`pickomino.token.${gameId}`);
}

/**
 * The address to open a seat of this browser's at: its secret kept here first and left out of
 * the address, which servers' and proxies' logs keep (an audit read live secrets in them);
 * the link itself if this browser keeps nothing (its storage off).
 */
export function seatAddress(link) {
  const url = new URL(link, location.href);
  const secret = url.searchParams.get("token");
  const gameId = decodeURIComponent(url.pathname.split("/").pop());
  if (!secret) return link;
  seatToken(gameId, secret);
  if (read(`pickomino.token.${gameId}`) !== secret) return link; // storage off: nothing kept
  url.searchParams.delete("token");
  return url.pathname + url.search + url.hash;
}

/** The link whose secret gave this browser its seat of the game (spent), if kept. */
export function spentLink(gameId, link) {
  if (link) write(`pickomino.spent.${gameId}`, link);
  return link || read(`pickomino.spent.${gameId}`);
}

export function forgetToken(gameId) {
  write(`pickomino.token.${gameId}`, null);
}

export function saveInvites(gameId, invites) {
  write(`pickomino.invites.${gameId}`, invites);
}

/** [{seat, name, link}] of the people's seats, if this browser created the game. */
export function invites(gameId) {
  return read(`pickomino.invites.${gameId}`) || [];
}

export function lastName() {
  return read("pickomino.name") || "";
}

export function saveName(name) {
  write("pickomino.name", name);
}

export function animationOn() {
  return read("pickomino.animate") !== false;
}

export function saveAnimation(on) {
  write("pickomino.animate", on);
}

/** The coach: {on, from}; off by default, warning from a mistake (`labels`: the choices). */
export function coachSettings(labels) {
  const kept = read("pickomino.coach") || {};
  return { on: kept.on === true, from: labels.includes(kept.from) ? kept.from : "mistake" };
}

export function saveCoach(settings) {
  write("pickomino.coach", settings);
}

/** [{game, token}] of every game this browser holds a seat in (for "My games"). */
export function heldSeats() {
  const prefix = "pickomino.token.";
  try {
    return Object.keys(localStorage)
      .filter((key) => key.startsWith(prefix))
      .map((key) => ({ game: key.slice(prefix.length), token: read(key) }))
      .filter((seat) => typeof seat.token === "string");
  } catch {
    return [];
  }
}

/** What the announcements say (announce.js): "all" players' moves, "results" (mine, and how
 * the others' turns end), or only "mine". */
export function announceMode() {
  const mode = read("pickomino.announce");
  return mode === "mine" || mode === "results" ? mode : "all";
}

export function saveAnnounceMode(mode) {
  write("pickomino.announce", mode);
}

/** Whether the keys of one letter or digit play (WCAG 2.1.4: they may be turned off). */
export function singleKeys() {
  return read("pickomino.single_keys") !== false;
}

export function saveSingleKeys(on) {
  write("pickomino.single_keys", on);
}

/** Whether this person asked for a notification when it is their turn (and allowed it). */
export function notifyOn() {
  return read("pickomino.notify") === true;
}

export function saveNotify(on) {
  write("pickomino.notify", on);
}
