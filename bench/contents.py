"""Sections of a PDF without an outline, read from its printed table of contents: measured against the outline.

Every manual of the four evaluation sets has an outline (bookmarks) and also prints a table of contents. The outline is
the truth here: for each manual, `self_rag.loaders.contents_starts` (what the PDF reader uses when a PDF has no outline)
is compared with `outline_starts` (what it uses when there is one), as the pages where sections start, the title that
starts there, and its whole path (parents too; an outline often nests the chapters under a part or the manual's name,
which the printed contents do not). Then, with `--retrieval`, each set's manuals are copied with their outline removed and ingested
twice: once as the reader did before it read printed contents (no sections at all: every chunk's section empty), and
once as it reads them now; both are searched with the set's questions beside the manuals as they are (with outline).

Run `python bench/contents.py --set all` (starts only, seconds) or `--set both --retrieval` (minutes: four ingests);
the figures are in bench/results/contents.txt.
"""
import argparse, json, sys, tempfile, time
from contextlib import closing, contextmanager
from pathlib import Path
from unittest import mock

from pypdf import PdfReader, PdfWriter

from self_rag.config import Settings
from self_rag.engine import Engine
from self_rag.eval import evaluate, load_questions
from self_rag.loaders import _ENTRY_NUMBER, _open_pdfium, _page_text, clean_text, contents_starts, outline_starts
import self_rag.loaders as loaders

sys.path.insert(0, str(Path(__file__).parent))
import evalsets

ROOT = Path(__file__).resolve().parents[1]

def _bare(title: str) -> str:
    "A title without its number (as the contents reader strips it), lower case, spaces single: `8.2 Details` and `Details` are the same title."
    return " ".join(_ENTRY_NUMBER.sub("", title.strip()).lower().split())

def compare_starts(pdf_path: Path) -> dict:
    "Start pages and titles of the printed contents against the outline's, for one PDF."
    reader = PdfReader(pdf_path)
    outline = outline_starts(reader)
    with closing(_open_pdfium(pdf_path)) as pdf:
        texts = {}
        page_text = lambda i: texts.setdefault(i, clean_text(_page_text(pdf, i)))
        t0 = time.perf_counter()
        printed = contents_starts(page_text, reader.page_labels)
        seconds = time.perf_counter() - t0
    shared = set(printed) & set(outline)
    path = lambda p: tuple(map(_bare, p))
    same = lambda key: sum(bool({key(p) for p in printed[i]} & {key(p) for p in outline[i]}) for i in shared) / len(shared) if shared else None
    return {"pages": len(reader.pages), "outline_start_pages": len(outline), "contents_start_pages": len(printed), "shared": len(shared),
            "precision": len(shared) / len(printed) if printed else None, "recall": len(shared) / len(outline) if outline else None,
            "same_title": same(lambda p: _bare(p[-1])), "same_path": same(path), "seconds": seconds}

def without_outline(src: Path, dst: Path) -> Path:
    "A copy of the PDF `src` with its outline (bookmarks) removed: the pages, labels and text are the same."
    writer = PdfWriter(clone_from=src)
    writer._root_object.pop("/Outlines", None)
    writer.write(dst)
    return dst

@contextmanager
def engine_over(folder: Path, printed: bool = True):
    "An engine over `folder`'s PDFs in a temporary store; `printed=False` reads them as the reader did before it read printed contents."
    with tempfile.TemporaryDirectory() as d, Engine(Settings(_env_file=None, data_dir=Path(d))) as engine, \
         mock.patch.object(loaders, "_printed_contents", loaders._printed_contents if printed else (lambda *a: {})):
        report = engine.ingest([folder], collection="eval")
        if report.failed: raise RuntimeError(f"ingesting {folder} failed:\n{report}")
        yield engine

def retrieval(corpus: Path, questions: Path) -> dict:
    "hit@1 and nDCG@10 of the full funnel over the manuals as they are, and without their outline read before and now."
    qs = load_questions(questions)
    out = {}
    with tempfile.TemporaryDirectory() as d:
        stripped = Path(d) / "stripped"; stripped.mkdir()
        for pdf in sorted(corpus.glob("*.pdf")): without_outline(pdf, stripped / pdf.name)
        for name, folder, printed in (("outline", corpus, True), ("no outline, before", stripped, False), ("no outline, now", stripped, True)):
            with engine_over(folder, printed) as engine:
                full = next(r for r in evaluate(engine, qs, collection="eval") if r.variant == "full")
                out[name] = {"questions": full.questions, **{k: full.metrics[k] for k in ("hit@1", "ndcg@10")}}
            print(f"   {name:20} hit@1 {out[name]['hit@1']:.3f}  nDCG@10 {out[name]['ndcg@10']:.3f}", flush=True)
    return out

def main(argv=None):
    ap = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    evalsets.add_arguments(ap)
    ap.add_argument("--retrieval", action="store_true", help="also ingest each set's manuals without their outline and search them (minutes)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "contents.json")
    a = ap.parse_args(argv)
    res = {"code": evalsets.code_version(), "starts": {}, "retrieval": {}}
    print(f"{'manual':30} {'pages':>5} {'outline':>7} {'printed':>7} {'shared':>6} {'precision':>9} {'recall':>6} {'same title':>10} {'same path':>9} {'ms':>6}")
    for n in evalsets.chosen(a):
        corpus, qpath = evalsets.locate(n, a)
        for pdf in sorted(corpus.glob("*.pdf")):
            r = res["starts"][f"{n}/{pdf.name}"] = compare_starts(pdf)
            print(f"{n + '/' + pdf.name:30} {r['pages']:5} {r['outline_start_pages']:7} {r['contents_start_pages']:7} {r['shared']:6} "
                  f"{r['precision'] or 0:9.3f} {r['recall'] or 0:6.3f} {r['same_title'] or 0:10.3f} {r['same_path'] or 0:9.3f} {r['seconds'] * 1000:6.0f}", flush=True)
        if a.retrieval:
            print(f"== {n}: full funnel, the same questions", flush=True)
            res["retrieval"][n] = retrieval(corpus, qpath)
    args = a.out.with_suffix(".tmp")
    args.write_text(json.dumps(res, indent=1)); args.replace(a.out)
    print(f"wrote {a.out}")

if __name__ == "__main__": main()
