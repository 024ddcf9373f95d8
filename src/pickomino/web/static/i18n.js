// The page's words in the reader's language. The server sends events, states and message
// ids with parameters, never sentences: every word is looked up here, in the catalogues of
// the language chosen (the browser's languages the first time, then the switch's choice,
// remembered). Plurals, numbers and lists follow the language through Intl, as Babel does
// for the Python faces, so both speak alike. Unknown language → English, no error; a word a
// catalogue lacks is said in English.
//
// Every page calls loadWords() first: until it is done the page is hidden (the class
// "wordless" on <html>, see style.css), so that no word shows in the wrong language.

import { h } from "./dom.js";
import { read, write } from "./storage.js";

const KEY = "pickomino.lang";
const REFOCUS = "pickomino.lang.refocus"; // the switch had the focus when the page reloaded
const FALLBACK = "en";
const FIELD = /\{(\w+)\}/g;
let lang = FALLBACK;
let messages = {};
let languages = { en: "English" };
let plurals = new Intl.PluralRules(FALLBACK);
const formats = new Map(); // Intl formatters by kind and options: made once, used often

/** The chosen language: remembered, else the first of the browser's we have, else English. */
function choose(available) {
  const wanted = [read(KEY), ...(navigator.languages || [navigator.language])].filter(Boolean);
  for (const code of wanted) {
    const base = String(code).toLowerCase().split(/[-_]/)[0];
    if (Object.hasOwn(available, base)) return base;
  }
  return FALLBACK;
}

/**
 * Loads the catalogues (game + web, English beneath the chosen language's), words the
 * page's static text (translate), puts a language switch in every [data-lang-switch] slot
 * and shows the page. Without the server's words (offline) the page shows message ids.
 */
export async function loadWords() {
  try {
    languages = await fetchJSON(wordsUrl("languages.json"));
    lang = choose(languages);
    const codes = lang === FALLBACK ? [FALLBACK] : [FALLBACK, lang];
    const urls = codes.flatMap((code) => [wordsUrl(`${code}/game.json`), wordsUrl(`${code}/web.json`)]);
    const parts = await Promise.all(urls.map((url) => fetchJSON(url).catch(() => ({}))));
    messages = Object.assign({}, ...parts);
  } catch {
    /* no words from the server: the ids show, and the page still works */
  }
  plurals = new Intl.PluralRules(lang);
  formats.clear();
  document.documentElement.lang = lang;
  translate(document);
  for (const slot of document.querySelectorAll("[data-lang-switch]")) slot.replaceWith(languageSwitch());
  document.documentElement.classList.remove("wordless");
}

/** A file of words: /i18n/… beside /static/ (on the server, and in the offline app's folder). */
export const wordsUrl = (file) => new URL(`../i18n/${file}`, import.meta.url).href;

async function fetchJSON(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.json();
}

export const language = () => lang;

/** Switches the language for this browser (remembered) and redraws the page in it; the focus
 * comes back to the switch if it was there. */
export function setLanguage(code) {
  write(KEY, code);
  if (document.activeElement?.closest(".lang-choice")) write(REFOCUS, true);
  location.reload();
}

/** The message `key` with its placeholders filled; a plural message chooses by `count`. */
export function t(key, params = {}) {
  let template = messages[key];
  if (template === undefined) return key; // a missing word shows its id: the tests catch it
  if (typeof template === "object") template = template[plurals.select(params.count)] ?? template.other;
  return template.replace(FIELD, (_, name) => value(name, params[name]));
}

export const has = (key) => Object.hasOwn(messages, key);

// A parameter in words, by the same conventions as pickomino.i18n.Words.value.
function value(name, v) {
  if (v && typeof v === "object" && "id" in v) return describeError(v);
  if (name === "waiting") return t(`waiting.${v}`);
  if (name === "reason") return t(`bust.${v}`);
  if (name === "action" || name === "choices") return list([].concat(v).map(actionName), "disjunction");
  if (typeof v === "boolean") return String(v);
  if (typeof v === "number") return number(v);
  if (Array.isArray(v)) return list(v.map((item) => value(name, item)));
  return String(v ?? "");
}

/** "take 26" → the language's words for that move; a name that is no action as it is. */
export function actionName(action) {
  const [verb, what] = String(action).split(" ");
  if (!has(`action.${verb}`)) return action;
  return t(`action.${verb}`, { face: what, tile: what });
}

/** An error that travelled as {id, params, rule}: its words (without the rule). */
export function describeError({ id, params = {} }) {
  const key = `error.${id}`;
  return has(key) ? t(key, params) : t("error.unknown", { code: id });
}

function format(kind, options) {
  const key = `${kind}:${JSON.stringify(options)}`;
  if (!formats.has(key)) formats.set(key, new Intl[kind](lang, options));
  return formats.get(key);
}

export function number(n, decimals = 0) {
  return format("NumberFormat", { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(n);
}

export function percent(p, decimals = 0) {
  return format("NumberFormat", {
    style: "percent",
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(p);
}

/** +0.25 / −1.50: the sign always shown (a gain or a loss of worms). */
export function signed(x, decimals = 2) {
  const rounded = Number(x.toFixed(decimals));
  return (rounded < 0 ? "−" : "+") + number(Math.abs(rounded), decimals);
}

/** Points of win chance (0..1 → 0..100), signed, one decimal: "+23.0", "−8.2". */
export const points = (chance) => signed(chance * 100, 1);

/** "3 s", "3 Sek.": a number of seconds as the language abbreviates it. */
export function seconds(n) {
  return format("NumberFormat", { style: "unit", unit: "second", unitDisplay: "short" }).format(n);
}

/** 30 → "30 s", 300 → "5 min", 7200 → "2 hr": a length of time in the largest unit (day, hour,
 * minute) that makes it a whole number, else in seconds; as the language abbreviates them. */
export function duration(length) {
  for (const [unit, size] of [["day", 86400], ["hour", 3600], ["minute", 60]]) {
    if (length >= size && length % size === 0)
      return format("NumberFormat", { style: "unit", unit, unitDisplay: "short" }).format(length / size);
  }
  return seconds(length);
}

/** "5 minutes ago", "vor 5 Minuten": how long ago, in a unit of Intl.RelativeTimeFormat. */
export function ago(amount, unit) {
  return format("RelativeTimeFormat", { numeric: "auto" }).format(-amount, unit);
}

/** A date (and time, if asked), as the language writes it. */
export function date(when, withTime = false) {
  const options = withTime ? { dateStyle: "short", timeStyle: "short" } : { dateStyle: "medium" };
  return format("DateTimeFormat", options).format(when);
}

export function list(items, type = "conjunction") {
  if (!items.length) return t("list.none");
  return format("ListFormat", { type }).format(items.map(String));
}

/**
 * Words the static text of `root`: an element with data-i18n="key" gets that text, one with
 * data-i18n-label="key" that accessible name (aria-label).
 */
export function translate(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-label]"))
    node.setAttribute("aria-label", t(node.dataset.i18nLabel));
}

/**
 * A select of the languages we have, set to the current one. A choice made with the mouse (or
 * by typing Enter) reloads the page in it; one made by arrow keys or letters, which pass over
 * every language on the way, only offers a button that does (WCAG 3.2.2: a setting changed
 * is no change of context until asked for). After the reload the focus is on the switch again.
 */
export function languageSwitch() {
  let keyed = false; // the last change came from arrows or letters, not a pick
  const select = h(
    "select",
    { class: "lang-switch", testid: "lang-switch", "aria-label": t("lang.switch"), title: t("lang.switch") },
    Object.entries(languages).map(([code, name]) => h("option", { value: code, lang: code }, name)),
  );
  const apply = h("button", { type: "button", class: "lang-apply", testid: "lang-apply", hidden: true });
  select.value = lang;
  select.addEventListener("keydown", (event) => {
    keyed = event.key !== "Enter";
    if (event.key === "Enter" && select.value !== lang) setLanguage(select.value);
  });
  select.addEventListener("pointerdown", () => (keyed = false));
  select.addEventListener("change", () => {
    if (!keyed) return setLanguage(select.value);
    apply.hidden = select.value === lang;
    apply.textContent = t("lang.apply", { language: languages[select.value] ?? select.value });
  });
  apply.addEventListener("click", () => setLanguage(select.value));
  const choice = h("span", { class: "lang-choice" }, select, apply);
  if (read(REFOCUS)) {
    write(REFOCUS, null);
    queueMicrotask(() => select.focus());
  }
  return choice;
}
