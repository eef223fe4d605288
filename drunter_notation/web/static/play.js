// drunter play: the page. It only calls the JSON API (docs/play.md); every judgement
// (legal squares, votes, scores) comes from the server's engine. Text from the
// server is set with textContent; the one HTML it inserts is the board SVG the
// server draws (names escaped there).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let state = null;      // the game as GET /api/games/{name} gives it
  let gameName = null;
  let selected = null;   // the tile chosen in the hand, e.g. "S2"
  let pending = null;    // an anchor tapped that is not legal: the next tap names the end
  let voting = null;     // the legal move put to the vote
  let ballot = DP.dict();  // player -> cards laid
  let jein = DP.dict();    // player -> "yes"/"no"
  let stopListening = () => {};

  const {el, api, chip, _, ngettext, fmt, parts, citation, cardName, who, names, isolated, keepFocus} = window.DP;
  const VARIANTS = {base: _("base"), expert: _("expert")};
  const variantName = (v) => VARIANTS[v] || v;

  function say(text, kind) {
    const m = $("message");
    m.replaceChildren(...isolated(text || "", state));
    m.className = "msg" + (kind ? " " + kind : "");
  }

  // -- routing ---------------------------------------------------------------------
  function route() {
    const m = location.hash.match(/^#\/g\/([A-Za-z0-9_-]+)$/);
    stopListening();
    if (m) openGame(m[1]); else openLobby();
  }
  window.addEventListener("hashchange", route);

  // -- the lobby -------------------------------------------------------------------
  let opts = null;
  async function openLobby() {
    $("game").hidden = true;
    $("lobby").hidden = false;
    $("where").textContent = "";
    gameName = null;
    if (!opts) {
      const r = await api("GET", "/api/options");
      if (!r.ok) { $("lobby-msg").textContent = r.data.error; return; }
      opts = r.data;
      fill($("ng-board"), opts.boards.map((b) => [b, b]));
      fill($("ng-rules"), opts.rulesets.map((r) => [r.id, r.id + " — " + r.name]));
      fill($("ng-variant"), opts.variants.map((v) => [v, variantName(v)]));
    }
    const r = await api("GET", "/api/games");
    const list = $("games");
    list.replaceChildren();
    if (!r.ok) { $("lobby-msg").textContent = r.data.error; return; }
    for (const g of r.data.games) {
      const what = g.error ? [g.error] : [names(g.players), " · " + (g.over ? _("over") : fmt(_("turn {turn}"), {turn: g.turn})) +
        " · " + g.board + " · " + g.rules + (g.variant === "expert" ? " · " + variantName("expert") : "")];
      list.append(el("li", {}, el("a", {href: "#/g/" + g.name}, who(g.title)), " ", el("span", {class: "muted"}, ...what),
        " ", deleteButton(g)));
    }
    // the name field's placeholder is the default name: the first table-N not taken
    const taken = new Set(r.data.games.map((g) => g.name));
    let n = 1;
    while (taken.has("table-" + n)) n++;
    $("ng-name").placeholder = "table-" + n;
    if (!r.data.games.length) list.append(el("li", {class: "muted", text: _("No games in this folder yet.")}));
  }

  function fill(select, pairs) {
    select.replaceChildren(...pairs.map(([v, t]) => el("option", {value: v, text: t})));
  }

  function players() {
    return [...document.querySelectorAll(".ng-player")].map((i) => i.value.trim()).filter((v) => v);
  }

  function dealMode() {
    return document.querySelector("input[name=deal]:checked").value;
  }

  function tableRows() {
    const box = $("ng-table");
    box.hidden = dealMode() !== "table";
    if (box.hidden || !opts) return;
    const expert = $("ng-variant").value === "expert";
    const names = players();
    const old = DP.dict();
    box.querySelectorAll("[data-player]").forEach((e) => { old[e.dataset.player + e.dataset.field] = e.value; });
    box.replaceChildren();
    names.forEach((p) => {
      const cards = expert ? opts.goals : opts.buildings;
      const sel = (k) => {
        const s = el("select", {"data-player": p, "data-field": "card" + k, "aria-label": fmt(_("{player} card {n}"), {player: p, n: k + 1})});
        fill(s, [["", expert ? _("goal card") : _("building card (optional)")]].concat(cards.map((c) => [c, cardName(c)])));
        s.value = old[p + "card" + k] || "";
        return s;
      };
      const hand = el("input", {"data-player": p, "data-field": "hand", placeholder: _("tiles, e.g. W3 W2x2 S1"),
        "aria-label": fmt(_("{player} hand"), {player: p})});
      hand.value = old[p + "hand"] || "";
      box.append(el("div", {class: "deal-row"}, el("b", {}, who(p)), hand, sel(0), ...(expert ? [sel(1)] : [])));
    });
  }
  document.querySelectorAll("input[name=deal]").forEach((r) => r.addEventListener("change", tableRows));
  document.querySelectorAll(".ng-player").forEach((r) => r.addEventListener("input", tableRows));
  $("ng-variant").addEventListener("change", tableRows);

  $("new-game").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = {name: $("ng-name").value.trim() || $("ng-name").placeholder, players: players(), board: $("ng-board").value,
      rules: $("ng-rules").value, variant: $("ng-variant").value, ...window.Bots.newGame()};
    const mode = dealMode();
    if (mode === "random") body.deal = "random";
    if (mode === "table") {
      const hands = DP.dict(), cards = DP.dict();
      let anyCard = false;
      for (const p of body.players) {
        const get = (f) => { const e = [...$("ng-table").querySelectorAll("[data-field=" + f + "]")].find((x) => x.dataset.player === p); return e ? e.value : ""; };
        hands[p] = get("hand");
        const c = body.variant === "expert" ? [get("card0"), get("card1")] : get("card0");
        if ((Array.isArray(c) ? c.join("") : c) !== "") anyCard = true;
        cards[p] = c;
      }
      body.deal = {hands, cards: anyCard ? cards : null};
    }
    const r = await api("POST", "/api/games", body);
    if (!r.ok) { $("lobby-msg").textContent = r.data.error; return; }
    $("lobby-msg").textContent = "";
    $("ng-name").value = "";
    location.hash = "#/g/" + r.data.name;
  });

  // Ending and deleting a game: a second tap confirms; the record moves to the folder's archive, never lost.
  function deleteButton(g) {
    const b = el("button", {type: "button", class: "delete", "data-game": g.name, "aria-label": fmt(_("End and delete {game}"), {game: g.title}),
      text: _("Delete")});
    b.addEventListener("click", async () => {
      if (b.dataset.sure !== "yes") {
        b.dataset.sure = "yes";
        b.textContent = _("Sure? Tap again: the record moves to the archive folder");
        return;
      }
      b.disabled = true;
      const r = await api("DELETE", "/api/games/" + encodeURIComponent(g.name), {});
      if (r.ok) { $("lobby-msg").replaceChildren(...parts(_("{game} was ended; its record is kept as {file}."), {game: who(g.title), file: r.data.archived})); openLobby(); }
      else { b.disabled = false; $("lobby-msg").textContent = r.data.error; }
    });
    return b;
  }

  // -- a game ----------------------------------------------------------------------
  async function openGame(name) {
    $("lobby").hidden = true;
    $("mend").hidden = true;
    $("game").hidden = false;
    if (name !== gameName) {  // nothing of the game shown before stays on screen
      $("board-box").replaceChildren();
      $("turn-line").replaceChildren();
    }
    gameName = name;
    selected = pending = voting = null;
    say("");
    const r = await api("GET", "/api/games/" + name);
    if (!r.ok && r.status === 422) { state = null; openMend(name); return; }
    if (!r.ok) { state = null; say(r.data.error, "bad"); return; }
    await show(r.data);
    stopListening = window.DP.listen("/api/games/" + name + "/events", {}, changed);
  }

  // a change pushed by the server (a move on another device, a ballot laid, ...): show it
  let loading = false, again = false, acting = 0;
  async function changed() {
    if (!state || voting) return;
    if (loading || acting) { again = true; return; }
    loading = true;
    const before = state.events.map((e) => e.dn);
    const g = await api("GET", "/api/games/" + gameName);
    if (g.ok && gameName === g.data.name) {
      await keepFocus(() => show(g.data));
      const now = g.data.events;
      const added = now.slice(before.length);
      const kept = before.every((dn, i) => i < now.length && now[i].dn === dn);
      // what the bots played is told as theirs, a turn the secret ballots decided as counted (it is recorded when
      // the last card is laid, by whoever lays it, on a seat of this device too); only any other change came
      // from another device
      const bot = (e) => DP.own(g.data.bots, e.player) !== undefined;
      if (kept && added.length && added.every((e) => bot(e) || e.vote)) {
        const counted = added.filter((e) => !bot(e)).map((e) => fmt(e.vote.accepted ? _("Recorded: {move} — the tile stays.")
          : _("Recorded: {move} — the tile goes back to the hand."), {move: e.dn}));
        const played = added.filter(bot).map((e) => e.dn);
        say([...counted, ...(played.length ? [fmt(_("The computer played: {moves}"), {moves: played.join(", ")})] : [])]
          .join(" "), "info");
      } else if (!kept || added.length) {
        say(_("The game changed on another device: showing it now."), "info");
      }
    }
    loading = false;
    if (again) { again = false; changed(); }
  }
  window.DP.onGame = (s) => show(s);

  // A change made here: the pushes it causes wait until its answer is shown, so it is never taken for another device's.
  const mine = (work) => async (...args) => {
    acting++;
    try {
      return await work(...args);
    } finally {
      acting--;
      if (!acting && again) { again = false; changed(); }
    }
  };

  // -- mending a file that is no valid record ----------------------------------------
  let mendSource = null;
  async function openMend(name) {
    const r = await api("GET", "/api/games/" + name + "/source");
    if (!r.ok) { say(r.data.error, "bad"); return; }
    $("game").hidden = true;
    $("mend").hidden = false;
    mendShow(r.data);
  }

  function mendShow(src) {
    mendSource = src;
    $("mend-verdict").textContent = src.verdict;
    $("mend-verdict").className = "msg " + (src.valid ? "good" : "bad");
    $("mend-bak").textContent = src.name + ".dn.bak";
    $("mend-text").textContent = src.text;
    $("mend-form").hidden = !src.offending && src.offending !== "";
    $("mend-no").textContent = String(src.line);
    $("mend-line").value = src.offending || "";
    const cut = $("mend-cut");
    cut.hidden = !src.cut;
    if (src.cut) cut.textContent = fmt(_("Cut it to the last valid turn ({verdict})"), {verdict: src.cut.verdict.split(": ").slice(1).join(": ")});
    $("mend-open").hidden = !src.valid;
  }

  async function repair(body) {
    body.rev = mendSource.rev;
    const r = await api("POST", "/api/games/" + gameName + "/repair", body);
    if (!r.ok) { $("mend-verdict").textContent = r.data.error; return; }
    mendShow(r.data);
  }
  $("mend-form").addEventListener("submit", (ev) => { ev.preventDefault(); repair({line: mendSource.line, text: $("mend-line").value}); });
  $("mend-cut").addEventListener("click", () => repair({cut: true}));
  $("mend-open").addEventListener("click", () => { $("mend-open").hidden = true; openGame(gameName); });

  async function show(s) {
    const r = await DP.board("/api/games/" + s.name + "/board.svg");
    if (!r.ok) { say(r.status ? fmt(_("the board could not be loaded ({status})"), {status: r.status})
      : _("the server does not answer: is drunter play still running?"), "bad"); return; }
    const svg = r.text;
    $("where").replaceChildren("· ", who(s.title), " · " + s.rules + (s.variant === "expert" ? " · " + variantName("expert") : "") +
      " · " + s.board);
    $("board-box").innerHTML = svg;  // drawn and escaped by the server (report/svg.py)
    document.querySelectorAll("#board .mark").forEach((m) => m.classList.remove("off"));
    if (!state || s.turn !== state.turn || s.rev !== state.rev) selected = null;
    state = s;
    pending = null;
    closeVote();
    turnLine();
    hand();
    marks();
    where();
    $("pass").hidden = !s.can_pass;
    $("pass").textContent = s.legal.length || !s.hands_known ? _("Pass") : _("Pass (no tile fits: Legezwang)");
    const thinking = window.Bots.botThinks(s);  // a bot's turn: its tiles are not the host's to lay
    $("undo").disabled = !s.can_undo || thinking;
    const mine = s.events.map((e, i) => [e, i]).filter(([e]) => e.player && !DP.own(s.bots, e.player)).pop();
    $("takeback-mine").hidden = !Object.keys(s.bots || {}).length || !mine;
    $("takeback-mine").dataset.keep = mine ? String(mine[1]) : "";
    chooser();
    ending();
    playersTable();
    $("events").replaceChildren(...s.events.map((e, i) => el("li", {class: e.vote ? (e.vote.accepted ? "vote" : "vote rejected") : null},
      el("span", {}, ...isolated(e.dn, s)), " ",
      el("button", {type: "button", class: "back", "data-keep": String(i), "aria-label": fmt(_("take back to before {move}"), {move: e.dn}),
        text: "↶", on: () => askTakeBack(i)}))));
    $("replay").hidden = !s.taken_back.length;
    $("replay").textContent = fmt(ngettext("Replay {n} turn taken back", "Replay {n} turns taken back", s.taken_back.length),
      {n: s.taken_back.length});
    $("takeback").hidden = true;
    $("dn").replaceChildren(...isolated(s.dn, s));
    window.Seats.show(s);
    window.Bots.host(s, (move) => { const m = s.legal.find((x) => x.move === move); if (m) propose(m); else play({move}); });
    const voted = s.vote && s.legal.find((m) => m.move === s.vote.move);
    if (voted) marks(voted.squares);  // a secret ballot's tile, marked where it would lie
  }

  function player(name) {
    return state.players.find((p) => p.name === name);
  }

  function turnLine() {
    const line = $("turn-line");
    if (state.over) {
      line.replaceChildren(fmt(_("Game over after turn {turn}."), {turn: state.turn - 1}));
    } else if (state.choice_due) {
      line.replaceChildren(fmt(_("Turn {turn}: the first track is finished — every player chooses."), {turn: state.turn}));
    } else {
      const p = player(state.to_move);
      line.replaceChildren(...parts(_("Turn {turn}: {chip} {player} to move."),
        {turn: state.turn, chip: chip(p), player: el("b", {id: "to-move"}, who(p.name))}));
    }
  }

  function handTiles() {
    if (state.over || state.choice_due) return [];
    const p = player(state.to_move);
    if (p.tiles) return p.tiles;
    return ["W3", "W2", "W1", "S3", "S2", "S1", "R3", "R2", "R1"].map((t) => [t, null]);
  }

  function hand() {
    const box = $("hand");
    const tiles = handTiles();
    box.replaceChildren();
    if (!tiles.length) return;
    box.append(el("span", {class: "muted"}, ...parts(_("{player}'s tiles: "), {player: who(state.to_move)})));
    const thinking = window.Bots.botThinks(state);
    for (const [t, n] of tiles) {
      const legal = state.legal.some((m) => m.tile === t);
      box.append(el("button", {type: "button", class: "tile kind-" + t[0] + (legal ? " has-legal" : ""), disabled: thinking,
        "data-tile": t, "aria-pressed": String(t === selected), text: n && n > 1 ? t + " ×" + n : t,
        on: () => { selected = t; pending = null; where(); hand(); marks(); }}));
    }
  }

  // the squares the chosen tile may start on, as buttons (the board from the keyboard)
  function where() {
    if (selected && !state.over && !state.choice_due && !voting && !window.Bots.botThinks(state)) DP.places($("options"), selected, state.legal, tap, marks);
    else $("options").replaceChildren();
  }

  function marks(footprint) {
    const anchors = new Set(selected ? state.legal.filter((m) => m.tile === selected).map((m) => m.squares[0]) : []);
    const feet = new Set(footprint || []);
    document.querySelectorAll("#board rect.hit").forEach((r) => {
      const sq = r.dataset.sq;
      r.classList.toggle("legal", anchors.has(sq));
      r.classList.toggle("foot", feet.has(sq));
      r.classList.toggle("pending", sq === pending);
    });
  }

  // taps on the board
  document.addEventListener("click", (ev) => {
    const hit = ev.target.closest && ev.target.closest("#board rect.hit");
    if (hit) tap(hit.dataset.sq);
  });

  function tap(sq) {
    if (!state || state.over || state.choice_due || voting || window.Bots.botThinks(state)) return;
    if (!selected) { say(_("Choose a tile from the hand first."), "info"); return; }
    if (pending) {
      const text = selected + " " + pending + "-" + sq;
      pending = null;
      marks();
      attempt(text);
      return;
    }
    const moves = state.legal.filter((m) => m.tile === selected && m.squares[0] === sq);
    if (moves.length === 1) { propose(moves[0]); return; }
    if (moves.length > 1) { options(moves); return; }
    if (selected[1] === "1") { attempt(selected + " " + sq); return; }
    pending = sq;
    marks();
    say(fmt(_("{square} is no legal anchor for {tile}. Tap its end square to hear why."), {square: sq, tile: selected}), "info");
  }

  function options(moves) {
    const box = $("options");
    box.replaceChildren(el("span", {class: "muted", text: _("Which way? ")}));
    for (const m of moves) {
      const b = el("button", {type: "button", class: "option", "data-move": m.move, text: m.needs_vote ? fmt(_("{move} (vote)"), {move: m.move}) : m.move,
        on: () => { box.replaceChildren(); propose(m); }});
      b.addEventListener("mouseenter", () => marks(m.squares));
      b.addEventListener("focus", () => marks(m.squares));
      box.append(b);
    }
    marks(moves.flatMap((m) => m.squares));
  }

  function propose(m) {
    if ($("ask-mode").checked) { ask({move: m.move}); return; }
    if (m.needs_vote && window.Seats.secret()) {
      window.Seats.call(m).then((r) => (r.ok ? show(r.data) : say(r.data.error, "bad")));
      return;
    }
    if (m.needs_vote) { openVote(m); return; }
    play({move: m.move});
  }

  function attempt(text) {
    if ($("ask-mode").checked) ask({move: text}); else play({move: text});
  }

  const play = mine(async (body) => {
    body.turn = state.turn;
    const r = await api("POST", "/api/games/" + gameName + "/moves", body);
    if (r.ok) {
      await show(r.data);
      const last = r.data.events[r.data.events.length - 1];
      const move = last ? last.dn : body.move;
      say(fmt(!last || !last.vote ? _("Recorded: {move}") : last.vote.accepted ? _("Recorded: {move} — the tile stays.")
        : _("Recorded: {move} — the tile goes back to the hand."), {move}), "good");
      $("verdicts").hidden = true;
      return;
    }
    say(r.status === 422 ? fmt(_("{error} — not recorded."), {error: r.data.error}) : r.data.error, "bad");
    if (r.status === 409) { const g = await api("GET", "/api/games/" + gameName); if (g.ok) await show(g.data); say(r.data.error, "bad"); }
    if (r.data.adjudication) verdicts(r.data.adjudication, body.move); else $("verdicts").hidden = true;
  });

  $("pass").addEventListener("click", () => ($("ask-mode").checked ? ask({move: "pass"}) : play({move: "pass"})));
  $("undo").addEventListener("click", mine(async () => {
    const r = await api("POST", "/api/games/" + gameName + "/undo", {turn: state.turn});
    if (r.ok) { await show(r.data); say(_("Undone: the last turn is taken back."), "info"); } else say(r.data.error, "bad");
  }));

  // -- taking back to an earlier turn, and replaying it -------------------------------
  let keepTo = null;
  function askTakeBack(keep) {
    keepTo = keep;
    const n = state.events.length - keep;
    $("takeback-what").textContent = fmt(ngettext("Take back {n} turn, from {move} on? They are kept: one tap on Replay plays them again.",
      "Take back {n} turns, from {move} on? They are kept: one tap on Replay plays them again.", n), {n, move: state.events[keep].dn});
    $("takeback").hidden = false;
    $("takeback-do").focus();
  }
  $("takeback-cancel").addEventListener("click", () => { $("takeback").hidden = true; });
  $("takeback-mine").addEventListener("click", () => askTakeBack(Number($("takeback-mine").dataset.keep)));
  $("takeback-do").addEventListener("click", mine(async () => {
    const r = await api("POST", "/api/games/" + gameName + "/takeback", {keep: keepTo, turn: state.turn});
    if (r.ok) { await show(r.data); say(fmt(_("Taken back: the game is at turn {turn} again."), {turn: r.data.turn}), "info"); } else say(r.data.error, "bad");
  }));
  $("replay").addEventListener("click", mine(async () => {
    const r = await api("POST", "/api/games/" + gameName + "/replay", {turn: state.turn});
    if (r.ok) { await show(r.data); say(fmt(_("Replayed: the game is at turn {turn}."), {turn: r.data.turn}), "good"); } else say(r.data.error, "bad");
  }));

  // -- the vote --------------------------------------------------------------------
  function openVote(m) {
    voting = m;
    ballot = DP.dict();
    jein = DP.dict();
    $("vote").hidden = false;
    $("vote-title").textContent = fmt(_("Vote on {move}: it covers a toilet"), {move: m.move});
    const box = $("ballots");
    box.replaceChildren();
    state.vote_order.forEach((name, i) => {
      const p = player(name);
      const row = el("div", {class: "ballot", "data-player": name},
        el("span", {class: "who"}, el("span", {class: "order", text: (i + 1) + "."}), chip(p), " ", el("b", {}, who(name))));
      const seen = new Set();
      for (const c of p.cards) {
        if (seen.has(c)) continue;
        seen.add(c);
        row.append(el("button", {type: "button", class: "card", "data-player": name, "data-card": c, "aria-pressed": "false",
          text: c, on: (ev) => toggleCard(name, c, ev.currentTarget)}));
      }
      if (!p.cards.length) row.append(el("span", {class: "muted", text: " " + _("no cards left")}));
      box.append(row);
    });
    marks(m.squares);
    updateVote();
    $("vote").scrollIntoView({block: "nearest"});
    // chosen from the keyboard (the square's or the way's button): the focus goes on to the first card
    const first = box.querySelector("button");
    if (first && (document.activeElement === document.body || $("options").contains(document.activeElement))) first.focus();
  }

  function closeVote() {
    voting = null;
    $("vote").hidden = true;
  }

  function toggleCard(name, card, button) {
    const laid = ballot[name] || [];
    const i = laid.indexOf(card);
    if (i >= 0) laid.splice(i, 1); else laid.push(card);
    ballot[name] = laid;
    if (!laid.includes("JEIN")) delete jein[name];
    button.setAttribute("aria-pressed", String(i < 0));
    updateVote();
  }

  async function updateVote() {
    const everyone = state.vote_order.every((p) => (ballot[p] || []).length > 0);
    const jokers = state.vote_order.filter((p) => (ballot[p] || []).includes("JEIN"));
    const jbox = $("jokers");
    jbox.hidden = !(everyone && jokers.length);  // jokers are declared once every card is shown (B4)
    jbox.replaceChildren();
    if (!jbox.hidden) {
      jbox.append(el("p", {class: "muted", text: _("All cards are shown: each JEIN is now declared.")}));
      for (const p of jokers) {
        const row = el("div", {class: "joker", "data-player": p}, el("b", {}, ...parts(_("{player}'s JEIN counts for "), {player: who(p)})));
        for (const side of ["yes", "no"]) {
          row.append(el("button", {type: "button", class: "side", "data-player": p, "data-side": side, text: side === "yes" ? _("yes") : _("no"),
            "aria-pressed": String(jein[p] === side), on: () => { jein[p] = side; updateVote(); }}));
        }
        jbox.append(row);
      }
    }
    const done = everyone && jokers.every((p) => jein[p]);
    $("vote-done").disabled = !done;
    const laid = DP.dict();
    for (const [p, cards] of Object.entries(ballot)) if (cards.length) laid[p] = cards;
    const r = await api("POST", "/api/games/" + gameName + "/tally", {vote: laid, jein});
    const t = $("tally");
    if (!r.ok) { t.textContent = r.data.error; return; }
    const d = r.data;
    const sum = done ? (d.accepted ? _("{sums} → {yes}:{no}, accepted") : _("{sums} → {yes}:{no}, rejected"))
      : (d.accepted ? _("{sums} → {yes}:{no}, so far accepted") : _("{sums} → {yes}:{no}, so far rejected"));
    t.replaceChildren(
      el("div", {}, ...d.lines.map((l) => el("div", {}, ...isolated(l, state)))),
      el("div", {class: "sum", text: fmt(sum, {sums: d.arithmetic, yes: d.yes, no: d.no})}),
      window.DP.ruleLine(d));
  }

  $("vote-done").addEventListener("click", () => {
    const m = voting;
    const laid = DP.dict();
    for (const p of state.vote_order) laid[p] = ballot[p];
    closeVote();
    play({move: m.move, vote: laid, jein});
  });
  $("vote-cancel").addEventListener("click", closeVote);

  // -- the expert choice, the reveal, the result ------------------------------------
  function chooser() {
    const box = $("choose");
    box.hidden = !state.choice_due;
    if (box.hidden) return;
    const keeps = $("keeps");
    const picked = DP.dict();  // as in the reveal: a refresh keeps what was picked
    keeps.querySelectorAll("select").forEach((s) => { picked[s.dataset.player] = s.value; });
    keeps.replaceChildren();
    for (const p of state.players) {
      if (!p.goals) continue;
      const s = el("select", {"data-player": p.name, "aria-label": fmt(_("{player} keeps"), {player: p.name})});
      fill(s, p.goals.map((g) => [g, cardName(g)]));
      if (p.goals.includes(picked[p.name])) s.value = picked[p.name];
      keeps.append(el("label", {}, ...parts(_("{player} keeps {card}"), {player: who(p.name), card: s})));
    }
  }

  $("choose-done").addEventListener("click", () => {
    const keep = DP.dict();
    $("keeps").querySelectorAll("select").forEach((s) => { keep[s.dataset.player] = s.value; });
    play(Object.keys(keep).length ? {move: "choose", keep} : {move: "choose"});
  });

  function ending() {
    const needCards = state.over && !state.result && !state.cards_known;
    $("reveal").hidden = !needCards;
    $("result").hidden = !state.result;
    if (needCards) {
      const box = $("reveal-cards");
      // A refresh (another device, the options arriving) rebuilds the rows: keep what was picked.
      const picked = DP.dict();
      box.querySelectorAll("select").forEach((s) => { if (s.selectedIndex >= 0) picked[s.dataset.player + "/" + s.dataset.k] = s.value; });
      box.replaceChildren();
      const expert = state.variant === "expert";
      const names = opts ? (expert ? opts.goals : opts.buildings) : [];
      for (const p of state.players) {
        const row = el("div", {class: "deal-row"}, el("b", {}, who(p.name)));
        for (let k = 0; k < (expert ? 2 : 1); k++) {
          const s = el("select", {"data-player": p.name, "data-k": String(k), "aria-label": fmt(_("{player} card"), {player: p.name})});
          fill(s, names.map((c) => [c, cardName(c)]));
          const was = picked[p.name + "/" + k];
          if (was !== undefined && names.includes(was)) s.value = was; else s.selectedIndex = -1;
          row.append(s);
        }
        box.append(row);
      }
      if (!opts) api("GET", "/api/options").then((r) => { if (r.ok) { opts = r.data; ending(); } });
    }
    if (state.result) result(state.result);
  }

  $("reveal-done").addEventListener("click", async () => {
    const cards = DP.dict();
    $("reveal-cards").querySelectorAll("select").forEach((s) => {
      if (state.variant === "expert") (cards[s.dataset.player] = cards[s.dataset.player] || []).push(s.value);
      else cards[s.dataset.player] = s.value;
    });
    const body = {cards, turn: state.turn};
    if (state.variant === "expert") {
      body.keep = DP.dict();
      for (const [p, c] of Object.entries(cards)) body.keep[p] = c[0];
    }
    const r = await api("POST", "/api/games/" + gameName + "/reveal", body);
    if (r.ok) await show(r.data); else say(r.data.error, "bad");
  });

  function result(res) {
    const box = $("result");
    const rows = res.standings.map((s) => el("tr", {"data-player": s.player},
      el("td", {text: String(s.rank)}), el("td", {}, chip(player(s.player)), " ", who(s.player)),
      el("td", {text: cardName(s.card)}), el("td", {class: "score", "data-player": s.player, text: String(s.score)}),
      el("td", {text: String(s.votes_left)})));
    box.replaceChildren(
      el("h2", {text: _("Result")}),
      el("p", {class: "winner", id: "winner"}, ...isolated(res.explanation, state)),
      el("table", {class: "standings"},
        el("thead", {}, el("tr", {}, ...["#", _("player"), _("card"), _("points"), _("votes left")].map((h) => el("th", {text: h})))),
        el("tbody", {}, ...rows)),
      el("ul", {class: "rules"}, ...res.rules.map((r) => el("li", {}, el("b", {text: r.rule + " " + r.title}), " (" + citation(r.citation) + ")"))));
  }

  function playersTable() {
    const t = $("players");
    t.replaceChildren(el("tr", {}, ...[_("player"), _("tiles"), _("vote cards"), _("votes")].map((h) => el("th", {text: h}))));
    for (const p of state.players) {
      const tiles = p.tiles ? p.tiles.map(([x, n]) => (n > 1 ? x + "×" + n : x)).join(" ") || "–" : _("not recorded");
      t.append(el("tr", {class: p.name === state.to_move ? "mover" : null},
        el("td", {}, chip(p), " ", el("span", {dir: "auto", text: p.name})), el("td", {text: tiles}),
        el("td", {text: p.cards.join(" ") || "–"}), el("td", {text: String(p.votes)})));
    }
  }

  // -- asking the referee ------------------------------------------------------------
  $("ask").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = $("ask-move").value.trim();
    if (text) ask({move: text});
  });

  async function ask(body) {
    $("verdicts").hidden = true;  // the previous answer goes, whatever comes now
    $("verdicts").replaceChildren();
    const r = await api("POST", "/api/games/" + gameName + "/adjudicate", body);
    if (!r.ok) { say(r.data.error, "bad"); return; }
    say(_("The referee's answer is below; nothing was played."), "info");
    verdicts(r.data, body.move);
  }

  // what a verdict says, without the ruleset's name: equal for rulesets that agree
  function gist(v) {
    return JSON.stringify([v.status, v.diagnostic && v.diagnostic.code, v.diagnostic && v.diagnostic.rule,
      (v.rules || []).map((r) => r.rule + r.how), v.vote && v.vote.arithmetic, v.alternatives]);
  }

  function verdicts(a, tried) {
    const box = $("verdicts");
    box.hidden = false;
    box.replaceChildren(el("h2", {text: fmt(_("Is this legal? {move}"), {move: a.move})}));
    const one = new Set(a.verdicts.map(gist)).size === 1;
    if (!one) box.append(el("p", {class: "agreement", text: a.agreement || ""}));
    const tile = (tried || "").trim().split(/\s+/)[0];
    for (const v of one ? a.verdicts.slice(0, 1) : a.verdicts) {
      const who = one ? (a.verdicts.length > 1 ? fmt(ngettext("all {n} ruleset", "all {n} rulesets", a.verdicts.length), {n: a.verdicts.length}) : v.ruleset) : v.ruleset;
      const item = el("div", {class: "verdict " + (v.legal ? "legal" : "illegal"), "data-ruleset": one ? "all" : v.ruleset},
        el("h3", {}, ...parts(_("{rulesets}: {verdict}"), {rulesets: el("span", {text: who}), verdict: el("span", {class: "status", text: v.status})})),
        el("p", {class: "muted", text: one ? a.verdicts.map((x) => x.ruleset_name).join(" · ") : v.ruleset_name}));
      if (v.diagnostic && v.diagnostic.rule) {  // one verdict for all: each ruleset's own place in its booklet
        const cites = [...new Set((one ? a.verdicts : [v]).map((x) => x.diagnostic.citation).filter((c) => c).map(citation))];
        item.append(el("p", {text: cites.length ? fmt(_("Rule {rule} ({citations})"), {rule: v.diagnostic.rule, citations: cites.join("; ")})
          : fmt(_("Rule {rule}"), {rule: v.diagnostic.rule})}));
      }
      if (v.rules && v.rules.length) {
        item.append(el("ul", {}, ...v.rules.map((r) => el("li", {}, el("b", {text: r.rule + " " + r.title}),
          " (" + citation(r.citation) + "): " + r.how))));
      }
      if (v.vote) item.append(el("p", {}, ...isolated(v.vote.lines.join("; ") + " → " + v.vote.arithmetic, state)));
      if (v.alternatives && v.alternatives.length) {  // the tile that was tried first
        const alts = [...v.alternatives].sort((x, y) => (y.split(" ")[0] === tile) - (x.split(" ")[0] === tile));
        item.append(el("p", {class: "muted alternatives", text: fmt(_("Legal instead: {moves}"), {moves: alts.slice(0, 12).join(", ") + (alts.length > 12 ? ", …" : "")})}));
      }
      box.append(item);
    }
  }

  route();
})();
