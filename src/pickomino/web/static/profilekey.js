// The profile this browser holds, if any: {id, name, code}, the recovery code being the
// profile's only key (the server keeps a hash of it). Requests made as the profile carry the
// code in the Profile-Key header; whether to play as the profile is remembered too.

import { postJSON } from "./api.js";
import { t } from "./i18n.js";
import { read, write } from "./storage.js";

const KEY = "pickomino.profile";
const PLAY_AS = "pickomino.play_as_profile";
const NO_NEWS = new Set(["seat_taken", "seat_link_used", "game_over", "game_abandoned", "bad_token", "no_game"]);

/** {id, name, code}, or null. */
export const profile = () => read(KEY);

export function saveProfile(held) {
  write(KEY, held);
}

/** Whether games are joined as the profile (the default when there is one). */
export const playsAsProfile = () => Boolean(profile()) && read(PLAY_AS) !== false;

export function savePlayAs(on) {
  write(PLAY_AS, on);
}

/** The headers of a request made as the profile, if this browser plays as one. */
export const profileHeaders = () => (playsAsProfile() ? { "Profile-Key": profile().code } : {});

/**
 * Takes the seat `token` opens as the profile, before the page connects (so the seat is the
 * profile's from its first move). Resolves to `{token}`, the seat's new secret (for this
 * browser alone), when it took the seat; to `{failure}`, a refusal for the page to show;
 * else to null: a seat taken already (by this browser, without the profile), a game over
 * and what the connection will say anyway (a spent or bad link, no such game) are no news.
 */
export async function claimAsProfile(gameId, token, rated = false) {
  if (!token || !playsAsProfile()) return null;
  try {
    const answer = await postJSON(`/api/games/${encodeURIComponent(gameId)}/claim`, null, {
      "Seat-Token": token,
      ...profileHeaders(),
      ...(rated ? { "Play-Rated": "yes" } : {}),
    });
    return answer.token ? { token: answer.token } : null;
  } catch (failure) {
    // A rated game's seat: asked first (a link opened must not put the profile's rating at
    // stake); declined, the seat is played without the profile.
    if (failure.refusal?.id === "claim_rated" && !rated) {
      const name = profile().name;
      return confirm(t("profile.rated_confirm", { name })) ? claimAsProfile(gameId, token, true) : null;
    }
    return NO_NEWS.has(failure.refusal?.id) ? null : { failure };
  }
}

/** The seat this browser's profile plays in a game, with a new secret for this browser. */
export async function profileSeat(gameId) {
  return postJSON(`/api/games/${encodeURIComponent(gameId)}/seat`, null, { "Profile-Key": profile().code });
}
