"""What the question sets built from Debian packages share: fetching their manuals and checking their questions.

Each set's folder holds its pins (fetch.py: package, version, path, md5, pages), its questions and a check.py; both scripts
run the functions here. Fetching runs `apt-get download PKG=VERSION`, checks the .deb's Package and Version, unpacks it with
`dpkg-deb -x` and verifies the file's md5. Checking extracts every page with pypdf and verifies that each question has the
fields of its kind, that its keywords stand on its gold pages, that a `semantic` question holds none of its keywords, and
that an unanswerable question's absence terms occur nowhere (NFKC, straight quotes, lower case, no whitespace, a line-break
hyphen tried joined and kept).
"""
import argparse, hashlib, json, os, re, shutil, subprocess, sys, tempfile, unicodedata
from collections import Counter
from pathlib import Path

class FetchError(RuntimeError): pass

def default_out(tag: str) -> Path:
    "Where a set's corpus is kept by default: ~/.cache/self_rag/<tag> (or under $XDG_CACHE_HOME)."
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "self_rag" / tag

def md5(path: Path) -> str:
    h = hashlib.md5()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""): h.update(chunk)
    return h.hexdigest()

def _run(cmd, cwd=None):
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        raise FetchError(f"`{' '.join(cmd)}` failed (exit {r.returncode}): {(r.stderr or r.stdout).strip()[-800:]}")
    return r.stdout

def _need_tools():
    for t in ("apt-get", "apt-cache", "dpkg-deb"):
        if shutil.which(t) is None:
            raise FetchError(f"`{t}` not found: this fetcher needs a Debian (bookworm) system with apt and dpkg")

def _ensure_apt_lists(pkgs):
    "Run `apt-get update` once if apt knows no candidate for one of the packages."
    def known(p):
        out = subprocess.run(["apt-cache", "policy", p], capture_output=True, text=True).stdout
        return "Candidate:" in out and "Candidate: (none)" not in out
    if not all(known(p) for p in pkgs):
        print("apt lists lack the packages; running apt-get update", file=sys.stderr)
        _run(["apt-get", "update"])

def _deb_field(deb: Path, field: str) -> str:
    return _run(["dpkg-deb", "-f", str(deb), field]).strip()

def fetch_manuals(manuals, tag: str, out=None, quiet=False) -> Path:
    "Download (if needed) and verify `manuals` (package, version, path, name, md5, pages); returns `out/corpus`."
    out = Path(out) if out else default_out(tag)
    corpus = out / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    say = (lambda *a: None) if quiet else (lambda *a: print(*a, file=sys.stderr))
    todo = []
    for m in manuals:
        pkg, ver, inner, name, want, _ = m
        dest = corpus / name
        if dest.exists():
            if md5(dest) == want:
                say(f"ok   {name} (md5 {want})"); continue
            say(f"stale {name}: md5 differs, fetching again"); dest.unlink()
        todo.append(m)
    if not todo: return corpus
    _need_tools()
    _ensure_apt_lists([m[0] for m in todo])
    with tempfile.TemporaryDirectory(prefix=f"{tag}-") as tmp:
        tmp = Path(tmp)
        for pkg, ver, inner, name, want, _ in todo:
            say(f"get  {pkg}={ver}")
            try: _run(["apt-get", "download", f"{pkg}={ver}"], cwd=tmp)
            except FetchError as e:
                raise FetchError(f"cannot download {pkg} version {ver} (pinned). Is this Debian bookworm with "
                                 f"main in its apt sources, and is that version still published? "
                                 f"`apt-cache policy {pkg}` shows what apt offers. Details: {e}") from None
            debs = sorted(tmp.glob(f"{pkg}_*.deb"))
            if len(debs) != 1: raise FetchError(f"expected one {pkg}_*.deb after download, found {[d.name for d in debs]}")
            deb = debs[0]
            got_pkg, got_ver = _deb_field(deb, "Package"), _deb_field(deb, "Version")
            if (got_pkg, got_ver) != (pkg, ver):
                raise FetchError(f"{deb.name} is {got_pkg} {got_ver}, but {pkg} {ver} is pinned")
            x = tmp / f"x-{pkg}"
            _run(["dpkg-deb", "-x", str(deb), str(x)])
            src = x / inner
            if not src.is_file(): raise FetchError(f"{pkg} {ver} has no /{inner}")
            got = md5(src)
            if got != want:
                raise FetchError(f"/{inner} from {pkg} {ver} has md5 {got}, pinned {want}: the file changed; "
                                 f"the questions' pages may no longer match")
            shutil.copyfile(src, corpus / name)
            say(f"ok   {name} (md5 {want})")
    return corpus

QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})

def page_forms(text):
    "The normalised forms of a page's text: line-break hyphens joined and kept, whitespace removed."
    s = unicodedata.normalize("NFKC", text).translate(QUOTES).lower()
    return [re.sub(r"\s+", "", re.sub(r"-\s*\n\s*", j, s)) for j in ("", "-")]

def norm_key(k):
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", k).translate(QUOTES).lower())

def load_pages(corpus, manuals):
    from pypdf import PdfReader
    return {name: [page_forms(p.extract_text() or "") for p in PdfReader(corpus / name).pages]
            for _, _, _, name, _, _ in manuals}

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

def fetch_main(doc: str, fetch, default: Path, argv=None) -> int:
    "The command line of a set's fetch.py."
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=None, help=f"output folder (default: {default})")
    args = ap.parse_args(argv)
    try: corpus = fetch(args.out)
    except FetchError as e:
        print(f"fetch.py: error: {e}", file=sys.stderr); return 1
    print(corpus)
    return 0


def check_main(doc: str, folder: Path, manuals, fetch, argv=None) -> int:
    "The command line of a set's check.py."
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=None, help="corpus cache folder, as for fetch.py")
    ap.add_argument("--questions", type=Path, default=folder / "questions.jsonl")
    ap.add_argument("--cooccur", action="store_true", help="list non-gold pages where all keywords co-occur")
    args = ap.parse_args(argv)
    try: corpus = fetch(args.out, quiet=True)
    except FetchError as e:
        print(f"check.py: cannot fetch the corpus: {e}", file=sys.stderr); return 1
    questions = [json.loads(l) for l in args.questions.read_text().splitlines() if l.strip()]
    pages = load_pages(corpus, manuals)
    errors, notes = check(questions, pages, args.cooccur)
    print(f"corpus: {corpus}")
    for _, ver, _, name, _, npg in manuals:
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

