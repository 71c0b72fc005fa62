#!/usr/bin/env python3
"""Validate the held-out evaluation set against its corpus.

Fetches the corpus (see fetch.py), extracts every page with pypdf and checks that
  * every question has the fields of its kind (the same schema as the dev set);
  * every answer_keyword of a factual/multi question occurs on at least one of its gold pages;
  * a `semantic` question contains none of its answer_keywords;
  * no absence_checked_term of an unanswerable question occurs anywhere in the corpus.
Matching is case-insensitive and whitespace-insensitive: NFKC, curly quotes made straight,
lower case, all whitespace removed, and a line-break hyphen tried both joined and kept (the same
rule as the dev set's README). Removing all whitespace makes the absence check stricter, not looser.

    python bench/sets/heldout/check.py [--out DIR] [--cooccur]

--cooccur also lists, per question, the non-gold pages on which all its keywords co-occur
(for reviewing that `pages` is complete; such pages are not errors).
Exit status 0 when every check passes, 1 otherwise.
"""
import argparse, json, re, sys, unicodedata
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from fetch import MANUALS, fetch, FetchError  # noqa: E402

QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})

def page_forms(text):
    "The normalised forms of a page's text: line-break hyphens joined and kept, whitespace removed."
    s = unicodedata.normalize("NFKC", text).translate(QUOTES).lower()
    return [re.sub(r"\s+", "", re.sub(r"-\s*\n\s*", j, s)) for j in ("", "-")]

def norm_key(k):
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", k).translate(QUOTES).lower())

def load_pages(corpus):
    from pypdf import PdfReader
    return {name: [page_forms(p.extract_text() or "") for p in PdfReader(corpus / name).pages]
            for _, _, _, name, _, _ in MANUALS}

def on_page(pages, src, n, key):
    return any(key in form for form in pages[src][n - 1])

def gold_pairs(q):
    return [tuple(p) for p in q["pages"]] if q.get("sources") else [(q["source"], p) for p in q["pages"]]

def check(questions, pages, cooccur=False):
    errors, notes = [], []
    n_pages = {s: len(v) for s, v in pages.items()}
    base = {"id", "question", "kind", "pages", "answer_keywords", "difficulty"}
    ids = Counter(q.get("id") for q in questions)
    for i, c in ids.items():
        if c > 1: errors.append(f"{i}: id used {c} times")
    for q in questions:
        qid, kind = q.get("id"), q.get("kind")
        if not base <= q.keys(): errors.append(f"{qid}: missing fields {sorted(base - q.keys())}"); continue
        if kind in ("factual", "multi"):
            if q["difficulty"] not in ("lexical", "semantic"): errors.append(f"{qid}: difficulty {q['difficulty']!r}")
            if not 1 <= len(q["answer_keywords"]) <= 3: errors.append(f"{qid}: {len(q['answer_keywords'])} answer_keywords")
            if q.get("sources"):
                if kind != "multi" or "source" in q: errors.append(f"{qid}: `sources` only on cross-document multi questions, without `source`")
                if not all(isinstance(p, list) and len(p) == 2 and p[0] in q["sources"] for p in q["pages"]):
                    errors.append(f"{qid}: pages must be [file, page] pairs from `sources`"); continue
                if {p[0] for p in q["pages"]} != set(q["sources"]): errors.append(f"{qid}: every file in `sources` needs a page")
            else:
                if q.get("source") not in pages: errors.append(f"{qid}: unknown source {q.get('source')!r}"); continue
                if not all(isinstance(p, int) for p in q["pages"]): errors.append(f"{qid}: pages must be ints"); continue
                lo, hi = (1, 3) if kind == "factual" else (2, 3)
                if not lo <= len(q["pages"]) <= hi: errors.append(f"{qid}: {len(q['pages'])} pages for a {kind} question")
            pairs = gold_pairs(q)
            bad = [(s, p) for s, p in pairs if not 1 <= p <= n_pages[s]]
            if bad: errors.append(f"{qid}: pages out of range {bad}"); continue
            for k in q["answer_keywords"]:
                kk = norm_key(k)
                if not any(on_page(pages, s, p, kk) for s, p in pairs):
                    errors.append(f"{qid}: keyword {k!r} on none of its pages {pairs}")
            if q["difficulty"] == "semantic":
                qn = norm_key(q["question"])
                inq = [k for k in q["answer_keywords"] if norm_key(k) in qn]
                if inq: errors.append(f"{qid}: semantic question contains its keyword(s) {inq}")
            if cooccur:
                keys = [norm_key(k) for k in q["answer_keywords"]]
                srcs = q.get("sources") or [q["source"]]
                extra = [(s, n) for s in srcs for n in range(1, n_pages[s] + 1)
                         if (s, n) not in pairs and all(on_page(pages, s, n, k) for k in keys)]
                if extra: notes.append(f"{qid}: all keywords also on {extra}")
        elif kind == "unanswerable":
            if q.get("source") is not None or q["pages"] or q["answer_keywords"] or q["difficulty"] is not None:
                errors.append(f"{qid}: unanswerable needs source null, pages [], answer_keywords [], difficulty null")
            if q.get("topic_source") not in pages: errors.append(f"{qid}: topic_source {q.get('topic_source')!r}")
            terms = q.get("absence_checked_terms") or []
            if not terms: errors.append(f"{qid}: no absence_checked_terms")
            for t in terms:
                tt = norm_key(t)
                hits = [(s, n + 1) for s, pl in pages.items() for n, forms in enumerate(pl) if any(tt in f for f in forms)]
                if hits: errors.append(f"{qid}: absence term {t!r} found on {hits[:8]}")
        elif kind == "chitchat":
            if q.get("source") is not None or q["pages"] or q["answer_keywords"] or q["difficulty"] is not None:
                errors.append(f"{qid}: chitchat needs source null, pages [], answer_keywords [], difficulty null")
        else:
            errors.append(f"{qid}: unknown kind {kind!r}")
    return errors, notes

def summary(questions):
    rows = Counter()
    for q in questions:
        where = "cross-doc" if q.get("sources") else (q.get("source") or q.get("topic_source") or "-")
        rows[(q["kind"], q["difficulty"] or "-", where)] += 1
    return rows

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=None, help="corpus cache folder, as for fetch.py")
    ap.add_argument("--questions", type=Path, default=HERE / "questions.jsonl")
    ap.add_argument("--cooccur", action="store_true", help="list non-gold pages where all keywords co-occur")
    args = ap.parse_args(argv)
    try: corpus = fetch(args.out, quiet=True)
    except FetchError as e:
        print(f"check.py: cannot fetch the corpus: {e}", file=sys.stderr); return 1
    questions = [json.loads(l) for l in args.questions.read_text().splitlines() if l.strip()]
    pages = load_pages(corpus)
    errors, notes = check(questions, pages, args.cooccur)
    print(f"corpus: {corpus}")
    for _, ver, _, name, _, npg in MANUALS:
        print(f"  {name}: {len(pages[name])} pages" + ("" if len(pages[name]) == npg else f" (expected {npg}!)"))
    print(f"questions: {len(questions)}")
    for (kind, diff, where), c in sorted(summary(questions).items()):
        print(f"  {kind:13s} {diff:9s} {where:28s} {c:3d}")
    kw = sum(len(q["answer_keywords"]) for q in questions if q["kind"] in ("factual", "multi"))
    terms = sum(len(q.get("absence_checked_terms") or []) for q in questions if q["kind"] == "unanswerable")
    print(f"checked: {kw} answer keywords on gold pages, {terms} absence terms over "
          f"{sum(len(v) for v in pages.values())} pages")
    for n in notes: print("note:", n)
    for e in errors: print("FAIL:", e)
    print("OK: all checks passed" if not errors else f"FAILED: {len(errors)} problem(s)")
    return 0 if not errors else 1

if __name__ == "__main__": sys.exit(main())
