"""Calibration of the offline relevance grader: its evidence per question and passage, and the threshold, drawn as a curve.

    python bench/calibrate.py [--dev ../shared/eval/dev] [--debian-out DIR] [--no-debian] [--data-dir DIR]
                              [--out bench/results/calibration.json] [--png bench/results/calibration.png]

For each question the graph would search twice (the question, then the offline rewrite of it); every passage found is
scored, as the graph grades it, against each part the question asks (one for most questions; `self_rag.nodes.new_state`),
its best part counting, with `self_rag.llm.relevance_evidence` (rarity-weighted terms, dense similarity, exact code tokens) on the
collection's own `TermStats`, unless the grader turns it down whatever its evidence (`self_rag.llm.refusal`: the
question names something no passage of the collection holds, or that the passage's document never mentions, or the
passage does not name the thing an existence question asks about, 'Is there a watch mode...?'). A question is answered at threshold T when some passage scores >= T, and abstained on
otherwise: the graph abstains exactly when the grader finds no passage relevant. The sweep runs on the development
questions only (the dev set and bench/sets/dev-extra, both over the R manuals); the threshold chosen is the one whose
worse rate is best, of the abstention rate on unanswerable questions and the rate of answerable ones whose gold page is
graded relevant (the targets ask 90% of both). `self_rag.llm.RELEVANCE_THRESHOLD` is that value; the script says so if
they differ. The debian and held-out sets are drawn beside it (their curves, and their points at the shipped threshold), never used in the choice.
"""
import argparse, json, os, sys
from pathlib import Path

os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
import numpy as np

from self_rag.eval import load_questions
from self_rag.llm import RELEVANCE_THRESHOLD, absent_names, collection_stats, offline_rewrite, refusal, relevance_evidence
from self_rag.nodes import new_state

sys.path.insert(0, str(Path(__file__).resolve().parent))
import evalsets

ROOT = Path(__file__).resolve().parents[1]
EXTRA = ROOT / "bench" / "sets" / "dev-extra" / "questions.jsonl"
GRID = np.round(np.arange(0.3, 1.6001, 0.025), 3)

def question_scores(engine, q, collection="eval") -> dict:
    "The best evidence score of any passage the graph would grade for `q`, and of any passage on a gold page."
    stats, hits = collection_stats(engine.store, collection), {}
    for query in dict.fromkeys((q.question, offline_rewrite(q.question))):
        for h in engine.search(query, collection=collection).hits: hits.setdefault(h.chunk_id, h)
    parts = new_state(q.question)["parts"]   # as the graph grades: each passage against each part the question asks
    scored = [(max(ok), any((h.source, p) in q.gold for p in h.pages)) for h in hits.values()
              if (ok := [relevance_evidence(part, h.context, stats, engine.dense)["score"] for k, part in enumerate(parts)
                         if refusal(part, h.context, stats, engine.dense.words, h.source, parts[k - 1] if k else None) is None])]
    return {"id": q.id, "kind": q.kind, "best": max((s for s, _ in scored), default=None),
            "gold": max((s for s, g in scored if g), default=None), "passages": len(hits), "absent_names": absent_names(q.question, stats, engine.dense.words)}

def rates(recs:list[dict], t:float) -> dict:
    "At threshold `t`: abstention rate on unanswerable questions, answer rate and gold-graded-relevant rate on answerable ones."
    un = [r for r in recs if r["kind"] == "unanswerable"]
    ans = [r for r in recs if r["kind"] in ("factual", "multi")]
    ok = lambda s: s is not None and s >= t
    return {"threshold": float(t), "abstained": float(np.mean([not ok(r["best"]) for r in un])),
            "answered": float(np.mean([ok(r["best"]) for r in ans])), "gold_relevant": float(np.mean([ok(r["gold"]) for r in ans])),
            "n_unanswerable": len(un), "n_answerable": len(ans)}

def choose(curve:list[dict]) -> dict:
    "The point whose worse rate (abstention, or gold graded relevant) is best: the targets ask 90% of both. Ties: the better mean, then the lower threshold."
    return max(curve, key=lambda p: (round(min(p["abstained"], p["gold_relevant"]), 9), round(p["abstained"] + p["gold_relevant"], 9), -p["threshold"]))

def score_set(name:str, corpus:Path, qfiles:list[Path], data_dir) -> list[dict]:
    with evalsets.ingested(name, corpus, data_dir) as (engine, _, _):
        recs = [question_scores(engine, q) for f in qfiles for q in load_questions(f) if q.kind != "chitchat"]
    print(f"{name}: {len(recs)} questions scored", flush=True)
    return recs

def plot(curve, chosen, others:dict, png:Path):
    import matplotlib; matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 5.5))
    ax.plot([p["abstained"] for p in curve], [p["gold_relevant"] for p in curve], "-", color="tab:blue", label="dev + dev-extra: gold page graded relevant")
    ax.plot([p["abstained"] for p in curve], [p["answered"] for p in curve], "--", color="tab:blue", alpha=.5, label="dev + dev-extra: answered")
    ax.plot(chosen["abstained"], chosen["gold_relevant"], "o", color="tab:red", ms=9, label=f"chosen threshold {chosen['threshold']:.3g}")
    for (name, (c, p)), colour in zip(others.items(), ("tab:green", "tab:purple")):  # drawn after the choice, never used in it
        ax.plot([q["abstained"] for q in c], [q["gold_relevant"] for q in c], "-", color=colour, alpha=.6, label=f"{name}: gold page graded relevant (not tuned)")
        ax.plot(p["abstained"], p["gold_relevant"], "s", color=colour, ms=8, label=f"{name} at {p['threshold']:.3g}")
    ax.axhline(.9, color="grey", lw=.5); ax.axvline(.9, color="grey", lw=.5)
    ax.set_xlabel("abstention rate on unanswerable questions"); ax.set_ylabel("rate on answerable questions")
    ax.set_xlim(0, 1.02); ax.set_ylim(0, 1.02); ax.legend(loc="lower left", fontsize=8)
    ax.set_title("Offline relevance grader: threshold sweep of terms + dense + code evidence, after the name rules")
    png.parent.mkdir(parents=True, exist_ok=True); fig.savefig(png, dpi=120, bbox_inches="tight")

def main(argv=None):
    ap = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    evalsets.add_arguments(ap)
    ap.add_argument("--no-debian", action="store_true", help="development questions only (no debian or held-out set)")
    ap.add_argument("--data-dir", type=Path, default=None, help="keep each corpus' ingest in DATA_DIR/<set> and reuse it")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "calibration.json")
    ap.add_argument("--png", type=Path, default=ROOT / "bench" / "results" / "calibration.png")
    a = ap.parse_args(argv)
    dev = score_set("dev", a.dev / "corpus", [a.dev / "questions.jsonl", EXTRA], a.data_dir)
    curve = [rates(dev, t) for t in GRID]
    chosen = choose(curve)
    res = {"grid": curve, "chosen": chosen, "shipped_threshold": RELEVANCE_THRESHOLD, "shipped": rates(dev, RELEVANCE_THRESHOLD),
           "per_question": {"dev": dev}}
    others = {}
    for name in ([] if a.no_debian else ["debian", "heldout"]):      # drawn beside the fit, never used in it
        corpus, qpath = evalsets.locate(name, a)
        recs = score_set(name, corpus, [qpath], a.data_dir)
        res[f"{name}_at_shipped"], res[f"{name}_grid"] = rates(recs, RELEVANCE_THRESHOLD), [rates(recs, t) for t in GRID]
        others[name] = (res[f"{name}_grid"], res[f"{name}_at_shipped"])
        res["per_question"][name] = recs
    if chosen["threshold"] != RELEVANCE_THRESHOLD: print(f"NOTE: the sweep chooses {chosen['threshold']}, the library ships {RELEVANCE_THRESHOLD}")
    plot(curve, res["shipped"], others, a.png)
    a.out.parent.mkdir(parents=True, exist_ok=True); a.out.write_text(json.dumps(res, indent=1))
    print(json.dumps({k: res[k] for k in ("chosen", "shipped") + tuple(f"{n}_at_shipped" for n in others)}, indent=1))
    print(f"wrote {a.out} and {a.png}")

if __name__ == "__main__":
    main()
