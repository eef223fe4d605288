// The site's entry: the language chosen before on this device, else the browser's, else English.
"use strict";
(function () {
  let chosen = null;
  try { chosen = localStorage.getItem("drunter-lang"); } catch (e) { /* storage off */ }
  const offered = ["en", "de", "cs"];
  const browser = (navigator.languages || [navigator.language || "en"]).map((l) => l.slice(0, 2).toLowerCase());
  const lang = offered.includes(chosen) ? chosen : (browser.find((l) => offered.includes(l)) || "en");
  location.replace(lang + "/check.html" + location.hash);
})();
