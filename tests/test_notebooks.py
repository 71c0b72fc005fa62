"""Runs every notebook in nbs/ as a test, each in a fresh interpreter, honouring nbdev's test flags.

The notebooks are the test suite (nbdev); this wrapper gives pytest's per-notebook pass/fail count.
Cells flagged `#| slow` run only when SELF_RAG_TEST_FLAGS contains "slow" (as tools/test sets it).

Notebooks are independent (each works in its own temporary folders and picks free ports), so
`tools/test` runs several at once with pytest-xdist. The suite takes as long as its longest chain,
so the longest notebooks start first: see `DURATIONS` and `schedule`.
"""
import os, subprocess, sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOUND = [p for p in (ROOT / "nbs").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts and not p.name.startswith("_")]

# Seconds each notebook took with SELF_RAG_TEST_FLAGS=slow, 3 at a time on a 2-core machine that others kept
# busy (load average 12-14), as `tools/test` prints them (pytest --durations). Only their order matters:
# refresh the table when a notebook grows a lot. A notebook missing here is scheduled first.
DURATIONS = {
    "04_loaders.ipynb": 396, "24_cli.ipynb": 377, "26_faults.ipynb": 367, "27_hostile.ipynb": 246, "08_ingest.ipynb": 216,
    "22_client.ipynb": 181, "25_docs.ipynb": 125, "18_graph.ipynb": 108, "21_server.ipynb": 100, "28_wire.ipynb": 84,
    "index.ipynb": 79, "tutorials/getting_started.ipynb": 78, "11_retriever.ipynb": 75, "03_models.ipynb": 61, "14_llm.ipynb": 60,
    "13_eval.ipynb": 54, "15_prompts.ipynb": 35, "07_store.ipynb": 24, "17_routes.ipynb": 19, "05_formats.ipynb": 19,
    "06_chunker.ipynb": 16, "10_rerank.ipynb": 14, "16_nodes.ipynb": 14, "12_watch.ipynb": 15, "09_mmr.ipynb": 7, "23_migrate.ipynb": 7, "00_config.ipynb": 6,
}

def name(nb:Path) -> str: return nb.relative_to(ROOT / "nbs").as_posix()

def schedule(nbs:list, workers:int) -> list:
    """`nbs` in the order that lets `workers` pytest-xdist workers finish soonest.

    Longest first (a notebook missing from `DURATIONS` counts as the longest: it is new, nobody has timed it).
    xdist's `load` scheduler first hands each worker a chunk of consecutive tests (two, unless there are
    more than 8 per worker), then one test at a time to whichever worker has one left, in collection order.
    So the first chunks are dealt out longest first, back and forth across the workers (worker 0 gets
    the longest and the shortest of the first round, ...), and the rest follow longest first.
    """
    top = max(DURATIONS.values())
    ranked = sorted(nbs, key=lambda p: (-DURATIONS.get(name(p), top + 1), name(p)))
    if workers < 2 or len(ranked) < 2 * workers: return ranked  # fewer tests: xdist deals them one by one
    chunk = max(2, len(ranked) // workers // 4)
    head, rest = ranked[:chunk * workers], ranked[chunk * workers:]
    dealt = [[] for _ in range(workers)]
    for i, nb in enumerate(head):
        r, k = divmod(i, workers)
        dealt[k if r % 2 == 0 else workers - 1 - k].append(nb)
    return [nb for chunk_ in dealt for nb in chunk_] + rest

NOTEBOOKS = schedule(FOUND, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))  # set in each xdist worker

RUN = """
import sys
from nbdev.config import get_config
from nbdev.test import test_nb as run_nb
cfg = get_config()
from pathlib import Path
ok, _ = run_nb(Path(sys.argv[1]), skip_flags=cfg.tst_flags.split(), force_flags=sys.argv[2].split(), basepath=cfg.config_path)
sys.exit(0 if ok else 1)
"""

@pytest.mark.parametrize("nb", NOTEBOOKS, ids=[name(p) for p in NOTEBOOKS])
def test_notebook(nb):
    flags = os.environ.get("SELF_RAG_TEST_FLAGS", "")
    timeout = int(os.environ.get("SELF_RAG_NB_TIMEOUT", "1800"))
    res = subprocess.run([sys.executable, "-c", RUN, str(nb), flags], cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    assert res.returncode == 0, f"{nb.name} failed:\n{res.stderr[-6000:]}\n{res.stdout[-2000:]}"
