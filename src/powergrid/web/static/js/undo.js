// The Undo button: take back your last action while nobody else has acted and nothing new came out
// (a plant drawn, a resupply). Each click (or the U key) takes back one action.
import { api, h, toast } from "./common.js";
import { language, t } from "./i18n.js";
import { undoNodes } from "./log.js";

/** Why an action cannot be taken back, by the server's code. */
function undoWords(code) {
  switch (code) {
    case "nothing_to_undo": return t("There is nothing to take back.");
    case "not_your_action": return t("Only the player who took the last action can take it back.");
    case "another_player_acted": return t("Too late to take it back: another player has acted since.");
    case "new_information": return t("Too late to take it back: it brought out new information.");
    case "game_over": return t("The game is over.");
    case "undo_off": return t("The game's creator turned undo off.");
    case "stale_version": return t("The game moved on meanwhile.");
    default: return null;
  }
}

/** The held seat that may take an action back now ({seat, actions}), or null. */
function undoTarget(game) {
  const message = game.message;
  if (!message || !message.state || message.state.allow_undo === false) return null;
  if (message.can_undo) return { seat: game.seat, actions: message.undo.actions };
  const other = game.otherUndo;  // hot-seat: the page may have followed the turn to another seat
  if (other && other.version === game.version && other.actions.length) return other;
  return null;
}

/**
 * A refusal in words: the reason, then, for English readers, the server's detail (what was drawn,
 * who acted: the server says it in English only).
 */
function refusalWords(code, message) {
  const words = undoWords(code) || message || t("Refused.");
  if (language() !== "en") return words;
  const detail = String(message || "").replace(/^too late to take it back: /i, "");
  return detail && !words.toLowerCase().includes(detail.toLowerCase()) ? `${words.slice(0, -1)} (${detail}).` : words;
}

function refusalOf(game) {
  const message = game.message;
  const refused = message && message.undo && message.undo.refused;
  if (!refused) return t("There is nothing to take back.");
  return refusalWords(refused.code, refused.message);
}

/** Redraw the button: shown to players of games that allow undo, enabled when a seat may. */
export function drawUndo(game, gameId) {
  const button = document.getElementById("undo");
  const message = game.message;
  const playing = Object.keys(game.held).length > 0;
  button.hidden = !playing || !message || message.state.allow_undo === false || Boolean(message.state.game_over);
  const target = undoTarget(game);
  button.disabled = !target || game.busy;
  button.setAttribute("aria-disabled", String(!target));
  button.title = target ? t("Take back {action} (key U)", { action: target.actions[target.actions.length - 1] }) : refusalOf(game);
  button.dataset.seat = target ? String(target.seat) : "";
  // Hot-seat: the last action was another of this browser's seats; ask whether it may take it back.
  const last = message && message.last;
  if (message && !message.can_undo && last && last.action !== "undo" && last.seat !== game.seat
      && game.held[last.seat] && !(game.otherUndo && game.otherUndo.version === game.version)) {
    const version = game.version;
    game.otherUndo = { seat: last.seat, version, actions: [] };
    api(`/api/games/${encodeURIComponent(gameId)}/view?seat=${last.seat}`, { token: game.held[last.seat] })
      .then((view) => {
        if (view.version !== version || game.version !== version) return;
        game.otherUndo = { seat: last.seat, version, actions: view.can_undo ? view.undo.actions : [] };
        drawUndo(game, gameId);
      }).catch(() => {});
  }
}

/**
 * Set up the button and the U key. ``ctx``: {game, gameId, accept, loadView, switchSeat, setBusy, redraw}.
 */
export function setUpUndo(ctx) {
  document.getElementById("undo").addEventListener("click", () => takeBack(ctx));
  document.addEventListener("keydown", (event) => {
    if (event.key !== "u" && event.key !== "U") return;
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    const target = event.target;
    const tag = target && target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || (target && target.isContentEditable)) return;
    if (document.getElementById("undo").hidden) return;
    event.preventDefault();
    takeBack(ctx);
  });
}

async function takeBack(ctx) {
  const { game, gameId } = ctx;
  if (game.busy) return;
  const target = undoTarget(game);
  if (!target) {
    toast(refusalOf(game), "error", 6000);
    return;
  }
  game.busy = true;
  ctx.setBusy(true);
  try {
    const reply = await api(`/api/games/${encodeURIComponent(gameId)}/undo`, {
      method: "POST",
      token: game.held[target.seat],
      body: { seat: target.seat, version: game.version },
    });
    if (target.seat === game.seat) ctx.accept(reply, null);
    else await ctx.switchSeat(target.seat);
  } catch (err) {
    toast(refusalWords(err.code, err.serverMessage || err.message), "error", 6000);
    try {
      await ctx.loadView();
    } catch (again) {
      /* the socket will bring the state */
    }
  } finally {
    game.busy = false;
    ctx.setBusy(false);
    ctx.redraw();
  }
}

/** A line in the log for an action taken back (the log itself returns to before the action). */
export function undoLine(last) {
  return h("li", { class: "undo fresh" }, "↶ ", ...undoNodes(last.seat, last.undone));
}
