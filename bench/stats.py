"""Collection statistics benchmark: what the evidence rules' term statistics cost to keep up to date as documents change.

    python bench/stats.py [--set debian|all|...] [--reps 3] [--data-dir DIR] [--out bench/results/stats.json]

`collection_stats` counts a collection's content terms once per registry version, each document on its own, and puts
the documents' counts together; when the documents change, only the new ones are read and counted. Per set, on its
`eval` collection (ingested as bench/answer.py does), in one process and in turn:
- full: every document counted, nothing remembered (what a first question after start-up pays);
- add: one small Markdown file ingested into the collection, then the statistics brought up to date;
- delete: that file deleted again, then the statistics brought up to date (nothing to read);
- disk: what a new process pays when an earlier one kept each document's counts in DATA_DIR/stats (the `cache` of
  `collection_stats`): the files read back, nothing read from the store;
and, at each of the two states, a full count from scratch as the baseline of the ratio. Each incremental result is
checked against its full count (the same counts, pairs, documents). The added file is removed again even on failure.
Figures are wall-clock medians on whatever machine runs it; compare the ratios, measured in one process.
"""
import argparse, json, os, statistics, sys, tempfile, time
from pathlib import Path

os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
from self_rag.llm import _STATS, collection_stats

sys.path.insert(0, str(Path(__file__).resolve().parent))
import evalsets

ROOT = Path(__file__).resolve().parents[1]
NOTE = "\n\n".join(f"## Note {i}\n\nThe shelf {i} holds spare fuses, a torch and a roll of tape; check it every month." for i in range(12))

def same(a, b) -> bool:
    "Whether two `TermStats` hold the same counts, keys and documents."
    return (a.df, a.n, dict(a.sizes)) == (b.df, b.n, dict(b.sizes)) and all((getattr(a, k) == getattr(b, k)).all() for k in ("pairs", "joined", "held"))

def timed(f) -> tuple[float, object]:
    t0 = time.perf_counter(); out = f()
    return time.perf_counter() - t0, out

def full(store, collection="eval"):
    "A count from scratch: the store's remembered statistics forgotten first."
    _STATS.pop(store, None)
    return collection_stats(store, collection)

def measure(engine, reps: int) -> dict:
    "Median seconds of the full count, of reading the counts back from disk, of the update after an added file and after its deletion, and of a full count at each state."
    store, out = engine.store, {"full": [], "disk": [], "add": [], "add_full": [], "delete": [], "delete_full": []}
    with tempfile.TemporaryDirectory() as tmp:
        note, cache = Path(tmp) / "bench-stats-note.md", Path(tmp) / "stats"; note.write_text(NOTE)
        for _ in range(reps):
            t, base = timed(lambda: full(store)); out["full"].append(t)
            _STATS.pop(store, None); collection_stats(store, "eval", cache)   # counted once more, and kept on disk
            _STATS.pop(store, None); t, kept = timed(lambda: collection_stats(store, "eval", cache)); out["disk"].append(t)
            assert same(kept, base), "the statistics read back from disk differ from a full count"
            engine.ingest([note], collection="eval")
            try:
                t, inc = timed(lambda: collection_stats(store, "eval")); out["add"].append(t)
                t, ref = timed(lambda: full(store)); out["add_full"].append(t)
                assert same(inc, ref) and inc.n > base.n, "the statistics after an added file differ from a full count"
            finally: engine.indexer.delete(str(note), "eval")
            t, inc = timed(lambda: collection_stats(store, "eval")); out["delete"].append(t)
            t, ref = timed(lambda: full(store)); out["delete_full"].append(t)
            assert same(inc, ref) and same(inc, base), "the statistics after a deletion differ from a full count"
    return {k: statistics.median(v) for k, v in out.items()} | {"passages": base.n, "documents": len(base.sizes)}

def table(res: dict) -> str:
    lines = [f"{'set':10s} {'passages':>9s} {'docs':>5s} {'full s':>8s} {'disk s':>7s} {'x full':>7s} {'add s':>8s} {'x full':>7s} {'delete s':>9s} {'x full':>7s}", "-" * 86]
    for name, r in res.items():
        lines.append(f"{name:10s} {r['passages']:9d} {r['documents']:5d} {r['full']:8.3f} {r['disk']:7.3f} {r['disk'] / r['full']:7.3f} "
                     f"{r['add']:8.3f} {r['add'] / r['add_full']:7.3f} "
                     f"{r['delete']:9.4f} {r['delete'] / r['delete_full']:7.4f}")
    return "\n".join(lines)

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    evalsets.add_arguments(ap)
    ap.set_defaults(sets="debian")
    ap.add_argument("--data-dir", type=Path, default=None, help="keep each set's ingest in DATA_DIR/<set> and reuse it")
    ap.add_argument("--reps", type=int, default=3, help="rounds of full, add and delete")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "stats.json")
    a = ap.parse_args(argv)
    res = {}
    for name in evalsets.GROUPS.get(a.sets, (a.sets,)):
        corpus, _ = evalsets.locate(name, a)
        with evalsets.ingested(name, corpus, a.data_dir) as (engine, _, _):
            res[name] = measure(engine, a.reps)
            print(f"== {name}: {res[name]}", flush=True)
    out = {"code": evalsets.code_version(), "reps": a.reps, "sets": res, "table": table(res)}
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(out, indent=1))
    print(); print(out["table"]); print(f"wrote {a.out}")

if __name__ == "__main__":
    main()
