// The built site's engine in Node (tests/test_browser_edition.py, bench/browser.py): the site's
// own Pyodide files and packages.zip, booted as its worker boots them. Each line of standard
// input is one call, {"name", "args"}; each answer is one line: {"value"} or {"failed"}. The name
// "python" (here only, never in the pages) runs args.code and answers its last line's value as JSON.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const site = resolve(process.argv[2]);
const { loadPyodide } = await import(pathToFileURL(`${site}/pyodide/pyodide.mjs`).href);
const { boot } = await import(pathToFileURL(`${site}/assets/engine.js`).href);
const quiet = () => {};
const call = await boot(loadPyodide, new Uint8Array(readFileSync(`${site}/packages.zip`)),
  { indexURL: `${site}/pyodide/`, stdout: quiet, stderr: quiet });
process.stdout.write(JSON.stringify({ ready: true }) + "\n");
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const { name, args } = JSON.parse(line);
  let answer;
  try {
    answer = { value: name === "python" ? JSON.parse(call.pyodide.runPython(args.code))
      : name.startsWith("table.") ? await call.table[name.slice(6)](args) : call(name, args) };
  } catch (e) {
    answer = { failed: String(e) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
