"""benchmarks/gc_pauses: a process started with it logs its collections and takes the
thresholds given (the measurement is in benchmarks/README.md, "The collector's pauses")."""

import os
import re
import subprocess
import sys
from pathlib import Path

FOLDER = Path(__file__).resolve().parent.parent / "benchmarks" / "gc_pauses"


def test_a_process_logs_its_collections_with_the_thresholds_given(tmp_path):
    environment = {
        **os.environ,
        "PYTHONPATH": str(FOLDER),
        "PICKOMINO_GC_LOG": str(tmp_path),
        "PICKOMINO_GC_THRESHOLDS": "700,5,9",
    }
    program = (
        "import gc; gc.set_threshold(50000, 20, 100); gc.collect(1); print(gc.get_threshold())"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], env=environment, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "(700, 5, 9)"
    (log,) = tmp_path.glob("gc_*.log")
    first = log.read_text().splitlines()[0]  # (then the one Python makes as it exits)
    young = r"(gen0 \d+ \d+ms longest [\d.]+ms )?"  # any young collection before it
    assert re.fullmatch(rf"[\d.]+ -c \(700, 5, 9\) {young}gen1 1 \d+ms longest [\d.]+ms", first)
