// The engine in a Web Worker: a bot's thinking or a long analysis never holds up the page.
// Messages in: {id, name, args}; out: {ready}, {failed}, or {id, value} / {id, failed}.
import { loadPyodide } from "../pyodide/pyodide.mjs";
import { boot } from "./engine.js";

const bundle = fetch(new URL("../packages.zip", import.meta.url)).then((r) => {
  if (!r.ok) throw new Error(`packages.zip: HTTP ${r.status}`);
  return r.arrayBuffer();
});
const engine = boot(loadPyodide, bundle, { indexURL: new URL("../pyodide/", import.meta.url).href });
engine.then(() => postMessage({ ready: true }), (e) => postMessage({ failed: String(e) }));

onmessage = async ({ data }) => {
  const call = await engine;
  try {
    postMessage({ id: data.id, value: call(data.name, data.args) });
  } catch (e) {
    postMessage({ id: data.id, failed: String(e) });
  }
};
