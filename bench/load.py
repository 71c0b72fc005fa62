"""Load and memory benchmark of `self-rag serve` over streamable HTTP: retrieve latency alone and under writes, and RSS over a soak.

    python bench/load.py [--dev ../shared/eval/dev] [--clients 8] [--phase1-s 30] [--soak-rounds 5] [--soak-pages 7-26]
                         [--soak-variants no-release,shipped] [--out bench/results/load.json]

0. The dev corpus is ingested (`self-rag ingest`) into a temporary DATA_DIR (or `--base DIR`, a DATA_DIR holding it, is copied).
1. Baseline: a real `self-rag serve --transport streamable-http` on a free loopback port; `--clients` Python SDK clients (one
   session each) call `retrieve` with the dev questions for `--phase1-s` seconds. Errors (a tool error, an exception, no hits)
   and latency p50/p95/max.
2. Under load, same server, right after: the same clients, while another client ingests R-intro.pdf copied under a new name
   into DATA_DIR/documents (a new document, ~645 chunks) with `ingest_file`, and a third calls `rag_answer` (the offline default
   LLM) again and again. The phase lasts as long as the ingest. Ratios are against phase 1 of the same run (the machine is shared).
3. Memory soak, one fresh server per variant (`--soak-variants`): a warm-up `rag_answer` (LangGraph loads on the first one,
   and litellm with it for a configured model), then `--soak-rounds` rounds of: `ingest_file` of the same document (pages
   `--soak-pages` of R-intro.pdf), 3 `retrieve`, a `rag_answer`, `delete_document`. The server's RSS (with its children) is
   sampled every `--sample-s` s; RSS after each round and the peak are reported. Variants (how the server is started;
   `--load-variant` picks the one of phases 1-2):
     shipped             self_rag as it is: `Indexer.ingest` ends with `DenseEmbedder.release_memory()` (onnxruntime's arena
                         shrunk, glibc's heap trimmed)
     no-release          shipped, with `release_memory` a no-op: what the server did before
     gc-release-after-write  shipped, plus a full `gc.collect()` and another release after every ingest (pypdf's
                         readers are reference cycles, freed only by a full collection)
     mem-pattern-off     the dense onnxruntime session with memory patterns off
     no-cpu-arena        the dense onnxruntime session without its CPU arena
     malloc-trim         shipped, plus glibc `malloc_trim(0)` after every ingest and delete
     malloc-arena-max-2  shipped, with MALLOC_ARENA_MAX=2 (fewer glibc per-thread heaps)
The RSS curves (the load server's over phases 1-2, each soak variant's) go to a PNG beside the JSON (`--png`).
Everything runs on 127.0.0.1; every loop is bounded by a count and a time; every server is stopped at the end.
"""
import argparse, json, os, platform, shutil, subprocess, sys, tempfile, threading, time
from pathlib import Path

os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
# run as a script, this file's folder comes first on sys.path, and bench/mcp.py would shadow the `mcp` package
sys.path = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import anyio, httpx2, psutil
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from self_rag.eval import load_questions
from self_rag.server import background_server

ROOT = Path(__file__).resolve().parents[1]
SELF_RAG = shutil.which("self-rag") or str(Path(sys.executable).with_name("self-rag"))

def _after(method:str, action:str) -> str:
    "Python that wraps `Indexer.<method>` so that `action` (run with `self`, the indexer) follows every call, even a failed one."
    return f"""
import gc, ctypes
from self_rag.ingest import Indexer
def _wrap(f):
    def g(self, *a, **k):
        try: return f(self, *a, **k)
        finally: {action}
    return g
Indexer.{method} = _wrap(Indexer.{method})
"""

def _session(options:dict) -> str:
    "Python that makes `load_dense` rebuild the dense model's onnxruntime session with `options` set on its SessionOptions."
    return f"""
import onnxruntime as _ort, self_rag.models as _m
_load = _m.load_dense
def _load_dense(settings):
    d = _load(settings); inner = d._model.model; old = inner.model; so = old.get_session_options()
    for k, v in {options!r}.items(): setattr(so, k, v)
    inner.model = _ort.InferenceSession(old._model_path, sess_options=so, providers=old.get_providers())
    return d
_m.load_dense = _load_dense
"""

_RELEASE = "getattr(self.dense, 'release_memory', lambda: None)()"
VARIANTS = {  # name: (python run before the server's own code, extra environment)
    "shipped": ("", {}),
    "no-release": ("import self_rag.models as _m; _m.DenseEmbedder.release_memory = lambda self: None\n", {}),
    "gc-release-after-write": (_after("ingest", "gc.collect(); " + _RELEASE), {}),
    "mem-pattern-off": (_session({"enable_mem_pattern": False}), {}),
    "no-cpu-arena": (_session({"enable_cpu_mem_arena": False}), {}),
    "malloc-trim": (_after("ingest", "ctypes.CDLL(None).malloc_trim(0)") + _after("delete", "ctypes.CDLL(None).malloc_trim(0)"), {}),
    "malloc-arena-max-2": ("", {"MALLOC_ARENA_MAX": "2"}),
}

def pct(xs, q): return sorted(xs)[min(len(xs) - 1, int(q * len(xs)))] if xs else None
def summary(ms:list[float], errors:int, wall:float) -> dict:
    return {"calls": len(ms), "errors": errors, "p50_ms": pct(ms, 0.5), "p95_ms": pct(ms, 0.95), "max_ms": max(ms) if ms else None,
            "calls_per_s": len(ms) / wall if wall else None, "seconds": wall}

def rss_mb(p:psutil.Process) -> float:
    "RSS of `p` and its children, MB."
    procs = [p]
    try: procs += p.children(recursive=True)
    except psutil.Error: pass
    total = 0
    for q in procs:
        try: total += q.memory_info().rss
        except psutil.Error: pass
    return total / 2**20

class Sampler:
    "RSS of a process every `every` s in a thread, each sample labelled with the current phase; at most `limit` samples."
    def __init__(self, pid:int, every:float, limit:int=20000):
        self.p, self.every, self.limit, self.phase, self.samples = psutil.Process(pid), every, limit, "start", []
        self.t0, self._stop = time.monotonic(), threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
    def _run(self):
        while not self._stop.is_set() and len(self.samples) < self.limit:
            try: self.samples.append((time.monotonic() - self.t0, rss_mb(self.p), self.phase))
            except psutil.Error: return
            self._stop.wait(self.every)
    def now(self) -> float: return rss_mb(self.p)
    def peak(self, phase=None) -> float: return max((m for _, m, ph in self.samples if phase is None or ph == phase), default=None)
    def __enter__(self): self._thread.start(); return self
    def __exit__(self, *a): self._stop.set(); self._thread.join(5)

def server(data:Path, variant:str="shipped", timeout:float=120):
    "`self-rag serve --transport streamable-http` on a free loopback port, started as `variant` says; yields (url, process)."
    pre, env = VARIANTS[variant]
    return background_server("streamable-http", {"DATA_DIR": str(data), **env}, timeout=timeout, prelude=pre)

class Sessions:
    "`n` MCP client sessions over streamable HTTP on one connection pool."
    def __init__(self, url:str, n:int): self.url, self.n = url, n
    async def __aenter__(self):
        self.http = httpx2.AsyncClient(timeout=120)
        self.clients = [Client(streamable_http_client(f"{self.url}/mcp", http_client=self.http)) for _ in range(self.n)]
        self.sessions = []
        try:
            for c in self.clients: self.sessions.append(await c.__aenter__())
        except BaseException:
            await self.__aexit__(None, None, None); raise
        return self.sessions
    async def __aexit__(self, *a):
        for c in reversed(self.clients[:len(self.sessions)]):
            try: await c.__aexit__(None, None, None)
            except Exception: pass
        await self.http.aclose()

async def call(session, tool:str, args:dict, timeout:float) -> tuple[float, bool, object]:
    "Milliseconds, whether it succeeded, and the structured result (None on failure)."
    t = time.perf_counter()
    try:
        r = await session.call_tool(tool, args, read_timeout_seconds=timeout)
        sc = r.structured_content or {}
        ok = not r.is_error and {"retrieve": lambda: bool(sc["hits"]),                          # a search that finds nothing failed
                                 "ingest_file": lambda: sc["chunks"] > 0 and not sc["failed"],  # so did an ingest that indexed nothing
                                 }.get(tool, lambda: True)()
        out = sc if ok else (r.content[0].text if r.is_error and r.content else sc or "error")
    except Exception as e: ok, out = False, f"{type(e).__name__}: {e}"
    return (time.perf_counter() - t) * 1000, ok, out

class Workers:
    "Clients calling one tool over a list of inputs, round robin, until stopped, past a deadline, or after `max_calls` calls each."
    def __init__(self, sessions, tool:str, inputs:list[dict], deadline:float, max_calls:int, timeout:float=120):
        self.sessions, self.tool, self.inputs, self.deadline, self.max_calls, self.timeout = sessions, tool, inputs, deadline, max_calls, timeout
        self.ms, self.errors, self.failures, self.stop = [], 0, [], anyio.Event()
    async def worker(self, k:int, session):
        for i in range(self.max_calls):
            if self.stop.is_set() or time.monotonic() > self.deadline: return
            ms, ok, out = await call(session, self.tool, self.inputs[(k + i * len(self.sessions)) % len(self.inputs)], self.timeout)
            self.ms.append(ms)
            if not ok: self.errors += 1; self.failures.append(str(out)[:300])
    async def run(self):
        t0 = time.monotonic()
        async with anyio.create_task_group() as tg:
            for k, s in enumerate(self.sessions): tg.start_soon(self.worker, k, s)
        self.wall = time.monotonic() - t0
    def summary(self) -> dict: return {**summary(self.ms, self.errors, self.wall), "failures": self.failures[:5]}

async def load_phases(url:str, questions:list[str], a, ingest_path:Path, sampler:Sampler) -> dict:
    "Phases 1 and 2 against the server at `url`."
    retrieve_in = [{"query": q} for q in questions]
    async with Sessions(url, a.clients + 2) as sessions:
        readers, writer, asker = sessions[:a.clients], sessions[a.clients], sessions[a.clients + 1]
        for s in readers: await call(s, "retrieve", retrieve_in[0], 60)                              # warm: each session once
        _, ok, out = await call(asker, "rag_answer", {"question": questions[0]}, 300)                # loads LangGraph (and litellm, for a model)
        warm = None if ok else f"warm-up rag_answer failed: {str(out)[:300]}"
        sampler.phase = "phase 1"
        p1 = Workers(readers, "retrieve", retrieve_in, time.monotonic() + a.phase1_s, a.max_calls)
        await p1.run()
        sampler.phase = "phase 2"
        deadline = time.monotonic() + a.phase2_max_s
        p2 = Workers(readers, "retrieve", retrieve_in, deadline, a.max_calls)
        rag = Workers([asker], "rag_answer", [{"question": q} for q in questions], deadline, a.max_calls, timeout=300)
        ingest = {}
        async def write():
            try:
                ms, ok, out = await call(writer, "ingest_file", {"path": str(ingest_path)}, a.phase2_max_s)
                ingest.update(ms=ms, ok=ok, chunks=out.get("chunks") if ok else None, pages=out.get("pages") if ok else None,
                              error=None if ok else str(out)[:500])
            finally: p2.stop.set(); rag.stop.set()
        async with anyio.create_task_group() as tg:
            tg.start_soon(p2.run); tg.start_soon(rag.run); tg.start_soon(write)
        sampler.phase = "after"
    return {"phase1": p1.summary(), "phase2": {"retrieve": p2.summary(), "rag_answer": rag.summary(), "ingest": ingest}, "warmup_error": warm}

async def soak_rounds(url:str, questions:list[str], doc:Path, rounds:int, sampler:Sampler, max_s:float) -> dict:
    "Warm-up `rag_answer`, then `rounds` rounds of ingest, 3 retrieve, rag_answer, delete of `doc`; RSS after each step."
    out = {"start_mb": sampler.now(), "rounds": [], "errors": 0, "failures": []}
    deadline = time.monotonic() + max_s
    def check(ok, res, what):
        if not ok: out["errors"] += 1; out["failures"].append(f"{what}: {str(res)[:300]}")
        return ok
    async with Sessions(url, 1) as (s,):
        sampler.phase = "warm-up"
        check(*(await call(s, "rag_answer", {"question": questions[0]}, 300))[1:], "warm-up rag_answer")
        out["after_warmup_mb"] = sampler.now()
        for r in range(rounds):
            if time.monotonic() > deadline: out["stopped"] = f"--soak-max-s reached after {r} rounds"; break
            sampler.phase = f"round {r + 1}"
            t = time.perf_counter()
            ms, ok, res = await call(s, "ingest_file", {"path": str(doc)}, max_s)
            row = {"ingest_s": ms / 1000, "chunks": res.get("chunks") if check(ok, res, "ingest_file") else None, "after_ingest_mb": sampler.now()}
            for q in (questions[(r * 3 + i) % len(questions)] for i in range(3)): check(*(await call(s, "retrieve", {"query": q}, 60))[1:], "retrieve")
            check(*(await call(s, "rag_answer", {"question": questions[(r * 7) % len(questions)]}, 300))[1:], "rag_answer")
            check(*(await call(s, "delete_document", {"source": doc.name}, 120))[1:], "delete_document")
            row.update(after_round_mb=sampler.now(), seconds=time.perf_counter() - t)
            out["rounds"].append(row)
        sampler.phase = "end"
    return out

def page_subset(src:Path, pages:str, dst:Path) -> Path:
    "Pages `a-b` (1-based, inclusive) of the PDF `src` written to `dst`."
    from pypdf import PdfReader, PdfWriter
    a, b = (int(x) for x in pages.split("-"))
    r, w = PdfReader(src), PdfWriter()
    if not 1 <= a <= b <= len(r.pages): raise SystemExit(f"--soak-pages {pages}: {src.name} has pages 1-{len(r.pages)}")
    for p in r.pages[a - 1:b]: w.add_page(p)
    with open(dst, "wb") as f: w.write(f)
    return dst

def prepare_data(a, work:Path) -> Path:
    "A DATA_DIR holding the dev corpus: `--base` copied, or a fresh ingest with `self-rag ingest`."
    base = work / "base"
    if a.base:
        shutil.copytree(a.base, base, ignore=shutil.ignore_patterns("documents"))
        print(f"copied {a.base}")
    else:
        t = time.perf_counter()
        r = subprocess.run([SELF_RAG, "ingest", str(a.dev / "corpus")], env={**os.environ, "DATA_DIR": str(base)}, capture_output=True,
                           text=True, timeout=a.ingest_timeout_s)
        if r.returncode: raise RuntimeError(f"self-rag ingest failed ({r.returncode}): {r.stderr[-2000:]}")
        print(f"ingested the dev corpus with `self-rag ingest` in {time.perf_counter() - t:.0f} s")
    (base / "documents").mkdir(exist_ok=True)
    return base

def fresh_copy(base:Path, dst:Path) -> Path:
    shutil.copytree(base, dst); return dst

def draw(res:dict, load_samples:list, soak_samples:dict, png:Path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    n = bool(load_samples) + bool(soak_samples)
    if not n: return
    fig, axes = plt.subplots(n, 1, figsize=(11, 4.25 * n), constrained_layout=True, squeeze=False)
    panels = iter(axes[:, 0])
    ax1 = next(panels) if load_samples else None
    ax2 = next(panels) if soak_samples else None
    if load_samples:
        t = [s[0] for s in load_samples]; m = [s[1] for s in load_samples]
        ax1.plot(t, m, color="#4c78a8", lw=1.5, label="server RSS")
        colors = {"phase 1": "#bbd6ee", "phase 2": "#f6c9a0"}
        for ph, c in colors.items():
            ts = [s[0] for s in load_samples if s[2] == ph]
            if ts: ax1.axvspan(min(ts), max(ts), color=c, alpha=0.6, label=ph)
        p1, p2 = res["load"]["phase1"], res["load"]["phase2"]
        ax1.set_title(f"Phases 1-2: {res['clients']} retrieve clients; phase 2 adds ingest_file ({p2['ingest'].get('chunks')} chunks) "
                      f"and rag_answer.\nretrieve p50 {p1['p50_ms']:.0f} -> {p2['retrieve']['p50_ms']:.0f} ms, "
                      f"p95 {p1['p95_ms']:.0f} -> {p2['retrieve']['p95_ms']:.0f} ms; errors {p1['errors']} / {p2['retrieve']['errors']}", fontsize=10)
        ax1.set_xlabel("seconds since the server was ready"); ax1.set_ylabel("RSS, MB"); ax1.legend(loc="upper left"); ax1.grid(alpha=0.3)
        ax1.set_ylim(bottom=0)
    palette = ["#e45756", "#4c78a8", "#54a24b", "#b279a2", "#f58518", "#72b7b2", "#eeca3b", "#9d755d", "#bab0ac"]
    for (name, samples), c in zip(soak_samples.items(), palette):
        s = res["soak"][name]
        ax2.plot([x[0] for x in samples], [x[1] for x in samples], color=c, lw=1.5, label=f"{name}: peak {s['peak_mb']:.0f} MB")
        ends = []
        for r in range(1, len(s["rounds"]) + 1):
            ts = [x[0] for x in samples if x[2] == f"round {r}"]
            if ts: ends.append(max(ts))
        ax2.plot(ends, [r["after_round_mb"] for r in s["rounds"]][:len(ends)], "o", color=c, ms=5)
    if ax2 is None: return _save(fig, png)
    ax2.set_title(f"Soak: per round ingest_file + 3 retrieve + rag_answer + delete_document of the same document "
                  f"({res['soak_doc']['chunks']} chunks); dots: RSS after each round", fontsize=10)
    ax2.set_xlabel("seconds since the server was ready"); ax2.set_ylabel("RSS, MB"); ax2.legend(loc="lower right"); ax2.grid(alpha=0.3)
    ax2.set_ylim(bottom=0)
    _save(fig, png)

def _save(fig, png:Path):
    import matplotlib.pyplot as plt
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=110); plt.close(fig)

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dev", type=Path, default=ROOT.parent / "shared" / "eval" / "dev")
    ap.add_argument("--base", type=Path, help="a DATA_DIR that already holds the dev corpus (copied; saves the ingest)")
    ap.add_argument("--clients", type=int, default=8, help="concurrent retrieve clients in phases 1 and 2")
    ap.add_argument("--phase1-s", type=float, default=30, help="length of phase 1")
    ap.add_argument("--phase2-max-s", type=float, default=600, help="phase 2 lasts as long as the ingest, at most this")
    ap.add_argument("--max-calls", type=int, default=100000, help="calls per client and phase, at most")
    ap.add_argument("--ingest-doc", type=Path, help="the PDF ingested under load (default: the corpus's R-intro.pdf)")
    ap.add_argument("--soak-rounds", type=int, default=5)
    ap.add_argument("--soak-pages", default="7-26", help="pages of R-intro.pdf that make the soak's document")
    ap.add_argument("--soak-variants", default="no-release,shipped", help=f"comma-separated, of: {', '.join(VARIANTS)}")
    ap.add_argument("--load-variant", default="shipped", help="how the server of phases 1-2 is started (a soak variant)")
    ap.add_argument("--soak-max-s", type=float, default=900, help="per variant, at most")
    ap.add_argument("--skip-load", action="store_true", help="only the soak")
    ap.add_argument("--sample-s", type=float, default=0.5, help="RSS sampling period")
    ap.add_argument("--ingest-timeout-s", type=float, default=900)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "load.json")
    ap.add_argument("--png", type=Path, help="default: load_rss.png beside --out")
    a = ap.parse_args()
    png = a.png or a.out.with_name(a.out.stem + "_rss.png")
    variants = [v for v in a.soak_variants.split(",") if v]
    if bad := [v for v in variants + [a.load_variant] if v not in VARIANTS]: ap.error(f"unknown variant(s) {bad}: use {', '.join(VARIANTS)}")
    questions = [q.question for q in load_questions(a.dev / "questions.jsonl") if q.kind in ("factual", "multi")]
    intro = a.ingest_doc or a.dev / "corpus" / "R-intro.pdf"
    work = Path(tempfile.mkdtemp(prefix="self-rag-load-"))
    res = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "load_avg_start": os.getloadavg()},
           "clients": a.clients, "questions": len(questions), "args": {k: str(v) for k, v in vars(a).items()}}
    load_samples, soak_samples = [], {}
    try:
        base = prepare_data(a, work)
        if not a.skip_load:
            data = fresh_copy(base, work / "load")
            doc = data / "documents" / f"load-{intro.name}"
            shutil.copy(intro, doc)                                               # a new source name: a new document
            with server(data, a.load_variant) as (url, proc), Sampler(proc.pid, a.sample_s) as sampler:
                res["load"] = anyio.run(load_phases, url, questions, a, doc, sampler)
                res["load"]["rss_mb"] = {"ready": sampler.samples[0][1] if sampler.samples else None, "phase1_peak": sampler.peak("phase 1"),
                                         "phase2_peak": sampler.peak("phase 2"), "end": sampler.now()}
                load_samples = list(sampler.samples)
            res["load"]["rss_samples"] = [(round(t, 2), round(m, 1), ph) for t, m, ph in load_samples]
        soak_src = a.dev / "corpus" / "R-intro.pdf"
        soak_doc = page_subset(soak_src, a.soak_pages, work / "soak.pdf")
        res["soak"], res["soak_doc"] = {}, {"pages": a.soak_pages, "source": soak_src.name, "chunks": None}
        for v in variants:
            data = fresh_copy(base, work / f"soak-{v}")
            doc = shutil.copy(soak_doc, data / "documents" / "soak.pdf")
            with server(data, v) as (url, proc), Sampler(proc.pid, a.sample_s) as sampler:
                s = anyio.run(soak_rounds, url, questions, Path(doc), a.soak_rounds, sampler, a.soak_max_s)
                s["peak_mb"] = sampler.peak()
                soak_samples[v] = list(sampler.samples)
            s["rss_samples"] = [(round(t, 2), round(m, 1), ph) for t, m, ph in soak_samples[v]]
            res["soak"][v] = s
            res["soak_doc"]["chunks"] = res["soak_doc"]["chunks"] or next((r["chunks"] for r in s["rounds"] if r["chunks"]), None)
            print(f"soak {v}: peak {s['peak_mb']:.0f} MB; after each round {', '.join('%.0f' % r['after_round_mb'] for r in s['rounds'])} MB", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    res["machine"]["load_avg_end"] = os.getloadavg()
    report(res)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(res, indent=1))
    draw(res, load_samples, soak_samples, png)
    print(f"\nwrote {a.out} and {png}")
    errors = sum(s["errors"] for s in res["soak"].values())
    if "load" in res:
        p1, p2 = res["load"]["phase1"], res["load"]["phase2"]
        errors += p1["errors"] + p2["retrieve"]["errors"] + p2["rag_answer"]["errors"] + (not p2["ingest"].get("ok")) + bool(res["load"]["warmup_error"])
    return 1 if errors else 0  # errors must be 0

def report(res:dict):
    if "load" in res:
        L = res["load"]; p1, p2 = L["phase1"], L["phase2"]
        f = lambda x: f"{x:8.1f}" if x is not None else f"{'-':>8}"
        print(f"\n{'phase':44} {'calls':>6} {'err':>4} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'x p50':>6} {'x p95':>6}")
        rows = [(f"1 retrieve, {res['clients']} clients", p1, True), (f"2 retrieve, {res['clients']} clients, under load", p2["retrieve"], True),
                ("2 rag_answer, 1 client, under load", p2["rag_answer"], False)]
        for name, r, ratio in rows:
            rr = (f"{r['p50_ms'] / p1['p50_ms']:6.2f} {r['p95_ms'] / p1['p95_ms']:6.2f}" if ratio and r["calls"] and p1["calls"] else "")
            print(f"{name:44} {r['calls']:6d} {r['errors']:4d} {f(r['p50_ms'])} {f(r['p95_ms'])} {f(r['max_ms'])} {rr}")
        ing = p2["ingest"]
        print(f"2 ingest_file: {'ok' if ing.get('ok') else 'FAILED ' + str(ing.get('error'))}, {ing.get('chunks')} chunks in {ing.get('ms', 0) / 1000:.0f} s"
              f" (phase 2 lasted {p2['retrieve'].get('seconds', 0):.0f} s)")
        m = L["rss_mb"]
        print(f"server RSS: ready {m['ready']:.0f} MB, phase 1 peak {m['phase1_peak']:.0f} MB, phase 2 peak {m['phase2_peak']:.0f} MB, end {m['end']:.0f} MB")
        if L.get("warmup_error"): print(f"  {L['warmup_error']}")
        for name, r in (("phase 1", p1), ("phase 2 retrieve", p2["retrieve"]), ("phase 2 rag_answer", p2["rag_answer"])):
            for x in r.get("failures", []): print(f"  {name} failure: {x}")
    if res.get("soak"):
        n = max(len(s["rounds"]) for s in res["soak"].values())
        print(f"\nsoak: {n} rounds of ingest_file ({res['soak_doc']['chunks']} chunks) + 3 retrieve + rag_answer + delete_document, "
              "RSS MB of the server")
        print(f"{'variant':23} {'RSS after':12} {'err':>4} {'start':>6} {'warm':>6} " + " ".join(f"{'r' + str(i + 1):>6}" for i in range(n))
              + f" {'peak':>6} {'r2->last':>8}")
        for v, s in res["soak"].items():
            for what, key in (("the round", "after_round_mb"), ("the ingest", "after_ingest_mb")):
                after = [r[key] for r in s["rounds"]]
                growth = f"{after[-1] - after[1]:+8.0f}" if len(after) > 2 else f"{'-':>8}"
                first = key == "after_round_mb"
                head = f"{s['errors']:4d} {s['start_mb']:6.0f} {s['after_warmup_mb']:6.0f}" if first else " " * 18
                peak = f"{s['peak_mb']:6.0f}" if first else " " * 6
                print(f"{v if first else '':23} {what:12} {head} " + " ".join(f"{x:6.0f}" for x in after) + " " * 7 * (n - len(after))
                      + f" {peak} {growth}")
            for x in s["failures"][:5]: print(f"  failure: {x}")
        print("(start: server ready; warm: after the first rag_answer, which loads LangGraph (and litellm for a model); rN: after round N, or after its ingest_file; "
              "r2->last: growth from round 2 to the last)")

if __name__ == "__main__": sys.exit(main())
