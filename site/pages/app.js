// What every page shares: its words (from the gettext catalogs, rendered into the page), the
// language menu, the engine's status line, and the service worker that keeps the site offline.
import { drunter } from "./drunter.js";

const words = JSON.parse(document.getElementById("words").textContent);

function plural(n) {
  const table = words.plural;
  return n < table.length ? table[n] : table[(n % 100) + 100];
}

export function _(msgid) {
  const t = words.messages[msgid];
  if (Array.isArray(t)) return t[plural(1)] || msgid;
  return typeof t === "string" && t ? t : msgid;
}

export function ngettext(singular, pluralText, n) {
  const forms = words.messages[singular];
  const t = Array.isArray(forms) ? forms[plural(n)] : null;
  return t || (n === 1 ? singular : pluralText);
}

// A translated text's {name} placeholders filled.
export function fmt(text, values) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
}

// The same for el() or replaceChildren(): a value may be an element, such as a name isolated by bdi().
export function parts(text, values) {
  return text.split(/(\{\w+\})/).filter((s) => s !== "").map((s) => {
    const k = s.slice(1, -1);
    if (!/^\{\w+\}$/.test(s) || !(k in values)) return s;
    return values[k] instanceof Node ? values[k].cloneNode(true) : String(values[k]);
  });
}

// A player's name as typed, isolated: a right-to-left name cannot reorder the text around it.
export const bdi = (name) => el("bdi", { text: name });

// A text the engine wrote with these players' names in it (the result), each name isolated as bdi() does.
export function isolated(text, names) {
  const list = [...names].sort((a, b) => b.length - a.length);
  if (!list.length) return [text];
  const named = new RegExp(`(${list.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`);
  return text.split(named).filter((x) => x !== "").map((x) => (list.includes(x) ? bdi(x) : x));
}

export const $ = (id) => document.getElementById(id);

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") e.textContent = v;
    else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v === true ? "" : v);
  }
  e.append(...children);
  return e;
}

// A file as the engine is given it: its text, or its bytes (base64) when they are no UTF-8 text, so that
// the engine judges them as drunter does (I002); ``shown``: what the page can show of it.
export async function readFile(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  try {
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    return { shown: text, given: text };
  } catch (e) {
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { shown: new TextDecoder("utf-8").decode(bytes), given: { base64: btoa(binary) } };
  }
}

export function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
  const a = el("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// A record and its board file laid out as drunter would find them: the board file where the
// record's Board tag points (a path relative to the record), the record deep enough for it.
export function layout(name, record, boards, content = record) {
  const files = {};
  const tag = /^\[Board "([^"]*)"\]/m.exec(record);
  const target = tag ? tag[1] : "";
  const up = target.split("/").filter((p) => p === "..").length;
  const folder = Array.from({ length: up }, (_x, i) => `r${i}`).join("/");
  const path = folder ? `${folder}/${name}` : name;
  files[path] = content;
  for (const board of boards) {
    const rel = target.endsWith(board.name) ? target : board.name;
    const parts = [...folder.split("/").filter(Boolean), ...rel.split("/")];
    const out = [];
    for (const p of parts) {
      if (p === "..") out.pop();
      else if (p && p !== ".") out.push(p);
    }
    files[out.join("/")] = board.text;
  }
  return { path, files };
}

// The record and board files of a form: a text area, a file input (and drops on the text area).
export function recordInput(area, input, onName) {
  const boards = [];
  let name = "game.dn";
  let read = null;  // the record as read from its file, while the text shown is left as it was
  async function take(fileList) {
    for (const file of fileList) {
      const { shown, given } = await readFile(file);
      if (/\.toml$/i.test(file.name)) {
        boards.push({ name: file.name, text: given });
      } else {
        area.value = shown;
        read = { shown: area.value, given };
        name = file.name.replace(/[^\w.-]/g, "_").slice(0, 80) || "game.dn";
        if (onName) onName(name);
      }
    }
  }
  const content = () => (read && read.shown === area.value ? read.given : area.value);
  input.addEventListener("change", () => take(input.files));
  area.addEventListener("dragover", (e) => e.preventDefault());
  area.addEventListener("drop", (e) => {
    e.preventDefault();
    take(e.dataTransfer.files);
  });
  return { get name() { return name; }, boards, files: () => layout(name, area.value, boards, content()) };
}

function languageMenu() {
  const menu = $("lang-menu");
  if (!menu) return;
  menu.addEventListener("change", () => {
    try { localStorage.setItem("drunter-lang", menu.value); } catch (e) { /* storage off */ }
    location.href = `../${menu.value}/${document.body.dataset.page}.html${location.hash}`;
  });
}

function engineStatus() {
  const line = $("engine");
  drunter.ready.then(() => {
    line.hidden = true;
    document.body.dataset.readyMs = String(Math.round(performance.now()));  // bench/browser.py reads it
    document.body.classList.add("ready");
  }, () => {
    $("engine-progress").hidden = true;
    $("engine-text").textContent = _("The engine could not start in this browser.");
  });
}

// A new version is announced, never forced: the page reloads only when the user says so.
function serviceWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("../sw.js").then((reg) => {
    const offer = (w) => {
      if (!w || !navigator.serviceWorker.controller) return;
      $("update").hidden = false;
      $("update-now").onclick = () => w.postMessage("take-over");
    };
    offer(reg.waiting);
    reg.addEventListener("updatefound", () => {
      const w = reg.installing;
      w.addEventListener("statechange", () => { if (w.state === "installed") offer(w); });
    });
  }, () => { /* no offline copy: the site still works online */ });
  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (!reloading && !$("update").hidden) {
      reloading = true;
      location.reload();
    }
  });
}

languageMenu();
engineStatus();
serviceWorker();
export { drunter };
