// The browser edition's JS API (docs/browser.md), also window.drunter: the engine runs in a Web
// Worker; every call is a promise. No rule lives here: each answer is the engine's.
const pending = new Map();
let worker = null;
let ready = null;
let nextId = 1;
const listeners = new Set();
let compiled = false;
let keep = null;
let kept = null;

export class DrunterError extends Error {
  constructor(error) {
    super(error.message);
    this.code = error.code;
  }
}

let generation = 0;  // one more with every cancel(): a call made before it is refused, not sent on
let starting = null;  // {resolve, reject} of the ready promise while no engine has answered it

// The ready promise settled once: by the first engine to start, a cancel() before that included.
function settle(how, value) {
  const s = starting;
  starting = null;
  if (s) s[how](value);
}

function start() {
  worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
  kept = new Promise((resolve) => { keep = resolve; });
  if (!starting) ready = new Promise((resolve, reject) => { starting = { resolve, reject }; });
  worker.onmessage = ({ data }) => {
    if (data.kept) return keep();
    if (data.ready) {
      compiled = data.compiled;
      if (compiled) keep();
      return settle("resolve");
    }
    if (data.event !== undefined) return listeners.forEach((f) => f(data.event));
    if (data.id === undefined) return settle("reject", new Error(data.failed));
    const answer = pending.get(data.id);
    pending.delete(data.id);
    if (answer) data.failed === undefined ? answer.resolve(data.value) : answer.reject(new Error(data.failed));
  };
  worker.onerror = (e) => settle("reject", new Error(e.message || "worker"));
}

function send(name, args) {
  const made = generation;
  return ready.then(() => new Promise((resolve, reject) => {
    if (made !== generation) return reject(new Error("cancelled"));  // asked of an engine cancelled since
    const id = nextId++;
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, name, args });
  }));
}

async function typed(name, args) {
  return refusedOr(send(name, { lang: drunter.lang, ...args }));
}

// The answer, or the engine's refusal ({error: {code, message}}) as a DrunterError.
async function refusedOr(answer) {
  const value = await answer;
  if (value && typeof value === "object" && value.error) throw new DrunterError(value.error);
  return value;
}

export const drunter = {
  // The language of every call's words: the game calls', the table core's, and cli()'s when its
  // arguments give no --lang (as a LANGUAGE the command finds set).
  lang: (typeof document !== "undefined" && document.documentElement.lang) || "en",
  get ready() { return ready; },
  // Whether this start loaded the modules compiled by an earlier one (docs/browser.md), and a
  // promise settled once they are kept for the next start.
  get compiled() { return compiled; },
  get kept() { return kept; },
  // drunter ARGS in a folder of its own holding FILES ({relative path: text}):
  // {status, stdout, stderr, files} (files: those the command wrote or changed).
  cli: (args, files = {}) => typed("cli", { args, files }),
  newGame: (options) => typed("new_game", options),
  state: (game) => typed("state", { game }),
  legalMoves: (game) => typed("legal_moves", { game }),
  push: (game, move, options = {}) => typed("push", { game, move, ...options }),
  undo: (game) => typed("undo", { game }),
  position: (game) => typed("position", { game }),
  record: (game) => typed("record", { game }),
  verdict: (move, where = {}) => typed("verdict", { move, ...where }),
  decide: (game, options = {}) => typed("decide", { game, ...options }),
  closeGame: (game) => typed("close_game", { game }),
  rulesets: () => typed("rulesets", {}),
  // A text's first lines as a page lists them (each safe to show), and how many more: {lines, more}.
  shownLines: (text) => typed("shown_lines", { text }),
  // The table core of drunter play (docs/play.md's JSON API), in the worker: ask() answers
  // {status, body} in drunter.lang (the server's X-Drunter-Lang); onChange(f) calls f(game) after
  // every change of a game (a bot's move too).
  table: {
    ask: (method, path, body = null, token = null) => refusedOr(send("table.ask", { method, path, body, token, lang: drunter.lang })),
    tokens: (name, players) => refusedOr(send("table.tokens", { name, players })),
    export: (name) => refusedOr(send("table.export", { name })),
    restore: (name, kept) => refusedOr(send("table.restore", { name, kept })),
    onChange: (f) => listeners.add(f),
  },
  // Stop whatever the engine is doing: a new engine starts; open games are gone.
  cancel() {
    generation += 1;
    worker.terminate();
    for (const [id, answer] of pending) {
      pending.delete(id);
      answer.reject(new Error("cancelled"));
    }
    start();
    return ready;
  },
};

start();
if (typeof window !== "undefined") window.drunter = drunter;
