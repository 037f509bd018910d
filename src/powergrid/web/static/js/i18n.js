// The reader's language. Messages come from /static/i18n/<lang>.json, generated from the gettext
// catalogues (src/powergrid/i18n/locales) by `python -m powergrid.i18n.build compile`: never edit
// those files by hand. English is the source language: a message missing from a catalogue shows
// in English. See docs/translating.md.
//
//   t("Pass")                                   a message
//   t("{name} pays {amount}", {name, amount})   with placeholders (numbers formatted per locale)
//   tn("{n} city", "{n} cities", n)             plural forms by CLDR (Intl.PluralRules)
//   pt("phase", "Build")                        a message with a context (the same English word
//                                               translated differently in two places)
//   elektro(25), formatNumber(n)                money and numbers in the reader's locale
//   withNodes(t("{player} bids {amount}", {amount}), {player: chip})   nodes put in for placeholders
//   listOf([a, b, c])                           "a, b and c" in the reader's language (Intl.ListFormat)
//   errorText(code, serverMessage)              a named error's message from the language's "errors"
// Static HTML: an element with data-i18n is translated from its own English text (or the
// attribute's value), with data-i18n-context as its context; data-i18n-title, data-i18n-placeholder,
// data-i18n-aria-label and data-i18n-data-empty translate those attributes. setUpLanguage() does
// it all for a page (and puts the picker in its top bar) before its first render.

export const LANGUAGES = {
  en: "English",
  de: "Deutsch",
  pl: "Polski",
  pt: "Português",
  ro: "Română",
  he: "עברית",
};
export const RTL = new Set(["he"]);
const STORAGE_KEY = "powergrid.lang";

let current = { lang: "en", dir: "ltr", messages: {}, errors: {} };
let plurals = new Intl.PluralRules("en");
let numbers = new Intl.NumberFormat("en");

/** The language to show: ?lang= in the address, then the one chosen before, then the browser's. */
export function chooseLanguage() {
  const forced = new URLSearchParams(location.search).get("lang");
  if (forced && LANGUAGES[forced]) {
    remember(forced);
    return forced;
  }
  try {
    const kept = localStorage.getItem(STORAGE_KEY);
    if (kept && LANGUAGES[kept]) return kept;
  } catch (err) {
    // storage may be off (private mode): fall through to the browser's languages
  }
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base === "iw") return "he";
    if (LANGUAGES[base]) return base;
  }
  return "en";
}

function remember(lang) {
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch (err) {
    // not remembered; the page still shows it
  }
}

/**
 * Load a language's messages and error messages and set the page's lang and dir. English needs
 * no messages (they are the source), but its file carries the error codes' messages: without it
 * (or offline) the server's own words are shown.
 */
export async function loadLanguage(lang) {
  if (!LANGUAGES[lang]) lang = "en";
  let messages = {};
  let errors = {};
  try {
    const response = await fetch(`/static/i18n/${lang}.json`);
    if (response.ok) {
      const data = await response.json();
      messages = lang === "en" ? {} : data.messages || {};
      errors = data.errors || {};
    }
  } catch (err) {
    messages = {};
  }
  current = { lang, dir: RTL.has(lang) ? "rtl" : "ltr", messages, errors };
  plurals = new Intl.PluralRules(lang);
  numbers = new Intl.NumberFormat(lang);
  document.documentElement.lang = lang;
  document.documentElement.dir = current.dir;
  return current;
}

export function language() {
  return current.lang;
}

export function direction() {
  return current.dir;
}

function fillIn(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return typeof value === "number" ? numbers.format(value) : String(value);
  });
}

/** A message in the reader's language. */
export function t(msgid, params) {
  const found = current.messages[msgid];
  return fillIn(typeof found === "string" && found ? found : msgid, params);
}

/** A message with a context (gettext's pgettext). */
export function pt(context, msgid, params) {
  const found = current.messages[`${context}\u0004${msgid}`];
  return fillIn(typeof found === "string" && found ? found : msgid, params);
}

/** A message in the plural form for n; {n} is filled in with n unless params says otherwise. */
export function tn(singular, plural, n, params) {
  const all = { n, ...(params || {}) };
  const forms = current.messages[singular];
  if (forms && typeof forms === "object") {
    const form = forms[plurals.select(n)] || forms.other;
    if (form) return fillIn(form, all);
  }
  return fillIn(n === 1 ? singular : plural, all);
}

/** A number in the reader's locale. */
export function formatNumber(n) {
  return numbers.format(n);
}

/** An amount of money: "25 E" in the reader's words and digits (never broken over two lines). */
export function elektro(amount) {
  return t("{amount} E", { amount }).replace(/ /g, "\u00a0");
}

/** The message of a named error in the reader's language; the server's words where none. */
export function errorText(code, serverMessage) {
  const found = code ? current.errors[code] : undefined;
  return typeof found === "string" && found ? found : serverMessage;
}

/**
 * A translated text with nodes put in for placeholders left in it ({player} -> a player chip):
 * t("{player} pays {amount}", {amount}) fills the numbers; withNodes(that, {player: chip})
 * gives [chip, " pays 5"], in whatever order the translation puts them.
 */
export function withNodes(text, nodes) {
  const out = [];
  let last = 0;
  for (const match of text.matchAll(/\{(\w+)\}/g)) {
    if (!(match[1] in nodes)) continue;
    if (match.index > last) out.push(text.slice(last, match.index));
    const node = nodes[match[1]];
    out.push(...(Array.isArray(node) ? node : [node]));
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Strings and nodes joined as a list in the reader's language ("A, B and C"), as an array. */
export function listOf(items, type = "conjunction") {
  if (items.length <= 1) return items.slice();
  const marks = items.map((_, i) => `\u0001${i}\u0002`);
  let parts;
  try {
    parts = new Intl.ListFormat(current.lang, { type, style: "long" }).formatToParts(marks);
  } catch (err) {
    parts = marks.flatMap((mark, i) => (i ? [{ type: "literal", value: ", " }, { type: "element", value: mark }]
      : [{ type: "element", value: mark }]));
  }
  return parts.map((part) => (part.type === "element" ? items[Number(part.value.slice(1, -1))] : part.value));
}

/** A list of plain strings as one string ("coal, oil and garbage"). */
export function listText(items, type = "conjunction") {
  return listOf(items.map(String), type).join("");
}

/**
 * Translate the static HTML under root (see the top of this file). The element's own text is
 * replaced, so an element with data-i18n holds text only (put the words in a span of their own).
 * data-i18n-context gives the message a context (pt). The page's <title> is translated too.
 */
export function translatePage(root = document) {
  const say = (node, msgid) => (node.dataset.i18nContext ? pt(node.dataset.i18nContext, msgid) : t(msgid));
  for (const node of root.querySelectorAll("[data-i18n]")) {
    if (!node.dataset.i18nSource) node.dataset.i18nSource = node.dataset.i18n || node.textContent.trim().replace(/\s+/g, " ");
    node.textContent = say(node, node.dataset.i18nSource);
  }
  for (const attr of ["title", "placeholder", "aria-label", "data-empty"]) {
    for (const node of root.querySelectorAll(`[data-i18n-${attr}]`)) {
      node.setAttribute(attr, say(node, node.getAttribute(`data-i18n-${attr}`)));
    }
  }
}

/**
 * Set the page up in the reader's language before its first render: load the messages, set
 * lang and dir, translate the static HTML, and put the picker in the top bar.
 */
export async function setUpLanguage() {
  await loadLanguage(chooseLanguage());
  translatePage();
  const bar = document.querySelector(".topbar");
  if (bar && !bar.querySelector(".language-picker")) bar.append(languagePicker());
  return current;
}

/** A <select> that switches the page's language (remembered, then the page reloads). */
export function languagePicker(document_ = document) {
  const select = document_.createElement("select");
  select.className = "language-picker";
  select.setAttribute("aria-label", t("Language"));
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = document_.createElement("option");
    option.value = code;
    option.textContent = name;
    option.lang = code;
    if (code === current.lang) option.selected = true;
    select.append(option);
  }
  select.addEventListener("change", () => {
    remember(select.value);
    const url = new URL(location.href);
    url.searchParams.delete("lang");
    location.replace(url.toString());
  });
  return select;
}
