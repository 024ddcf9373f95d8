// Pyodide's standard library compiled to bytecode by Pyodide's own Python, run by Node.js when
// the offline app is built (pickomino/web/offline_app/bytecode.py):
//
//     node compile_stdlib.mjs RUNTIME_FOLDER OUT_ZIP
//
// Each module of RUNTIME_FOLDER/python_stdlib.zip becomes a sourceless .pyc beside where its .py
// was (an unchecked hash-based one: the import compares nothing), named for the place Pyodide
// mounts the zip, so that tracebacks name the module's file; any other file, and a module this
// Python cannot compile, stays as it is. Entries keep their order and dates: the same runtime
// gives the same zip.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [runtime, out] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(runtime, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: join(runtime, "/") });
pyodide.FS.writeFile("/tmp/source.zip", readFileSync(join(runtime, "python_stdlib.zip")));
pyodide.runPython(`
import importlib.util, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

mounted = next(path for path in sys.path if path.endswith(".zip"))
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
                continue
        compiled.writestr(entry, data)
`);
writeFileSync(out, pyodide.FS.readFile("/tmp/compiled.zip"));
