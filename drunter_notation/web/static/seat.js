// drunter play: one player's seat, on their own phone or passed round one device. It calls only
// the seat's API (/api/seat/NAME, docs/play.md) with the seat's token, which stays in the link's
// fragment; every judgement comes from the server's engine.
"use strict";
(function () {
  const {el, api, listen, chip, count, _, fmt, parts, cardName, who, names, isolated, keepFocus} = window.DP;
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
    $("message").replaceChildren(...isolated(text || "", state));
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
    $("card-toggle").textContent = on ? _("Tap to hide your card") : _("Tap to see your card");
  }
  $("card-toggle").addEventListener("click", () => showCard($("card-box").hidden));

  async function refresh() {
    if (loading) { again = true; return; }
    loading = true;
    try {
      const r = await api("GET", base, undefined, headers);
      if (r.ok) await keepFocus(() => show(r.data)); else say(r.data.error, "bad");
    } finally {
      loading = false;
    }
    if (again) { again = false; refresh(); }
  }

  async function show(s) {
    if (s.rev !== boardRev) {
      const r = await DP.board(base + "/board.svg", headers);
      if (r.ok) { $("board-box").innerHTML = r.text; boardRev = s.rev; }  // drawn and escaped by the server
      selected = null;
    }
    const opens = $("vote").hidden && !!s.vote;
    state = s;
    const me = s.me.name;
    document.title = "\u2068" + me + "\u2069 · drunter play";  // first strong isolate ... pop: a title holds no <bdi>
    $("who").replaceChildren(...parts(_("{player}'s seat"), {player: who(me)}));
    $("where").replaceChildren("· ", who(s.title));
    $("cover-text").replaceChildren(...parts(_("This is {player}'s seat. Hand the device to {player}, then tap."), {player: who(me)}));
    turnLine();
    card();
    vote();
    choice();
    window.DP.turnedOver($("last-vote"), s);
    result();
    hand();
    const voted = s.vote && s.legal.find((m) => m.move === s.vote.move);
    marks(voted ? voted.squares : null);  // the tile put to the vote, marked where it would lie
    options();
    $("pass").hidden = !(s.me.to_move && s.can_pass && !s.vote);
    $("my-cards").textContent = mine().cards.join(" ") || _("none left");
    window.Bots.seat(s, base, headers, (move) => { const m = s.legal.find((x) => x.move === move); if (m) go(m); });
    // a vote just opened, the focus nowhere (its square's button is gone): it goes on to the vote's first button
    const first = $("vote").querySelector("button");
    if (opens && first && document.activeElement === document.body) first.focus();
  }

  const mine = () => state.players[state.me.seat];
  const player = (n) => state.players.find((p) => p.name === n);

  function turnLine() {
    const s = state;
    const line = $("turn-line");
    if (s.over) line.replaceChildren(fmt(_("Game over after turn {turn}."), {turn: s.turn - 1}));
    else if (s.choice_due) line.replaceChildren(fmt(_("Turn {turn}: the first track is finished — choose your goal."), {turn: s.turn}));
    else if (s.vote) line.replaceChildren(fmt(_("Turn {turn}: vote on {move}."), {turn: s.turn, move: s.vote.move}));
    else if (s.me.to_move) line.replaceChildren(...parts(_("{your_turn} (turn {turn})."), {your_turn: el("b", {id: "your-turn", text: _("Your turn")}), turn: s.turn}));
    else line.replaceChildren(...parts(_("Turn {turn}: {chip} {player} to move."), {turn: s.turn, chip: chip(player(s.to_move)), player: who(s.to_move)}));
  }

  function card() {
    const m = state.me;
    const box = $("card-box");
    if (m.goals) {
      box.replaceChildren(el("p", {}, ...parts(_("Your goal cards: {cards}"), {cards: el("b", {class: "my-card",
        text: fmt(_("{first} and {second}"), {first: cardName(m.goals[0]), second: cardName(m.goals[1])})})})),
        m.kept ? el("p", {}, ...parts(_("You keep {card} (shown at the end)."), {card: el("b", {text: cardName(m.kept)})})) : "");
    } else if (m.card) {
      box.replaceChildren(el("p", {}, ...parts(_("Your building card: {card}"), {card: el("b", {class: "my-card", text: cardName(m.card)})})));
    } else {
      box.replaceChildren(el("p", {class: "muted", text: _("The app does not know your card: it was dealt at the table.")}));
    }
  }

  const active = () => state.me.to_move && !state.over && !state.choice_due && !state.vote;

  function hand() {
    const box = $("hand");
    box.replaceChildren();
    const tiles = mine().tiles;
    if (!tiles) { box.append(el("span", {class: "muted", text: _("Your tiles are not recorded.")})); return; }
    box.append(el("span", {class: "muted", text: _("Your tiles: ")}));
    for (const [t, n] of tiles) {
      const legal = active() && state.legal.some((m) => m.tile === t);
      box.append(el("button", {type: "button", class: "tile kind-" + t[0] + (legal ? " has-legal" : ""),
        "data-tile": t, "aria-pressed": String(t === selected), disabled: !active(),
        text: n > 1 ? t + " ×" + n : t, on: () => { selected = t; options(); hand(); marks(); }}));
    }
  }

  // the squares the chosen tile may start on, as buttons (the board from the keyboard)
  function options() {
    if (selected && active()) DP.places($("options"), selected, state.legal, tap, marks); else $("options").replaceChildren();
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
    if (hit) tap(hit.dataset.sq);
  });

  function tap(sq) {
    if (!state || !state.me.to_move || state.vote || state.over) return;
    if (!selected) { say(_("Choose one of your tiles first."), "info"); return; }
    const moves = state.legal.filter((m) => m.tile === selected && m.squares[0] === sq);
    if (!moves.length) { say(fmt(_("{tile} cannot start on {square}: the lit squares are where it can."), {tile: selected, square: sq}), "info"); return; }
    if (moves.length === 1) { go(moves[0]); return; }
    const box = $("options");
    box.replaceChildren(el("span", {class: "muted", text: _("Which way? ")}), ...moves.map((m) => {
      const b = el("button", {type: "button", class: "option", "data-move": m.move,
        text: m.needs_vote ? fmt(_("{move} (vote)"), {move: m.move}) : m.move, on: () => go(m)});
      b.addEventListener("focus", () => marks(m.squares));
      return b;
    }));
    marks(moves.flatMap((m) => m.squares));
  }

  async function post(path, body) {
    const r = await api("POST", base + path, body, headers);
    if (r.ok) { say(""); await show(r.data); } else say(r.data.error, "bad");
    return r;
  }

  async function go(m) {
    if (m.needs_vote) { await post("/ballot", {move: m.move}); return; }
    const r = await post("/moves", {move: m.move, turn: state.turn});
    if (r.ok) say(fmt(_("Played: {move}"), {move: m.move}), "good");
  }
  $("pass").addEventListener("click", () => post("/moves", {move: "pass", turn: state.turn}));

  // -- the secret ballot (B2: face down; all turned over together; B4: jokers declared after) --------
  function vote() {
    const v = state.vote;
    const box = $("vote");
    box.hidden = !v;
    if (!v) { laying = []; return; }
    const me = state.me.name;
    box.replaceChildren(el("h2", {text: fmt(_("Vote on {move}: it covers a toilet"), {move: v.move})}));
    if (v.problem) box.append(el("p", {class: "msg bad", text: fmt(_("{problem} — lay again."), {problem: v.problem})}));
    if (!v.shown) {
      box.append(el("ul", {class: "voters"}, ...v.order.map((p) => el("li", {"data-player": p,
        class: v.laid.includes(p) ? "laid" : "waiting"},
        ...parts(v.laid.includes(p) ? _("{player}: laid, face down") : _("{player}: not yet"), {player: who(p)})))));
      if (v.mine) {
        box.append(el("p", {}, ...parts(_("You laid {cards} face down."), {cards: el("b", {id: "my-ballot", text: v.mine.join(" ")})})),
          el("button", {type: "button", id: "take-back", text: _("Take my cards back"),
            on: () => post("/lay", {cards: null})}));
      } else {
        const cards = [...new Set(mine().cards)];
        const row = el("div", {class: "ballot"});
        for (const c of cards) {
          row.append(el("button", {type: "button", class: "card", "data-card": c, "aria-pressed": String(laying.includes(c)),
            text: c, on: () => { laying = laying.includes(c) ? laying.filter((x) => x !== c) : laying.concat([c]); vote(); }}));
        }
        box.append(el("p", {class: "muted", text: _("Pick one or more cards, then lay them face down. Nobody sees them until everyone has laid.")}),
          row, el("button", {type: "button", id: "lay", disabled: !laying.length, text: _("Lay face down"),
            on: async () => { const cards = laying; laying = []; await post("/lay", {cards}); }}));
      }
      if (me === v.placer) box.append(el("button", {type: "button", id: "call-off", text: _("Take the tile back (call the vote off)"),
        on: () => post("/ballot/cancel", {})}));
      return;
    }
    box.append(el("p", {class: "muted", text: _("Every card is turned over.")}), count(v.count, false, state));
    if (v.jein_due.includes(me)) {
      box.append(el("div", {class: "joker"}, el("b", {text: _("Your JEIN counts for ")}),
        ...["yes", "no"].map((side) => el("button", {type: "button", class: "side", "data-side": side, text: side === "yes" ? _("yes") : _("no"),
          on: () => post("/jein", {side})}))));
    } else if (v.jein_due.length) {
      box.append(el("p", {class: "muted"}, ...parts(_("Waiting for {players} to declare their JEIN."), {players: names(v.jein_due)})));
    }
  }

  // -- the expert choice (X2): kept secret until the end -----------------------------------------
  function choice() {
    const box = $("choose");
    const m = state.me;
    box.hidden = !(state.choice_due && m.goals);
    if (box.hidden) return;
    box.replaceChildren(el("h2", {text: _("The first track is finished: choose your goal")}));
    if (m.kept) {
      const waiting = state.players.map((p) => p.name).filter((p) => !state.chosen.includes(p));
      box.append(el("p", {}, ...parts(_("You keep {card}. Waiting for {players}."), {card: cardName(m.kept), players: names(waiting)})));
      return;
    }
    box.append(...m.goals.map((g) => el("button", {type: "button", class: "keep", "data-goal": g, text: fmt(_("Keep {card}"), {card: cardName(g)}),
      on: () => post("/choose", {keep: g})})));
  }

  function result() {
    const res = state.result;
    const box = $("result");
    box.hidden = !res;
    if (!res) return;
    box.replaceChildren(el("h2", {text: _("Result")}), el("p", {class: "winner", id: "winner"}, ...isolated(res.explanation, state)),
      el("table", {class: "standings"}, el("tbody", {}, ...res.standings.map((s) => el("tr", {"data-player": s.player},
        el("td", {text: String(s.rank)}), el("td", {}, who(s.player)), el("td", {text: cardName(s.card)}),
        el("td", {class: "score", text: String(s.score)}))))));
  }

  if (!headers["X-Drunter-Seat"]) say(_("This link has no seat in it: open your seat's link from the host page."), "bad");
  else listen(base + "/events", headers, refresh);
})();
