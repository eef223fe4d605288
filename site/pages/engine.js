// The engine's start, shared by the pages' Web Worker and the tests' Node runner: Pyodide, then
// the one zip of the site's Python packages unpacked into a folder of its own on sys.path.
// call(name, args) answers drunter_notation.cli.browser's calls; call.table the table core's
// (drunter_notation.cli.table_worker, imported on first use), whose changes go to TELL(name).
export const PACKAGES = "/drunter/site-packages";

export async function boot(loadPyodide, bundle, options, tell = () => {}) {
  const py = await loadPyodide(options);
  py.unpackArchive(await bundle, "zip", { extractDir: PACKAGES });
  py.runPython(`import sys\nsys.path.insert(0, "${PACKAGES}")`);
  const api = py.pyimport("drunter_notation.cli.browser");
  const call = (name, args) => JSON.parse(api.call(name, JSON.stringify(args)));
  let core = null;
  const table = () => {
    if (!core) {
      core = py.pyimport("drunter_notation.cli.table_worker");
      core.start(tell);
    }
    return core;
  };
  call.table = {
    // a JS null reaches Python as pyodide.ffi.jsnull, not None: an absent token or language goes as undefined
    ask: async ({ method, path, body, token, lang }) =>
      JSON.parse(await table().ask(method, path, JSON.stringify(body || {}), token ?? undefined, lang ?? undefined)),
    tokens: ({ name, players }) => JSON.parse(table().tokens(name, JSON.stringify(players ?? null))),
    export: ({ name }) => JSON.parse(table().export(name)),
    restore: ({ name, kept }) => JSON.parse(table().restore(name, JSON.stringify(kept ?? null))),
  };
  call.pyodide = py;
  return call;
}
