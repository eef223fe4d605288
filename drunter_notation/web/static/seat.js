// drunter play: one player's seat, on their own phone or passed round one device. It calls only
// the seat's API (/api/seat/NAME, docs/play.md) with the seat's token, which stays in the link's
// fragment; every judgement comes from the server's engine.
"use strict";
(function () {
  const {el, api, listen, chip, count} = window.DP;
  const $ = (id) => document.getElementById(id);
  const name = decodeURIComponent(location.pathname.split("/").pop());
  const headers = {"X-Drunter-Seat": location.hash.slice(1)};
  const base = "/api/seat/" + encodeURIComponent(name);
  let state = null;
  let boardRev = null;
  let selected = null;   // the tile chosen in the hand
  let laying = [];       // the vote cards picked, not laid yet
  let loading = false, again = false;

  function say(text, kind) {
    $("message").textContent = text || "";
    $("message").className = "msg" + (kind ? " " + kind : "");
  }

  // pass and play: the seat starts covered, and "Hide" covers it again
  function cover(on) {
    $("cover").hidden = !on;
    document.body.classList.toggle("covered", on);
    if (on) showCard(false);
  }
  $("cover-show").addEventListener("click", () => cover(false));
  $("hide").addEventListener("click", () => cover(true));
  if (new URLSearchParams(location.search).has("cover")) cover(true);

  function showCard(on) {
    $("card-box").hidden = !on;
    $("card-toggle").setAttribute("aria-pressed", String(on));
    $("card-toggle").textContent = on ? "Tap to hide your card" : "Tap to see your card";
  }
  $("card-toggle").addEventListener("click", () => showCard($("card-box").hidden));

  async function refresh() {
    if (loading) { again = true; return; }
    loading = true;
    try {
      const r = await api("GET", base, undefined, headers);
      if (r.ok) await show(r.data); else say(r.data.error, "bad");
    } finally {
      loading = false;
    }
    if (again) { again = false; refresh(); }
  }

  async function show(s) {
    if (s.rev !== boardRev) {
      const r = await fetch(base + "/board.svg", {headers});
      if (r.ok) { $("board-box").innerHTML = await r.text(); boardRev = s.rev; }  // drawn and escaped by the server
      selected = null;
    }
    state = s;
    const me = s.me.name;
    document.title = me + " · drunter play";
    $("who").textContent = me + "'s seat";
    $("where").textContent = "· " + s.title;
    $("cover-text").textContent = "This is " + me + "'s seat. Hand the device to " + me + ", then tap.";
    turnLine();
    card();
    vote();
    choice();
    window.DP.turnedOver($("last-vote"), s);
    result();
    hand();
    const voted = s.vote && s.legal.find((m) => m.move === s.vote.move);
    marks(voted ? voted.squares : null);  // the tile put to the vote, marked where it would lie
    $("options").replaceChildren();
    $("pass").hidden = !(s.me.to_move && s.can_pass && !s.vote);
    $("my-cards").textContent = mine().cards.join(" ") || "none left";
    window.Bots.seat(s, base, headers);
  }

  const mine = () => state.players[state.me.seat];
  const player = (n) => state.players.find((p) => p.name === n);

  function turnLine() {
    const s = state;
    const line = $("turn-line");
    if (s.over) line.replaceChildren("Game over after turn " + (s.turn - 1) + ".");
    else if (s.choice_due) line.replaceChildren("Turn " + s.turn + ": the first track is finished — choose your goal.");
    else if (s.vote) line.replaceChildren("Turn " + s.turn + ": vote on " + s.vote.move + ".");
    else if (s.me.to_move) line.replaceChildren(el("b", {id: "your-turn", text: "Your turn"}), " (turn " + s.turn + ").");
    else line.replaceChildren("Turn " + s.turn + ": ", chip(player(s.to_move)), " " + s.to_move + " to move.");
  }

  function card() {
    const m = state.me;
    const box = $("card-box");
    if (m.goals) {
      box.replaceChildren(el("p", {}, "Your goal cards: ", el("b", {class: "my-card", text: m.goals.join(" and ")})),
        m.kept ? el("p", {}, "You keep ", el("b", {text: m.kept}), " (shown at the end).") : "");
    } else if (m.card) {
      box.replaceChildren(el("p", {}, "Your building card: ", el("b", {class: "my-card", text: m.card})));
    } else {
      box.replaceChildren(el("p", {class: "muted", text: "The app does not know your card: it was dealt at the table."}));
    }
  }

  function hand() {
    const box = $("hand");
    box.replaceChildren();
    const tiles = mine().tiles;
    if (!tiles) { box.append(el("span", {class: "muted", text: "Your tiles are not recorded."})); return; }
    box.append(el("span", {class: "muted", text: "Your tiles: "}));
    const active = state.me.to_move && !state.over && !state.choice_due && !state.vote;
    for (const [t, n] of tiles) {
      const legal = active && state.legal.some((m) => m.tile === t);
      box.append(el("button", {type: "button", class: "tile kind-" + t[0] + (legal ? " has-legal" : ""),
        "data-tile": t, "aria-pressed": String(t === selected), disabled: !active,
        text: n > 1 ? t + " ×" + n : t, on: () => { selected = t; $("options").replaceChildren(); hand(); marks(); }}));
    }
  }

  function marks(footprint) {
    const anchors = new Set(selected ? state.legal.filter((m) => m.tile === selected).map((m) => m.squares[0]) : []);
    const feet = new Set(footprint || []);
    document.querySelectorAll("#board rect.hit").forEach((r) => {
      r.classList.toggle("legal", anchors.has(r.dataset.sq));
      r.classList.toggle("foot", feet.has(r.dataset.sq));
    });
  }

  document.addEventListener("click", (ev) => {
    const hit = ev.target.closest && ev.target.closest("#board rect.hit");
    if (!hit || !state || !state.me.to_move || state.vote || state.over) return;
    if (!selected) { say("Choose one of your tiles first.", "info"); return; }
    const moves = state.legal.filter((m) => m.tile === selected && m.squares[0] === hit.dataset.sq);
    if (!moves.length) { say(selected + " cannot start on " + hit.dataset.sq + ": the lit squares are where it can.", "info"); return; }
    if (moves.length === 1) { go(moves[0]); return; }
    const box = $("options");
    box.replaceChildren(el("span", {class: "muted", text: "Which way? "}),
      ...moves.map((m) => el("button", {type: "button", class: "option", "data-move": m.move,
        text: m.move + (m.needs_vote ? " (vote)" : ""), on: () => go(m)})));
    marks(moves.flatMap((m) => m.squares));
  });

  async function post(path, body) {
    const r = await api("POST", base + path, body, headers);
    if (r.ok) { say(""); await show(r.data); } else say(r.data.error, "bad");
    return r;
  }

  async function go(m) {
    if (m.needs_vote) { await post("/ballot", {move: m.move}); return; }
    const r = await post("/moves", {move: m.move, turn: state.turn});
    if (r.ok) say("Played: " + m.move, "good");
  }
  $("pass").addEventListener("click", () => post("/moves", {move: "pass", turn: state.turn}));

  // -- the secret ballot (B2: face down; all turned over together; B4: jokers declared after) --------
  function vote() {
    const v = state.vote;
    const box = $("vote");
    box.hidden = !v;
    if (!v) { laying = []; return; }
    const me = state.me.name;
    box.replaceChildren(el("h2", {text: "Vote on " + v.move + ": it covers a toilet"}));
    if (v.problem) box.append(el("p", {class: "msg bad", text: v.problem + " — lay again."}));
    if (!v.shown) {
      box.append(el("ul", {class: "voters"}, ...v.order.map((p) => el("li", {"data-player": p,
        class: v.laid.includes(p) ? "laid" : "waiting", text: p + (v.laid.includes(p) ? ": laid, face down" : ": not yet")}))));
      if (v.mine) {
        box.append(el("p", {}, "You laid ", el("b", {id: "my-ballot", text: v.mine.join(" ")}), " face down."),
          el("button", {type: "button", id: "take-back", text: "Take my cards back",
            on: () => post("/lay", {cards: null})}));
      } else {
        const cards = [...new Set(mine().cards)];
        const row = el("div", {class: "ballot"});
        for (const c of cards) {
          row.append(el("button", {type: "button", class: "card", "data-card": c, "aria-pressed": String(laying.includes(c)),
            text: c, on: () => { laying = laying.includes(c) ? laying.filter((x) => x !== c) : laying.concat([c]); vote(); }}));
        }
        box.append(el("p", {class: "muted", text: "Pick one or more cards, then lay them face down. Nobody sees them until everyone has laid."}),
          row, el("button", {type: "button", id: "lay", disabled: !laying.length, text: "Lay face down",
            on: async () => { const cards = laying; laying = []; await post("/lay", {cards}); }}));
      }
      if (me === v.placer) box.append(el("button", {type: "button", id: "call-off", text: "Take the tile back (call the vote off)",
        on: () => post("/ballot/cancel", {})}));
      return;
    }
    box.append(el("p", {class: "muted", text: "Every card is turned over."}), count(v.count, false));
    if (v.jein_due.includes(me)) {
      box.append(el("div", {class: "joker"}, el("b", {text: "Your JEIN counts for "}),
        ...["yes", "no"].map((side) => el("button", {type: "button", class: "side", "data-side": side, text: side,
          on: () => post("/jein", {side})}))));
    } else if (v.jein_due.length) {
      box.append(el("p", {class: "muted", text: "Waiting for " + v.jein_due.join(", ") + " to declare their JEIN."}));
    }
  }

  // -- the expert choice (X2): kept secret until the end -----------------------------------------
  function choice() {
    const box = $("choose");
    const m = state.me;
    box.hidden = !(state.choice_due && m.goals);
    if (box.hidden) return;
    box.replaceChildren(el("h2", {text: "The first track is finished: choose your goal"}));
    if (m.kept) {
      const waiting = state.players.map((p) => p.name).filter((p) => !state.chosen.includes(p));
      box.append(el("p", {text: "You keep " + m.kept + ". Waiting for " + waiting.join(", ") + "."}));
      return;
    }
    box.append(...m.goals.map((g) => el("button", {type: "button", class: "keep", "data-goal": g, text: "Keep " + g,
      on: () => post("/choose", {keep: g})})));
  }

  function result() {
    const res = state.result;
    const box = $("result");
    box.hidden = !res;
    if (!res) return;
    box.replaceChildren(el("h2", {text: "Result"}), el("p", {class: "winner", id: "winner", text: res.explanation}),
      el("table", {class: "standings"}, el("tbody", {}, ...res.standings.map((s) => el("tr", {"data-player": s.player},
        el("td", {text: String(s.rank)}), el("td", {text: s.player}), el("td", {text: s.card}),
        el("td", {class: "score", text: String(s.score)}))))));
  }

  if (!headers["X-Drunter-Seat"]) say("This link has no seat in it: open your seat's link from the host page.", "bad");
  else listen(base + "/events", headers, refresh);
})();
