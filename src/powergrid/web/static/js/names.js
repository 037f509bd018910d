// Display names: each seat's (from the server, shown beside the colour everywhere) and the one this
// browser's person last gave (remembered in localStorage, offered when they take a seat).
// Names are text: they are only ever put into the page as text nodes, never as markup.

const NAME_KEY = "powergrid.name";
export const MAX_NAME = 24;

let names = [];

/** Take the seats' names from a public seat list ([{seat, name}, ...]). */
export function setSeatNames(seats) {
  names = [];
  for (const seat of seats || []) {
    if (seat && typeof seat.seat === "number" && typeof seat.name === "string" && seat.name) names[seat.seat] = seat.name;
  }
}

/** The name a seat's person gave, or "" (bots and people who gave none). */
export function seatName(seat) {
  return names[seat] || "";
}

export function allSeatNames() {
  return names.slice();
}

/** The name as the server keeps it (NFC, trimmed), or null if the server would refuse it. */
export function cleanName(raw) {
  const name = String(raw ?? "").normalize("NFC").trim();
  if (!name || [...name].length > MAX_NAME) return null;
  // controls and formatting characters (a right-to-left override), but the joiners emoji need
  if (/[\p{Cc}\p{Cs}\p{Co}\p{Cn}\u2028\u2029]/u.test(name) || /[\p{Cf}]/u.test(name.replace(/[\u200c\u200d]/g, ""))) return null;
  return name;
}

export function rememberedName() {
  try {
    return cleanName(localStorage.getItem(NAME_KEY)) || "";
  } catch (err) {
    return "";
  }
}

export function rememberName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch (err) {
    // storage off (private mode): the name is still used for this seat
  }
}
