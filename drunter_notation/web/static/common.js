// drunter play: what the host page, the seat page and the seats panel share.
"use strict";
window.DP = (function () {
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "text") e.textContent = v;
      else if (k === "on") e.addEventListener("click", v);
      else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids) e.append(kid);
    return e;
  }

  // A JSON API call; never throws: {ok, status, data} with data.error on a problem.
  async function api(method, path, body, headers) {
    const init = {method, headers: Object.assign({}, headers || {})};
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let r;
    try {
      r = await fetch(path, init);
    } catch (e) {
      return {ok: false, status: 0, data: {error: "the server does not answer: is drunter play still running?"}};
    }
    let data;
    try { data = await r.json(); } catch (e) { data = {error: "the server answered " + r.status}; }
    return {ok: r.ok, status: r.status, data};
  }

  const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

  // The game's pushed changes (Server-Sent Events read with fetch, as EventSource cannot send the
  // seat's header): onChange() on each, reconnecting after a drop. Returns the function that stops it.
  function listen(path, headers, onChange) {
    let stopped = false;
    let ctrl = null;
    (async function run() {
      while (!stopped) {
        try {
          ctrl = new AbortController();
          const r = await fetch(path, {headers: headers || {}, signal: ctrl.signal});
          if (r.ok && r.body) {
            const reader = r.body.getReader();
            const dec = new TextDecoder();
            let buf = "";
            for (;;) {
              const {value, done} = await reader.read();
              if (done) break;
              buf += dec.decode(value, {stream: true});
              let i;
              while ((i = buf.indexOf("\n\n")) >= 0) {
                const chunk = buf.slice(0, i);
                buf = buf.slice(i + 2);
                if (/^event: change$/m.test(chunk)) onChange();
              }
            }
          }
        } catch (e) { /* dropped: try again below */ }
        if (!stopped) await sleep(1000);
      }
    })();
    return () => { stopped = true; if (ctrl) ctrl.abort(); };
  }

  function chip(p) {
    const c = el("span", {class: "chip", text: p.tag});
    c.style.background = p.colour;
    return c;
  }

  // A tally from the engine (count_json on the server): its card lines, its sum, the rule that decides it.
  function count(d, final) {
    return el("div", {class: "tally"},
      el("div", {}, ...d.lines.map((l) => el("div", {text: l}))),
      el("div", {class: "sum", text: d.arithmetic + " → " + d.yes + ":" + d.no + (final ? ", " : ", so far ") +
        (d.accepted ? "accepted: the tile stays" : "rejected: the tile goes back to the hand")}),
      el("div", {class: "muted", text: "Rule " + d.rule + " " + d.title + ": " + d.option + " (" + d.citation + ")"}));
  }

  // The vote of the turn just played, turned over: shown in box until the next turn.
  function turnedOver(box, state) {
    const d = state.last_vote;
    box.hidden = !d || !!state.vote || d.turn !== state.turn - 1;
    if (!box.hidden) box.replaceChildren(el("h2", {text: "Turned over: " + d.dn}), count(d, true));
  }

  return {el, api, listen, chip, count, turnedOver};
})();
