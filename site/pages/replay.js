// Replay: the record's HTML report, as drunter report writes it, stepped through in a frame with
// the report's own script; on request with drunter analyze's charts (who protects what, win chances).
import { $, _, drunter, recordInput } from "./app.js";
import { DrunterError } from "./drunter.js";

const input = recordInput($("record"), $("files"));
const frame = $("view");
const lang = document.documentElement.lang;
drunter.ready.then(() => { $("replay").disabled = false; $("analyze").disabled = false; });

function busy(on) {
  $("working").hidden = !on;
  $("stop").hidden = !on;
  $("replay").disabled = on;
  $("analyze").disabled = on;
}

function frameReady() {
  return new Promise((resolve) => {
    const listen = (event) => {
      if (event.source === frame.contentWindow && event.data === "view-ready") {
        window.removeEventListener("message", listen);
        resolve();
      }
    };
    window.addEventListener("message", listen);
    frame.src = "../view.html";
  });
}

async function show(withAnalysis) {
  const { path, files } = input.files();
  const args = ["--lang", lang, "report", path, "-o", "report.html"];
  busy(true);
  try {
    if (withAnalysis) {
      const analysis = await drunter.cli(["--lang", lang, "analyze", path, "--format", "json"], files);
      if (analysis.status !== 0) return said(analysis.stdout + analysis.stderr);
      files["analysis.jsonl"] = analysis.stdout;
      args.push("--analysis", "analysis.jsonl");
    }
    const out = await drunter.cli(args, files);
    said(out.stdout + out.stderr);
    const html = out.files["report.html"];
    if (!html) return;
    frame.hidden = false;
    await frameReady();
    frame.contentWindow.postMessage({ html }, location.origin);
  } catch (e) {
    if (e.message === "cancelled") return;
    if (e instanceof DrunterError) return said(e.message);  // what the engine refused, in its words
    console.error(e);  // a crash's own text (a traceback, a script error) is for the console, not the player
    said(_("The record could not be replayed: the engine failed; try again, or reload the page."));
  } finally {
    busy(false);
  }
}

function said(text) {
  $("said").textContent = text;
  $("said").hidden = !text;
}

$("replay-form").addEventListener("submit", (e) => {
  e.preventDefault();
  show(false);
});
$("analyze").addEventListener("click", () => show(true));
$("stop").addEventListener("click", () => drunter.cancel());
