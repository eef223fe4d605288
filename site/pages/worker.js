// The engine in a Web Worker: a bot's thinking or a long analysis never holds up the page.
// Messages in: {id, name, args} ("table.ask" and the like: the table core's); out: {ready},
// {failed}, {id, value} / {id, failed}, and {event: game} when a game of the table core changed.
import { loadPyodide } from "../pyodide/pyodide.mjs";
import { boot } from "./engine.js";

const bundle = fetch(new URL("../packages.zip", import.meta.url)).then((r) => {
  if (!r.ok) throw new Error(`packages.zip: HTTP ${r.status}`);
  return r.arrayBuffer();
});
const engine = boot(loadPyodide, bundle, { indexURL: new URL("../pyodide/", import.meta.url).href },
  (name) => postMessage({ event: String(name) }));
engine.then(() => postMessage({ ready: true }), (e) => postMessage({ failed: String(e) }));

onmessage = async ({ data }) => {
  const call = await engine;
  try {
    const value = data.name.startsWith("table.") ? await call.table[data.name.slice(6)](data.args)
      : call(data.name, data.args);
    postMessage({ id: data.id, value });
  } catch (e) {
    postMessage({ id: data.id, failed: String(e) });
  }
};
