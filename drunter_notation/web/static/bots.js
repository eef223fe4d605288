// drunter play: the computer's seats. The new-game form's choice per seat (a person or the
// computer at a strength), the bot seats marked, the host's autoplay controls (pause, speed)
// and a person's Hint button when the game has the coach (docs/play.md, "Bots and the coach").
"use strict";
window.Bots = (function () {
  const {el, api, _, fmt} = window.DP;
  const $ = (id) => document.getElementById(id);
  const LEVELS = [["", _("a person")], ["easy", _("the computer: easy")], ["medium", _("the computer: medium")],
    ["strong", _("the computer: strong")]];
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
    const bots = {};
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

  function label(s, name) {
    return s.bots && s.bots[name] ? fmt(_("the computer ({bot})"), {bot: s.bots[name]}) : null;
  }

  // -- the host page -----------------------------------------------------------------
  let shownFor = null;
  async function host(s) {
    document.querySelectorAll("#players tr").forEach((row) => {
      const name = row.querySelector("td span:not(.chip)");
      const what = name && label(s, name.textContent);
      if (what) name.after(" ", el("span", {class: "muted bot-seat", text: what}));
    });
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
    const send = async (body) => {
      const a = await api("POST", path, body);
      if (a.ok) draw(a.data); else box.append(el("p", {class: "msg bad", text: a.data.error}));
    };
    pause.addEventListener("click", () => send({paused: pause.getAttribute("aria-pressed") !== "true"}));
    speed.addEventListener("change", () => send({delay_ms: Number(speed.value)}));
    box.replaceChildren(el("h2", {text: _("The computer's seats")}), pause, " ",
      el("label", {}, _("speed") + " ", speed));
    draw(r.data);
  }

  // -- a seat -------------------------------------------------------------------------
  function seat(s, base, headers) {
    let line = $("bots-line");
    if (!line) {
      line = el("p", {id: "bots-line", class: "muted"});
      $("turn-line").after(line);
    }
    const names = Object.keys(s.bots || {});
    line.hidden = !names.length;
    line.textContent = names.length ? fmt(_("Played by the computer: {seats}"),
      {seats: names.map((n) => n + " (" + s.bots[n] + ")").join(", ")}) : "";
    let box = $("hint-box");
    const allowed = s.hints && !s.over && s.me.to_move && !s.vote && !s.choice_due && !(s.bots || {})[s.me.name];
    if (!allowed) { if (box) box.hidden = true; return; }
    if (!box) {
      const button = el("button", {type: "button", id: "hint"}, _("Hint"));
      const list = el("ol", {id: "hint-moves", class: "hint-moves"});
      box = el("div", {id: "hint-box"}, button, list);
      button.addEventListener("click", async () => {
        button.disabled = true;
        list.replaceChildren(el("li", {class: "muted", text: _("thinking…")}));
        const r = await api("GET", base + "/hint", undefined, headers);
        button.disabled = false;
        list.replaceChildren(...(r.ok
          ? r.data.moves.map((m) => el("li", {text: fmt(_("{move}: {percent} % to win"), {move: m.move, percent: Math.round(m.win * 100)})}))
          : [el("li", {class: "msg bad", text: r.data.error})]));
      });
      $("options").after(box);
    }
    if (box.dataset.turn !== String(s.turn)) {
      box.dataset.turn = String(s.turn);
      box.querySelector("ol").replaceChildren();
    }
    box.hidden = false;
  }

  return {newGame, host, seat};
})();
