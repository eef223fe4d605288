// Check: drunter validate on the record given, each finding as validate says it, its line
// marked in the record; Format: drunter fmt.
import { $, _, el, drunter, fmt, ngettext, recordInput } from "./app.js";
import { DrunterError } from "./drunter.js";

const area = $("record");
const input = recordInput(area, $("files"));
drunter.ready.then(() => { $("check").disabled = false; $("format").disabled = false; });

function lineOf(text, path) {
  const m = text.startsWith(path + ":") ? /^:(\d+):/.exec(text.slice(path.length)) : null;
  return m ? Number(m[1]) : null;
}

// A DrunterError's words (the engine's, in the page's language) as lines to list; none for another error.
const wordsOf = (e) => (e instanceof DrunterError ? [e.message] : []);

// What the engine refused, its LINES listed, in place of whatever the last answer showed.
function refused(sentence, lines) {
  const items = document.createDocumentFragment();  // appended one by one: a long list is no call's arguments
  for (const t of lines) items.append(el("li", { text: t }));
  $("findings").replaceChildren(items);
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
    return refused(_("The record could not be checked."), wordsOf(e));
  }
  const lines = (out.stdout + out.stderr).split("\n").filter((l) => l.trim());
  const marked = new Set();
  const list = $("findings");
  const items = document.createDocumentFragment();  // appended one by one: a long list is no call's arguments
  for (const text of lines) {
    const n = lineOf(text, path);
    if (n !== null) marked.add(n);
    items.append(el("li", { class: n === null ? "" : "at-line" }, n === null ? text : el("a", { href: `#line-${n}`, text })));
  }
  list.replaceChildren(items);
  $("summary").textContent = out.status === 0 ? _("The record is valid.") : _("The record is not valid.");
  $("summary").className = out.status === 0 ? "valid" : "invalid";
  await listRecord(marked);
  $("result").hidden = false;
}

// The record's lines, as the engine makes them safe to show, up to its limit (a long record would hold
// up the page), the lines with findings marked.
async function listRecord(marked) {
  const source = $("source");
  source.replaceChildren();
  let shown;
  try {
    shown = await drunter.shownLines(area.value);
  } catch (e) {  // the findings stand; in place of the lines, why they are not listed
    source.append(...wordsOf(e).map((t) => el("li", { class: "more", text: t })));
    return;
  }
  const items = document.createDocumentFragment();
  shown.lines.forEach((text, i) => items.append(
    el("li", { id: `line-${i + 1}`, class: marked.has(i + 1) ? "marked" : "" }, el("code", { text: text || " " }))));
  if (shown.more) {
    items.append(el("li", { class: "more" }, fmt(ngettext("… and {n} more line, not listed here",
                                                          "… and {n} more lines, not listed here", shown.more),
                                                 { n: shown.more.toLocaleString(drunter.lang) })));
  }
  source.append(items);
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
    return refused(_("The record could not be formatted."), wordsOf(e));
  }
  if (out.status === 0) area.value = out.stdout;
  else refused(_("The record is not valid."), out.stderr.split("\n").filter(Boolean));
});
