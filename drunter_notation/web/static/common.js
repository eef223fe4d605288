// drunter play: what the host page, the seat page and the seats panel share.
"use strict";
window.DP = (function () {
  // The words of this page's language, from the server's catalogs (web/language.py).
  const words = JSON.parse(document.getElementById("words").textContent);
  const plural = (n) => words.plural[n < words.plural.length ? n : 100 + (n % 100)];

  function _(msgid) {
    const t = words.messages[msgid];
    if (Array.isArray(t)) return t[plural(1)] || msgid;  // a msgid that is also a plural's singular
    return typeof t === "string" && t ? t : msgid;
  }

  function ngettext(singular, pluralText, n) {
    const forms = words.messages[singular];
    const t = Array.isArray(forms) ? forms[plural(n)] : null;
    return t || (n === 1 ? singular : pluralText);
  }

  // A translated text's {name} placeholders filled: fmt gives a string, parts a list for el() or
  // replaceChildren(), so a value may be an element (a chip, a bold name) wherever the language puts it.
  function parts(text, values) {
    const used = new Set();  // an element named twice ({player} ... {player}) is put in twice
    return text.split(/(\{[A-Za-z_]\w*\})/).filter((s) => s !== "").map((s) => {
      const k = s.startsWith("{") && s.endsWith("}") ? s.slice(1, -1) : null;
      if (k === null || !(k in values)) return s;
      if (!(values[k] instanceof Node)) return String(values[k]);
      if (used.has(k)) return values[k].cloneNode(true);
      used.add(k);
      return values[k];
    });
  }
  const fmt = (text, values) => parts(text, values).join("");

  // A citation as the JSON carries it (data: the ruleset's label and the source's place), worded in the
  // page's language as errors.said_citation words it (web/language.py sends the shipped rulesets' ones).
  const citation = (c) => (c && Object.prototype.hasOwnProperty.call(words.citations || {}, c) ? words.citations[c] : c);

  // Building and goal cards by their DN names, as a player reads them.
  const CARD_NAMES = {museum: _("museum"), tavern: _("tavern"), school: _("school"), townhall: _("townhall"),
    firehouse: _("firehouse"), church: _("church"), "all-threes": _("all-threes"), "all-fours": _("all-fours"),
    "lowest-of-each": _("lowest-of-each"), "one-each": _("one-each")};
  const cardName = (c) => (Object.prototype.hasOwnProperty.call(CARD_NAMES, c) ? CARD_NAMES[c] : c);

  // A player's or a game's name as typed, isolated (<bdi>): a right-to-left name cannot reorder the text around it.
  const who = (name) => el("bdi", {text: name});
  // Names in a row, each isolated from the next.
  const names = (list) => el("span", {}, ...list.flatMap((n, i) => (i ? [", ", who(n)] : [who(n)])));
  // A text the server wrote with the game's players' names in it (a DN line, a card of a tally, the result), for
  // el() or replaceChildren(): each name isolated as who() isolates it.
  function isolated(text, game) {
    const list = game ? game.players.map((p) => p.name).sort((a, b) => b.length - a.length) : [];
    if (!list.length) return [text];
    const named = new RegExp("(" + list.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|") + ")");
    return text.split(named).filter((x) => x !== "").map((x) => (list.includes(x) ? who(x) : x));
  }

  // The page's parts are drawn again on every change: when the element that had the focus is gone, the one
  // drawn in its place gets it (the same id, or the same data-* values in the same box), else the box's first
  // button, so a player on the keyboard keeps their place. work may be async.
  function keepFocus(work) {
    const had = document.activeElement;
    const box = had && had !== document.body && had.parentElement ? had.parentElement.closest("[id]") : null;
    const data = had ? [...had.attributes].filter((a) => a.name.startsWith("data-")) : [];
    const same = had && had.id ? "#" + CSS.escape(had.id)
      : had ? had.tagName.toLowerCase() + data.map((a) => "[" + a.name + '="' + CSS.escape(a.value) + '"]').join("") : null;
    const back = () => {
      if (!box || !box.isConnected || (document.activeElement && document.activeElement !== document.body)) return;
      const next = (data.length || had.id ? box.querySelector(same) : null) || box.querySelector("button:not([disabled])");
      if (next) next.focus();
    };
    const out = work();
    if (out && typeof out.then === "function") return out.finally(back);
    back();
    return out;
  }

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "text") e.textContent = v;
      else if (k === "on") e.addEventListener("click", (ev) => keepFocus(() => v(ev)));
      else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids) e.append(kid);
    return e;
  }

  // A JSON API call; never throws: {ok, status, data} with data.error on a problem.
  async function api(method, path, body, headers) {
    const init = {method, headers: Object.assign({"X-Drunter-Lang": words.lang}, headers || {})};
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let r;
    try {
      r = await fetch(path, init);
    } catch (e) {
      connection(false);
      return {ok: false, status: 0, data: {error: _("the server does not answer: is drunter play still running?")}};
    }
    let data;
    try { data = await r.json(); } catch (e) { data = {error: fmt(_("the server answered {status}"), {status: r.status})}; }
    if (!r.ok && data && data.code) data.error = worded(data);
    return {ok: r.ok, status: r.status, data};
  }

  // Players' names are data, never keys of a plain object (a player may be called "constructor",
  // "__proto__" or "toString"): a map keyed by names is dict(), one read from the server is read with own().
  const dict = () => Object.create(null);
  const own = (map, key) => (map && Object.prototype.hasOwnProperty.call(map, key) ? map[key] : undefined);

  // A problem the server names by a stable code: worded here, from the page's own catalog, with its data.
  const PROBLEMS = {
    "bot-spec": (d) => fmt(_("bots: {spec} is no bot for {player}: give easy, medium, strong, greedy, cautious, random or ismcts with settings like ismcts:sims=400"), d),
    "bot-budget": (d) => fmt(_("bots: the bot of {player}, {spec}, thinks longer than a table allows: at most sims={sims} and time={time}"), d),
    "live-bot-tables": (d) => fmt(_("{count} games have bots playing already, the most a table runs at once: pause or end one first"), {count: d.most}),
    "too-many-games": (d) => fmt(_("the folder holds {most} games, the most a table keeps: delete games that are over (they go to the archive folder) or start drunter play in another folder"), d),
    "hint-busy": () => _("the coach is still thinking about your last question; wait for its answer"),
    "coach-busy": (d) => fmt(ngettext("the coach has {most} question waiting from all tables: ask again in a moment",
      "the coach has {most} questions waiting from all tables: ask again in a moment", d.most), d),
    "not-found": (d) => fmt(_("no page and no API route at {path}"), d),
    "method-not-allowed": (d) => fmt(_("{path} does not take {method}"), d),
  };
  function worded(answer) {
    const word = Object.prototype.hasOwnProperty.call(PROBLEMS, answer.code) ? PROBLEMS[answer.code] : null;
    return word && answer.data ? word(answer.data) : answer.error;
  }

  const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

  // The board's SVG (drawn and escaped by the server); never throws: {ok, status, text}, as api().
  async function board(path, headers) {
    try {
      const r = await fetch(path, {headers: Object.assign({"X-Drunter-Lang": words.lang}, headers || {})});  // its titles in the page's words
      return {ok: r.ok, status: r.status, text: r.ok ? await r.text() : ""};
    } catch (e) {
      connection(false);
      return {ok: false, status: 0, text: ""};
    }
  }

  // The game's pushed changes (Server-Sent Events read with fetch, as EventSource cannot send the
  // seat's header): onChange() on each, reconnecting after a drop; a lost connection is shown
  // (connection()) until the stream is back. While the server has no stream to spare (503), the
  // page fetches its view every 3 s instead. Returns the function that stops it.
  function listen(path, headers, onChange) {
    let stopped = false;
    let ctrl = null;
    (async function run() {
      while (!stopped) {
        try {
          ctrl = new AbortController();
          const r = await fetch(path, {headers: headers || {}, signal: ctrl.signal});
          if (r.status === 503) {
            connection(true);
            onChange();
            await sleep(3000);
            continue;
          }
          if (r.ok && r.body) {
            connection(true);
            const reader = r.body.getReader();
            const dec = new TextDecoder();
            let buf = "";
            for (;;) {
              const {value, done} = await reader.read();
              if (done) break;  // ended by the server: asked again at once (a server gone fails the fetch)
              buf += dec.decode(value, {stream: true});
              let i;
              while ((i = buf.indexOf("\n\n")) >= 0) {
                const chunk = buf.slice(0, i);
                buf = buf.slice(i + 2);
                if (/^event: change$/m.test(chunk)) onChange();
              }
            }
            await sleep(200);
            continue;
          }
        } catch (e) { /* dropped: try again below */ }
        if (!stopped) { connection(false); await sleep(1000); }
      }
    })();
    return () => { stopped = true; if (ctrl) ctrl.abort(); };
  }

  // The connection to the server, shown while it is lost and for a moment once it is back.
  let lost = false, backTimer = null;
  function connection(up) {
    let line = document.getElementById("connection");
    if (!line) {
      line = el("p", {id: "connection", class: "msg connection", role: "status", hidden: true});
      (document.querySelector("main") || document.body).prepend(line);
    }
    if (!up) {
      lost = true;
      clearTimeout(backTimer);
      line.className = "msg bad connection";
      line.textContent = _("Connection lost: the server does not answer. Trying again…");
      line.hidden = false;
    } else if (lost) {
      lost = false;
      line.className = "msg good connection";
      line.textContent = _("Connected again.");
      line.hidden = false;
      backTimer = setTimeout(() => { line.hidden = true; }, 4000);
    }
  }

  function chip(p) {
    const c = el("span", {class: "chip", text: p.tag});
    c.style.background = p.colour;
    return c;
  }

  // A tally from the engine (count_json on the server) in the game shown: its card lines, its sum, the rule that decides it.
  function count(d, final, game) {
    return el("div", {class: "tally"},
      el("div", {}, ...d.lines.map((l) => el("div", {}, ...isolated(l, game)))),
      el("div", {class: "sum", text: fmt(final
        ? (d.accepted ? _("{sums} → {yes}:{no}, accepted: the tile stays") : _("{sums} → {yes}:{no}, rejected: the tile goes back to the hand"))
        : (d.accepted ? _("{sums} → {yes}:{no}, so far accepted: the tile stays") : _("{sums} → {yes}:{no}, so far rejected: the tile goes back to the hand")),
      {sums: d.arithmetic, yes: d.yes, no: d.no})}),
      ruleLine(d));
  }

  // The rule that decides a count (B5) under the game's ruleset, with its place in the booklet.
  function ruleLine(d) {
    return el("div", {class: "muted", text: fmt(_("Rule {rule} {title}: {option} ({citation})"),
      {rule: d.rule, title: d.title, option: d.option_text, citation: citation(d.citation)})});
  }

  // The vote of the turn just played, turned over: shown in box until the next turn.
  function turnedOver(box, state) {
    const d = state.last_vote;
    box.hidden = !d || !!state.vote || d.turn !== state.turn - 1;
    if (!box.hidden) box.replaceChildren(el("h2", {}, ...parts(_("Turned over: {move}"), {move: el("span", {}, ...isolated(d.dn, state))})),
      count(d, true, state));
  }

  // The language menu: the choice kept on this device (lang.js reads it), the page asked for again in it.
  const menu = document.getElementById("lang-menu");
  if (menu) {
    menu.addEventListener("change", () => {
      try { localStorage.setItem("drunter-lang", menu.value); } catch (e) { /* kept for this page only */ }
      const url = new URL(location.href);
      url.searchParams.set("lang", menu.value);
      location.replace(url.href);
    });
  }

  // The squares where a tile may start, from the engine's legal moves, as buttons in box: the board played
  // from the keyboard. Each does what a tap on its square does (tap(square)); focused, it marks (mark(squares)) where
  // the tile would lie.
  function places(box, tile, legal, tap, mark) {
    const moves = legal.filter((m) => m.tile === tile);
    const anchors = [...new Set(moves.map((m) => m.squares[0]))];
    if (!anchors.length) { box.replaceChildren(el("span", {class: "muted", text: fmt(_("{tile} has no legal placement now."), {tile})})); return; }
    box.replaceChildren(el("span", {class: "muted", id: "places-label", text: fmt(_("Squares where {tile} can start:"), {tile})}),
      el("span", {class: "places", role: "group", "aria-labelledby": "places-label"}, ...anchors.map((sq) => {
        const feet = moves.filter((m) => m.squares[0] === sq).flatMap((m) => m.squares);
        const b = el("button", {type: "button", class: "place", "data-sq": sq, text: sq, on: () => tap(sq)});
        b.addEventListener("focus", () => mark(feet));
        b.addEventListener("mouseenter", () => mark(feet));
        return b;
      })));
  }

  return {el, api, board, listen, connection, chip, count, ruleLine, turnedOver, _, ngettext, fmt, parts, citation, cardName, dict, own,
    who, names, isolated, keepFocus, places, lang: words.lang};
})();
