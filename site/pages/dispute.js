// Dispute: drunter adjudicate on a turn of a record, or a move at a position string, under the
// record's own ruleset, one named, or all of them; the verdicts as the command gives them.
import { $, _, drunter, el, recordInput } from "./app.js";
import { DrunterError } from "./drunter.js";

const input = recordInput($("record"), $("files"));
const lang = document.documentElement.lang;

drunter.ready.then(async () => {
  for (const r of await drunter.rulesets()) $("rules").append(el("option", { value: r.id, text: `${r.name} (${r.id})` }));
  $("judge").disabled = false;
});

for (const radio of document.querySelectorAll("input[name=from]")) {
  radio.addEventListener("change", () => {
    const record = document.querySelector("input[name=from]:checked").value === "record";
    $("from-record").hidden = !record;
    $("from-position").hidden = record;
  });
}

$("dispute-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const byRecord = document.querySelector("input[name=from]:checked").value === "record";
  const args = ["--lang", lang, "adjudicate"];
  let files = {};
  if (byRecord) {
    const laid = input.files();
    files = laid.files;
    args.push(laid.path, "--turn", $("turn").value || "1");
  } else {
    args.push("--position", $("position").value.trim());
  }
  const move = $("move").value.trim();
  if (move || !byRecord) args.push("--move", move);
  const rules = $("rules").value;
  if (rules === "all") args.push("--all-rulesets");
  else if (rules) args.push("--rules", rules);
  try {
    const out = await drunter.cli(args, files);
    $("verdict").textContent = out.stdout + out.stderr;
  } catch (e) {  // the engine's words where it gave them (in the page's language), else ours
    $("verdict").textContent = _("The dispute could not be settled.") + (e instanceof DrunterError ? `\n${e.message}` : "");
  }
  $("result").hidden = false;
});
