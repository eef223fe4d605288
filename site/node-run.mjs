// The site's engine in Node (tests/test_browser_edition.py, bench/browser.py): the site's
// own Pyodide files and packages.zip, booted as its worker boots them. Each line of standard
// input is one call, {"name", "args"}; each answer is one line: {"value"} or {"failed"}. The name
// "python" (here only, never in the pages) runs args.code and answers its last line's value as JSON.
// With "compiled" after the site, the engine is the pages' second start: every module of the
// engine imported, compiled as the worker keeps them (drunter_notation/cli/compiled.py), and a
// new engine started from those.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createInterface } from "node:readline";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const site = resolve(process.argv[2]);
const { loadPyodide } = await import(pathToFileURL(`${site}/pyodide/pyodide.mjs`).href);
const { boot, PACKAGES } = await import(pathToFileURL(`${site}/assets/engine.js`).href);
const quiet = () => {};
const options = { indexURL: `${site}/pyodide/`, stdout: quiet, stderr: quiet };
let call = await boot(loadPyodide, new Uint8Array(readFileSync(`${site}/packages.zip`)), options);
if (process.argv[3] === "compiled") {
  call.pyodide.runPython(`import pkgutil, importlib, drunter_notation
for m in pkgutil.walk_packages(drunter_notation.__path__, "drunter_notation."):
    if not m.name.startswith(("drunter_notation.ai", "drunter_notation.web")) and not m.name.endswith("__main__"):
        try:
            importlib.import_module(m.name)
        except ImportError:  # a command a page cannot run (drunter play: no server)
            pass`);
  const compiler = call.pyodide.pyimport("drunter_notation.cli.compiled").Compiler(PACKAGES);
  while (!compiler.step());
  const [stdlib, packages] = compiler.zips().toJs();
  const dir = mkdtempSync(join(tmpdir(), "drunter-compiled-"));
  writeFileSync(join(dir, "stdlib.zip"), stdlib);
  call = await boot(loadPyodide, packages, { ...options, stdLibURL: join(dir, "stdlib.zip") });
  rmSync(dir, { recursive: true });
}
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
