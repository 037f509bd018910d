// The game's chat: in the log panel (a "Chat" switch beside the log; the "Chat" tab on phones).
// Messages come from the server's history (GET /chat) and the game's socket ({type: "chat"});
// they are sent with POST /chat. Every name and message is put into the page as text, never as
// markup. Each person may mute another writer: remembered in this browser, per game.
import { ApiError, api, h, playerChip, toast } from "./common.js";
import { cleanName, rememberName, rememberedName } from "./names.js";
import { t } from "./i18n.js";

const MUTED_KEY = "powergrid.muted";

/** The quick phrases by key, in the reader's language (the server keeps their English words). */
function phraseWords(key) {
  switch (key) {
    case "good_luck": return t("Good luck!");
    case "good_game": return t("Good game");
    case "your_turn": return t("Your turn");
    case "one_moment": return t("One moment");
    case "well_played": return t("Well played");
    case "thanks": return t("Thanks!");
    default: return null;
  }
}
const QUICK = ["good_luck", "one_moment", "your_turn", "well_played", "good_game", "thanks"];

function readMuted() {
  try {
    return JSON.parse(localStorage.getItem(MUTED_KEY)) || {};
  } catch (err) {
    return {};
  }
}

export class Chat {
  /** ctx: {gameId, seat() -> the seat shown or null, token() -> its token, box, onUnread(n)} */
  constructor(ctx) {
    this.ctx = ctx;
    this.messages = new Map(); // id -> message
    this.on = true;
    this.maxChars = 300;
    this.unread = 0;
    this.visible = false;
    this.loaded = false;
    this.muted = new Set(readMuted()[ctx.gameId] || []);
    this.list = h("ol", { class: "chat-list", id: "chat-list", "aria-live": "polite", "aria-label": t("Chat messages") });
    this.mutedBar = h("div", { class: "chat-muted", id: "chat-muted" });
    this.input = h("input", {
      type: "text", id: "chat-input", class: "chat-input", maxlength: 300, autocomplete: "off",
      placeholder: t("Say something to the table"), "aria-label": t("Chat message"),
      onkeydown: (event) => { if (event.key === "Enter") { event.preventDefault(); this.send({ text: this.input.value }); } },
    });
    this.nameInput = h("input", {
      type: "text", id: "chat-name", class: "chat-name", maxlength: 24, autocomplete: "nickname",
      placeholder: t("Your name"), "aria-label": t("Your name (as a spectator)"), value: rememberedName(),
    });
    this.sendButton = h("button", { type: "button", class: "btn small primary", id: "chat-send", onclick: () => this.send({ text: this.input.value }) }, t("Send"));
    this.phrases = h("div", { class: "chat-phrases", role: "group", "aria-label": t("Quick phrases") },
      ...QUICK.map((key) => h("button", { type: "button", class: "btn small ghost", "data-phrase": key, onclick: () => this.send({ phrase: key }) }, phraseWords(key))));
    this.form = h("div", { class: "chat-form" }, this.nameInput, this.input, this.sendButton);
    this.off = h("p", { class: "chat-off muted", hidden: true }, t("The game's creator turned chat off."));
    ctx.box.replaceChildren(this.mutedBar, this.list, this.off, this.phrases, this.form);
    this.drawForm();
  }

  /** Whom a message is from, as the mute list keys it. */
  static author(message) {
    return message.author || (message.seat !== null && message.seat !== undefined ? `seat:${message.seat}` : "spectator:");
  }

  lastId() {
    let last = 0;
    for (const id of this.messages.keys()) last = Math.max(last, id);
    return last;
  }

  async load() {
    try {
      const data = await api(`/api/games/${encodeURIComponent(this.ctx.gameId)}/chat?after=${this.lastId()}`);
      this.on = data.chat !== false;
      if (data.max_chars) this.maxChars = data.max_chars;
      // the first load is the history; later ones (after a reconnection) bring messages missed meanwhile
      this.add(data.messages || [], this.loaded);
      this.loaded = true;
      this.ctx.box.dataset.loaded = "";
    } catch (err) {
      // the chat is not worth a toast; the socket brings new messages
    }
    this.drawForm();
  }

  /** New messages (history or the socket's): each shown once, in order. */
  add(messages, fresh = true) {
    let added = 0;
    for (const message of messages) {
      if (typeof message.id !== "number" || this.messages.has(message.id)) continue;
      this.messages.set(message.id, message);
      if (fresh && !this.muted.has(Chat.author(message)) && !this.mine(message)) added++;
    }
    this.draw();
    if (added && !this.visible) {
      this.unread += added;
      this.ctx.onUnread(this.unread);
    }
  }

  mine(message) {
    const seat = this.ctx.seat();
    return seat !== null && message.seat === seat;
  }

  show(visible) {
    this.visible = visible;
    if (visible) {
      this.unread = 0;
      this.ctx.onUnread(0);
      this.scrollToEnd();
    }
  }

  scrollToEnd() {
    this.list.scrollTop = this.list.scrollHeight;
  }

  draw() {
    const rows = [...this.messages.values()].sort((a, b) => a.id - b.id)
      .filter((message) => !this.muted.has(Chat.author(message)))
      .map((message) => this.row(message));
    if (!rows.length) rows.push(h("li", { class: "chat-empty muted" }, this.on ? t("No messages yet.") : ""));
    const atEnd = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 30;
    this.list.replaceChildren(...rows);
    if (atEnd || !this.visible) this.scrollToEnd();
    this.drawMuted();
  }

  who(message) {
    if (message.seat !== null && message.seat !== undefined) return playerChip(message.seat);
    return h("span", { class: "chat-spectator" }, h("span", { class: "given-name" }, message.name || "?"),
      h("span", { class: "badge spectator-badge" }, t("spectator")));
  }

  row(message) {
    const words = message.phrase ? phraseWords(message.phrase) || message.text : message.text;
    const author = Chat.author(message);
    const label = message.seat !== null && message.seat !== undefined ? null : message.name;
    return h("li", { class: `chat-msg${this.mine(message) ? " mine" : ""}${message.phrase ? " phrase" : ""}`, "data-id": message.id, "data-author": author },
      h("span", { class: "chat-who" }, this.who(message)),
      h("span", { class: "chat-text" }, words),
      this.mine(message) ? null : h("button", {
        type: "button", class: "chat-mute", "data-mute": author,
        title: label ? t("Mute {name}", { name: label }) : t("Mute this player"),
        "aria-label": label ? t("Mute {name}", { name: label }) : t("Mute this player"),
        onclick: () => this.mute(author, true),
      }, t("mute")));
  }

  drawMuted() {
    if (!this.muted.size) {
      this.mutedBar.replaceChildren();
      this.mutedBar.hidden = true;
      return;
    }
    this.mutedBar.hidden = false;
    const chips = [...this.muted].map((author) => {
      const seat = /^seat:(\d+)$/.exec(author);
      const known = [...this.messages.values()].find((message) => Chat.author(message) === author);
      const label = seat ? playerChip(Number(seat[1])) : h("span", { class: "given-name" }, (known && known.name) || t("a spectator"));
      return h("button", { type: "button", class: "btn small ghost", "data-unmute": author, title: t("Unmute"), onclick: () => this.mute(author, false) }, label, " ✕");
    });
    this.mutedBar.replaceChildren(h("span", { class: "muted" }, t("Muted:")), ...chips);
  }

  mute(author, muted) {
    if (muted) this.muted.add(author);
    else this.muted.delete(author);
    const all = readMuted();
    all[this.ctx.gameId] = [...this.muted];
    try {
      localStorage.setItem(MUTED_KEY, JSON.stringify(all));
    } catch (err) {
      // kept for this page only
    }
    this.draw();
  }

  drawForm() {
    const spectator = this.ctx.seat() === null;
    this.nameInput.hidden = !spectator;
    this.off.hidden = this.on;
    for (const node of [this.form, this.phrases]) node.hidden = !this.on;
    this.input.maxLength = this.maxChars;
  }

  async send(body) {
    if (!this.on) return;
    const seat = this.ctx.seat();
    const payload = { ...body };
    if (payload.text !== undefined) {
      payload.text = payload.text.trim();
      if (!payload.text) return;
    }
    if (seat === null) {
      const name = cleanName(this.nameInput.value);
      if (!name) {
        toast(t("Give your name (1 to 24 characters) to write as a spectator."), "error");
        this.nameInput.focus();
        return;
      }
      rememberName(name);
      payload.name = name;
    } else payload.seat = seat;
    this.sendButton.disabled = true;
    try {
      const message = await api(`/api/games/${encodeURIComponent(this.ctx.gameId)}/chat`, { method: "POST", body: payload, token: seat === null ? null : this.ctx.token() });
      if (payload.text !== undefined) this.input.value = "";
      this.add([message], false);
      this.scrollToEnd();
    } catch (err) {
      toast(refusal(err), "error", 5000);
    } finally {
      this.sendButton.disabled = false;
    }
  }
}

function refusal(err) {
  if (!(err instanceof ApiError)) return String(err);
  switch (err.code) {
    case "chat_rate_limited": return t("Slow down: too many messages at once. Try again in a few seconds.");
    case "chat_too_long": return t("That message is too long.");
    case "chat_empty": return t("The message is empty.");
    case "chat_off": return t("The game's creator turned chat off.");
    case "invalid_name": return t("A name has 1 to 24 characters, without control characters.");
    default: return t("Not sent: {reason}", { reason: err.message });
  }
}
