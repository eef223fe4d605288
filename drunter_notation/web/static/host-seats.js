// drunter play, the host page's side of the seats: the seat links and QR codes, the secret
// ballot's progress (who has laid, never what, until all have), the expert choice's progress,
// and pass and play: a seat opened on this device behind a cover (the seat page in a frame).
"use strict";
window.Seats = (function () {
  const {el, api, count, _, fmt, parts, who} = window.DP;
  const $ = (id) => document.getElementById(id);
  let state = null;
  let links = null;
  let here = null;       // pass and play: {player, why} of the seat open on this device
  let defaulted = null;  // the game whose secret-ballot default is set

  const path = () => "/api/games/" + encodeURIComponent(state.name);
  // the computer's seat is nobody's to open here: it lays, declares and chooses by itself, and its cards stay its own
  const person = (player) => window.DP.own(state.bots, player) === undefined;
  const token = (player) => links.seats.find((s) => s.player === player).links[0].split("#")[1];

  async function panel() {
    const r = await api("GET", path() + "/seats");
    const box = $("seats");
    if (!r.ok) { box.replaceChildren(el("p", {class: "msg bad", text: r.data.error})); return; }
    links = r.data;
    box.replaceChildren(el("h2", {text: _("Seats")}), el("p", {class: "muted", text: links.reachable
      ? _("Each player scans their own code (or types the link) on their phone. A code opens that seat: show the codes only while the players join.")
      : _("This server listens on this machine only, so phones cannot reach it: start it with drunter play --host 0.0.0.0 to let them join, or pass this device round (Open here).")}));
    for (const s of links.seats) {
      if (s.bot) {  // the computer's seat: no link to hand out
        box.append(el("div", {class: "seat-link bot", "data-player": s.player}, el("b", {}, who(s.player)), " ",
          el("span", {class: "muted", text: fmt(_("the computer ({bot})"), {bot: s.bot})})));
        continue;
      }
      box.append(el("div", {class: "seat-link", "data-player": s.player},
        el("div", {}, el("b", {}, who(s.player)), " ",
          el("span", {class: s.joined ? "joined" : "muted", text: s.joined ? _("joined ✓") : _("not joined")})),
        s.joined ? "" : el("img", {class: "qr", src: s.qr, alt: fmt(_("QR code of {player}'s seat"), {player: s.player}), width: "150", height: "150"}),
        s.joined ? "" : el("div", {class: "link"}, el("code", {text: s.links[0]})),
        el("button", {type: "button", class: "open-here", "data-player": s.player, text: _("Open here"),
          on: () => open(s.player, "look")})));
    }
  }

  $("seats-btn").addEventListener("click", () => {
    const box = $("seats");
    box.hidden = !box.hidden;
    $("seats-btn").setAttribute("aria-expanded", String(!box.hidden));
    if (!box.hidden) panel();
  });

  // pass and play: the seat behind a cover, on this device
  async function open(player, why) {
    if (!links) {
      const r = await api("GET", path() + "/seats");
      if (!r.ok) return;
      links = r.data;
    }
    here = {player, why};
    $("overlay-title").replaceChildren(...parts(_("Hand the device to {player}"), {player: who(player)}));
    $("overlay-body").replaceChildren(el("iframe", {title: fmt(_("{player}'s seat"), {player}),
      src: "/seat/" + encodeURIComponent(state.name) + "?cover=1&lang=" + window.DP.lang + "#" + token(player)}));
    $("overlay").hidden = false;
  }

  function close() {
    here = null;
    $("overlay").hidden = true;
    $("overlay-body").replaceChildren();
  }
  $("overlay-close").addEventListener("click", close);

  // the seat opened to lay or choose closes by itself once its player has nothing left to do
  function done(s) {
    const p = here.player, v = s.vote;
    if (here.why === "lay") return !v || (!v.shown && v.laid.includes(p)) || (v.shown && !v.jein_due.includes(p));
    if (here.why === "choose") return !s.choice_due || s.chosen.includes(p);
    return false;
  }

  function ballot() {
    const v = state.vote;
    const box = $("ballot");
    box.hidden = !v;
    if (!v) return;
    box.replaceChildren(el("h2", {text: fmt(_("Secret vote on {move}"), {move: v.move})}));
    if (v.problem) box.append(el("p", {class: "msg bad", text: v.problem}));
    if (!v.shown) {
      box.append(el("p", {class: "muted", text: _("Each player lays their cards face down on their own seat; all are turned over together once everyone has laid.")}),
        el("ul", {class: "voters"}, ...v.order.map((p) => {
          const laid = v.laid.includes(p);
          return el("li", {"data-player": p, class: laid ? "laid" : "waiting"}, ...parts(laid ? _("{player}: laid ✓ ") : _("{player}: not yet "), {player: who(p)}),
            laid || !person(p) ? "" : el("button", {type: "button", class: "lay-here", "data-player": p, text: _("Lay here"),
              on: () => open(p, "lay")}));
        })),
        el("button", {type: "button", id: "ballot-cancel", text: _("Call the vote off (the tile goes back)"), on: async () => {
          const r = await api("POST", path() + "/ballot/cancel", {});
          if (r.ok) window.DP.onGame(r.data);
        }}));
      return;
    }
    box.append(el("p", {text: _("Every card is turned over.")}), count(v.count, false, state));
    for (const p of v.jein_due.filter(person)) {
      box.append(el("p", {}, ...parts(_("{player} declares their JEIN. {button}"), {player: who(p), button: el("button",
        {type: "button", class: "lay-here", "data-player": p, text: _("Declare here"), on: () => open(p, "lay")})})));
    }
  }

  function choice() {
    const secret = state.choice_due && state.cards_known;
    $("choose-done").hidden = secret;
    if (!secret) return;
    $("keeps").replaceChildren(el("p", {class: "muted", text: _("Each player keeps one of their goal cards on their own seat, secret until the end.")}),
      el("ul", {class: "voters"}, ...state.players.map((p) => {
        const chosen = state.chosen.includes(p.name);
        return el("li", {"data-player": p.name}, ...parts(chosen ? _("{player}: chosen ✓ ") : _("{player}: not yet "), {player: who(p.name)}),
          chosen || !person(p.name) ? "" : el("button", {type: "button", class: "choose-here", text: _("Choose here"), on: () => open(p.name, "choose")}));
      })));
  }

  function show(s) {
    if (defaulted !== s.name) {  // secret ballots where the app holds the cards: a game played on screen
      $("secret-votes").checked = s.cards_known;
      defaulted = s.name;
      links = null;
      $("seats").hidden = true;
    }
    state = s;
    ballot();
    window.DP.turnedOver($("turned"), s);
    choice();
    if (!$("seats").hidden) panel();
    if (here && done(s)) close();
  }

  // a move that covers a toilet, with secret ballots: the vote is opened for the seats
  async function call(m) {
    return api("POST", path() + "/ballot", {move: m.move, turn: state.turn});
  }

  return {show, call, secret: () => $("secret-votes").checked, close};
})();
