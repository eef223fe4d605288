// The Replay page's frame: the HTML report of a record, as drunter report writes it, shown with
// the report's own stepping script (assets/report.js) instead of its inline copy.
"use strict";
window.addEventListener("message", (event) => {
  if (event.origin !== location.origin || !event.data || typeof event.data.body !== "string") return;
  document.documentElement.lang = event.data.lang;
  document.title = event.data.title;
  const style = document.createElement("style");
  style.textContent = event.data.style;
  document.head.append(style);
  document.body.innerHTML = event.data.body;
  const script = document.createElement("script");
  script.src = "assets/report.js";
  document.body.append(script);
});
window.parent.postMessage("view-ready", location.origin);
