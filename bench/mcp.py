"""MCP benchmark: what the protocol costs on top of the engine, over each transport, on the dev corpus.

    python bench/mcp.py [--dev ../shared/eval/dev] [--reps 3] [--out bench/results/mcp.json]

1. The dev corpus is ingested into a temporary DATA_DIR (so it runs from a clean clone).
2. Baseline, in this process: `Engine.search` on every dev question (what `retrieve` runs), p50/p95.
3. The SDK's in-process client on `SelfRagServer.mcp`: the protocol's own cost without any transport.
4. Cold start: from spawning `self-rag serve` (stdio) to the first answered `tools/call retrieve`, `--reps` times.
5. `retrieve` over stdio (one server process; 1 and 8 requests in flight on its session: a stdio server has one client)
   and over streamable HTTP (1 and 8 client sessions at once): latency p50/p95 per call, throughput, errors; and the same
   calls as bare JSON-RPC POSTs with httpx (protocol 2026-07-28, one POST per call), to tell the server's and HTTP's
   share of the overhead from the Python SDK client's (its session machinery and its JSON-schema check of each result).
The cross-encoder is off in every run unless its model is installed (as the targets assume). Ratios are against the
baseline measured in the same run: the machine is shared and its speed varies.
"""
import argparse, json, os, platform, shutil, statistics, sys, tempfile, time
from pathlib import Path

os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
# run as a script, this file's folder comes first on sys.path, and this file would shadow the `mcp` package
sys.path = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import anyio, httpx, httpx2
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from self_rag.config import Settings
from self_rag.eval import load_questions
from self_rag.retriever import Engine
from self_rag.server import SelfRagServer, background_server

ROOT = Path(__file__).resolve().parents[1]
TARGETS = {"cold_start_s": 5.0, "stdio_p50_ms": 20.0, "http_p50_ratio": 1.3, "http_raw_p50_ratio": 1.3}
SELF_RAG = shutil.which("self-rag") or str(Path(sys.executable).with_name("self-rag"))

def pct(xs, q): return sorted(xs)[min(len(xs) - 1, int(q * len(xs)))] if xs else None
def summary(ms:list[float], wall:float, errors:int=0) -> dict:
    return {"calls": len(ms), "errors": errors, "p50_ms": pct(ms, 0.5), "p95_ms": pct(ms, 0.95), "mean_ms": statistics.fmean(ms) if ms else None,
            "calls_per_s": len(ms) / wall if wall else None}

def baseline(settings, questions, reps) -> dict:
    with Engine(settings) as e:
        for q in questions: e.search(q)                      # warm: first touches of the shards and the models
        t0, ms = time.perf_counter(), []
        for _ in range(reps):
            for q in questions:
                t = time.perf_counter(); e.search(q); ms.append((time.perf_counter() - t) * 1000)
        return summary(ms, time.perf_counter() - t0)

async def timed_calls(session, questions, reps, concurrency) -> dict:
    "`retrieve` for every question `reps` times, `concurrency` calls in flight on `session` (or on each of a list of sessions)."
    sessions = session if isinstance(session, list) else [session] * concurrency
    work = [q for _ in range(reps) for q in questions]
    ms, errors = [], [0]
    async def worker(s, k):
        for q in work[k::concurrency]:
            t = time.perf_counter()
            r = await s.call_tool("retrieve", {"query": q})
            ms.append((time.perf_counter() - t) * 1000)
            if r.is_error or not r.structured_content["hits"]: errors[0] += 1
    for q in questions[:5]: await sessions[0].call_tool("retrieve", {"query": q})  # warm
    t0 = time.perf_counter()
    async with anyio.create_task_group() as tg:
        for k in range(concurrency): tg.start_soon(worker, sessions[k], k)
    return summary(ms, time.perf_counter() - t0, errors[0])

async def in_process(settings, questions, reps) -> dict:
    srv = SelfRagServer(settings); srv.warm_up()
    try:
        async with Client(srv.mcp) as c: return await timed_calls(c, questions, reps, 1)
    finally: srv.close()

def server_env(data_dir) -> dict:
    return {**os.environ, "DATA_DIR": str(data_dir)}

async def cold_start(data_dir, question) -> dict:
    "Seconds from spawning `self-rag serve` to the first answered retrieve, and the server's own warm-up."
    t0 = time.perf_counter()
    params = StdioServerParameters(command=SELF_RAG, args=["serve"], env=server_env(data_dir))
    with open(os.devnull, "w") as devnull:
        async with Client(stdio_client(params, errlog=devnull)) as c:
            r = await c.call_tool("retrieve", {"query": question})
            first = time.perf_counter() - t0
            h = (await c.call_tool("server_health", {})).structured_content
    assert not r.is_error and r.structured_content["hits"], r
    return {"first_call_s": first, "warmup_s": h["warmup_s"]}

async def over_stdio(data_dir, questions, reps) -> dict:
    params = StdioServerParameters(command=SELF_RAG, args=["serve"], env=server_env(data_dir))
    with open(os.devnull, "w") as devnull:
        async with Client(stdio_client(params, errlog=devnull)) as c:
            return {f"c{n}": await timed_calls(c, questions, reps, n) for n in (1, 8)}

MODERN = "2026-07-28"  # the protocol version of a single-exchange POST: no session, no handshake

def raw_calls(url, questions, reps) -> dict:
    "`retrieve` as bare JSON-RPC POSTs with httpx, no MCP client library: what the server and HTTP cost on their own."
    meta = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "0"},
            "io.modelcontextprotocol/clientCapabilities": {}}
    headers = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call", "Mcp-Name": "retrieve"}
    def post(h, q):
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "retrieve", "arguments": {"query": q}, "_meta": meta}}
        r = h.post(f"{url}/mcp", json=body, headers=headers).json()
        return "result" in r and not r["result"].get("isError") and r["result"]["structuredContent"]["hits"]
    with httpx.Client(timeout=60) as h:
        for q in questions[:5]: post(h, q)
        t0, ms, errors = time.perf_counter(), [], 0
        for _ in range(reps):
            for q in questions:
                t = time.perf_counter(); ok = post(h, q); ms.append((time.perf_counter() - t) * 1000); errors += not ok
        return summary(ms, time.perf_counter() - t0, errors)

async def over_http(data_dir, questions, reps) -> dict:
    out = {}
    with background_server("streamable-http", server_env(data_dir)) as server:
        out["raw"] = await anyio.to_thread.run_sync(raw_calls, server.url, questions, reps)
        for n in (1, 8):
            async with httpx2.AsyncClient(timeout=60) as http:
                clients = [Client(streamable_http_client(f"{server.url}/mcp", http_client=http)) for _ in range(n)]
                sessions = [await c.__aenter__() for c in clients]
                try: out[f"c{n}"] = await timed_calls(sessions, questions, reps, n)
                finally:
                    for c in reversed(clients): await c.__aexit__(None, None, None)
    return out

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dev", type=Path, default=ROOT.parent / "shared" / "eval" / "dev")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "mcp.json")
    a = ap.parse_args()
    questions = [q.question for q in load_questions(a.dev / "questions.jsonl") if q.kind in ("factual", "multi")]
    data = Path(tempfile.mkdtemp()) / "data"
    settings = Settings(_env_file=None, data_dir=data)
    t = time.perf_counter()
    with Engine(settings) as e: rep = e.ingest([a.dev / "corpus"])
    print(f"ingested {rep.pages} pages, {rep.chunks} chunks in {time.perf_counter() - t:.0f} s; {len(questions)} questions x {a.reps}")

    res = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version()}, "questions": len(questions), "reps": a.reps}
    res["in_process_search"] = baseline(settings, questions, a.reps)
    res["in_process_mcp"] = anyio.run(in_process, settings, questions, a.reps)
    res["cold_start"] = [anyio.run(cold_start, data, questions[0]) for _ in range(a.reps)]
    res["stdio"] = anyio.run(over_stdio, data, questions, a.reps)
    res["streamable_http"] = anyio.run(over_http, data, questions, a.reps)

    base = res["in_process_search"]["p50_ms"]
    cold = statistics.median(c["first_call_s"] for c in res["cold_start"])
    rows = [("in-process Engine.search (baseline)", res["in_process_search"]), ("in-process MCP client", res["in_process_mcp"]),
            ("stdio, 1 in flight", res["stdio"]["c1"]), ("stdio, 8 in flight", res["stdio"]["c8"]),
            ("streamable HTTP, 1 client", res["streamable_http"]["c1"]), ("streamable HTTP, 8 clients", res["streamable_http"]["c8"]),
            ("streamable HTTP, bare POSTs (no SDK)", res["streamable_http"]["raw"])]
    print(f"\n{'retrieve':38} {'calls':>6} {'err':>4} {'p50 ms':>8} {'p95 ms':>8} {'x base':>7} {'calls/s':>8}")
    for name, r in rows:
        print(f"{name:38} {r['calls']:6d} {r['errors']:4d} {r['p50_ms']:8.1f} {r['p95_ms']:8.1f} {r['p50_ms'] / base:7.2f} {r['calls_per_s']:8.1f}")
    print(f"\ncold start to first answered retrieve (stdio): median {cold:.2f} s over {a.reps} "
          f"({', '.join('%.2f' % c['first_call_s'] for c in res['cold_start'])}); server warm-up {statistics.median(c['warmup_s'] for c in res['cold_start']):.2f} s")
    checks = {"cold_start_s": (cold, cold < TARGETS["cold_start_s"]),
              "stdio_p50_ms": (res["stdio"]["c1"]["p50_ms"], res["stdio"]["c1"]["p50_ms"] < TARGETS["stdio_p50_ms"]),
              "http_p50_ratio": (res["streamable_http"]["c1"]["p50_ms"] / base, res["streamable_http"]["c1"]["p50_ms"] / base <= TARGETS["http_p50_ratio"]),
              "http_raw_p50_ratio": (res["streamable_http"]["raw"]["p50_ms"] / base, res["streamable_http"]["raw"]["p50_ms"] / base <= TARGETS["http_p50_ratio"]),
              "8_clients_no_errors": (res["streamable_http"]["c8"]["errors"] + res["stdio"]["c8"]["errors"], res["streamable_http"]["c8"]["errors"] + res["stdio"]["c8"]["errors"] == 0)}
    res["targets"] = {k: {"value": v, "target": TARGETS.get(k, 0), "met": ok} for k, (v, ok) in checks.items()}
    print("\n" + "\n".join(f"{k:22} {v:8.2f}  target {TARGETS.get(k, 0):5}  {'met' if ok else 'NOT met'}" for k, (v, ok) in checks.items()))
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(res, indent=2))
    print(f"\nwrote {a.out}")

if __name__ == "__main__": main()
