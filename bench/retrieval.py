"""Retrieval benchmark on the dev and debian question sets: quality per funnel variant on each set, side by side; on dev
only, ingestion throughput against the embedding-only ceiling, in-process search latency (also with a registry padded to
a large library's), peak memory, and hybrid query latency of both store backends at 100,000 synthetic chunks.

    python bench/retrieval.py [--set dev|debian|both] [--quick] [--dev ../shared/eval/dev] [--debian-out DIR]
                              [--synthetic 100000] [--out bench/results/retrieval.json] [--compare EARLIER.json]

Each set is ingested into its own temporary DATA_DIR; the JSON holds one entry per set under "sets" (ingest, per-variant
results, per-question metrics; on dev also the timings). `--compare` puts an earlier run's quality figures beside
this run's, per set and variant (a before/after table, also saved under "compare"). `--quick` skips the dev-only sections (embedding ceiling,
search latency, registry padding, backends). The debian corpus is fetched and md5-checked by bench/sets/debian/fetch.py.
Figures are wall-clock on whatever machine runs it; compare the ratios, which are measured in one process.
"""
import argparse, json, os, platform, resource, statistics, sys, tempfile, time
from pathlib import Path

os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
import numpy as np

from self_rag.chunker import chunk_pages
from self_rag.config import Settings
from self_rag.eval import evaluate, load_questions, results_table
from self_rag.ingest import embed_text, file_sha256, version_of
from self_rag.loaders import find_documents, load_document
from self_rag.results import SparseVec
from self_rag.engine import Engine
from self_rag.store import EdgeStore, Point, ServerStore

sys.path.insert(0, str(Path(__file__).resolve().parent))
import evalsets

ROOT = Path(__file__).resolve().parents[1]

def peak_rss_mb() -> float: return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

def pct(xs, q): return sorted(xs)[min(len(xs) - 1, int(q * len(xs)))]

def bench_set(corpus: Path, questions_path: Path, reps: int, timings: bool):
    """Ingest a corpus into a scratch DATA_DIR and evaluate every variant on its questions. With `timings` (the dev set):
    also compare the ingest with embedding the same chunks alone, time searches, and pad the registry."""
    out = {"corpus": str(corpus), "questions_file": str(questions_path)}
    with tempfile.TemporaryDirectory() as d:
        s = Settings(_env_file=None, data_dir=Path(d))
        with Engine(s) as engine:
            engine.dense.embed_documents(["warm up the model"] * 4)
            t0 = time.perf_counter()
            report = engine.ingest([corpus], collection="eval")
            ingest_s = time.perf_counter() - t0
            if report.failed: raise RuntimeError(f"ingesting {corpus} failed for some files:\n{report}")
            files, _ = find_documents([corpus])
            out["ingest"] = {"files": len(files), "pages": report.pages, "chunks": report.chunks, "seconds": ingest_s,
                             "pages_per_s": report.pages / ingest_s, "chunks_per_s": report.chunks / ingest_s}
            if timings:
                # The ceiling: embed exactly the same child texts, in the same batches, and nothing else.
                texts = []
                for f in files:
                    _, children = chunk_pages(load_document(f), s, version=version_of(f.name, file_sha256(f)))
                    texts += [embed_text(c) for c in children]
                t0 = time.perf_counter()
                for i in range(0, len(texts), s.embedding_batch_size): engine.dense.embed_documents(texts[i:i + s.embedding_batch_size])
                embed_s = time.perf_counter() - t0
                out["ingest"].update({"embed_only_seconds": embed_s, "embed_only_chunks_per_s": len(texts) / embed_s,
                                      "ratio_to_embedding_ceiling": embed_s / ingest_s})
            questions = load_questions(questions_path)
            res = evaluate(engine, questions, collection="eval")
            out["questions"] = {"total": len(questions), "scored": res[0].questions if res else 0,
                                "by_kind": {k: sum(q.kind == k for q in questions) for k in sorted({q.kind for q in questions})}}
            out["eval"] = [r.model_dump(exclude={"per_question"}) for r in res]
            out["eval_table"] = results_table(res)
            out["per_question"] = {r.variant: r.per_question for r in res}
            out["difficulty"] = {q.id: q.difficulty for q in questions if q.gold}
            out["reranker"] = (engine.reranker.status.model_dump() if hasattr(engine.reranker.status, "model_dump")
                               else str(engine.reranker.status))
            if timings:
                lat = []
                for _ in range(reps):
                    for q in questions:
                        t0 = time.perf_counter(); engine.search(q.question, collection="eval"); lat.append((time.perf_counter() - t0) * 1000)
                out["search_ms"] = {"n": len(lat), "p50": pct(lat, .5), "p95": pct(lat, .95), "mean": statistics.fmean(lat),
                                    "reranker": out["reranker"]}
                out["registry"] = bench_registry(engine, "eval", questions, reps)
    if timings: out["peak_rss_mb_after_dev"] = peak_rss_mb()
    return out

def bench_registry(engine, collection: str, questions, reps: int, documents: int = 1000) -> dict:
    """Search latency with the dev registry and with it padded to `documents` entries, in turn (each entry a copy of a real one,
    sections and all, naming a file with no points), and what one read of the padded registry costs, parsed or cached."""
    store, real = engine.store, engine.store.read_registry(collection)
    entry = next(iter(real["documents"].values()))
    pad = {f"/padding/{i}.pdf": {**entry, "source": f"{i}.pdf", "path": f"/padding/{i}.pdf", "version": f"{i}.pdf@padding"}
           for i in range(documents - len(real["documents"]))}
    padded = {**real, "documents": {**real["documents"], **pad}}
    lat = {"dev": [], "padded": []}
    try:
        for _ in range(reps):
            for name, meta in (("dev", real), ("padded", padded)):
                store.write_registry(collection, meta)
                for q in questions:
                    t0 = time.perf_counter(); engine.search(q.question, collection=collection); lat[name].append((time.perf_counter() - t0) * 1000)
        def per_call(f, n=20):
            t0 = time.perf_counter()
            for _ in range(n): f(collection)
            return (time.perf_counter() - t0) / n * 1000
        read_ms, cached_ms = per_call(store.read_registry), per_call(store.cached_registry)
    finally: store.write_registry(collection, real)
    return {"documents": documents, "padded_kb": len(json.dumps(padded)) / 1024, "search_p50_ms_dev_registry": pct(lat["dev"], .5),
            "search_p50_ms_padded_registry": pct(lat["padded"], .5), "ratio_padded_to_dev": pct(lat["padded"], .5) / pct(lat["dev"], .5),
            "read_meta_ms": read_ms, "cached_meta_ms": cached_ms}

def synthetic_points(n: int, dim: int, rng, start: int = 0):
    "Random unit vectors and BM25-like sparse vectors (20 terms of a 30k vocabulary), with payloads."
    import uuid
    dense = rng.normal(size=(n, dim)).astype(np.float32); dense /= np.linalg.norm(dense, axis=1, keepdims=True)
    pts = []
    for i in range(n):
        idx = np.unique(rng.integers(0, 30000, 20)); vals = rng.uniform(0.5, 2.5, len(idx)).astype(np.float32)
        pts.append(Point(id=str(uuid.UUID(int=start + i + 1)), payload={"text": f"chunk {start + i}", "source": f"doc{(start + i) % 50}.pdf",
                         "pages": [1], "version": f"doc{(start + i) % 50}.pdf@v1"}, dense=dense[i],
                         sparse=SparseVec(idx.tolist(), vals.tolist())))
    return pts

def bench_backend(store, n: int, dim: int, queries: int, rng, batch: int = 2000):
    name = "bench"
    store.create_collection(name, dim)
    t0 = time.perf_counter()
    for s in range(0, n, batch): store.upsert(name, synthetic_points(min(batch, n - s), dim, rng, s), [])
    upsert_s = time.perf_counter() - t0
    t0 = time.perf_counter(); store.optimize(name); optimize_s = time.perf_counter() - t0
    qs = synthetic_points(queries + 5, dim, rng, 10**9)
    lat = []
    for i, q in enumerate(qs):
        t0 = time.perf_counter()
        store.search(name, "hybrid", dense=q.dense, sparse=q.sparse, k=20, with_vectors=True)
        if i >= 5: lat.append((time.perf_counter() - t0) * 1000)   # the first few warm the caches
    return {"points": store.count(name), "upsert_s": upsert_s, "upsert_points_per_s": n / upsert_s, "optimize_s": optimize_s,
            "hybrid_ms_p50": pct(lat, .5), "hybrid_ms_p95": pct(lat, .95), "queries": len(lat)}

def save(res, out: Path):
    "Write what has been measured so far (a long run that fails late keeps its earlier figures)."
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=2))

METRICS = (("hit@1", "hit@1"), ("hit@5", "hit@5"), ("mrr@10", "MRR@10"), ("ndcg@10", "nDCG@10"))

def sets_table(sets: dict) -> str:
    "Headline metrics per variant, one group of columns per set."
    names = list(sets)
    variants = list(dict.fromkeys(r["variant"] for s in sets.values() for r in s["eval"]))
    rows = []
    for v in variants:
        by = {}
        for n, s in sets.items():
            r = next((r for r in s["eval"] if r["variant"] == v), None)
            if r: by[n] = [f"{r['metrics'][k]:.3f}" for k, _ in METRICS]
        rows.append((v, by))
    notes = {n: f"({s['questions']['scored']} q, {s['ingest']['pages']} pages)" for n, s in sets.items()}
    return evalsets.side_by_side(names, [h for _, h in METRICS], rows, label="variant", notes=notes)

def compare_table(before: dict, after: dict) -> str:
    "Headline metrics per variant of two runs (e.g. `--compare` an earlier JSON), before and after, one pair of column groups per set."
    groups = [(n, w, run) for n in after for w, run in (("before", before), ("after", after)) if n in run]
    variants = list(dict.fromkeys(r["variant"] for s in after.values() for r in s["eval"]))
    rows = []
    for v in variants:
        by = {}
        for n, w, run in groups:
            r = next((r for r in run[n]["eval"] if r["variant"] == v), None)
            if r: by[f"{n} {w}"] = [f"{r['metrics'][k]:.3f}" for k, _ in METRICS]
        rows.append((v, by))
    notes = {f"{n} {w}": f"({run[n]['ingest']['chunks']} chunks)" for n, w, run in groups}
    return evalsets.side_by_side([f"{n} {w}" for n, w, _ in groups], [h for _, h in METRICS], rows, label="variant", notes=notes)

def main(argv=None):
    ap = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    evalsets.add_arguments(ap)
    ap.add_argument("--synthetic", type=int, default=100_000)
    ap.add_argument("--server-synthetic", type=int, default=None, help="points for the qdrant-client local-mode run (default: same)")
    ap.add_argument("--server-queries", type=int, default=10, help="queries timed on the qdrant-client local-mode store (slow: it is Python)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "retrieval.json")
    ap.add_argument("--compare", type=Path, default=None, help="an earlier run's JSON: print its quality figures beside this run's (before/after)")
    a = ap.parse_args(argv)
    names = evalsets.chosen(a)
    timings = "dev" in names and not a.quick
    res = {"machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
           "code": evalsets.code_version(),
           "sets": {}, "quick": a.quick}
    for n in names:
        corpus, qpath = evalsets.locate(n, a)
        t0 = time.perf_counter()
        res["sets"][n] = sr = bench_set(corpus, qpath, a.reps, timings=timings and n == "dev")
        sr["wall_s"] = time.perf_counter() - t0
        print(f"== {n}: {sr['ingest']['files']} files, {sr['ingest']['pages']} pages, {sr['ingest']['chunks']} chunks "
              f"ingested in {sr['ingest']['seconds']:.0f} s; {sr['questions']['scored']} questions with gold pages", flush=True)
        print(sr["eval_table"], flush=True); save(res, a.out)
    res["table"] = sets_table(res["sets"])
    save(res, a.out)
    if timings:
        rng = np.random.default_rng(0)
        with tempfile.TemporaryDirectory() as d:
            edge = EdgeStore(Path(d))
            try: res["edge_100k"] = bench_backend(edge, a.synthetic, 384, 200, rng)
            finally: edge.close()
        n_srv = a.server_synthetic or a.synthetic
        save(res, a.out)
        res["server_local_mode"] = bench_backend(ServerStore(":memory:"), n_srv, 384, a.server_queries, rng)
        res["server_local_mode"]["note"] = "qdrant-client local mode (:memory:), the only Qdrant 'server' obtainable here; a real server runs the same Query API in Rust"
    res["peak_rss_mb"] = peak_rss_mb()
    save(res, a.out)
    print()
    print(res["table"])
    for n, s in res["sets"].items():
        ing = s["ingest"]
        print(f"{n:7} ingest: {ing['pages']} pages, {ing['chunks']} chunks in {ing['seconds']:.1f} s = {ing['pages_per_s']:.1f} pages/s, "
              f"{ing['chunks_per_s']:.1f} chunks/s" + (f"; embedding alone {ing['embed_only_seconds']:.1f} s -> ratio "
                                                       f"{ing['ratio_to_embedding_ceiling']:.2f}" if "embed_only_seconds" in ing else ""))
    if timings:
        dv = res["sets"]["dev"]
        print(f"dev search (full funnel, in-process, {dv['search_ms']['n']} queries): p50 {dv['search_ms']['p50']:.1f} ms, p95 {dv['search_ms']['p95']:.1f} ms")
        rg = dv["registry"]
        print(f"registry padded to {rg['documents']} documents ({rg['padded_kb'] / 1024:.1f} MB): search p50 {rg['search_p50_ms_padded_registry']:.1f} ms "
              f"against {rg['search_p50_ms_dev_registry']:.1f} ms with the dev registry ({rg['ratio_padded_to_dev']:.2f}x); "
              f"one read {rg['read_meta_ms']:.1f} ms parsed, {rg['cached_meta_ms'] * 1000:.1f} us cached")
        for k in ("edge_100k", "server_local_mode"):
            b = res[k]
            print(f"{k:18} {b['points']:>7} points: upsert {b['upsert_points_per_s']:.0f} pts/s, optimize {b['optimize_s']:.1f} s, "
                  f"hybrid p50 {b['hybrid_ms_p50']:.2f} ms, p95 {b['hybrid_ms_p95']:.2f} ms")
        print(f"peak RSS: {res['peak_rss_mb']:.0f} MB (after the dev part: {dv['peak_rss_mb_after_dev']:.0f} MB)")
    else: print(f"peak RSS: {res['peak_rss_mb']:.0f} MB")
    if a.compare:
        before = json.loads(a.compare.read_text())
        res["compare"] = {"file": str(a.compare), "code": before.get("code"), "table": compare_table(before["sets"], res["sets"])}
        save(res, a.out)
        print(f"\nbefore ({a.compare.name}, commit {(before.get('code') or {}).get('commit', '?')[:7]}) and after (this run):")
        print(res["compare"]["table"])
    print(f"wrote {a.out}")

if __name__ == "__main__":
    main()
