"""Runs every notebook in nbs/ as a test, each in a fresh interpreter, honouring nbdev's test flags.

The notebooks are the test suite (nbdev); this wrapper gives pytest's per-notebook pass/fail count.
Cells flagged `#| slow` run only when SELF_RAG_TEST_FLAGS contains "slow" (as .ci/run sets it).
"""
import os, subprocess, sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(p for p in (ROOT / "nbs").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts and not p.name.startswith("_"))
RUN = """
import sys
from nbdev.config import get_config
from nbdev.test import test_nb as run_nb
cfg = get_config()
from pathlib import Path
ok, _ = run_nb(Path(sys.argv[1]), skip_flags=cfg.tst_flags.split(), force_flags=sys.argv[2].split(), basepath=cfg.config_path)
sys.exit(0 if ok else 1)
"""

@pytest.mark.parametrize("nb", NOTEBOOKS, ids=[str(p.relative_to(ROOT / "nbs")) for p in NOTEBOOKS])
def test_notebook(nb):
    flags = os.environ.get("SELF_RAG_TEST_FLAGS", "")
    timeout = int(os.environ.get("SELF_RAG_NB_TIMEOUT", "1800"))
    res = subprocess.run([sys.executable, "-c", RUN, str(nb), flags], cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    assert res.returncode == 0, f"{nb.name} failed:\n{res.stderr[-6000:]}\n{res.stdout[-2000:]}"
