// The engine's start, shared by the pages' Web Worker and the tests' Node runner: Pyodide, then
// the one zip of the site's Python packages unpacked into a folder of its own on sys.path.
export const PACKAGES = "/drunter/site-packages";

export async function boot(loadPyodide, bundle, options) {
  const py = await loadPyodide(options);
  py.unpackArchive(await bundle, "zip", { extractDir: PACKAGES });
  py.runPython(`import sys\nsys.path.insert(0, "${PACKAGES}")`);
  const api = py.pyimport("drunter_notation.cli.browser");
  const call = (name, args) => JSON.parse(api.call(name, JSON.stringify(args)));
  call.pyodide = py;
  return call;
}
