"""Answer benchmark on the dev and debian question sets: the Self-RAG graph with the configured model (the offline default
unless CHAT_MODEL or OPENROUTER_API_KEY says otherwise) on each set, side by side; on dev only, then with a zero-latency
scripted LLM.

    python bench/answer.py [--set dev|debian|both] [--quick] [--dev ../shared/eval/dev] [--debian-out DIR] [--reps 3]
                           [--out bench/results/answer.json] [--data-dir DIR]

Part 1, per set (`LLM(settings, embedder=engine.dense)`): keyword-complete answers and cited gold pages on
the factual questions (multi reported apart), chitchat answered without retrieval, unanswerable questions abstained, seconds
and LLM calls per question, and how many of an extractive answer's quoted lines stand on a page their citation names (the
PDF's own page text, as the loaders read it). Part 2, dev only (`ScriptedLLM` scripted for the common path: retrieve,
relevant, supported, useful; and a rewrite for a question whose passages the evidence rules decline): the graph's own
overhead per question = run ms - the retrieve node's ms (it includes engine.search) - the LLM calls' ms; `--quick` skips
it. Each corpus is ingested into its own temporary DATA_DIR first, so it runs from a clean clone;
the debian corpus is fetched and md5-checked by bench/sets/debian/fetch.py. The JSON holds one entry per set under "sets".

The model is the one the settings name, as everywhere else: the same questions and targets measure a real model, e.g.

    CHAT_MODEL=ollama/llama3.1 LLM_API_BASE=http://localhost:11434 python bench/answer.py --set all --quick
"""
import argparse, json, os, platform, re, statistics, sys, time, unicodedata
from pathlib import Path

os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")

from self_rag.eval import load_questions
from self_rag.graph import SelfRAG
from self_rag.llm import LLM, chat_model
from self_rag.llm import NO_ANSWER
from self_rag.loaders import load_document
from self_rag.testing import ScriptedLLM
from self_rag.text import CITATION, one_line

sys.path.insert(0, str(Path(__file__).resolve().parent))
import evalsets

ROOT = Path(__file__).resolve().parents[1]
TARGETS = {"cited_gold_factual": 0.90, "keyword_complete_factual": 0.70, "keyword_complete_multi": 0.50, "chitchat_no_retrieval": 1.0,
           "unanswerable_abstained": 0.90, "overhead_ms_p95": 20.0}

def pct(xs, q): return sorted(xs)[min(len(xs) - 1, int(q * len(xs)))] if xs else None
def share(xs): return sum(xs) / len(xs) if xs else None

def forms(s: str) -> list[str]:
    "The README's keyword normalisation: NFKC, straight quotes, lower case, a line-break hyphen joined or kept, no whitespace."
    s = unicodedata.normalize("NFKC", s).lower().replace("\u2019", "'").replace("\u2018", "'")
    # the extractive answer has its whitespace collapsed, so a line-break hyphen shows as "- " rather than "-\n"
    return [re.sub(r"\s+", "", re.sub(r"(?<=\w)-\s+(?=\w)", j, s)) for j in ("", "-")]

def missing_keywords(answer: str, keywords: list[str]) -> list[str]:
    fs = forms(answer)
    return [k for k in keywords if not any(re.sub(r"\s+", "", unicodedata.normalize("NFKC", k).lower()) in f for f in fs)]

def llm_calls(a) -> int: return sum(len(s.llm_calls) for s in a.trace)

def repeated_lines(answer: str) -> int:
    "How many of the answer's cited lines (part headings aside) repeat an earlier one."
    lines = [l.strip() for l in answer.splitlines() if CITATION.search(l) and not l.startswith("**")]
    return len(lines) - len(set(lines))

_PAGES = {}

def page_texts(path: str) -> dict:
    "A document's text per page (a page's pieces joined, whitespace collapsed), as the loaders read it; read once."
    if path not in _PAGES:
        _PAGES[path] = {}
        for p in load_document(Path(path)): _PAGES[path][p.page] = _PAGES[path].get(p.page, "") + " " + one_line(p.text)
    return _PAGES[path]

def lines_on_cited_pages(a) -> tuple:
    "Of an extractive answer's quoted lines (headings aside), how many stand on a page their citations name: (on, all); (0, 0) for a model's own words."
    if not a.extractive: return 0, 0
    cites, on, n = {c.doc: c for c in a.citations}, 0, 0
    for line in a.answer.splitlines():
        docs = [cites[d] for m in CITATION.finditer(line) for d in map(int, re.findall(r"\d+", m.group(1))) if d in cites]
        text = one_line(CITATION.sub(" ", line))
        if line.startswith("**") or not docs or len(text) < 20: continue
        n += 1   # a quote over a page break: its first words on one page, its last on the next
        on += any(probe in page_texts(c.path).get(page, "") for c in docs for page in c.pages for probe in (text[:50], text[-50:]))
    return on, n

def judge(q, a) -> dict:
    "One question's record: what the graph did and whether it is right for the question's kind."
    cited = sorted({(c.source, p) for c in a.citations for p in c.pages})
    r = {"id": q.id, "kind": q.kind, "difficulty": q.difficulty, "retrieved": a.retrieved, "abstained": NO_ANSWER in a.answer,
         "support": a.support, "usefulness": a.usefulness, "retries": a.retries, "seconds": a.ms / 1000, "llm_calls": llm_calls(a),
         "relevant_per_grading": [s.info.get("relevant") for s in a.trace if s.node == "relevance_grader"],
         "cited": cited, "gold": sorted(q.gold), "answer": a.answer, "notes": a.notes, "repeated_lines": repeated_lines(a.answer),
         "lines_on_cited_pages": lines_on_cited_pages(a)}
    if q.kind in ("factual", "multi"):
        r["missing_keywords"] = missing_keywords(a.answer, q.answer_keywords)
        r["keyword_complete"] = not r["missing_keywords"]
        r["cited_gold"] = bool(set(cited) & q.gold)
        r["cites_other_document"] = bool({s for s, _ in cited} - {s for s, _ in q.gold})   # a manual the question's answer is not in
        r["ok"] = r["keyword_complete"] and r["cited_gold"]
    elif q.kind == "chitchat":
        r["ok"] = not a.retrieved and (q.expected_answer is None or q.expected_answer in a.answer)
    else: r["ok"] = r["abstained"]
    return r

def answers_part(engine, questions, collection) -> dict:
    rag = SelfRAG(engine, LLM(engine.settings, embedder=engine.dense))
    rag.answer("warm up the models", collection=collection)      # lazy imports and first-call costs stay out of the figures
    recs = []
    for q in questions:
        recs.append(judge(q, rag.answer(q.question, collection=collection)))
        r = recs[-1]; print(f"  {r['id']} {r['kind']:12} {'ok ' if r['ok'] else 'BAD'} {r['seconds']:5.1f} s  {r['llm_calls']:2} calls", flush=True)
    of = lambda kind, key: [r[key] for r in recs if r["kind"] == kind]
    secs, calls = [r["seconds"] for r in recs], [r["llm_calls"] for r in recs]
    answered = [r for r in recs if r["kind"] in ("factual", "multi") and not r["abstained"]]
    return {"model": rag.llm.model, "per_question": recs,
            "keyword_complete_factual": share(of("factual", "keyword_complete")), "cited_gold_factual": share(of("factual", "cited_gold")),
            "keyword_complete_multi": share(of("multi", "keyword_complete")), "cited_gold_multi": share(of("multi", "cited_gold")),
            "chitchat_no_retrieval": share([not x for x in of("chitchat", "retrieved")]),
            "unanswerable_abstained": share(of("unanswerable", "abstained")),
            "n": {k: len(of(k, "id")) for k in ("factual", "multi", "chitchat", "unanswerable")},
            "seconds_mean": statistics.fmean(secs), "seconds_p50": pct(secs, .5),
            "llm_calls_mean": statistics.fmean(calls), "llm_calls_max": max(calls),
            "repeated_lines": sum(r["repeated_lines"] for r in recs),
            "lines_on_cited_pages": [sum(r["lines_on_cited_pages"][i] for r in recs) for i in (0, 1)],
            "other_document": [sum(r["cites_other_document"] for r in answered), len(answered)],
            "answer_chars_p50": pct([len(r["answer"]) for r in answered] or [0], .5)}

COMMON_PATH = {"decision": {"thought": "needs the documents", "answer": "YES"}, "relevance": {"thought": "on topic", "answer": "YES"},
               "generate": "The answer, from the first document. [Doc 1]", "support": {"thought": "grounded", "label": "fully_supported"},
               "usefulness": {"thought": "resolves it", "label": "useful"},
               "rewrite": "the question's key terms"}   # the retry path: the evidence rules decline every passage of a question no passage can answer

def scripted_part(engine, questions, collection, reps: int) -> dict:
    "Graph overhead with an LLM that costs nothing: run ms minus the retrieve node's ms minus the LLM calls' ms."
    llm = ScriptedLLM(COMMON_PATH)
    rag, search_ms = SelfRAG(engine, llm), []
    search = engine.search
    def timed_search(*a, **kw):                                   # engine.search timed in the same runs, for reference
        t0 = time.perf_counter()
        try: return search(*a, **kw)
        finally: search_ms.append((time.perf_counter() - t0) * 1000)
    engine.search = timed_search
    try:
        rag.answer("warm up the graph", collection=collection)
        search_ms.clear()
        overhead, retrieve_ms, calls, paths = [], [], [], set()
        for _ in range(reps):
            for q in questions:
                a = rag.answer(q.question, collection=collection); llm.seen.clear()
                r = sum(s.ms for s in a.trace if s.node == "retrieve")
                overhead.append(a.ms - r - sum(c.ms for s in a.trace for c in s.llm_calls))
                retrieve_ms.append(r); calls.append(llm_calls(a)); paths.add(" > ".join(s.node for s in a.trace))
    finally: del engine.search
    return {"runs": len(overhead), "overhead_ms_p50": pct(overhead, .5), "overhead_ms_p95": pct(overhead, .95),
            "overhead_ms_mean": statistics.fmean(overhead), "retrieve_node_ms_p50": pct(retrieve_ms, .5),
            "search_ms_p50": pct(search_ms, .5), "search_ms_p95": pct(search_ms, .95),
            "llm_calls_mean": statistics.fmean(calls), "llm_calls_min": min(calls), "llm_calls_max": max(calls), "paths": sorted(paths)}

def table(offs: dict, scr) -> str:
    "The headline figures, one column per set (`offs`: set -> answers part); the scripted rows are dev's (`scr`) or '-'."
    f = lambda x: "-" if x is None else f"{x:.0%}"
    names = list(offs)
    def per_set(fig): return {n: [fig(o)] for n, o in offs.items()}
    def met(test): return ", ".join(("-" if test(o) is None else "yes" if test(o) else "NO") for o in offs.values())
    def share_row(label, key, kind, target="", test=None):
        return (label, per_set(lambda o: f(o[key]) + f" of {o['n'][kind]}"), target,
                met(lambda o: None if test is None or o[key] is None else test(o[key])) if test else "")
    def goal(key): return (f">= {TARGETS[key]:.0%}" if TARGETS[key] < 1 else "all"), (lambda x: x >= TARGETS[key])
    rows = [("answered by", per_set(lambda o: o["model"]), "", ""),
            share_row("cited gold page, factual", "cited_gold_factual", "factual", *goal("cited_gold_factual")),
            share_row("keyword-complete, factual", "keyword_complete_factual", "factual", *goal("keyword_complete_factual")),
            share_row("cited gold page, multi", "cited_gold_multi", "multi"),
            share_row("keyword-complete, multi", "keyword_complete_multi", "multi", *goal("keyword_complete_multi")),
            share_row("chitchat without retrieval", "chitchat_no_retrieval", "chitchat", *goal("chitchat_no_retrieval")),
            share_row("unanswerable abstained", "unanswerable_abstained", "unanswerable", *goal("unanswerable_abstained")),
            ("s/question mean, p50", per_set(lambda o: f"{o['seconds_mean']:.2f}, {o['seconds_p50']:.2f}"), "", ""),
            ("LLM calls/question mean, max", per_set(lambda o: f"{o['llm_calls_mean']:.1f}, {o['llm_calls_max']}"), "", ""),
            ("cited lines repeated within an answer, total", per_set(lambda o: str(o.get("repeated_lines", "-"))), "", ""),
            ("quoted lines on a page they cite, extractive", per_set(lambda o: f"{o['lines_on_cited_pages'][0]} of {o['lines_on_cited_pages'][1]}"
                                                                         if o.get("lines_on_cited_pages", [0, 0])[1] else "-"), "", ""),
            ("answers citing a document with no gold page", per_set(lambda o: f"{o['other_document'][0]} of {o['other_document'][1]}"
                                                                   if "other_document" in o else "-"), "", ""),
            ("answer characters p50, factual + multi", per_set(lambda o: str(o.get("answer_chars_p50", "-"))), "", "")]
    if scr:
        sc = lambda v: {"dev": [v]}
        ok = ", ".join(("yes" if scr["overhead_ms_p95"] < 20 else "NO") if n == "dev" else "-" for n in names)
        rows += [("graph overhead ms p50, p95 (scripted)", sc(f"{scr['overhead_ms_p50']:.1f}, {scr['overhead_ms_p95']:.1f}"), "< 20 ms", ok),
                 ("LLM calls/question (scripted) min-max", sc(f"{scr['llm_calls_min']}-{scr['llm_calls_max']}"), "", ""),
                 ("engine.search ms p50, p95 (same runs)", sc(f"{scr['search_ms_p50']:.1f}, {scr['search_ms_p95']:.1f}"), "", "")]
    notes = {n: f"({sum(o['n'].values())} q)" for n, o in offs.items()}
    return evalsets.side_by_side(names, ["value"], [(m, by) for m, by, _, _ in rows], extra=["target", "met (" + ", ".join(names) + ")"],
                                 extra_rows=[[t, ok] for _, _, t, ok in rows], label="metric", notes=notes)

def save(res, out: Path):
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=2, default=str))

def failures(off: dict) -> list[str]:
    out = []
    for r in off["per_question"]:
        if r["ok"]: continue
        why = []
        if r.get("missing_keywords"): why.append(f"missing keywords {r['missing_keywords']}")
        if r.get("cited_gold") is False: why.append(f"no gold page cited (cited {r['cited']}, gold {r['gold']})")
        if r["kind"] == "chitchat": why.append(f"retrieved={r['retrieved']}, answer {r['answer'][:60]!r}")
        if r["kind"] == "unanswerable": why.append(f"not abstained: relevant per grading {r['relevant_per_grading']}, cited {r['cited']}")
        out.append(f"FAIL {r['id']} {r['kind']}/{r['difficulty']}: " + "; ".join(why))
    return out

def main(argv=None):
    ap = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    evalsets.add_arguments(ap)
    ap.add_argument("--reps", type=int, default=3, help="passes over the dev questions for the scripted overhead")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "answer.json")
    ap.add_argument("--data-dir", type=Path, default=None,
                    help="keep each set's ingest in DATA_DIR/<set> and reuse it on the next run (default: a temporary folder per run)")
    a = ap.parse_args(argv)
    names = evalsets.chosen(a)
    res = {"machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
           "code": evalsets.code_version(), "targets": TARGETS,
           "quick": a.quick, "sets": {}}
    scr = None
    for n in names:
        corpus, qpath = evalsets.locate(n, a)
        questions = load_questions(qpath)
        res["sets"][n] = sr = {"corpus": str(corpus), "questions_file": str(qpath)}
        t_set = time.perf_counter()
        with evalsets.ingested(n, corpus, a.data_dir) as (engine, rep, seconds):
            sr["ingest"] = {"pages": rep.pages, "chunks": rep.chunks, "seconds": seconds}
            print(f"== {n}: ingested {rep.pages} pages, {rep.chunks} chunks in {seconds:.0f} s; answers by {chat_model(engine.settings)}:", flush=True)
            sr["answers"] = answers_part(engine, questions, "eval"); save(res, a.out)
            if n == "dev" and not a.quick:
                sr["scripted"] = scr = scripted_part(engine, questions, "eval", a.reps)
            sr["reranker"] = str(engine.reranker.status)
        sr["wall_s"] = time.perf_counter() - t_set
        save(res, a.out)
    res["table"] = table({n: s["answers"] for n, s in res["sets"].items()}, scr)
    save(res, a.out)
    print(); print(res["table"]); print()
    for n, s in res["sets"].items():
        for line in failures(s["answers"]): print(f"[{n}] {line}")
    print(f"wrote {a.out}")

if __name__ == "__main__":
    main()
