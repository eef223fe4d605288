// drunter play: the computer's seats. The new-game form's choice per seat (a person or the
// computer at a strength), the bot seats marked, the host's autoplay controls (pause, speed)
// and a person's Hint button when the game has the coach (docs/play.md, "Bots and the coach").
"use strict";
window.Bots = (function () {
  const {el, api, _, fmt, dict, own} = window.DP;
  const $ = (id) => document.getElementById(id);
  const LEVELS = [["", _("a person")], ["easy", _("the computer: easy")], ["medium", _("the computer: medium")],
    ["strong", _("the computer: strong")]];
  const LEVEL_WORDS = new Map(LEVELS.slice(1));
  const LEVEL_SHORT = new Map([["easy", _("easy")], ["medium", _("medium")], ["strong", _("strong")]]);
  const SPEEDS = [[0, _("fast")], [600, _("normal")], [2000, _("slow")]];

  // -- the new-game form ------------------------------------------------------------
  const inputs = [...document.querySelectorAll(".ng-player")];
  inputs.forEach((input, i) => {
    const pick = el("select", {class: "ng-seat", "aria-label": fmt(_("seat {n} is played by"), {n: i + 1})});
    pick.replaceChildren(...LEVELS.map(([v, t]) => el("option", {value: v, text: t})));
    pick.addEventListener("change", () => {
      if (pick.value && !input.value.trim()) input.value = fmt(_("Computer {n}"), {n: i + 1});
    });
    input.after(pick);
  });
  const form = $("new-game");
  if (form) {
    const coach = el("label", {}, el("input", {type: "checkbox", id: "ng-hints"}),
      " " + _("the coach: people may ask for a hint on their turn"));
    $("ng-start").before(coach);
  }

  // The new game's bots and coach, for POST /api/games.
  function newGame() {
    const bots = dict();
    inputs.forEach((input) => {
      const name = input.value.trim();
      const level = input.nextElementSibling.value;
      if (name && level) bots[name] = level;
    });
    const out = {};
    if (Object.keys(bots).length) out.bots = bots;
    if ($("ng-hints") && $("ng-hints").checked) out.hints = true;
    return out;
  }

  // A bot seat as a person reads it: its strength on the form, its spec (the record's) in a tooltip.
  function label(s, name, short) {
    const bot = own(s.bots, name);
    if (!bot) return null;
    const level = own(s.levels, name);
    const words = short ? LEVEL_SHORT : LEVEL_WORDS;
    return el("span", {class: "muted bot-seat", title: bot,
      text: level && words.has(level) ? words.get(level) : short ? bot : _("the computer")});
  }
  const botThinks = (s) => !!own(s.bots, s.to_move) && !s.paused && !s.over;

  // The coach's hint for the person to move: its moves as buttons, a tap plays one (play(move)).
  function hintBox(s, anchor, ask, play) {
    let box = $("hint-box");
    const allowed = s.hints && !s.over && !s.vote && !s.choice_due && s.to_move && !own(s.bots, s.to_move)
      && own(s.hints, s.to_move) !== undefined;
    if (!allowed) { if (box) box.hidden = true; return; }
    if (!box) {
      const button = el("button", {type: "button", id: "hint"}, _("Hint"));
      const list = el("ol", {id: "hint-moves", class: "hint-moves"});
      box = el("div", {id: "hint-box"}, button, list);
      button.addEventListener("click", async () => {
        button.disabled = true;
        list.replaceChildren(el("li", {class: "muted", text: _("thinking…")}));
        const turn = box.dataset.turn;
        let r = await box.ask();
        // the coach's queue is full: asked again a moment later (a refused table goes last), for up to 8 s
        for (let tries = 0; !r.ok && r.data.code === "coach-busy" && tries < 8 && box.dataset.turn === turn; tries++) {
          list.replaceChildren(el("li", {class: "muted", text: _("the coach is busy with other tables: asking again…")}));
          await new Promise((done) => setTimeout(done, 1000));
          r = await box.ask();
        }
        button.disabled = false;
        list.replaceChildren(...(r.ok
          ? r.data.moves.map((m) => el("li", {}, el("button", {type: "button", class: "hint-move", "data-move": m.move,
            text: fmt(_("{move}: {percent} % to win"), {move: m.move, percent: Math.round(m.win * 100)}),
            title: _("tap to play this move"), on: () => box.play(m.move)})))
          : [el("li", {class: "msg bad", text: r.data.error})]));
      });
      anchor.after(box);
    }
    box.ask = ask;
    box.play = play;
    if (box.dataset.turn !== String(s.turn) || box.dataset.player !== s.to_move) {
      box.dataset.turn = String(s.turn);
      box.dataset.player = s.to_move;
      box.querySelector("ol").replaceChildren();
    }
    box.hidden = false;
  }

  // The seat tokens of the game, for the host page's hint for the person to move (a hint is a seat's question).
  let seatTokens = null;
  async function tokenOf(s, player) {
    if (!seatTokens || seatTokens.name !== s.name) {
      const r = await api("GET", "/api/games/" + encodeURIComponent(s.name) + "/seats");
      if (!r.ok) return null;
      seatTokens = {name: s.name, tokens: new Map(r.data.seats.map((x) => [x.player, x.links[0].split("#")[1]]))};
    }
    return seatTokens.tokens.get(player) || null;
  }

  // -- the host page -----------------------------------------------------------------
  let shownFor = null;
  async function host(s, play) {
    document.querySelectorAll("#players tr").forEach((row) => {
      const name = row.querySelector("td span:not(.chip)");
      const what = name && label(s, name.textContent);
      if (what) name.after(" ", what);
    });
    hintBox(s, $("options"), async () => {
      const token = await tokenOf(s, s.to_move);
      return api("GET", "/api/seat/" + encodeURIComponent(s.name) + "/hint", undefined,
        token ? {"X-Drunter-Seat": token} : {});
    }, play);
    let box = $("autoplay");
    const bots = Object.keys(s.bots || {}).length;
    if (!bots || s.over) { if (box) box.hidden = true; return; }
    if (!box) {
      box = el("section", {id: "autoplay", class: "panel"});
      $("players").after(box);
    }
    box.hidden = false;
    if (shownFor === s.name) return;
    shownFor = s.name;
    const path = "/api/games/" + encodeURIComponent(s.name) + "/autoplay";
    const r = await api("GET", path);
    if (!r.ok) { box.replaceChildren(el("p", {class: "msg bad", text: r.data.error})); return; }
    const pause = el("button", {type: "button", id: "autoplay-pause"});
    const speed = el("select", {id: "autoplay-speed", "aria-label": _("the bots' speed")});
    speed.replaceChildren(...SPEEDS.map(([v, t]) => el("option", {value: String(v), text: t})));
    const draw = (a) => {
      pause.textContent = a.paused ? _("Resume the bots") : _("Pause the bots");
      pause.setAttribute("aria-pressed", String(a.paused));
      speed.value = String(a.delay_ms);
      if (!speed.value) speed.value = "600";
    };
    let shown = r.data;
    const send = async (body) => {
      const before = shown;
      draw(shown = Object.assign({}, shown, body));  // shown at once; put back if the server refuses
      box.querySelectorAll(".msg").forEach((m) => m.remove());
      const a = await api("POST", path, body);
      if (a.ok) draw(shown = a.data);
      else { draw(shown = before); box.append(el("p", {class: "msg bad", text: a.data.error})); }
    };
    pause.addEventListener("click", () => send({paused: pause.getAttribute("aria-pressed") !== "true"}));
    speed.addEventListener("change", () => send({delay_ms: Number(speed.value)}));
    box.replaceChildren(el("h2", {text: _("The computer's seats")}), pause, " ",
      el("label", {}, _("speed") + " ", speed));
    draw(r.data);
  }

  // -- a seat -------------------------------------------------------------------------
  function seat(s, base, headers, play) {
    let line = $("bots-line");
    if (!line) {
      line = el("p", {id: "bots-line", class: "muted"});
      $("turn-line").after(line);
    }
    const names = Object.keys(s.bots || {});
    line.hidden = !names.length;
    const seats = [];
    names.forEach((n, i) => {
      if (i) seats.push(", ");
      seats.push(...DP.parts(_("{player} ({level})"), {player: DP.who(n), level: label(s, n, true)}));
    });
    line.replaceChildren(...(names.length ? DP.parts(_("Played by the computer: {seats}"), {seats: el("span", {}, ...seats)}) : []));
    hintBox(s.me.to_move ? s : Object.assign({}, s, {hints: null}), $("options"),
      () => api("GET", base + "/hint", undefined, headers), play);
  }

  return {newGame, host, seat, botThinks, label};
})();
