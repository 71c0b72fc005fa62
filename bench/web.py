"""Web API benchmark: what the REST API costs on top of the engine, on the dev corpus.

    python bench/web.py [--dev /work/shared/eval/dev] [--rounds 3] [--out bench/results/web.json]

The server is `self-rag web` in a child process, as a user runs it (a server thread inside this process would share its GIL
with the client and add up to a switch interval, 5 ms, to every call); the baseline is an `Engine` in this process on another
DATA_DIR holding the same documents, ingested by `self-rag ingest`.
1. Upload to searchable: R-intro.pdf uploaded through `POST /api/collections/dev/documents` into a fresh DATA_DIR (the
   request returns once it is indexed; the time runs until a search finds it), against `self-rag ingest` of the same file
   into another fresh DATA_DIR, run as a user runs it (a child process: its start-up and model loading included).
2. Page renders with the quote highlighted: for every dev question, its first hit's first page with the hit's text,
   `GET /api/.../document/page`: p50/p95, and the share of renders whose highlight was found.
3. Search: every dev question through `POST /api/search` (httpx, one keep-alive connection) against `Engine.search` in this
   process on the same engine, interleaved round by round, p50 each and their ratio (target: within 1.2x).
4. Time to the first graph step: `POST /api/ask`, from sending the request to the first `step` event, p50 (the offline
   extractive LLM answers). Then in the browser, through the page itself: a fresh `self-rag web` on the same DATA_DIR,
   headless Chromium (Debian's chromium and chromium-driver, driven by selenium) on the Ask screen; each question is typed
   and submitted, and the page times itself from the form's submit event to the first step element in the DOM
   (`performance.now()` in a capturing submit listener and in a MutationObserver on the steps list, read back with
   `execute_script`): p50, and the first question, the first ask of the fresh server, on its own.
5. Keeping a trace: what `TraceLog.search` adds to each dev search (the CLI and the MCP tools write it before they answer;
   the API after its response has gone), p50/p95, against the search's own p50.
6. Evaluation: the dev question file through `POST /api/eval`, every variant, from the upload to the `result` event, against
   `evaluate` in this process on the same documents.
Ratios are against a baseline measured in the same run: the machine is shared and its speed varies.
No EMBEDDING_CACHE: every document is embedded for real, by the upload and by the CLI alike.
"""
import argparse, json, os, platform, shutil, statistics, subprocess, sys, tempfile, time
from pathlib import Path

os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.pop("EMBEDDING_CACHE", None)   # embedding must be real: no vectors read from a cache (the upload and the CLI would share it)
# run as a script, this file's folder comes first on sys.path, and bench/mcp.py would shadow the `mcp` package
sys.path = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
import httpx

from self_rag.config import Settings
from self_rag.engine import Engine
from self_rag.eval import evaluate, load_questions
from self_rag.retriever import VARIANTS
from self_rag.server import SERVE, free_port
from self_rag.traces import TraceLog


def pct(xs, q): xs = sorted(xs); return xs[min(len(xs) - 1, int(q * (len(xs) - 1) + 0.5))]


def upload(http, pdf: Path) -> float:
    "Seconds from the upload's first byte to a search that finds the document."
    t0 = time.perf_counter()
    r = http.post("/api/collections/dev/documents", files=[("files", (pdf.name, pdf.read_bytes(), "application/pdf"))])
    r.raise_for_status()
    hits = http.post("/api/search", json={"query": "missing values NA", "collection": "dev", "top_k": 1}).json()["hits"]
    assert hits and hits[0]["source"] == pdf.name, hits
    return time.perf_counter() - t0


def cli_ingest(pdf: Path, data: Path) -> float:
    "Seconds `self-rag ingest` takes, as a user runs it (a child process, start-up included)."
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", SERVE, "ingest", str(pdf), "-c", "dev"], env={**os.environ, "DATA_DIR": str(data)},
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def renders(http, questions) -> tuple[list[float], int]:
    times, found = [], 0
    for q in questions:
        h = http.post("/api/search", json={"query": q.question, "collection": "dev", "top_k": 1}).json()["hits"][0]
        t0 = time.perf_counter()
        r = http.get("/api/collections/dev/document/page", params={"source": h["source"], "page": h["pages"][0], "quote": h["text"]})
        r.raise_for_status()
        times.append((time.perf_counter() - t0) * 1000)
        found += r.headers["x-highlight-boxes"] != "0"
    return times, found


def searches(http, engine, questions, rounds: int) -> tuple[list[float], list[float]]:
    api, local = [], []
    for _ in range(rounds):
        for q in questions:
            t0 = time.perf_counter(); engine.search(q.question, collection="dev"); local.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter(); http.post("/api/search", json={"query": q.question, "collection": "dev"}).raise_for_status()
            api.append((time.perf_counter() - t0) * 1000)
    return api, local


def first_steps(http, questions) -> list[float]:
    out = []
    for q in questions:
        t0 = time.perf_counter()
        first = None
        with http.stream("POST", "/api/ask", json={"question": q.question, "collection": "dev"}) as r:
            for line in r.iter_lines():   # read to the end: the next question waits for nothing of this one
                if first is None and line == "event: step": first = (time.perf_counter() - t0) * 1000
        out.append(first)
    return out


# Run in the page before each question: note when the Ask form is submitted (a capturing listener runs before the app's
# own) and when the first step element (not the "running" line) enters the steps list.
ASK_CLOCK = """
const steps = document.getElementById("steps"), t = window.firstStep = {submit: null, step: null};
steps.replaceChildren();
document.addEventListener("submit", () => { t.submit = performance.now(); }, {capture: true, once: true});
const seen = new MutationObserver(() => {
  if (t.step === null && steps.querySelector("li:not(.running)")) { t.step = performance.now(); seen.disconnect(); }
});
seen.observe(steps, {childList: true});
"""
# Done when the button is enabled again and the answer (or an error) is shown: the clock, or null while it runs.
ASK_DONE = """
const t = window.firstStep, b = document.querySelector("#ask-form button"), a = document.getElementById("answer");
return t.submit !== null && !b.disabled && a.children.length ? {...t, answer: a.textContent.slice(0, 200)} : null;
"""


def chromium():
    "Headless Chromium from the Debian packages, driven by selenium (nothing is downloaded)."
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium")
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000"): opts.add_argument(arg)
    return webdriver.Chrome(options=opts, service=Service(shutil.which("chromedriver")))


def browser_first_steps(base: str, questions) -> list[float]:
    "Milliseconds from the Ask form's submit to the first graph step in the page's DOM, timed inside the page, per question."
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    driver, out = chromium(), []
    try:
        wait = WebDriverWait(driver, 600)
        driver.get(base + "/#ask")
        wait.until(lambda d: d.execute_script("return [...document.querySelectorAll('#collection option')].some(o => o.value === 'dev')"))
        driver.execute_script("document.getElementById('collection').value = 'dev'")
        box, button = driver.find_element(By.ID, "question"), driver.find_element(By.CSS_SELECTOR, "#ask-form button")
        for q in questions:
            driver.execute_script(ASK_CLOCK)
            box.clear(); box.send_keys(q.question)
            button.click()
            t = wait.until(lambda d: d.execute_script(ASK_DONE))
            if t["step"] is None: raise RuntimeError(f"no graph step appeared for {q.question!r}; the page says: {t['answer']}")
            out.append(t["step"] - t["submit"])
    finally: driver.quit()
    return out


def browser_measure(data: Path, questions) -> dict:
    "Time to the first graph step in headless Chromium, on a fresh `self-rag web` over `data`; skipped (saying why) without Chromium."
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        return {"skipped": "no Chromium here: apt-get install chromium chromium-driver"}
    port = free_port()
    server = web_server(data, port)
    try: steps = browser_first_steps(f"http://127.0.0.1:{port}", questions)
    finally: server.terminate(); server.wait(30)
    return {"p50": statistics.median(steps), "first": steps[0], "n": len(steps), "all": steps}


def trace_writes(engine, questions, folder: Path) -> list[float]:
    "Milliseconds to keep the trace of each question's search, in a log of its own."
    log, out = TraceLog(folder/"traces.jsonl", 20 * 2**20), []
    for q in questions:
        r = engine.search(q.question, collection="dev")
        t0 = time.perf_counter(); log.search(r, "cli"); out.append((time.perf_counter() - t0) * 1000)
    return out


def evaluation(http, engine, qfile: Path) -> tuple[float, float]:
    "Seconds for `POST /api/eval` of `qfile` (every variant) to its `result` event, and for `evaluate` in this process."
    t0 = time.perf_counter()
    with http.stream("POST", "/api/eval", data={"collection": "dev"}, files={"questions": (qfile.name, qfile.read_bytes())}) as r:
        r.raise_for_status()
        events = [line for line in r.iter_lines() if line.startswith("event: ")]
    api = time.perf_counter() - t0
    assert events[-1] == "event: result", events[-3:]
    t0 = time.perf_counter(); evaluate(engine, load_questions(qfile), VARIANTS, 10, "dev")
    return api, time.perf_counter() - t0


def web_server(data: Path, port: int) -> subprocess.Popen:
    "`self-rag web` on `port` over `data`, once its /health says ready."
    p = subprocess.Popen([sys.executable, "-c", SERVE, "web", "--no-browser", "--port", str(port)], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, env={**os.environ, "DATA_DIR": str(data), "UPLOAD_MAX_MB": "100"})
    for _ in range(600):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).json()["ready"]: return p
        except (httpx.HTTPError, ValueError): time.sleep(0.2)
    p.kill(); raise TimeoutError("self-rag web did not start")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dev", type=Path, default=Path("/work/shared/eval/dev"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", type=Path, default=Path(__file__).parent/"results"/"web.json")
    a = ap.parse_args()
    questions = load_questions(a.dev/"questions.jsonl")
    pdf, tmp, port = a.dev/"corpus"/"R-intro.pdf", Path(tempfile.mkdtemp()), free_port()
    res = {"machine": platform.platform(), "cpus": os.cpu_count(), "questions": len(questions)}
    server = web_server(tmp/"web", port)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=600) as http:
            res["upload_to_searchable_s"] = upload(http, pdf)
            res["cli_ingest_s"] = cli_ingest(pdf, tmp/"cli")
            for p in sorted((a.dev/"corpus").glob("*.pdf")):
                if p == pdf: continue
                http.post("/api/collections/dev/documents", files=[("files", (p.name, p.read_bytes(), "application/pdf"))]).raise_for_status()
                cli_ingest(p, tmp/"cli")
            t, found = renders(http, questions)
            res["render_ms"] = {"p50": pct(t, .5), "p95": pct(t, .95), "highlight_found": f"{found}/{len(t)}"}
            with Engine(Settings(data_dir=tmp/"cli")) as engine:
                engine.search("warm up", collection="dev")
                api, local = searches(http, engine, questions, a.rounds)
                writes = trace_writes(engine, questions, tmp)
                eval_api, eval_local = evaluation(http, engine, a.dev/"questions.jsonl")
            res["search_ms"] = {"api_p50": statistics.median(api), "in_process_p50": statistics.median(local),
                                "ratio": statistics.median(api) / statistics.median(local), "target": 1.2}
            res["trace_write_ms"] = {"p50": pct(writes, .5), "p95": pct(writes, .95), "share_of_search_p50": pct(writes, .5) / statistics.median(local)}
            res["eval_s"] = {"api": eval_api, "in_process": eval_local, "ratio": eval_api / eval_local, "searches": len(questions) * len(VARIANTS)}
            steps = first_steps(http, questions[:10])
            res["first_step_ms"] = {"p50": statistics.median(steps), "first": steps[0], "n": len(steps)}
    finally:
        server.terminate(); server.wait(30)
    res["first_step_browser_ms"] = browser_measure(tmp/"web", questions[:10])   # the server above has let go of its DATA_DIR
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(res, indent=1))
    print(f"{'measure':<34}{'value':>14}")
    print(f"{'upload R-intro.pdf to searchable':<34}{res['upload_to_searchable_s']:>12.1f} s")
    print(f"{'self-rag ingest R-intro.pdf':<34}{res['cli_ingest_s']:>12.1f} s")
    print(f"{'page render + highlight p50/p95':<34}{res['render_ms']['p50']:>8.0f}/{res['render_ms']['p95']:.0f} ms  (found {res['render_ms']['highlight_found']})")
    s = res["search_ms"]
    print(f"{'/api/search p50 vs in-process':<34}{s['api_p50']:>9.1f} ms vs {s['in_process_p50']:.1f} ms = {s['ratio']:.2f}x (target 1.2x)")
    f = res["first_step_ms"]
    print(f"{'first graph step p50, API':<34}{f['p50']:>11.0f} ms  (the first ask, graph compiled in the background: {f['first']:.0f} ms)")
    b = res["first_step_browser_ms"]
    if "skipped" in b: print(f"{'first graph step, browser':<34}{'skipped':>14}  ({b['skipped']})")
    else: print(f"{'first graph step p50, browser':<34}{b['p50']:>11.0f} ms  (the first ask of a fresh server: {b['first']:.0f} ms; "
                f"{b['p50'] - f['p50']:+.0f} ms on the API's p50)")
    w = res["trace_write_ms"]
    print(f"{'keeping a search trace p50/p95':<34}{w['p50']:>8.2f}/{w['p95']:.2f} ms  ({100 * w['share_of_search_p50']:.1f}% of a search's p50)")
    e = res["eval_s"]
    print(f"{'/api/eval vs evaluate in-process':<34}{e['api']:>10.1f} s vs {e['in_process']:.1f} s = {e['ratio']:.2f}x ({e['searches']} searches)")


if __name__ == "__main__":
    main()
