"""MCP benchmark: what the protocol costs on top of the engine, over each transport, on the dev corpus.

    python bench/mcp.py [--dev ../shared/eval/dev] [--reps 3] [--http-rounds 10] [--out bench/results/mcp.json]

1. The dev corpus is ingested into a temporary DATA_DIR (so it runs from a clean clone).
2. Baseline, in this process: `Engine.search` on every dev question (what `retrieve` runs), p50/p95.
3. The SDK's in-process client on `SelfRagServer.mcp`: the protocol's own cost without any transport.
4. Cold start: from spawning `self-rag serve` (stdio) to the first answered `tools/call retrieve`, `--reps` times; then
   the session's first `rag_answer`, asked at once, against its second.
5. `retrieve` over stdio (one server process; 1 and 8 requests in flight on its session: a stdio server has one client)
   and over streamable HTTP (1 and 8 client sessions at once): latency p50/p95 per call, throughput, errors.
6. Over streamable HTTP, three clients of one server, each round running the in-process search (on a copy of DATA_DIR) and
   each client once in turn, so that all of them share one baseline and the server's share is told from the clients':
   - a minimal client: the standard library's `http.client` on one keep-alive connection, one JSON-RPC POST per call
     (protocol 2026-07-28: no session, no handshake). It spends well under a millisecond of its own, so its latency is
     the server's and HTTP's cost; the HTTP target is measured with it.
   - the Python SDK's client, and the TypeScript SDK's client (`@modelcontextprotocol/sdk`, the one the MCP Inspector is
     built on; run with node when node and npm are there). Each reports its own CPU time per call.
The cross-encoder is off in every run unless its model is installed (as the targets assume). Ratios are against the
baseline measured in the same run: the machine is shared and its speed varies. The HTTP clients also get a ratio per round
(their pass against the baseline's pass of that round), whose spread shows how far one figure can be trusted.
"""
import argparse, http.client, json, os, platform, shutil, statistics, subprocess, sys, tempfile, time
from pathlib import Path
from typing import NamedTuple, Optional
from urllib.parse import urlparse

os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
# run as a script, this file's folder comes first on sys.path, and this file would shadow the `mcp` package
sys.path = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import anyio, httpx2
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from self_rag.config import Settings
from self_rag.eval import load_questions
from self_rag.engine import Engine
from self_rag.server import SelfRagServer, background_server

ROOT = Path(__file__).resolve().parents[1]
TARGETS = {"cold_start_s": 5.0, "stdio_p50_ms": 20.0, "http_p50_ratio": 1.3}
TS_SDK = "@modelcontextprotocol/sdk@1.32.2"
SELF_RAG = shutil.which("self-rag") or str(Path(sys.executable).with_name("self-rag"))

def pct(xs, q): return sorted(xs)[min(len(xs) - 1, int(q * len(xs)))] if xs else None
def summary(ms:list[float], wall:float, errors:int=0, cpu_ms:float=None) -> dict:
    "Latency percentiles of `ms`, throughput over `wall` seconds, and the client's own CPU per call when known."
    return {"calls": len(ms), "errors": errors, "p50_ms": pct(ms, 0.5), "p95_ms": pct(ms, 0.95), "mean_ms": statistics.fmean(ms) if ms else None,
            "calls_per_s": len(ms) / wall if wall else None, "client_cpu_ms": cpu_ms}

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
    t0, cpu0 = time.perf_counter(), time.process_time()
    async with anyio.create_task_group() as tg:
        for k in range(concurrency): tg.start_soon(worker, sessions[k], k)
    return summary(ms, time.perf_counter() - t0, errors[0], (time.process_time() - cpu0) * 1000 / len(ms))

async def in_process(settings, questions, reps) -> dict:
    srv = SelfRagServer(settings); srv.warm_up()
    try:
        async with Client(srv.mcp) as c: return {**await timed_calls(c, questions, reps, 1), "client_cpu_ms": None}  # server and client share this process
    finally: srv.close()

def server_env(data_dir) -> dict:
    return {**os.environ, "DATA_DIR": str(data_dir)}

async def cold_start(data_dir, question) -> dict:
    """Seconds from spawning `self-rag serve` to the first answered retrieve, and the server's own warm-up; then the first
    `rag_answer` of the session, asked at once (LangGraph, and litellm for a model, still loading in the background), and a second one."""
    t0 = time.perf_counter()
    params = StdioServerParameters(command=SELF_RAG, args=["serve"], env=server_env(data_dir))
    with open(os.devnull, "w") as devnull:
        async with Client(stdio_client(params, errlog=devnull)) as c:
            r = await c.call_tool("retrieve", {"query": question})
            first = time.perf_counter() - t0
            answers = []
            for _ in range(2):
                t1 = time.perf_counter()
                a = await c.call_tool("rag_answer", {"question": question})
                assert not a.is_error, a
                answers.append(time.perf_counter() - t1)
            h = (await c.call_tool("server_health", {})).structured_content
    assert not r.is_error and r.structured_content["hits"], r
    return {"first_call_s": first, "warmup_s": h["warmup_s"], "first_answer_s": answers[0], "second_answer_s": answers[1]}

async def over_stdio(data_dir, questions, reps) -> dict:
    params = StdioServerParameters(command=SELF_RAG, args=["serve"], env=server_env(data_dir))
    with open(os.devnull, "w") as devnull:
        async with Client(stdio_client(params, errlog=devnull)) as c:
            return {f"c{n}": await timed_calls(c, questions, reps, n) for n in (1, 8)}

MODERN = "2026-07-28"  # the protocol version of a single-exchange POST: no session, no handshake

class Block(NamedTuple):
    "One pass of a client over the questions."
    ms: list[float]                           # latency of each call
    errors: int                               # calls without hits, or failed
    cpu_ms: Optional[float]                   # the client's own CPU over the pass; None when it shares a process with the server

class MinimalClient:
    "`retrieve` as bare JSON-RPC POSTs with `http.client` on one keep-alive connection: what the server and HTTP cost on their own."
    meta = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "0"},
            "io.modelcontextprotocol/clientCapabilities": {}}
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "MCP-Protocol-Version": MODERN,
               "Mcp-Method": "tools/call", "Mcp-Name": "retrieve"}
    def __init__(self, url):
        u = urlparse(url); self.conn = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
    def call(self, q) -> bool:
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "retrieve", "arguments": {"query": q}, "_meta": self.meta}}
        self.conn.request("POST", "/mcp", json.dumps(body), self.headers)
        r = json.loads(self.conn.getresponse().read())
        return "result" in r and not r["result"].get("isError") and bool(r["result"]["structuredContent"]["hits"])
    def block(self, questions) -> Block:
        self.conn.close()        # the server drops a connection idle for 5 s (uvicorn's keep-alive), as it is while the other clients
        return timed_block(self.call, questions)  # take their turn: reconnect per pass (a loopback connect, well under 1 ms)
    def close(self): self.conn.close()

def timed_block(call, questions, cpu=True) -> Block:
    "Time the blocking `call` on each question."
    ms, errors, cpu0 = [], 0, time.process_time()
    for q in questions:
        t = time.perf_counter(); ok = call(q); ms.append((time.perf_counter() - t) * 1000); errors += not ok
    return Block(ms, errors, (time.process_time() - cpu0) * 1000 if cpu else None)

async def sdk_block(session, questions) -> Block:
    ms, errors, cpu0 = [], 0, time.process_time()
    for q in questions:
        t = time.perf_counter(); r = await session.call_tool("retrieve", {"query": q}); ms.append((time.perf_counter() - t) * 1000)
        errors += r.is_error or not r.structured_content["hits"]
    return Block(ms, errors, (time.process_time() - cpu0) * 1000)

class TypeScriptClient:
    "The TypeScript SDK's client in node (bench/mcp_client.mjs), kept connected; `block` runs one pass through it."
    def __init__(self, url, cache:Path):
        node, npm = shutil.which("node"), shutil.which("npm")
        if not (node and npm): raise RuntimeError("node and npm are needed")
        if not (cache / "node_modules" / "@modelcontextprotocol" / "sdk").exists():
            cache.mkdir(parents=True, exist_ok=True)
            r = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--prefix", str(cache), TS_SDK], capture_output=True, text=True, timeout=300)
            if r.returncode: raise RuntimeError(f"npm install {TS_SDK} failed: {r.stderr.strip()[-300:]}")
        shutil.copy(Path(__file__).with_name("mcp_client.mjs"), cache / "mcp_client.mjs")  # node finds the SDK beside the script
        self.p = subprocess.Popen([node, str(cache / "mcp_client.mjs"), f"{url}/mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    def block(self, questions) -> Block:
        self.p.stdin.write(json.dumps(questions) + "\n"); self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line: raise RuntimeError(f"the TypeScript client exited ({self.p.wait()})")
        r = json.loads(line); return Block(r["ms"], r["errors"], r["cpu_ms"])
    def close(self): self.p.stdin.close(); self.p.wait(10)

def pooled(blocks:list[Block], wall:float) -> dict:
    ms = [m for b in blocks for m in b.ms]
    cpu = None if blocks[0].cpu_ms is None else sum(b.cpu_ms for b in blocks) / len(ms)
    return summary(ms, wall, sum(b.errors for b in blocks), cpu)

def round_ratios(blocks:list[Block], base:list[Block]) -> list[float]:
    "Each round's p50 over the baseline's p50 in the same round."
    return [pct(b.ms, 0.5) / pct(a.ms, 0.5) for b, a in zip(blocks, base)]

async def over_http(settings, server_data, questions, reps, rounds) -> dict:
    """Over streamable HTTP: the in-process search and each client in turn, one pass each per round, `rounds` rounds, so that a change
    of the machine's speed during the run touches all of them alike; then 8 Python SDK clients at once, `reps` passes.
    The in-process engine reads `settings.data_dir`, the server a copy of it (`server_data`): one store has one owner."""
    out = {}
    with background_server("streamable-http", server_env(server_data)) as server, Engine(settings) as engine:
        opened = [MinimalClient(server.url)]
        try: opened.append(TypeScriptClient(server.url, Path(tempfile.gettempdir()) / "self-rag-bench-node"))
        except (RuntimeError, OSError, subprocess.TimeoutExpired) as e: out["typescript"] = {"skipped": str(e)}
        clients = {"baseline": lambda qs: timed_block(engine.search, qs, cpu=False), "minimal": opened[0].block}
        if len(opened) > 1: clients["typescript"] = opened[1].block
        try:
            async with Client(streamable_http_client(f"{server.url}/mcp")) as session:
                clients["c1"] = session
                blocks, wall = {k: [] for k in clients}, dict.fromkeys(clients, 0.0)
                for rnd in range(rounds + 1):                                       # round 0 warms every path up
                    for name, c in clients.items():
                        await anyio.sleep(0.2)                                      # let the last pass's threads settle (ONNX spins a while)
                        t = time.perf_counter()
                        b = await sdk_block(c, questions) if name == "c1" else c(questions)
                        if rnd: blocks[name].append(b); wall[name] += time.perf_counter() - t
        finally:
            for c in opened: c.close()
        out.update({k: pooled(v, wall[k]) | {"round_ratios": round_ratios(v, blocks["baseline"])} for k, v in blocks.items() if k != "baseline"})
        out["baseline"] = pooled(blocks["baseline"], wall["baseline"])
        async with httpx2.AsyncClient(timeout=60) as http:
            many = [Client(streamable_http_client(f"{server.url}/mcp", http_client=http)) for _ in range(8)]
            sessions = [await c.__aenter__() for c in many]
            try: out["c8"] = await timed_calls(sessions, questions, reps, 8)
            finally:
                for c in reversed(many): await c.__aexit__(None, None, None)
    return out

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dev", type=Path, default=ROOT.parent / "shared" / "eval" / "dev")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--http-rounds", type=int, default=10, help="rounds of the interleaved HTTP passes (they are short)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "mcp.json")
    a = ap.parse_args()
    questions = [q.question for q in load_questions(a.dev / "questions.jsonl") if q.kind in ("factual", "multi")]
    data = Path(tempfile.mkdtemp()) / "data"
    settings = Settings(_env_file=None, data_dir=data)
    t = time.perf_counter()
    with Engine(settings) as e: rep = e.ingest([a.dev / "corpus"])
    print(f"ingested {rep.pages} pages, {rep.chunks} chunks in {time.perf_counter() - t:.0f} s; {len(questions)} questions x {a.reps}")

    res = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version()}, "questions": len(questions), "reps": a.reps,
           "http_rounds": a.http_rounds}
    res["in_process_search"] = baseline(settings, questions, a.reps)
    res["in_process_mcp"] = anyio.run(in_process, settings, questions, a.reps)
    res["cold_start"] = [anyio.run(cold_start, data, questions[0]) for _ in range(a.reps)]
    res["stdio"] = anyio.run(over_stdio, data, questions, a.reps)
    shutil.copytree(data, data.with_name("server-data"))
    res["streamable_http"] = anyio.run(over_http, settings, data.with_name("server-data"), questions, a.reps, a.http_rounds)

    base, http = res["in_process_search"]["p50_ms"], res["streamable_http"]
    hbase = http["baseline"]["p50_ms"]
    cold = statistics.median(c["first_call_s"] for c in res["cold_start"])
    rows = [("in-process Engine.search (baseline)", res["in_process_search"], base), ("in-process MCP client", res["in_process_mcp"], base),
            ("stdio, Python SDK, 1 in flight", res["stdio"]["c1"], base), ("stdio, Python SDK, 8 in flight", res["stdio"]["c8"], base),
            ("in-process Engine.search (HTTP base)", http["baseline"], hbase), ("HTTP, minimal client", http["minimal"], hbase),
            ("HTTP, Python SDK, 1 client", http["c1"], hbase), ("HTTP, TypeScript SDK, 1 client", http["typescript"], hbase),
            ("HTTP, Python SDK, 8 clients", http["c8"], hbase)]
    print(f"\n{'retrieve':36} {'calls':>6} {'err':>4} {'p50 ms':>8} {'p95 ms':>8} {'x base':>7} {'calls/s':>8} {'client CPU ms/call':>19}")
    for name, r, b in rows:
        if "skipped" in r: print(f"{name:36} skipped: {r['skipped']}"); continue
        cpu = f"{r['client_cpu_ms']:19.2f}" if r["client_cpu_ms"] is not None else f"{'-':>19}"
        print(f"{name:36} {r['calls']:6d} {r['errors']:4d} {r['p50_ms']:8.1f} {r['p95_ms']:8.1f} {r['p50_ms'] / b:7.2f} {r['calls_per_s']:8.1f} {cpu}")
    print("(HTTP rows: each round runs the in-process search and every client once in turn, so their ratios share one baseline)")
    print(f"\ncold start to first answered retrieve (stdio): median {cold:.2f} s over {a.reps} "
          f"({', '.join('%.2f' % c['first_call_s'] for c in res['cold_start'])}); server warm-up {statistics.median(c['warmup_s'] for c in res['cold_start']):.2f} s")
    med = lambda k: statistics.median(c[k] for c in res["cold_start"])
    print(f"rag_answer right after that first retrieve: first of the session {med('first_answer_s'):.2f} s, second {med('second_answer_s'):.2f} s (medians)")
    print("HTTP, p50 over the baseline = the client's own CPU + the rest (server and HTTP):")
    for k, name in (("minimal", "minimal client"), ("c1", "Python SDK client"), ("typescript", "TypeScript SDK client")):
        if "skipped" in http[k]: continue
        over, own = http[k]["p50_ms"] - hbase, http[k]["client_cpu_ms"]
        print(f"  {name:22} +{over:4.1f} ms = {own:4.1f} ms + {over - own:4.1f} ms")
    print(f"HTTP, x base per round ({a.http_rounds} rounds): median (min-max)")
    for k, name in (("minimal", "minimal client"), ("c1", "Python SDK client"), ("typescript", "TypeScript SDK client")):
        if "skipped" in http[k]: continue
        rr = http[k]["round_ratios"]
        print(f"  {name:22} {statistics.median(rr):.2f} ({min(rr):.2f}-{max(rr):.2f})")
    errors = res["streamable_http"]["c8"]["errors"] + res["stdio"]["c8"]["errors"]
    checks = {"cold_start_s": (cold, cold < TARGETS["cold_start_s"]),
              "stdio_p50_ms": (res["stdio"]["c1"]["p50_ms"], res["stdio"]["c1"]["p50_ms"] < TARGETS["stdio_p50_ms"]),
              "http_p50_ratio": (http["minimal"]["p50_ms"] / hbase, http["minimal"]["p50_ms"] / hbase <= TARGETS["http_p50_ratio"]),
              "8_clients_no_errors": (errors, errors == 0)}
    res["targets"] = {k: {"value": v, "target": TARGETS.get(k, 0), "met": ok} for k, (v, ok) in checks.items()}
    print("\n" + "\n".join(f"{k:22} {v:8.2f}  target {TARGETS.get(k, 0):5}  {'met' if ok else 'NOT met'}" for k, (v, ok) in checks.items()))
    print("(http_p50_ratio: the minimal client, so the ratio is the server's and HTTP's cost; the SDK clients' rows add their own CPU)")
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(res, indent=2))
    print(f"\nwrote {a.out}")

if __name__ == "__main__": main()
