// The lobby: create a game, list games, join a seat, copy links for friends.
import { Board } from "./board.js";
import {
  PLAYER_COLOURS, absoluteLink, api, botName, copyText, forgetSeat, gameTitle, gamesHeld, h, mapName, playerChip, playerName, regionName, rememberSeat, seatsHeld, toast,
} from "./common.js";
import { formatNumber, pt, setUpLanguage, t, tn, withNodes } from "./i18n.js";
import { cleanName, rememberName, rememberedName } from "./names.js";
import { clockBadge, clockRequest, setUpClockForm } from "./clocks.js";

const $ = (id) => document.getElementById(id);

/** What kind of player a bot is ("plan search, fast"); the names are the bots' own. */
function botKind(bot) {
  switch (bot) {
    case "random": return t("random (plays any legal move)");
    case "heuristic": return t("heuristic (solid)");
    case "greedy": return t("greedy (plays for income)");
    case "bold": return t("bold (a bolder heuristic)");
    case "pimc": case "mcts": return pt("bot", "plan search");
    case "pimc:fast": case "mcts:fast": return t("plan search, fast");
    case "pimc:strong": case "mcts:strong": return t("plan search, strong");
    case "expert:fast": return t("evaluator search, fast");
    case "expert": return pt("bot", "evaluator search");
    case "expert:strong": return t("evaluator search, strong");  // a former name, in earlier games
    default: return bot;
  }
}

/** A bot's strength on the published ladder and its speed, where the server says them
 * ("Elo 1702 · ~0.08 s a move"), as nodes; none where it does not. Each figure is isolated (bdi):
 * in a right-to-left page a Latin "Elo 1702" beside the speed's words would run into them; and
 * each stays on one line. */
function botFigures(bot) {
  const about = form.about[bot];
  if (!about) return [];
  const figure = (text) => h("bdi", {}, text);
  const speed = figure(about.seconds ? t("~{seconds} s a move", { seconds: formatNumber(about.seconds) }) : t("instant"));
  // a rating is written without a thousands separator ("Elo 1796"), with its interval's half width:
  // levels whose intervals overlap are not told apart by the ladder
  if (about.elo == null) return [speed];
  const rating = about.margin ? t("Elo {elo} ±{margin}", { elo: String(about.elo), margin: String(about.margin) })
    : t("Elo {elo}", { elo: String(about.elo) });
  return [figure(rating), " · ", speed];
}

/** A game's status as the server names it ("playing", "over"...), in words. */
function statusWords(status) {
  switch (status) {
    case "waiting": return pt("game status", "waiting");
    case "playing": return pt("game status", "playing");
    case "over": return pt("game status", "over");
    case "abandoned": return t("abandoned");
    default: return status;
  }
}

const FALLBACK_BOTS = ["random", "greedy", "bold", "heuristic", "pimc", "expert:fast", "expert"];

const form = {
  maps: ["germany", "usa"],
  bots: ["random"],
  /** each bot's ladder rating and speed (GET /api/bots), by name */
  about: {},
  map: "germany",
  players: 2,
  variant: "standard",
  regionMode: "random",
  regions: [],
  seats: [],
  public: false,
  mapInfo: {},
};

function segmented(container, options, current, onPick) {
  container.replaceChildren(...options.map(([value, label]) => h("button", {
    type: "button", "aria-pressed": String(value === current), "data-value": value,
    onclick: () => onPick(value),
  }, label)));
}

function regionCount() {
  const info = form.mapInfo[form.map];
  return info && info.regions_per_players ? info.regions_per_players[String(form.players)] : null;
}

function connected(regions, adjacency) {
  if (!regions.length) return false;
  const seen = new Set([regions[0]]);
  const todo = [regions[0]];
  while (todo.length) {
    const region = todo.pop();
    for (const next of adjacency[region] || []) {
      if (regions.includes(next) && !seen.has(next)) {
        seen.add(next);
        todo.push(next);
      }
    }
  }
  return seen.size === regions.length;
}

function defaultBot() {
  return form.bots.includes("heuristic") ? "heuristic" : form.bots[0];
}

function resizeSeats() {
  const seats = form.seats.slice(0, form.players);
  while (seats.length < form.players) seats.push(seats.length === 0 ? { kind: "human" } : { kind: "bot", bot: defaultBot() });
  form.seats = seats;
}

function drawForm() {
  segmented($("map-choice"), form.maps.map((m) => [m, mapName(m)]), form.map, async (map) => {
    form.map = map;
    form.regions = [];
    await loadMap();
    drawForm();
  });
  segmented($("player-choice"), [2, 3, 4, 5, 6].map((n) => [n, formatNumber(n)]), form.players, (n) => {
    form.players = n;
    form.regions = form.regions.slice(0, regionCount() || 6);
    resizeSeats();
    drawForm();
  });
  segmented($("variant-choice"), [["standard", t("Standard")], ["first_game", t("First game")]], form.variant, (v) => {
    form.variant = v;
    drawForm();
  });
  $("variant-note").textContent = form.variant === "first_game"
    ? t("Shorter: Step 1 only, the game ends when someone builds a 7th city.")
    : t("The full game in three Steps.");
  segmented($("region-mode"), [["random", t("Draw at random")], ["pick", t("Choose on the map")]], form.regionMode, (mode) => {
    form.regionMode = mode;
    drawForm();
  });
  segmented($("visibility-choice"), [["private", t("Private")], ["public", t("Public")]], form.public ? "public" : "private", (value) => {
    form.public = value === "public";
    if (!form.public) form.seats = form.seats.map((seat) => (seat.open ? { kind: "human" } : seat));
    drawForm();
  });
  $("visibility-note").textContent = form.public
    ? t("Listed in the lobby: anyone may take a seat marked “open”; the other seats join by their links.")
    : t("Only the seat links join (share them with your friends).");
  drawRegions();
  drawSeats();
}

function drawRegions() {
  const info = form.mapInfo[form.map];
  if (!info) return;
  const need = regionCount();
  const picking = form.regionMode === "pick";
  if (!form.board || form.board.map !== info) {
    form.board = new Board($("mini-map"), info, { mini: true, onRegionClick: toggleRegion });
  }
  form.board.setRegions(picking ? form.regions : Object.keys(info.regions));
  const note = $("region-note");
  if (!picking) {
    note.className = "region-note";
    note.textContent = tn("{n} connected region will be drawn at random.", "{n} connected regions will be drawn at random.", need);
  } else {
    const ok = form.regions.length === need && connected(form.regions, info.adjacency);
    note.className = `region-note${form.regions.length === need && !ok ? " bad" : ""}`;
    note.textContent = form.regions.length < need
      ? tn("Click {n} more region ({need} connected regions for {players} players).",
        "Click {n} more regions ({need} connected regions for {players} players).", need - form.regions.length,
        { need, players: form.players })
      : ok ? tn("{n} region chosen.", "{n} regions chosen.", need) : t("These regions are not connected: choose neighbours.");
  }
  $("region-list").replaceChildren(...Object.keys(info.regions).map((region) => h("button", {
    type: "button", class: "region-tag", style: `--rc:${info.region_colours[region]}`,
    "aria-pressed": String(picking && form.regions.includes(region)), disabled: !picking,
    onclick: () => toggleRegion(region),
  }, h("i"), regionName(region))));
}

function toggleRegion(region) {
  if (form.regionMode !== "pick") {
    form.regionMode = "pick";
    form.regions = [];
  }
  const need = regionCount();
  if (form.regions.includes(region)) form.regions = form.regions.filter((r) => r !== region);
  else if (form.regions.length < need) form.regions.push(region);
  else form.regions = form.regions.slice(1).concat(region);
  drawForm();
}

function drawSeats() {
  $("seat-rows").replaceChildren(...form.seats.map((seat, i) => {
    // the chosen bot's figures beside the box: in the box they would be cut off (a phone's box is narrow)
    const figures = h("span", { class: "bot-figures", "data-figures": i }, seat.kind === "bot" ? botFigures(seat.bot) : []);
    const select = h("select", { "aria-label": t("{player} is played by", { player: playerName(i) }), "data-seat": i, onchange: (event) => {
      const value = event.target.value;
      form.seats[i] = value === "human" ? { kind: "human" } : value === "open" ? { kind: "human", open: true } : { kind: "bot", bot: value };
      figures.replaceChildren(...(form.seats[i].kind === "bot" ? botFigures(value) : []));
    } },
    h("option", { value: "human", selected: seat.kind === "human" && !seat.open }, t("Human (seat link)")),
    ...(form.public ? [h("option", { value: "open", selected: Boolean(seat.open) }, t("Open: anyone may join"))] : []),
    ...form.bots.map((bot) => h("option", { value: bot, selected: seat.kind === "bot" && seat.bot === bot }, t("Bot: {bot}", { bot: botKind(bot) }))));
    return h("div", { class: "seat-row" }, playerChip(i), select, figures);
  }), h("div", { class: "region-note" }, t("The seating order is drawn at random when the game starts.")));
}

/** The name typed in the form, remembered for the seats this browser takes; false if refused. */
function keepName() {
  const field = $("player_name");
  if (!field || !field.value.trim()) return true;
  const name = cleanName(field.value);
  if (!name) return false;
  rememberName(name);
  return true;
}

async function loadMap() {
  if (!form.mapInfo[form.map]) form.mapInfo[form.map] = await api(`/api/maps/${encodeURIComponent(form.map)}`);
}

async function create() {
  const error = $("create-error");
  error.textContent = "";
  const need = regionCount();
  const info = form.mapInfo[form.map];
  if (form.regionMode === "pick" && (form.regions.length !== need || !connected(form.regions, info.adjacency))) {
    error.textContent = tn("Choose {n} connected region, or draw them at random.", "Choose {n} connected regions, or draw them at random.", need);
    return;
  }
  const body = {
    map: form.map,
    players: form.players,
    regions: form.regionMode === "pick" ? form.regions : null,
    variant: form.variant,
    seed: $("seed").value.trim() === "" ? null : Number($("seed").value),
    seats: form.seats.slice(0, form.players),
    public: form.public,
  };
  const hints = $("hints") ? $("hints").value : "auto";
  if (hints !== "auto") body.hints = hints === "on";
  if ($("allow_undo") && !$("allow_undo").checked) body.allow_undo = false;  // on unless turned off
  if ($("chat_on") && !$("chat_on").checked) body.chat = false;
  if (!keepName()) {
    error.textContent = t("A name has 1 to 24 characters, without control characters.");
    return;
  }
  Object.assign(body, clockRequest());
  const pace = $("bot_pace_ms").value.trim();
  if (pace !== "") body.bot_pace_ms = Math.max(0, Math.round(Number(pace)));
  const undoWindow = $("undo_window_s") ? $("undo_window_s").value.trim() : "";
  if (undoWindow !== "" && body.allow_undo !== false) {
    body.undo_window_ms = Math.min(30000, Math.max(0, Math.round(Number(undoWindow) * 1000)));
  }
  const button = $("create");
  button.disabled = true;
  try {
    let game;
    try {
      game = await api("/api/games", { method: "POST", body });
    } catch (err) {
      // A server that does not know the per-game bot pace refuses the field: create without it.
      if (!("bot_pace_ms" in body) || !/bot_pace_ms/.test(err.serverMessage || "")) throw err;
      delete body.bot_pace_ms;
      game = await api("/api/games", { method: "POST", body });
      toast(t("This server sets the bots' pace itself."), "info", 4000);
    }
    showCreated(game);
    refreshGames();
  } catch (err) {
    error.textContent = err.message;
  } finally {
    button.disabled = false;
  }
}

function showCreated(game) {
  const humans = game.seats.filter((seat) => seat.kind === "human" && seat.token);
  // The first human seat plays here; the others are for friends unless ticked (hot-seat).
  if (humans.length) rememberSeat(game.game_id, humans[0].seat, humans[0].token);
  const box = $("created");
  box.hidden = false;
  box.className = "created";
  const linkRow = (label, link, seat) => {
    const url = absoluteLink(link);
    const here = seat ? h("label", { class: "here", title: t("This seat is played in this browser (hot-seat)") },
      h("input", {
        type: "checkbox", "data-here": seat.seat, checked: seat === humans[0],
        onchange: (event) => (event.target.checked ? rememberSeat(game.game_id, seat.seat, seat.token) : forgetSeat(game.game_id, seat.seat)),
      }), t("plays here")) : h("span");
    return h("div", { class: "link-row" }, label,
      h("input", { type: "text", readonly: true, value: url, "aria-label": t("link"), dir: "ltr", onfocus: (e) => e.target.select() }),
      h("button", { type: "button", class: "btn small secondary", onclick: async () => toast(await copyText(url) ? t("Link copied") : t("Copy failed: select the link and copy it"), "info", 2000) }, t("Copy")),
      here);
  };
  box.replaceChildren(
    h("h3", {}, t("Game ready")),
    humans.length > 1
      ? h("p", { class: "hint" }, t("Send each friend their seat's link, or tick “plays here” for seats played on this computer (hot-seat: the page switches to whoever must act)."))
      : humans.length ? h("p", { class: "hint" }, t("Your seat is kept in this browser.")) : h("p", { class: "hint" }, game.seats.some((seat) => seat.open) ? t("Anyone may take the open seats from the list of games.") : t("Only bots play: watch them.")),
    ...humans.map((seat) => linkRow(playerChip(seat.seat), seat.link, seat)),
    linkRow(h("span", { class: "muted" }, t("Watch")), game.spectator_link, null),
    h("div", { class: "buttons" },
      h("a", { class: "btn primary big", id: "play-now", href: humans.length ? humans[0].link : game.spectator_link }, humans.length ? t("Start playing") : t("Watch the game"))),
  );
  box.scrollIntoView({ behavior: "smooth", block: "nearest" });
}

async function refreshGames() {
  const list = $("game-list");
  let data;
  try {
    data = await api("/api/games");
  } catch (err) {
    list.replaceChildren(h("div", { class: "empty-note error-text" }, err.message));
    return;
  }
  const mine = new Set(gamesHeld());
  const games = (data.games || []).slice().sort((a, b) => {
    const rank = (g) => (mine.has(g.game_id) && g.status !== "over" ? 0 : g.open_seats && g.open_seats.length ? 1 : g.status === "over" ? 3 : 2);
    return rank(a) - rank(b) || String(b.created_at).localeCompare(String(a.created_at));
  }).slice(0, 30);
  if (!games.length) {
    list.replaceChildren(h("div", { class: "empty-note" }, t("No games yet: create one.")));
    return;
  }
  list.replaceChildren(...games.map((game) => {
    const held = seatsHeld(game.game_id);
    const heldSeats = Object.keys(held).map(Number);
    const open = game.open_seats || [];
    const actions = [];
    if (heldSeats.length) actions.push(h("a", { class: "btn small primary", href: `/game/${game.game_id}?seat=${heldSeats[0]}` }, game.status === "over" ? t("Results") : t("Resume")));
    for (const seat of open.filter((s) => !(s in held))) {
      actions.push(h("button", { type: "button", class: "btn small secondary", "data-join": seat, onclick: () => claim(game.game_id, seat) },
        ...withNodes(t("Join as {player}"), { player: playerChip(seat) })));
    }
    actions.push(h("a", { class: "btn small ghost", href: `/game/${game.game_id}`, "data-action": "watch" }, game.status === "over" ? t("Look") : t("Watch")));
    actions.push(h("a", { class: "btn small ghost", href: `/replay/${game.game_id}`, title: t("Step back through the game") }, t("Replay")));
    return h("div", { class: "game-item", "data-game": game.game_id },
      h("div", {},
        h("b", {}, gameTitle(mapName(game.map), game.players, "standard")), " ",
        h("span", { class: `status-badge status-${game.status}` }, statusWords(game.status)), " ",
        h("span", { class: `status-badge status-${game.public ? "public" : "private"}`, title: game.public ? t("anyone may take an open seat") : t("joined only by seat links") },
          game.public ? pt("game", "public") : pt("game", "private")), " ",
        game.seeded ? h("span", { class: "status-badge status-seeded", title: t("the creator chose the seed") }, t("seeded")) : "",
        clockBadge(game.time_control), " ",
        h("div", { class: "meta" }, game.variant === "first_game" ? t("first game · round {round}", { round: game.round || 1 })
          : t("standard · round {round}", { round: game.round || 1 })),
        h("div", { class: "seat-dots" }, ...(game.seats || []).map((seat) => h("span", { class: "seat-dot", title: seat.kind === "bot" ? t("{bot} bot", { bot: botName(seat.bot) }) : seat.claimed ? t("taken") : seat.open ? t("anyone may join") : t("waiting for its link to be used") },
          h("i", { class: "pdot", style: `--pc:${PLAYER_COLOURS[seat.seat]}` }),
          seat.kind === "bot" ? botName(seat.bot) : held[seat.seat] ? t("you") : seat.claimed ? t("human") : seat.open ? pt("seat", "open") : t("invited"),
          seat.name ? h("span", { class: "given-name" }, seat.name) : null)))),
      h("div", { class: "buttons", style: "margin:0" }, ...actions));
  }));
}

async function claim(gameId, seat) {
  try {
    const name = rememberedName();  // the game page asks for one if none was given before
    const reply = await api(`/api/games/${encodeURIComponent(gameId)}/seats/${seat}/claim`, { method: "POST", body: name ? { name } : {} });
    rememberSeat(gameId, reply.seat, reply.token);
    window.location.href = reply.link;
  } catch (err) {
    toast(err.message, "error");
    refreshGames();
  }
}

function joinByLink() {
  const text = $("join-link").value.trim();
  if (!text) return;
  try {
    const url = new URL(text, window.location.origin);
    if (!url.pathname.startsWith("/game/")) throw new Error("not a game link");  // (not shown)
    window.location.href = url.pathname + url.search + url.hash;
  } catch (err) {
    toast(t("That is not a game link (it looks like …/game/<id>#seat=1&token=…)."), "error");
  }
}

async function start() {
  try {
    const maps = await api("/api/maps");
    if (maps.maps && maps.maps.length) form.maps = maps.maps;
  } catch (err) {
    $("create-error").textContent = err.message;
  }
  try {
    const bots = await api("/api/bots");
    const names = Array.isArray(bots) ? bots : bots.bots;
    if (names && names.length) form.bots = names.map((bot) => (typeof bot === "string" ? bot : bot.name));
    if (bots.about && typeof bots.about === "object") form.about = bots.about;
  } catch (err) {
    /* a server without GET /api/bots: offer the bots the project ships */
    form.bots = FALLBACK_BOTS;
  }
  if (!form.maps.includes(form.map)) form.map = form.maps[0];
  resizeSeats();
  await loadMap();
  drawForm();
  if ($("player_name")) $("player_name").value = rememberedName();
  setUpClockForm(form.bots);
  if ($("allow_undo") && $("undo_window_s")) {  // no window where there is no undo
    $("allow_undo").addEventListener("change", () => { $("undo_window_s").disabled = !$("allow_undo").checked; });
  }
  $("create").addEventListener("click", create);
  $("refresh").addEventListener("click", refreshGames);
  $("join").addEventListener("click", joinByLink);
  $("join-link").addEventListener("keydown", (event) => { if (event.key === "Enter") joinByLink(); });
  refreshGames();
  setInterval(refreshGames, 8000);
}

setUpLanguage().then(start);
