"""Existence questions ('Is there a watch mode...?', 'Does beamer have a dark mode...?') over the manuals of the four
question sets: how many the graph answers and how many it declines, answerable and unanswerable apart.

    python bench/existence.py [--data-dir DIR] [--out bench/results/existence.json] [--dev ../shared/eval/dev] [--debian-out DIR] ...
    python bench/existence.py --questions bench/sets/shapes/questions.jsonl      # -> bench/results/shapes.json

`--questions` runs another set of the same form, one line per question with its `set`, `kind` and, optionally, the
`source` manual an answer must cite: bench/sets/shapes holds questions in the shapes users write them in (their own
file names, quoted code, URLs, typing slips; see its README).

The questions are bench/sets/existence/questions.jsonl (see its README): 34 whose answer the manuals hold and 17 about
things they never name, and 19 two-part follow-ups ('Does X support Y, and how do I ... with it?'), 10 answerable and 9
not. They check two rules: a passage answering such a question names the thing asked about (`self_rag.llm.asked_thing`),
and a later part that points back at that thing is not answered when the earlier part is not
(`self_rag.nodes.unheld_referents`). The answerable ones have no gold pages, so 'answered' here means only that the
graph declined neither the question nor any part of it; an unanswerable one counts as declined when the whole answer
is. Each set's manuals are ingested into DATA_DIR/<set> (reused when there) or a temporary
folder; answers come from the configured model (the offline extractive one by default).
"""
import argparse, json, os, sys, time
from collections import Counter
from pathlib import Path

os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
from self_rag.graph import SelfRAG
from self_rag.llm import LLM, NO_ANSWER, chat_model
from self_rag.nodes import PART_NOT_FOUND

sys.path.insert(0, str(Path(__file__).resolve().parent))
import evalsets

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ROOT / "bench" / "sets" / "existence" / "questions.jsonl"

def answer_set(name: str, corpus: Path, questions: list[dict], data_dir) -> list[dict]:
    "Ingest one set's manuals and answer its existence questions: one record each."
    with evalsets.ingested(name, corpus, data_dir) as (engine, _, _):
        rag, out = SelfRAG(engine, LLM(engine.settings, embedder=engine.dense)), []
        print(f"== {name}: {len(questions)} questions; answers by {chat_model(engine.settings)}", flush=True)
        for q in questions:
            t0 = time.perf_counter()
            a = rag.answer(q["question"], collection="eval")
            r = {"id": q["id"], "set": name, "kind": q["kind"], "follow_up": q.get("follow_up", False), "question": q["question"], "abstained": NO_ANSWER in a.answer,
                 "parts_declined": a.answer.count(PART_NOT_FOUND), "cited": sorted({c.source for c in a.citations}), "seconds": time.perf_counter() - t0, "answer": a.answer}
            # answerable: answered whole, no part declined, citing its manual where it names one; unanswerable: declined whole
            r["ok"] = r["abstained"] if q["kind"] == "unanswerable" else not (r["abstained"] or r["parts_declined"]) and (not q.get("source") or q["source"] in r["cited"])
            print(f"  {q['id']} {q['kind']:12s} {'declined' if r['abstained'] else 'part declined' if r['parts_declined'] else 'answered':13s} {'ok ' if r['ok'] else 'BAD'} {q['question']}", flush=True)
            out.append(r)
    return out

ROWS = (("answerable: answered", "factual", False), ("unanswerable: declined", "unanswerable", False),
        ("follow-up answerable: answered", "factual", True), ("follow-up unanswerable: declined", "unanswerable", True))

def table(recs: list[dict]) -> str:
    "Answered of answerable and declined of unanswerable, per set and in all; the two-part follow-ups on rows of their own."
    sets = list(dict.fromkeys(r["set"] for r in recs)) + ["all"]
    n, ok = Counter(), Counter()
    for r in recs:
        for s in (r["set"], "all"): n[s, r["kind"], r["follow_up"]] += 1; ok[s, r["kind"], r["follow_up"]] += r["ok"]
    cell = lambda s, k, f: f"{ok[s, k, f]}/{n[s, k, f]}" if n[s, k, f] else "-"
    lines = [f"{'':34s}" + "".join(f"{s:>10s}" for s in sets), "-" * (34 + 10 * len(sets))]
    return "\n".join(lines + [f"{label:34s}" + "".join(f"{cell(s, k, f):>10s}" for s in sets) for label, k, f in ROWS if n["all", k, f]])

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    evalsets.add_arguments(ap)
    ap.add_argument("--data-dir", type=Path, default=None, help="keep each set's ingest in DATA_DIR/<set> and reuse it")
    ap.add_argument("--questions", type=Path, default=QUESTIONS, help="a question file of the same form (default: the existence questions)")
    ap.add_argument("--out", type=Path, default=None, help="default bench/results/<the question file's folder>.json")
    a = ap.parse_args(argv)
    a.questions = a.questions.resolve()
    a.out = a.out or ROOT / "bench" / "results" / f"{a.questions.parent.name}.json"
    questions = [json.loads(l) for l in a.questions.read_text().splitlines() if l.strip()]
    recs = []
    for name in dict.fromkeys(q["set"] for q in questions):
        corpus, _ = evalsets.locate(name, a)
        recs += answer_set(name, corpus, [q for q in questions if q["set"] == name], a.data_dir)
    res = {"code": evalsets.code_version(), "questions": str(a.questions.relative_to(ROOT)), "answers": recs, "table": table(recs)}
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(res, indent=1))
    print(); print(res["table"]); print(f"wrote {a.out}")

if __name__ == "__main__":
    main()
