// The engine in a Web Worker: a bot's thinking or a long analysis never holds up the page.
// Messages in: {id, name, args} ("table.ask" and the like: the table core's); out: {ready, compiled},
// {failed}, {id, value} / {id, failed}, {event: game} when a game of the table core changed, and
// {kept: true} once the modules this start imported are kept compiled for the next one.
import { loadPyodide, version } from "../pyodide/pyodide.mjs";
import { boot, PACKAGES } from "./engine.js";

const here = (path) => new URL(path, import.meta.url);
const fetched = (path) => fetch(here(path)).then((r) => {
  if (!r.ok) throw new Error(`${path.split("/").pop()}: HTTP ${r.status}`);
  return r.arrayBuffer();
});
const indexURL = here("../pyodide/").href;
const tell = (name) => postMessage({ event: String(name) });
const bundle = fetched("../packages.zip");
// Compiled modules are kept under a name the service worker leaves alone, one set per site files.
const KEPT = "compiled-modules";

async function keptAs() {
  const files = [await bundle, await fetched("../pyodide/python_stdlib.zip"), new TextEncoder().encode(version)];
  const digests = await Promise.all(files.map((b) => crypto.subtle.digest("SHA-256", b)));
  const hex = digests.map((d) => [...new Uint8Array(d)].map((x) => x.toString(16).padStart(2, "0")).join(""));
  return (name) => here(`../compiled/${hex.join("-").slice(0, 200)}/${name}`).href;
}

// The modules this start imported, compiled a few at a time between calls, then kept.
function compileLater(call, store, url) {
  const compiler = call.pyodide.pyimport("drunter_notation.cli.compiled").Compiler(PACKAGES);
  const next = async () => {
    if (!compiler.step()) return void setTimeout(step, 0);
    const zips = compiler.zips();
    const [stdlib, packages] = zips.toJs();
    zips.destroy();
    compiler.destroy();
    for (const request of await store.keys()) await store.delete(request);  // another version's
    await store.put(url("stdlib.zip"), new Response(stdlib));
    await store.put(url("packages.zip"), new Response(packages));
    postMessage({ kept: true });
  };
  const step = () => next().catch((e) => console.error(e));  // not kept: the next start compiles again
  setTimeout(step, 0);
}

async function start() {
  const store = typeof caches === "undefined" ? null : await caches.open(KEPT).catch(() => null);
  let url = null;
  if (store && (await store.keys()).length) {  // a first visit keeps none: it fetches nothing more before it starts
    url = await keptAs().catch(() => null);
    const kept = url && await Promise.all([store.match(url("stdlib.zip")), store.match(url("packages.zip"))]);
    if (kept && kept[0] && kept[1]) {
      const stdLibURL = URL.createObjectURL(await kept[0].blob());
      try {
        return [await boot(loadPyodide, kept[1].arrayBuffer(), { indexURL, stdLibURL }, tell), true];
      } catch (e) {  // kept modules that do not start: forgotten, and the sources compiled again next time
        console.error(e);
        await caches.delete(KEPT);
        return [await boot(loadPyodide, bundle, { indexURL }, tell), false];
      } finally {
        URL.revokeObjectURL(stdLibURL);
      }
    }
  }
  const call = await boot(loadPyodide, bundle, { indexURL }, tell);
  if (store) (url ? Promise.resolve(url) : keptAs()).then((u) => compileLater(call, store, u), (e) => console.error(e));
  return [call, false];
}

const engine = start();
engine.then(([, compiled]) => postMessage({ ready: true, compiled }), (e) => postMessage({ failed: String(e) }));

onmessage = async ({ data }) => {
  const [call] = await engine;
  try {
    const value = data.name.startsWith("table.") ? await call.table[data.name.slice(6)](data.args)
      : call(data.name, data.args);
    postMessage({ id: data.id, value });
  } catch (e) {
    postMessage({ id: data.id, failed: String(e) });
  }
};
