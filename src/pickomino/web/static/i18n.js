// The page's words in the reader's language. The server sends events, states and message
// ids with parameters, never sentences: every word is looked up here, in the catalogues of
// the language chosen (the browser's languages the first time, then the switch's choice,
// remembered). Plurals, numbers and lists follow the language through Intl, as Babel does
// for the Python faces, so both speak alike. Unknown language → English, no error.

import { read, write } from "./storage.js";

const KEY = "pickomino.lang";
const FIELD = /\{(\w+)\}/g;
let lang = "en";
let messages = {};
let languages = { en: "English" };
let plurals = new Intl.PluralRules("en");

/** The chosen language: remembered, else the first of the browser's we have, else English. */
function choose(available) {
  const wanted = [read(KEY), ...(navigator.languages || [navigator.language])].filter(Boolean);
  for (const code of wanted) {
    const base = String(code).toLowerCase().split(/[-_]/)[0];
    if (base in available) return base;
  }
  return "en";
}

/** Loads the catalogues (game + `kind`) and words the page's static text; call first. */
export async function loadWords(kind = "web") {
  languages = await fetchJSON("/i18n/languages.json").catch(() => languages);
  lang = choose(languages);
  const parts = await Promise.all([fetchJSON(`/i18n/${lang}/game.json`), fetchJSON(`/i18n/${lang}/${kind}.json`)]);
  messages = Object.assign({}, ...parts);
  plurals = new Intl.PluralRules(lang);
  document.documentElement.lang = lang;
  translate(document);
  document.documentElement.classList.remove("wordless");
}

async function fetchJSON(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.json();
}

export const language = () => lang;
export const languageNames = () => languages;

/** Switches the language for this browser (remembered) and redraws the page in it. */
export function setLanguage(code) {
  write(KEY, code);
  location.reload();
}

/** The message `key` with its placeholders filled; a plural message chooses by `count`. */
export function t(key, params = {}) {
  let template = messages[key];
  if (template === undefined) return key; // a missing word shows its id: the tests catch it
  if (typeof template === "object") template = template[plurals.select(params.count)] ?? template.other;
  return template.replace(FIELD, (_, name) => value(name, params[name]));
}

export const has = (key) => key in messages;

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

export function number(n, decimals = 0) {
  return new Intl.NumberFormat(lang, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(n);
}

export function percent(p, decimals = 0) {
  return new Intl.NumberFormat(lang, {
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

export function list(items, type = "conjunction") {
  if (!items.length) return t("list.none");
  return new Intl.ListFormat(lang, { type }).format(items.map(String));
}

/**
 * Words the static text of `root`: an element with data-i18n="key" gets that text, and
 * data-i18n-attr="aria-label:key title:key" those attributes.
 */
export function translate(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of node.dataset.i18nAttr.split(/\s+/)) {
      const [attr, key] = pair.split(":");
      node.setAttribute(attr, t(key));
    }
  }
}

/** A select of the languages we have, set to the current one; choosing reloads in it. */
export function languageSwitch(h) {
  const select = h(
    "select",
    { class: "lang-switch", testid: "lang-switch", "aria-label": t("lang.switch") },
    Object.entries(languages).map(([code, name]) => h("option", { value: code }, name)),
  );
  select.value = lang;
  select.addEventListener("change", () => setLanguage(select.value));
  return select;
}
