// Python modules compiled to bytecode by Pyodide's own Python, run by Node.js when the offline
// app is built (pickomino/web/offline_app/bytecode.py):
//
//     node compile_zip.mjs RUNTIME_FOLDER IN_ZIP OUT_ZIP MOUNTED SOURCES
//
// Each module of IN_ZIP gets a .pyc beside its .py (an unchecked hash-based one: the import
// compares nothing), named for the place MOUNTED where the page's Python imports the zip from
// (empty: where Pyodide mounts its standard library), so that tracebacks name the module's
// file. SOURCES "keep" leaves the .py there too (tracebacks then show the lines), "drop"
// leaves the bytecode alone. Any other file, and a module this Python cannot compile, stays as
// it is. Entries keep their order and dates: the same input gives the same zip.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [runtime, input, out, mounted, sources] = process.argv.slice(2);
if (!["keep", "drop"].includes(sources)) throw new Error(`SOURCES: keep or drop, not ${sources}`);
const { loadPyodide } = await import(pathToFileURL(join(runtime, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: join(runtime, "/") });
pyodide.FS.writeFile("/tmp/source.zip", readFileSync(input));
pyodide.globals.set("mounted", mounted);
pyodide.globals.set("keep_sources", sources === "keep");
pyodide.runPython(`
import importlib.util, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

mounted = mounted or next(path for path in sys.path if path.endswith(".zip"))
with zipfile.ZipFile("/tmp/source.zip") as source, \\
        zipfile.ZipFile("/tmp/compiled.zip", "w", zipfile.ZIP_DEFLATED) as compiled:
    for entry in source.infolist():
        data = source.read(entry)
        if entry.filename.endswith(".py"):
            try:
                code = compile(data, f"{mounted}/{entry.filename}", "exec", dont_inherit=True)
            except SyntaxError:
                pass
            else:
                pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
                pyc_entry = zipfile.ZipInfo(entry.filename + "c", entry.date_time)
                compiled.writestr(pyc_entry, pyc, zipfile.ZIP_DEFLATED)
                if not keep_sources:
                    continue
        compiled.writestr(entry, data)
`);
writeFileSync(out, pyodide.FS.readFile("/tmp/compiled.zip"));
