// Play on one phone: pass and play, any seat the computer. Every move, ballot and result is the
// engine's (drunter.push judges it); this page only asks who acts next and shows what it may.
// Games are kept in IndexedDB (the record, the secret cards, who plays which seat) after every turn.
import { $, _, download, drunter, el, fmt } from "./app.js";

const WATCH_DELAY = 400;  // ms between the computer's turns, so a person can follow them
let game = null;  // the engine's state of the open game
let meta = null;  // what IndexedDB keeps of it: {id, players, who, cards, record, updated, over}
let shown = null;  // the person whose hand is on the screen
let running = 0;  // the drive loop's generation: leaving a game or undo stops an older loop

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

// -- setup -------------------------------------------------------------------------------------
function seats() {
  const out = [];
  for (let n = 1; n <= 4; n++) {
    const who = $(`seat-who-${n}`).value;
    const name = $(`seat-name-${n}`).value.trim();
    if (who !== "none") out.push({ name, who });
  }
  return out;
}

async function start(watch) {
  const chosen = seats().map((s) => (watch && s.who === "person" ? { ...s, who: "medium" } : s));
  const who = Object.fromEntries(chosen.map((s) => [s.name, s.who]));
  const seed = crypto.getRandomValues(new Uint32Array(1))[0];
  try {
    game = await drunter.newGame({ players: chosen.map((s) => s.name), seed, bots: bots(who) });
  } catch (e) {
    $("message").textContent = e.message;
    $("table").hidden = false;
    return;
  }
  meta = { id: `${Date.now()}-${seed}`, players: game.players, who, cards: game.cards, record: game.record,
    updated: Date.now(), over: false };
  await saveGame(meta);
  open();
}

function bots(who) {
  return Object.fromEntries(Object.entries(who).filter(([, w]) => w !== "person"));
}

async function resume(saved) {
  meta = saved;
  game = await drunter.newGame({ players: saved.players, dn: saved.record, cards: saved.cards, bots: bots(saved.who) });
  open();
}

function open() {
  shown = null;
  $("setup").hidden = true;
  $("table").hidden = false;
  $("message").textContent = "";
  $("share").hidden = !navigator.canShare;
  drive();
}

async function listSaved() {
  const games = (await loadGames()).sort((a, b) => b.updated - a.updated);
  $("saved").replaceChildren(...games.map((g) => {
    const when = new Date(g.updated).toLocaleString(document.documentElement.lang);
    const label = fmt(g.over ? _("{players}, finished, {when}") : _("{players}, {when}"),
      { players: g.players.join(", "), when });
    const go = el("button", { type: "button", text: _("Resume") });
    go.addEventListener("click", () => resume(g));
    const gone = el("button", { type: "button", text: _("Delete") });
    gone.addEventListener("click", async () => { await deleteGame(g.id); listSaved(); });
    return el("li", {}, el("span", { text: label }), go, gone);
  }));
}

// -- the table ---------------------------------------------------------------------------------
const isPerson = (name) => meta.who[name] === "person";
const people = () => meta.players.filter(isPerson);

async function update(next) {
  game = next;
  meta.record = game.record;
  meta.over = game.over;
  meta.updated = Date.now();
  await saveGame(meta);
}

function hideForms() {
  for (const id of ["move-form", "vote-form", "jein-form", "mine"]) $(id).hidden = true;
}

function render() {
  $("table-board").innerHTML = game.board;  // the engine's SVG (report/view.py), no user text unescaped
  $("status").textContent = game.over ? _("The game is over.")
    : fmt(_("Turn {turn}: {name} to move"), { turn: game.turn, name: game.to_move });
  $("result").hidden = !game.result;
  if (game.result) $("result-text").textContent = game.result.explanation;
}

// The phone passes to NAME: everything of the last person is hidden until NAME says it is them.
function handTo(name) {
  if (shown === name || people().length < 2) {
    shown = name;
    return Promise.resolve();
  }
  hideForms();
  $("cover-text").textContent = fmt(_("Pass the phone to {name}"), { name });
  $("cover-go").textContent = fmt(_("I am {name}: show my cards"), { name });
  $("cover").hidden = false;
  return new Promise((resolve) => {
    $("cover-go").onclick = () => {
      $("cover").hidden = true;
      shown = name;
      resolve();
    };
  });
}

function showHand(name) {
  $("mine-title").textContent = fmt(_("{name}'s hand"), { name });
  const cards = game.cards[name] || [];
  $("card").textContent = fmt(_("Your building card: {card}"), { card: cards.join(", ") });
  $("tiles").replaceChildren(...Object.entries(game.tiles[name] || {}).map(([t, n]) => el("li", { text: `${t} ×${n}` })));
  $("votes").replaceChildren(...Object.entries(game.votes[name]).map(([c, n]) => el("li", { text: `${c} ×${n}` })));
  $("mine").hidden = false;
}

async function think(name, work) {
  $("thinking-text").textContent = fmt(_("{name} is thinking…"), { name });
  $("thinking").hidden = false;
  try {
    return await work();
  } finally {
    $("thinking").hidden = true;
  }
}

function askMove(name) {
  showHand(name);
  $("move").replaceChildren(...game.legal.map((m) => el("option", { value: m.move, text: m.move })));
  $("hint-text").textContent = "";
  $("move-form").hidden = false;
  return new Promise((resolve) => {
    $("move-form").onsubmit = (e) => {
      e.preventDefault();
      $("move-form").hidden = true;
      resolve(game.legal.find((m) => m.move === $("move").value));
    };
  });
}

function askBallot(name, move) {
  showHand(name);
  $("vote-question").textContent = fmt(_("{name}: your vote on {move} (one or more cards)"), { name, move });
  $("vote-cards").replaceChildren(...Object.entries(game.votes[name]).map(([card, n], i) =>
    el("label", {}, el("input", { type: "checkbox", value: card, id: `vote-${i}` }), ` ${card} ×${n}`)));
  $("vote-form").hidden = false;
  return new Promise((resolve) => {
    $("vote-form").onsubmit = (e) => {
      e.preventDefault();
      const cards = [...$("vote-cards").querySelectorAll("input:checked")].map((c) => c.value);
      if (!cards.length) {
        $("message").textContent = _("Lay at least one card.");
        return;
      }
      $("message").textContent = "";
      $("vote-form").hidden = true;
      resolve(cards);
    };
  });
}

function askJoker(name, ballots) {
  $("jein-question").textContent = fmt(_("{name}: every ballot is shown; does your JEIN count as yes or no?"), { name });
  $("ballots").replaceChildren(...Object.entries(ballots).map(([p, c]) => el("li", { text: `${p}: ${c.join(" ")}` })));
  $("jein-form").hidden = false;
  return new Promise((resolve) => {
    $("jein-yes").onclick = () => { $("jein-form").hidden = true; resolve("yes"); };
    $("jein-no").onclick = () => { $("jein-form").hidden = true; resolve("no"); };
  });
}

// The vote on a move that covers a toilet: each player in voting order lays cards, then each
// JEIN is declared with every ballot shown (B2, B4).
async function vote(move) {
  const ballots = {};
  for (const name of game.voters) {
    if (isPerson(name)) {
      await handTo(name);
      ballots[name] = await askBallot(name, move);
    } else {
      ballots[name] = (await think(name, () => drunter.decide(game.game, { player: name, kind: "lay", move }))).cards;
    }
  }
  const jein = {};
  for (const name of game.voters.filter((n) => ballots[n].includes("JEIN"))) {
    if (isPerson(name)) {
      await handTo(name);
      jein[name] = await askJoker(name, ballots);
    } else {
      jein[name] = (await think(name, () => drunter.decide(game.game, { player: name, kind: "jein", move, ballots }))).side;
    }
  }
  return { vote: ballots, jein };
}

async function turn() {
  const name = game.to_move;
  if (!game.legal.length) {
    $("message").textContent = fmt(_("{name} cannot place a tile and is passed over."), { name });
    return { move: "pass" };
  }
  let chosen;
  if (isPerson(name)) {
    await handTo(name);
    chosen = await askMove(name);
  } else {
    if (!people().length) await new Promise((r) => setTimeout(r, WATCH_DELAY));
    chosen = await think(name, () => drunter.decide(game.game, { player: name }));
  }
  return chosen.vote ? { move: chosen.move, ...(await vote(chosen.move)) } : { move: chosen.move };
}

async function drive() {
  const mine = ++running;
  render();
  while (!game.over && mine === running) {
    let played;
    try {
      played = await turn();
    } catch (e) {
      if (e.message === "cancelled") return;
      throw e;
    }
    if (mine !== running) return;
    try {
      await update(await drunter.push(game.game, played.move, { vote: played.vote, jein: played.jein }));
      if (played.move !== "pass") $("message").textContent = "";
    } catch (e) {
      $("message").textContent = e.message;  // the engine's refusal, in its words
    }
    render();
  }
  hideForms();
  if (game.over) $("message").textContent = "";
}

$("hint").addEventListener("click", async () => {
  const name = game.to_move;
  const advice = await think(_("The coach"), () => drunter.decide(game.game, { player: name, spec: "medium" }));
  $("move").value = advice.move;
  $("hint-text").textContent = fmt(_("The coach suggests {move}."), { move: advice.move });
});

$("undo").addEventListener("click", async () => {
  running++;  // the loop waiting for a person's answer stops
  hideForms();
  let next = await drunter.undo(game.game);
  while (next.turn > 1 && !isPerson(next.to_move) && people().length) next = await drunter.undo(game.game);
  await update(next);
  drive();
});

$("download").addEventListener("click", () => download(`drunter-${meta.id}.dn`, game.record));
$("share").addEventListener("click", () => {
  const file = new File([game.record], `drunter-${meta.id}.dn`, { type: "text/plain" });
  if (navigator.canShare && navigator.canShare({ files: [file] })) navigator.share({ files: [file] });
  else download(file.name, game.record);
});
$("leave").addEventListener("click", () => {
  running++;
  drunter.closeGame(game.game);
  $("table").hidden = true;
  $("setup").hidden = false;
  $("cover").hidden = true;
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
