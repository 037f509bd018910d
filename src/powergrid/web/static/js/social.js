// The game page's social side, wired in by game.js: the names beside the colours, the name this
// browser's person gives when taking a seat, the chat (beside the log), the settings menu, and the
// alerts when it becomes their turn while they look elsewhere.
import { alertSettings, TurnAlerts } from "./alerts.js";
import { Chat } from "./chat.js";
import { ApiError, api, h, playerChip, toast } from "./common.js";
import { allSeatNames, cleanName, rememberName, rememberedName, seatName, setSeatNames } from "./names.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

/** ctx: {game, gameId, redraw()}; game.seats, game.seat, game.held are read as they change. */
export function setUpSocial(ctx) {
  const { game, gameId } = ctx;
  setSeatNames(game.seats);
  const alerts = new TurnAlerts();
  const named = new Set(); // seats this page has named (or tried to) without asking
  const dismissed = new Set();

  // --- the chat, beside the log ------------------------------------------------------------------
  const panel = document.querySelector(".log-panel");
  const title = panel.querySelector(".panel-title");
  const chatBox = h("div", { id: "chat", class: "chat-box", hidden: true });
  const logSwitch = h("button", { type: "button", class: "panel-switch", "aria-pressed": "true", "data-show": "log", onclick: () => showChat(false) }, t("Log"));
  const unread = h("span", { class: "unread", hidden: true });
  const chatSwitch = h("button", { type: "button", class: "panel-switch", "aria-pressed": "false", "data-show": "chat", id: "chat-switch", onclick: () => showChat(true) }, t("Chat"), unread);
  title.after(h("div", { class: "panel-switches", role: "group", "aria-label": t("Show") }, logSwitch, chatSwitch));
  panel.append(chatBox);
  const chat = new Chat({
    gameId, box: chatBox,
    seat: () => (game.seat !== null && game.held[game.seat] ? game.seat : null),
    token: () => game.held[game.seat],
    onUnread: (n) => {
      unread.hidden = !n;
      unread.textContent = String(n);
      const tab = document.querySelector("#phone-tabs [data-tab='chat']");
      if (tab) tab.dataset.unread = n ? String(n) : "";
    },
  });

  function showChat(on) {
    panel.classList.toggle("chatting", on);
    chatBox.hidden = !on;
    logSwitch.setAttribute("aria-pressed", String(!on));
    chatSwitch.setAttribute("aria-pressed", String(on));
    chat.show(on);
  }
  for (const button of document.querySelectorAll("#phone-tabs button")) {
    button.addEventListener("click", () => {
      if (button.dataset.tab === "chat") showChat(true);
      else if (button.dataset.tab === "log") showChat(false);
    });
  }
  chat.load();

  // --- names -------------------------------------------------------------------------------------
  const nameInput = h("input", { type: "text", id: "seat-name", maxlength: 24, autocomplete: "nickname", value: rememberedName(), "aria-label": t("Your name at this table") });
  const nameBar = h("form", {
    class: "name-bar", id: "name-bar", hidden: true,
    onsubmit: (event) => { event.preventDefault(); giveName(game.seat, nameInput.value); },
  },
  h("label", { for: "seat-name", class: "name-label" }, ""),
  nameInput,
  h("button", { type: "submit", class: "btn small primary" }, t("Save")),
  h("button", { type: "button", class: "btn small ghost", title: t("Not now"), "aria-label": t("Not now"), onclick: () => { dismissed.add(game.seat); nameBar.hidden = true; } }, "✕"));
  // above the decision (in the log panel it squeezed the log to a line or two on a laptop)
  const column = document.querySelector(".col-right");
  if (column) column.prepend(nameBar);
  else panel.querySelector(".panel-switches").after(nameBar);

  async function giveName(seat, raw, quiet = false) {
    const name = cleanName(raw);
    if (!name) {
      if (!quiet) toast(t("A name has 1 to 24 characters, without control characters."), "error");
      return false;
    }
    try {
      const reply = await api(`/api/games/${encodeURIComponent(gameId)}/seats/${seat}/name`, { method: "PUT", body: { name }, token: game.held[seat] });
      rememberName(reply.name);
      seatsChanged(game.seats.map((info) => (info && info.seat === seat ? { ...info, name: reply.name } : info)));
      return true;
    } catch (err) {
      if (!quiet) toast(err instanceof ApiError && err.code === "invalid_name" ? t("A name has 1 to 24 characters, without control characters.") : err.message, "error");
      return false;
    }
  }

  function drawNameBar() {
    const seat = game.seat;
    const info = seat === null ? null : game.seats[seat];
    const ask = seat !== null && game.held[seat] && info && info.kind === "human" && !seatName(seat) && !dismissed.has(seat);
    if (!ask) {
      nameBar.hidden = true;
      return;
    }
    // The name this person gave before is given at once, unless another seat here already has it (hot-seat).
    const remembered = rememberedName();
    if (remembered && !named.has(seat) && !allSeatNames().includes(remembered)) {
      named.add(seat);
      giveName(seat, remembered, true).then((ok) => { if (!ok) drawNameBar(); });
      return;
    }
    named.add(seat);
    const label = nameBar.querySelector(".name-label");
    label.replaceChildren(t("Your name, playing"), " ", playerChip(seat), ":");
    if (nameBar.hidden) nameInput.value = allSeatNames().includes(remembered) ? "" : remembered;
    nameBar.hidden = false;
  }

  /** The seats' names changed: every chip on the page shows the new ones. */
  function seatsChanged(seats) {
    game.seats = seats;
    setSeatNames(seats);
    for (const chip of document.querySelectorAll(".pchip[data-seat]")) {
      const given = seatName(Number(chip.dataset.seat));
      let node = chip.querySelector(".given-name");
      if (!given && node) node.remove();
      else if (given) {
        if (!node) {
          node = h("span", { class: "given-name" });
          chip.querySelector(".pmark") ? chip.querySelector(".pmark").nextSibling.after(node) : chip.append(node);
        }
        node.textContent = given;
      }
    }
    ctx.redraw();
    chat.draw();
    drawNameBar();
  }

  // --- the settings menu -------------------------------------------------------------------------
  const menu = h("div", { class: "settings-menu panel", id: "settings-menu", role: "dialog", "aria-label": t("Settings"), hidden: true });
  const menuButton = h("button", {
    type: "button", class: "btn small ghost topbar-link settings-btn", id: "settings", title: t("Settings"), "aria-label": t("Settings"),
    "aria-expanded": "false", "aria-controls": "settings-menu", onclick: () => openMenu(menu.hidden),
  }, "⚙");
  function openMenu(open) {
    menu.hidden = !open;
    menuButton.setAttribute("aria-expanded", String(open));
    if (!open) return;
    const seat = game.seat !== null && game.held[game.seat] && game.seats[game.seat] && game.seats[game.seat].kind === "human" ? game.seat : null;
    const field = h("input", { type: "text", id: "settings-name", maxlength: 24, value: seat === null ? rememberedName() : seatName(seat) || rememberedName(), "aria-label": t("Your name") });
    menu.replaceChildren(
      h("h3", { class: "panel-title" }, t("Settings")),
      seat === null ? null : h("form", { class: "setting name-setting", onsubmit: async (event) => { event.preventDefault(); if (await giveName(seat, field.value)) openMenu(false); } },
        h("span", {}, t("Your name, playing"), " ", playerChip(seat)), field, h("button", { type: "submit", class: "btn small primary" }, t("Save"))),
      ...alertSettings(alerts),
      h("a", { href: "/mine", class: "setting" }, t("My games")),
    );
  }
  document.addEventListener("click", (event) => {
    if (!menu.hidden && !menu.contains(event.target) && event.target !== menuButton) openMenu(false);
  });
  document.addEventListener("keydown", (event) => { if (event.key === "Escape" && !menu.hidden) openMenu(false); });
  const connection = $("connection");
  connection.before(menuButton);
  document.body.append(menu);

  return {
    alerts,
    /** A socket message for the social side (chat, seats): true if it was one. */
    onSocket(data) {
      if (data.type === "chat") {
        chat.add(data.messages || []);
        return true;
      }
      if (data.type === "seats") {
        seatsChanged(data.seats || []);
        return true;
      }
      return false;
    },
    /** The socket (re)connected: messages sent meanwhile are read. */
    connected() {
      chat.load();
    },
    /** A view is about to be drawn. */
    viewed(message) {
      if (message.seats) {
        game.seats = message.seats;
        setSeatNames(message.seats);
      }
      const toAct = message.to_act;
      const held = Object.keys(game.held).map(Number);
      alerts.update(toAct !== null && toAct !== undefined && held.includes(toAct));
      chat.drawForm();
      drawNameBar();
    },
  };
}
