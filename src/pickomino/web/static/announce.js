// The game said aloud: a polite live region (a screen reader reads what is added to it once
// it has finished speaking) that tells each new log entry in the reader's language, in the
// log's own words (events.js) with the dice said as faces: every roll, what was kept and the
// total, a stop's tile taken or stolen, a bust and the tile returned, whose turn it is, the
// end and its ranking. How much is said is the reader's choice (storage.js): every player's
// moves; their own and how the others' turns end (whose turn, a tile taken, stolen or put
// back, a bust: an audit's bot turns took 14 s of speech each, the table gone on meanwhile);
// or only their own and what touches them (a tile stolen from them, the end).

import { h } from "./dom.js";
import { describeEntry, rankingLines } from "./events.js";
import { t } from "./i18n.js";
import { announceMode } from "./storage.js";

const KEPT = 40; // lines kept in the region: enough to read back, few enough to stay light
// The entries of another's turn said in "results": how it ends, and who plays a seat.
const RESULTS = new Set(["took", "stole", "bust", "returned", "turned", "timeout", "away", "back"]);

/**
 * Returns hear({entries, start, names, table, you}), for every state or sheet drawn:
 * `entries` are the log from entry number `start` on, `table` says whose turn it is (null
 * once no turn is played: not started, over, abandoned) and `you` is the listener's seat (null:
 * watching, or a score sheet). What was there at the first call is history, not news. A turn
 * is said as it begins (its heading in the log comes only with its first move).
 */
export function createAnnouncer(region) {
  let heard = null; // log entries already known
  let turn = null; // the turn said last, "turn seat"
  let owner = null; // the seat whose turn the log's entries are in now
  return function hear({ entries, start, names, table, you = null }) {
    const end = start + entries.length;
    const mode = you === null ? "all" : announceMode();
    // A gap (a sync follows) or fewer entries (an undo on a sheet): nothing new.
    const news = heard !== null && start <= heard && end >= heard ? entries.slice(heard - start) : [];
    const lines = [];
    for (const entry of news) {
      if (entry.type === "turn") owner = entry.seat;
      else if (
        mode === "all" ||
        entry.type === "game_over" ||
        (mode === "results" && RESULTS.has(entry.type)) ||
        [entry.seat ?? owner, entry.victim].includes(you)
      )
        lines.push(...spoken(entry, names));
    }
    const now = table ? `${table.turn} ${table.current}` : null;
    if (heard !== null && now && now !== turn && (mode !== "mine" || table.current === you)) {
      lines.push(
        table.current === you
          ? t("doing.turn", { turn: table.turn, doing: t("doing.you.roll") })
          : t("turn.heading", { turn: table.turn, name: names[table.current] }),
      );
    }
    [heard, turn] = [end, now];
    if (lines.length) say(region, lines);
  };
}

/**
 * Returns hear(seats, {you, voting}), for every time the players' cards are drawn: says what
 * changed at the seats that the log does not tell — another person leaving the table or coming
 * back (unless a bot plays for them: they come back by taking the seat, which the log says), the vote to let a bot play for someone opening to you (`voting(n)`: you may vote on
 * seat n now), votes cast. The first call is the page arriving: only a vote open is said.
 */
export function createSeatAnnouncer(region) {
  let before = null;
  const seen = new Set(); // the seats seen online: a first arrival is no coming back
  return function hear(seats, { you, voting }) {
    const now = seats.map((seat, n) => ({ online: seat.online, votes: seat.votes?.length ?? 0, open: voting(n) }));
    const lines = [];
    now.forEach((seat, n) => {
      const was = before?.[n];
      const { name, bot, votes_needed: needed } = seats[n];
      // arriving where a vote is open already: said too (an audit heard nothing of it)
      if (!was && !bot && seat.open) lines.push(t("seat_news.vote_open", { name }));
      if (!was || bot) return;
      // (a person a bot plays for comes back by taking the seat: the log says that)
      if (n !== you && seat.online !== undefined && was.online !== seat.online && !seats[n].away && seen.has(n))
        lines.push(t(seat.online ? "seat_news.back" : "seat_news.left", { name }));
      if (seat.open && !was.open) lines.push(t("seat_news.vote_open", { name }));
      if (seat.votes > was.votes)
        lines.push(t("seat_news.votes", { name, votes: t("vote.count", { count: seat.votes, needed }) }));
    });
    now.forEach((seat, n) => seat.online && seen.add(n));
    before = now;
    if (lines.length) say(region, lines);
  };
}

/** Adds `lines` to the live region (kept short: the oldest go). */
export function say(region, lines) {
  region.append(...lines.map((line) => h("p", { testid: "announcement" }, line)));
  while (region.childElementCount > KEPT) region.firstElementChild.remove();
}

// An entry's words (and the ranking after the end). Only "mine" leaves out other players'
// entries: an entry is theirs by the seat it names or, naming none (a tile turned down), by
// the turn it is in. Turn headings are not said here but as turns begin.
function spoken(entry, names) {
  const text = describeEntry(entry, names, { spoken: true }).text;
  return entry.type === "game_over" ? [text, ...rankingLines(entry.ranking, entry.tie_break, names)] : [text];
}
