"""The offline app's Python start with Pyodide's standard library and the package compiled to
bytecode (what ``pickomino build-app`` ships) against both as source (the runtime's own
library): Pyodide loaded and the package imported, in Node.js (the same V8 and WebAssembly
as Chromium, without the page), the two alternated; wall time and CPU of each start,
medians, and their ratio.

Run: ``.venv/bin/python benchmarks/pyodide_start.py [--starts 5]`` (Pyodide's runtime from the
cache, fetched the first time; needs Node.js).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from pickomino.web.offline_app.build import package_zip
from pickomino.web.offline_app.bytecode import compiled_package, standard_library
from pickomino.web.offline_app.runtime import RUNTIME_FILES, pyodide_runtime

#: One start: Pyodide loaded, the package imported as the app's worker imports it (engine.js).
START = """
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [runtime, zip] = process.argv.slice(2);
const wall = performance.now(), cpu = process.cpuUsage();
const { loadPyodide } = await import(pathToFileURL(join(runtime, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: join(runtime, "/") });
pyodide.FS.writeFile("/home/pyodide/pickomino.zip", readFileSync(zip));
pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/pickomino.zip')");
pyodide.pyimport("pickomino.offline.answers");
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({
    wall: (performance.now() - wall) / 1000,
    cpu: (used.user + used.system) / 1e6,
    origin: pyodide.runPython("import json; json.__spec__.origin"),
    package: pyodide.runPython("import pickomino.core.state as state; state.__file__"),
}));
"""


def start(node: str, script: Path, runtime: Path, package: Path) -> dict:
    done = subprocess.run(
        [node, str(script), str(runtime), str(package)], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--starts", type=int, default=5, help="starts of each (default 5)")
    args = parser.parse_args(argv)
    if args.starts < 1:
        parser.error("--starts must be at least 1")
    node = shutil.which("node")
    if node is None:
        parser.error("Node.js is needed (the `node` command)")
    runtime = pyodide_runtime()
    source_package = package_zip()
    compiled, why = standard_library(runtime)
    package, why_package = compiled_package(runtime, source_package)
    if why or why_package:
        sys.exit(f"could not compile: {why or why_package}")
    with tempfile.TemporaryDirectory() as work:
        folders = {"source": runtime, "compiled": Path(work) / "compiled"}
        folders["compiled"].mkdir()
        for name in RUNTIME_FILES:
            (folders["compiled"] / name).symlink_to(runtime / name)
        (folders["compiled"] / "python_stdlib.zip").unlink()
        shutil.copyfile(compiled, folders["compiled"] / "python_stdlib.zip")
        packages = {"source": Path(work) / "source.zip", "compiled": Path(work) / "compiled.zip"}
        packages["source"].write_bytes(source_package)
        packages["compiled"].write_bytes(package)
        script = Path(work) / "start.mjs"
        script.write_text(START)
        runs: dict[str, list[dict]] = {kind: [] for kind in folders}
        for _ in range(args.starts):
            for kind, folder in folders.items():
                runs[kind].append(start(node, script, folder, packages[kind]))
    for kind, done in runs.items():
        wall = statistics.median(run["wall"] for run in done)
        cpu = statistics.median(run["cpu"] for run in done)
        print(
            f"{kind:>8}: {wall:.2f} s to the package imported, {cpu:.2f} s CPU (medians of"
            f" {len(done)}); json imported from {done[0]['origin']}, the engine from"
            f" {done[0]['package']}"
        )
    source, compiled_runs = runs["source"], runs["compiled"]
    for measure in ("wall", "cpu"):
        ratio = statistics.median(r[measure] for r in source) / statistics.median(
            r[measure] for r in compiled_runs
        )
        print(f"source/compiled, {measure}: {ratio:.1f}x")


if __name__ == "__main__":
    main()
