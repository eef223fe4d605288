// The Replay page's frame: the HTML report of a record, as drunter report writes it, shown with
// the report's own stepping script (assets/report.js) in place of its inline copy, which this
// frame's CSP does not run (it allows the report's inline styles, and scripts only from the site).
"use strict";
window.addEventListener("message", (event) => {
  if (event.origin !== location.origin || !event.data || typeof event.data.html !== "string") return;
  const doc = new DOMParser().parseFromString(event.data.html, "text/html");
  document.documentElement.lang = doc.documentElement.lang;
  document.title = doc.title;
  for (const style of doc.querySelectorAll("style")) document.head.append(style);
  for (const script of doc.querySelectorAll("script:not([type='application/json'])")) script.remove();
  document.body.replaceChildren(...doc.body.childNodes);
  const script = document.createElement("script");
  script.src = "assets/report.js";
  document.body.append(script);
});
window.parent.postMessage("view-ready", location.origin);
