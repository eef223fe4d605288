(function () {
  "use strict";
  var data = document.getElementById("frames");  // none in the report of an unreadable record
  var frames = data ? JSON.parse(data.textContent) : [];
  if (!frames.length) return;
  var $ = function (id) { return document.getElementById(id); };
  var each = function (sel, fn) { Array.prototype.forEach.call(document.querySelectorAll(sel), fn); };
  var tiles = Array.prototype.slice.call(document.querySelectorAll("#board .tile"));
  var marks = {}, items = {}, details = [];
  each("#board .mark", function (m) { marks[m.getAttribute("data-frame")] = m; });
  each(".detail", function (d) { details.push(d); });
  each("#turns li[data-frame]", function (li) { items[li.getAttribute("data-frame")] = li; });
  var gangs = frames[0].g.map(function (_, k) { return $("gang-" + k); });
  var list = $("turns"), slider = $("slider"), pos = $("pos"), board = $("board");
  var chart = document.querySelector(".chart"), now = $("chart-now");
  var cur = -1;
  function toggle(el, cls, on) { if (el) el.classList.toggle(cls, on); }
  function show(i) {
    i = Math.max(0, Math.min(frames.length - 1, i));
    if (i === cur) return;
    var f = frames[i];
    tiles.forEach(function (t, k) { t.classList.toggle("off", k >= f.n); });
    if (cur >= 0) { toggle(marks[cur], "off", true); toggle(details[cur], "off", true); toggle(items[cur], "current", false); }
    else {  // the first frame shown (maybe from a #frame-N link): every other one is hidden
      details.forEach(function (d) { d.classList.add("off"); });
      Object.keys(marks).forEach(function (k) { marks[k].classList.add("off"); });
    }
    toggle(marks[i], "off", false); toggle(details[i], "off", false); toggle(items[i], "current", true);
    f.g.forEach(function (g, k) {
      if (!gangs[k]) return;
      gangs[k].setAttribute("transform", "translate(" + g[0] + "," + g[1] + ")");
      gangs[k].classList.toggle("removed", !g[2]);
    });
    var li = items[i];
    if (li && (li.offsetTop < list.scrollTop || li.offsetTop + li.offsetHeight > list.scrollTop + list.clientHeight))
      list.scrollTop = li.offsetTop - list.clientHeight / 2;
    slider.value = i;
    slider.setAttribute("aria-valuetext", details[i] ? details[i].getAttribute("aria-label") : String(i));
    pos.textContent = i + " / " + (frames.length - 1);
    if (chart && now) {
      var x = +chart.getAttribute("data-x0") + Math.min(i, +chart.getAttribute("data-n") - 1) * +chart.getAttribute("data-dx");
      now.setAttribute("x1", x); now.setAttribute("x2", x);
    }
    cur = i;
    try { history.replaceState(null, "", "#frame-" + i); } catch (e) { /* some file:// contexts forbid it */ }
  }
  $("first").addEventListener("click", function () { show(0); });
  $("prev").addEventListener("click", function () { show(cur - 1); });
  $("next").addEventListener("click", function () { show(cur + 1); });
  $("last").addEventListener("click", function () { show(frames.length - 1); });
  slider.addEventListener("input", function () { show(+slider.value); });
  each("[data-goto]", function (el) {  // the analysis charts: a turning point steps the board there
    var go = function () { show(+el.getAttribute("data-goto")); if (board) board.scrollIntoView({ block: "nearest" }); };
    el.addEventListener("click", go);
    el.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
  });
  list.addEventListener("click", function (e) {
    var b = e.target.closest("button[data-frame]");
    if (b) show(+b.getAttribute("data-frame"));
  });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.target === slider) return;
    var to = { ArrowLeft: cur - 1, ArrowRight: cur + 1, Home: 0, End: frames.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });
  // Touch: a sideways swipe on the board steps (leftwards: on), a tap steps by the half tapped.
  // The mouse keeps the board for tooltips; vertical swipes stay page scrolling (touch-action).
  if (board) {
    var start = null;
    board.addEventListener("pointerdown", function (e) {
      start = e.pointerType === "mouse" ? null : { x: e.clientX, y: e.clientY };
    });
    board.addEventListener("pointercancel", function () { start = null; });
    board.addEventListener("pointerup", function (e) {
      if (!start) return;
      var dx = e.clientX - start.x, dy = e.clientY - start.y;
      start = null;
      if (Math.abs(dx) >= 30 && Math.abs(dx) > 1.5 * Math.abs(dy)) show(cur + (dx < 0 ? 1 : -1));
      else if (Math.abs(dx) < 10 && Math.abs(dy) < 10) {
        var r = board.getBoundingClientRect();
        show(cur + (e.clientX >= r.left + r.width / 2 ? 1 : -1));
      }
    });
  }
  function fromHash() {  // #frame-N in the address: that frame, on load and whenever the address changes
    var m = /^#frame-(\d+)$/.exec(location.hash);
    return m ? +m[1] : null;
  }
  window.addEventListener("hashchange", function () { var i = fromHash(); if (i !== null) show(i); });
  var linked = fromHash();
  show(linked === null ? 0 : linked);
})();
