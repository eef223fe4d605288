// Check: drunter validate on the record given, each finding as validate says it, its line
// marked in the record; Format: drunter fmt.
import { $, _, el, drunter, recordInput } from "./app.js";
import { DrunterError } from "./drunter.js";

const area = $("record");
const input = recordInput(area, $("files"));
drunter.ready.then(() => { $("check").disabled = false; $("format").disabled = false; });

function lineOf(text, path) {
  const m = text.startsWith(path + ":") ? /^:(\d+):/.exec(text.slice(path.length)) : null;
  return m ? Number(m[1]) : null;
}

// What the engine refused (a DrunterError's words are the engine's, in the page's language),
// in place of whatever the last answer showed.
function refused(sentence, e) {
  $("findings").replaceChildren(...(e instanceof DrunterError ? [el("li", { text: e.message })] : []));
  $("summary").textContent = sentence;
  $("summary").className = "invalid";
  $("source").replaceChildren();
  $("result").hidden = false;
}

async function check() {
  const { path, files } = input.files();
  let out;
  try {
    out = await drunter.cli(["validate", path], files);
  } catch (e) {
    return refused(_("The record could not be checked."), e);
  }
  const lines = (out.stdout + out.stderr).split("\n").filter((l) => l.trim());
  const marked = new Set();
  const list = $("findings");
  list.replaceChildren(...lines.map((text) => {
    const n = lineOf(text, path);
    if (n !== null) marked.add(n);
    const item = el("li", { class: n === null ? "" : "at-line" }, n === null ? text : el("a", { href: `#line-${n}`, text }));
    return item;
  }));
  $("summary").textContent = out.status === 0 ? _("The record is valid.") : _("The record is not valid.");
  $("summary").className = out.status === 0 ? "valid" : "invalid";
  $("source").replaceChildren(...area.value.split("\n").map((text, i) =>
    el("li", { id: `line-${i + 1}`, class: marked.has(i + 1) ? "marked" : "" }, el("code", { text: text || " " }))));
  $("result").hidden = false;
}

$("check-form").addEventListener("submit", (e) => {
  e.preventDefault();
  check();
});

$("format").addEventListener("click", async () => {
  const { path, files } = input.files();
  let out;
  try {
    out = await drunter.cli(["fmt", path], files);
  } catch (e) {
    return refused(_("The record could not be formatted."), e);
  }
  if (out.status === 0) area.value = out.stdout;
  else {
    $("findings").replaceChildren(...out.stderr.split("\n").filter(Boolean).map((t) => el("li", { text: t })));
    $("summary").textContent = _("The record is not valid.");
    $("summary").className = "invalid";
    $("source").replaceChildren();
    $("result").hidden = false;
  }
});
