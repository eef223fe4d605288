// drunter play: the page's language. The one chosen in the menu is kept on this device
// (localStorage) and wins over the browser's: a page the server rendered in another is
// asked for again with ?lang=, before anything is shown.
"use strict";
(function () {
  const words = JSON.parse(document.getElementById("words").textContent);
  let chosen = null;
  try { chosen = localStorage.getItem("drunter-lang"); } catch (e) { /* storage off: the browser's language */ }
  if (chosen && chosen !== words.lang && words.languages.includes(chosen)) {
    const url = new URL(location.href);
    url.searchParams.set("lang", chosen);
    location.replace(url.href);
  }
})();
