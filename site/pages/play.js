// Play on one phone: pass and play, any seat the computer. The game is drunter play's table core
// (drunter_notation/table/) in the engine's worker, asked through its JSON API (docs/play.md):
// each person acts through their own seat, whose view alone shows their card and ballot; the
// computer's seats play on their own. This page only asks who acts next and shows what they may.
// Every game is kept in IndexedDB after each change, and goes on after a reload.
import { $, _, bdi, download, drunter, el, fmt, isolated, parts } from "./app.js";

let name = null;  // the open game's id in the table core
let meta = null;  // what IndexedDB keeps: {id, players, who, kept, updated, over}
let tokens = {};  // each person's seat token
let shown = null;  // the person whose cards are on the screen
let asked = null;  // the question on the screen (who, what, turn): asked once
let view = null;  // the core's public view of the game

// -- IndexedDB ---------------------------------------------------------------------------------
function store(mode, work) {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open("drunter", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("games", { keyPath: "id" });
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const tx = open.result.transaction("games", mode);
      const request = work(tx.objectStore("games"));
      tx.oncomplete = () => { resolve(request && request.result); open.result.close(); };
      tx.onerror = () => reject(tx.error);
    };
  });
}
const saveGame = (record) => store("readwrite", (s) => s.put(record));
const loadGames = () => store("readonly", (s) => s.getAll());
const deleteGame = (id) => store("readwrite", (s) => s.delete(id));

// -- the core's API ------------------------------------------------------------------------------
async function ask(method, path, body = null, who = null) {
  const answer = await drunter.table.ask(method, path, body, who ? tokens[who] : null);
  if (answer.status >= 400) throw new Error(answer.body.error || String(answer.status));
  return answer.body;
}
const game = (rest = "") => `/api/games/${encodeURIComponent(name)}${rest}`;
const seat = (rest = "") => `/api/seat/${encodeURIComponent(name)}${rest}`;

// -- setup -------------------------------------------------------------------------------------
function seats() {
  const out = [];
  for (let n = 1; n <= 4; n++) {
    const who = $(`seat-who-${n}`).value;
    if (who !== "none") out.push({ name: $(`seat-name-${n}`).value.trim(), who });
  }
  return out;
}

async function start(watch) {
  const chosen = seats().map((s) => (watch && s.who === "person" ? { ...s, who: "medium" } : s));
  const who = Object.fromEntries(chosen.map((s) => [s.name, s.who]));
  const bots = Object.fromEntries(chosen.filter((s) => s.who !== "person").map((s) => [s.name, s.who]));
  const id = `game-${Date.now()}`;
  try {
    const made = await ask("POST", "/api/games", { name: id, players: chosen.map((s) => s.name), deal: "random",
      bots, hints: chosen.some((s) => s.who === "person") });
    name = made.name;
  } catch (e) {
    $("setup-message").textContent = e.message;
    return;
  }
  meta = { id: name, players: chosen.map((s) => s.name), who, updated: Date.now(), over: false };
  await open();
}

async function resume(saved) {
  meta = saved;
  name = saved.id;
  try {
    const here = await drunter.table.ask("GET", game());
    if (here.status === 404) await drunter.table.restore(name, saved.kept);
    await open();
  } catch (e) {  // a game the browser kept that is no game now (its storage changed): said, not thrown
    $("setup-message").textContent = e.message;
  }
}

async function open() {
  tokens = await drunter.table.tokens(name, meta.players);
  shown = null;
  asked = null;
  $("setup").hidden = true;
  $("table").hidden = false;
  $("message").textContent = "";
  $("share").hidden = !navigator.canShare;
  await refresh();
}

async function listSaved() {
  const games = (await loadGames()).sort((a, b) => b.updated - a.updated);
  $("saved").replaceChildren(...games.map((g) => {
    const when = new Date(g.updated).toLocaleString(document.documentElement.lang);
    const players = el("span", {}, ...g.players.flatMap((p, i) => (i ? [", ", bdi(p)] : [bdi(p)])));
    const label = parts(g.over ? _("{players}, finished, {when}") : _("{players}, {when}"), { players, when });
    const go = el("button", { type: "button", text: _("Resume") });
    go.addEventListener("click", () => resume(g));
    const gone = el("button", { type: "button", text: _("Delete") });
    gone.addEventListener("click", async () => { await deleteGame(g.id); listSaved(); });
    return el("li", {}, el("span", {}, ...label), go, gone);
  }));
}

// -- the table ---------------------------------------------------------------------------------
const isPerson = (who) => meta.who[who] === "person";
const people = () => meta.players.filter(isPerson);

function hideForms() {
  for (const id of ["move-form", "vote-form", "jein-form", "mine"]) $(id).hidden = true;
}

// While the phone is passed, the cover alone can be reached (by a tap, Tab or a screen reader): the rest is inert.
function covered(on) {
  for (const part of [document.querySelector("header.top"), ...$("main").children]) {
    if (part && part.id !== "cover") part.inert = on;
  }
  $("cover").hidden = !on;
  if (on) $("cover-go").focus();
}

// The phone passes to WHO: everything of the last person is hidden until WHO says it is them
// (true once they did: the cover was shown and gone).
function handTo(who) {
  if (shown === who || people().length < 2) {
    shown = who;
    return Promise.resolve(false);
  }
  hideForms();
  // what the last person saw is emptied, not only hidden: nothing of it stays in the page for the next
  for (const id of ["card", "tiles", "votes", "vote-cards", "mine-title"]) $(id).replaceChildren();
  $("cover-text").replaceChildren(...parts(_("Pass the phone to {name}"), { name: bdi(who) }));
  $("cover-go").replaceChildren(...parts(_("I am {name}: show my cards"), { name: bdi(who) }));
  covered(true);
  return new Promise((resolve) => {
    $("cover-go").onclick = () => {
      covered(false);
      shown = who;
      resolve(true);
    };
  });
}

async function showHand(who) {
  const mine = await ask("GET", seat(), null, who);
  const me = view.players.find((p) => p.name === who);
  $("mine-title").replaceChildren(...parts(_("{name}'s hand"), { name: bdi(who) }));
  $("card").textContent = fmt(_("Your building card: {card}"), { card: mine.me.card || "?" });
  $("tiles").replaceChildren(...me.tiles.map(([t, n]) => el("li", { text: `${t} ×${n}` })));
  $("votes").replaceChildren(...me.cards.map((c) => el("li", { text: c })));
  $("mine").hidden = false;
  return mine;
}

async function askMove(who) {
  const mine = await showHand(who);
  const legal = mine.legal.length ? mine.legal : [{ move: "pass", needs_vote: false }];
  $("move").replaceChildren(...legal.map((m) => el("option", { value: m.move, text: m.move })));
  $("hint-text").textContent = "";
  $("hint").hidden = !view.hints;
  $("move-form").hidden = false;
  $("move-form").onsubmit = (e) => {
    e.preventDefault();
    const move = legal.find((m) => m.move === $("move").value);
    $("move-form").hidden = true;
    act(() => ask("POST", seat(move.needs_vote ? "/ballot" : "/moves"), { move: move.move, turn: view.turn }, who));
  };
}

async function askBallot(who) {
  await showHand(who);
  const me = view.players.find((p) => p.name === who);
  $("vote-question").replaceChildren(...parts(_("{name}: your vote on {move} (one or more cards)"),
    { name: bdi(who), move: view.vote.move }));
  $("vote-cards").replaceChildren(...me.cards.map((card, i) =>
    el("label", {}, el("input", { type: "checkbox", value: card, id: `vote-${i}` }), ` ${card}`)));
  $("vote-form").hidden = false;
  $("vote-form").onsubmit = (e) => {
    e.preventDefault();
    const cards = [...$("vote-cards").querySelectorAll("input:checked")].map((c) => c.value);
    if (!cards.length) {
      $("message").textContent = _("Lay at least one card.");
      return;
    }
    $("vote-form").hidden = true;
    act(() => ask("POST", seat("/lay"), { cards }, who));
  };
}

function askJoker(who) {
  $("jein-question").replaceChildren(...parts(_("{name}: every ballot is shown; does your JEIN count as yes or no?"),
    { name: bdi(who) }));
  $("ballots").replaceChildren(...Object.entries(view.vote.ballots || {}).map(([p, c]) =>
    el("li", {}, bdi(p), `: ${c.join(" ")}`)));
  $("jein-form").hidden = false;
  const side = (value) => () => {
    $("jein-form").hidden = true;
    act(() => ask("POST", seat("/jein"), { side: value }, who));
  };
  $("jein-yes").onclick = side("yes");
  $("jein-no").onclick = side("no");
}

// One action of a person; the core's refusal is shown in its words, and the question asked again.
async function act(work) {
  $("message").textContent = "";
  asked = null;
  try {
    await work();
  } catch (e) {
    $("message").textContent = e.message;
  }
  await refresh();
}

// Who acts now, from the core's public view: a person is asked (once), the computer plays alone.
function question() {
  const vote = view.vote;
  if (view.over) return null;
  if (vote && !vote.shown) {
    const next = vote.order.find((p) => !vote.laid.includes(p));
    return next && { who: next, kind: "lay" };
  }
  if (vote && vote.shown) {
    const next = (vote.jein_due || [])[0];
    return next && { who: next, kind: "jein" };
  }
  return { who: view.to_move, kind: "move" };
}

let refreshing = Promise.resolve();
function refresh() {
  refreshing = refreshing.then(draw);
  return refreshing;
}

async function draw() {
  try {
    await drawn();
  } catch (e) {
    $("message").textContent = e.message;
  }
}

async function drawn() {
  if (!name) return;
  view = await ask("GET", game());
  $("table-board").innerHTML = await ask("GET", game("/board.svg"));  // the engine's SVG (report/svg.py)
  meta.kept = await drunter.table.export(name);
  meta.over = view.over;
  meta.updated = Date.now();
  await saveGame(meta);
  $("status").replaceChildren(...(view.over ? [_("The game is over.")]
    : parts(_("Turn {turn}: {name} to move"), { turn: view.turn, name: bdi(view.to_move) })));
  $("result").hidden = !view.result;
  if (view.result) $("result-text").replaceChildren(...isolated(view.result.explanation, meta.players));
  const q = question();
  const key = q && `${q.who} ${q.kind} ${view.turn}`;
  $("thinking").hidden = !q || isPerson(q.who);
  if (q && !isPerson(q.who)) $("thinking-text").replaceChildren(...parts(_("{name} is thinking…"), { name: bdi(q.who) }));
  if (!q || !isPerson(q.who)) {
    hideForms();
    asked = null;
    return;
  }
  if (asked === key) return;
  asked = key;
  hideForms();
  const handed = await handTo(q.who);
  if (q.kind === "move") await askMove(q.who);
  else if (q.kind === "lay") await askBallot(q.who);
  else askJoker(q.who);
  // the cover's button is gone: the keyboard goes on at the question asked, not at the page's start
  if (handed) document.querySelector("#table form:not([hidden]) :is(select, input, button)")?.focus();
}

drunter.table.onChange((changed) => { if (changed === name) refresh(); });

$("hint").addEventListener("click", async () => {
  $("hint-text").textContent = "";
  try {
    const { moves } = await ask("GET", seat("/hint"), null, view.to_move);
    $("move").value = moves[0].move;
    $("hint-text").textContent = fmt(_("The coach suggests {move}."), { move: moves[0].move });
  } catch (e) {
    $("hint-text").textContent = e.message;
  }
});

// Undo: back to the last turn a person played, the computer held meanwhile.
$("undo").addEventListener("click", () => act(async () => {
  await ask("POST", game("/autoplay"), { paused: true });
  try {
    let now = await ask("POST", game("/undo"), {});
    while (now.turn > 1 && !isPerson(now.to_move) && people().length) now = await ask("POST", game("/undo"), {});
  } finally {
    await ask("POST", game("/autoplay"), { paused: false });
  }
}));

$("download").addEventListener("click", () => download(`drunter-${name}.dn`, view.dn));
$("share").addEventListener("click", () => {
  const file = new File([view.dn], `drunter-${name}.dn`, { type: "text/plain" });
  if (navigator.canShare && navigator.canShare({ files: [file] })) navigator.share({ files: [file] });
  else download(file.name, view.dn);
});
$("leave").addEventListener("click", () => {
  name = null;
  $("table").hidden = true;
  $("setup").hidden = false;
  covered(false);
  listSaved();
});
$("new-game").addEventListener("submit", (e) => {
  e.preventDefault();
  start(false);
});
$("watch").addEventListener("click", () => start(true));

drunter.ready.then(() => {
  $("start").disabled = false;
  $("watch").disabled = false;
});
listSaved();
