// The Undo button: take back your last action while nobody else has acted and nothing new came out
// (a plant drawn, a resupply). Each click (or the U key) takes back one action. Against bots, the
// bots wait a few seconds after your action so that you can (the server's undo window): the button
// counts them down. Refusals are worded here from the server's facts (whose action, which one,
// what came out), in the player's terms: colours and names, the action in words.
import { api, h, playerChip, playerName, toast } from "./common.js";
import { serverNow } from "./clocks.js";
import { t, withNodes } from "./i18n.js";
import { actionNodes, undoNodes } from "./log.js";
import { seatName } from "./names.js";

/** Why an action cannot be taken back, by the server's code (when its facts are not known). */
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

/** What an action brought out, in words (the facts' "revealed"). */
function revealedWords(facts) {
  switch (facts.revealed) {
    case "plant": return t("plant {plant} was drawn", { plant: Number(facts.plant) });
    case "step3": return t("the Step 3 card was drawn");
    case "resupply": return t("the resource market was resupplied");
    case "saved_state": return t("the game was loaded from a saved state");
    default: return "";
  }
}

const isSeat = (value) => Number.isInteger(value) && value >= 0 && value < 6;

/**
 * A refusal in words, as nodes: the reason, then who and what from the facts (``by``: the seat
 * whose action is in the way, ``action``: the action in question; ``seat``: the seat asking).
 */
export function refusalNodes(code, facts, seat) {
  const known = facts || {};
  const action = isSeat(known.by) && typeof known.action === "string" && known.action ? known.action : null;
  const player = isSeat(known.by) ? playerChip(known.by) : null;
  const out = [];
  if (code === "not_your_action" && player) {
    out.push(...withNodes(t("Only the player who took the last action can take it back, and that was {player}."), { player }));
  } else if (code === "another_player_acted" && player) {
    out.push(...withNodes(t("Too late to take it back: {player} has acted since."), { player }));
  } else if (code === "new_information" && revealedWords(known)) {
    out.push(t("Too late to take it back: it brought out new information ({what}).", { what: revealedWords(known) }));
  } else {
    out.push(undoWords(code) || t("Refused."));
  }
  if (action) {
    // another_player_acted names the asker's own action; the others, the action in the way
    const whose = code === "another_player_acted" ? seat : known.by;
    const words = actionNodes(isSeat(whose) ? whose : known.by, action);
    out.push(" ", ...withNodes(whose === seat ? t("Your action: {action}.") : t("Last action: {action}."), { action: words }));
  }
  return out;
}

/** A player in words, without a chip: their colour, and the name they gave. */
function playerWords(seat) {
  const given = seatName(seat);
  return given ? [t("{colour} ({name})", { colour: playerName(seat), name: given })] : [playerName(seat)];
}

/** Nodes as plain text (for a tooltip): a player's chip becomes their colour and name. */
function asText(nodes) {
  return nodes.map((node) => {
    if (typeof node === "string") return node;
    if (node.classList && node.classList.contains("pchip")) return playerWords(Number(node.dataset.seat)).join("");
    return node.textContent || "";
  }).join("");
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

function refusalOf(game) {
  const message = game.message;
  const refused = message && message.undo && message.undo.refused;
  if (!refused) return [t("There is nothing to take back.")];
  const { code, message: _words, ...facts } = refused;
  return refusalNodes(code, facts, game.seat);
}

/** Seconds left of the undo window the bots wait for (0 when none), for the page's own seat. */
function windowLeft(game, target) {
  const undo = game.message && game.message.undo;
  if (!target || target.seat !== game.seat || !undo || typeof undo.until !== "number") return 0;
  return Math.max(0, undo.until - serverNow());
}

/** The countdown on the button: the seconds the bots still wait for you to take it back. */
function drawCountdown(game) {
  const button = document.getElementById("undo");
  if (!button) return;
  const left = windowLeft(game, undoTarget(game));
  let badge = button.querySelector(".undo-left");
  if (left <= 0 || button.hidden || button.disabled) {
    if (badge) badge.remove();
    return;
  }
  if (!badge) {
    badge = h("span", { class: "undo-left", "aria-hidden": "true" });
    button.append(badge);
  }
  badge.textContent = t("{s} s", { s: Math.ceil(left) });
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
  if (target) {
    const newest = target.actions[target.actions.length - 1];
    const left = windowLeft(game, target);
    const take = asText(withNodes(t("Take back: {action} (key U)"), { action: actionNodes(target.seat, newest) }));
    button.title = left > 0 ? `${take} ${t("The bots wait a few seconds so that you can.")}` : take;
  } else {
    button.title = asText(refusalOf(game));
  }
  button.dataset.seat = target ? String(target.seat) : "";
  drawCountdown(game);
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
  setInterval(() => drawCountdown(ctx.game), 250);
}

async function takeBack(ctx) {
  const { game, gameId } = ctx;
  if (game.busy) {
    // U pressed while this page's own action is on its way (the slip noticed at once): take that
    // action back as soon as it is answered. A second U during an undo is not queued.
    if (game.acting) game.onIdle = () => takeBack(ctx);
    return;
  }
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
    toast(err.code === "network" ? err.message : refusalNodes(err.code, err.facts, target.seat), "error", 6000);
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
