"""Documents benchmark: parse speed per format, OCR speed and accuracy, folder sync, many small files, and a large folder.

    python bench/documents.py [--quick] [--skip-large] [--only parse,ocr,folder,large,detect,stream] [--files 1000]
                              [--ocr-pages 6] [--ceiling-sample 1] [--cache DIR] [--out bench/results/documents.json]

1. Parse speed of `load_document` per format, in units/s (the format's own unit: PDF pages, slides, sheet rows, e-book
   chapters, document sections, code lines) and pages/s (PDF pages; elsewhere page equivalents of 3,000 characters,
   marked ~), on files generated with the formats' own writers (python-docx, python-pptx, openpyxl, csv, ZIP-built
   ODT/ODP/ODS/EPUB, Markdown, HTML, reStructuredText, AsciiDoc, LaTeX, notebooks, a mailbox, source code) and on real files from Debian packages (`apt-get download` + `dpkg-deb -x`, cached
   under ~/.cache/self_rag/documents-bench; skipped with a note when apt cannot be reached), plus the Python standard
   library's own sources as real code.
2. OCR: pages of known text rendered with Pillow at 300 dpi (clean, and a "scan": tilted, noisy, blurred, JPEG), wrapped
   as image-only PDFs and read back through `load_document`: pages/s and character error rate (edit distance over
   the length of the truth, whitespace collapsed).
3. Many small files: `--files` generated notes of 1-2 KB ingested, files/s and chunks/s against the same text in one
   file (ratio, same process).
4. Sync of that folder after one edit: `ingest(folder, sync=True)` against ingesting the edited file alone into a fresh
   collection (the ratio should be near 1), and the dry run's time.
5. Large folder: the R reference manual and R-exts (Debian `r-doc-pdf`, ~2,650 pages), ingested in a child process
   (so its peak RSS is its own): peak RSS (ru_maxrss, and RSS sampled by phase) and throughput against the
   embedding-only ceiling (the same chunk texts through the dense and BM25 models alone, same batches, same process;
   `--ceiling-sample k` embeds every k-th batch only, for the same rate in 1/k of the time). The indexer reads and
   chunks in a thread while it embeds, so reading costs only what the embedder leaves of the CPU. On a shared machine
   the two phases run under different loads, so the share of the ingest's own time spent embedding is reported too
   (both under one load). Targets: peak RSS under 2 GB, ratio >= 0.9.
6. Content detection of files without a suffix: `loaders.format_of` (a sniff of the first bytes) against Magika 1.0.3
   (if installed: `pip install magika==1.0.3`), on ~450 real files of the machine, scored on the loader chosen.
7. One PDF of 3,000+ pages (the R manuals end to end, made with pypdf's writer) read window by window in a child
   process: RSS after each window, to show that memory does not grow with the length of the document.

Every run uses a scratch DATA_DIR and no EMBEDDING_CACHE, so embedding is real. `--quick` shrinks everything (100
files, 2 OCR pages, R-data.pdf as the large folder) to check the script; `--skip-large` leaves part 5 out; `--only` runs
some parts and keeps the other parts' figures from the last run.
Figures are wall-clock on whatever machine runs it; compare the ratios, which are measured in one process.
"""
import argparse, collections, csv, importlib.metadata, json, os, platform, random, re, resource, shutil, statistics, subprocess, sys, tempfile
import threading, time, zipfile
from pathlib import Path

os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.pop("EMBEDDING_CACHE", None)   # embedding must be real: no vectors read from a cache

from self_rag.chunker import Chunker
from self_rag.config import Settings
from self_rag.engine import Engine
from self_rag.ingest import Indexer, embed_text, file_sha256, version_of
from self_rag.loaders import LoadError, document_pieces, find_documents, load_document

sys.path.insert(0, str(Path(__file__).resolve().parent))
import evalsets

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path.home() / ".cache" / "self_rag" / "documents-bench"
PARTS = ("parse", "ocr", "folder", "large", "detect", "stream")   # what --only picks from
CHARS_PER_PAGE = 3000   # a page equivalent for formats without pages (~500 words)
DEBIAN = {  # package -> what it gives the bench
    "r-doc-pdf": "R manuals (PDF): the large folder, and PDF parse speed",
    "live-manual-epub": "the Debian Live manual as EPUB",
    "live-manual-odf": "the Debian Live manual as ODT",
    "r-cran-readxl": "readxl's example workbooks (XLSX)",
    "r-cran-openxlsx": "openxlsx's example workbooks (XLSX)",
    "r-cran-officer": "officer's example and template DOCX/PPTX",
    "git-doc": "Git's manuals as HTML (the single-page user manual among them) and as AsciiDoc text",
    "git-man": "Git's manual pages (roff, laid out by groff)",
    "findutils": "GNU find's Info manual, split in parts",
    "elpa-org-drill": "org-drill's manual, an Org outline",
}

def peak_rss_mb() -> float: return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

def cpu_s() -> float:
    "CPU seconds this process has used (user + system, all threads)."
    t = os.times(); return t.user + t.system

def rss_mb() -> float:
    with open("/proc/self/statm") as f: return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20

def settings_for(data_dir: Path) -> Settings:
    return Settings(_env_file=None, data_dir=data_dir, embedding_cache=None)

def save(res, out: Path):
    "Write what has been measured so far (a long run that fails late keeps its earlier figures)."
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=2, default=str))

# ---------------------------------------------------------------------------------------------------------------- text

def prose_pool() -> list[str]:
    "Real English sentences (Debian's licence texts), the raw material of every generated file; a fixed fallback without them."
    text = " ".join(p.read_text(errors="replace") for p in sorted(Path("/usr/share/common-licenses").glob("*"))
                    if p.is_file() and p.name in ("GPL-3", "Apache-2.0", "GFDL-1.3", "MPL-2.0", "LGPL-3", "Artistic"))
    sents = [" ".join(s.split()) for s in re.split(r"(?<=[.;:])\s+", text)]
    sents = [s for s in sents if 40 <= len(s) <= 300 and re.search(r"[a-z]{3}", s) and not re.search(r"https?://|[<>]", s)]
    return sents or ["The quick brown fox jumps over the lazy dog while the committee reviews the quarterly figures."] * 50

class Words:
    "Deterministic generated text from the sentence pool."
    def __init__(self, seed=0):
        self.rng, self.pool = random.Random(seed), prose_pool()
        self.vocab = sorted({w.strip(".,;:()\"'").lower() for s in self.pool for w in s.split() if w.isalpha() and len(w) > 3})
    def sentence(self) -> str: return self.rng.choice(self.pool)
    def para(self, n=(3, 6)) -> str: return " ".join(self.sentence() for _ in range(self.rng.randint(*n)))
    def title(self, n=(2, 5)) -> str: return " ".join(self.rng.choice(self.vocab) for _ in range(self.rng.randint(*n))).capitalize()
    def word(self) -> str: return self.rng.choice(self.vocab)

# ------------------------------------------------------------------------------------------------ generated documents

def make_docx(path: Path, w: Words, sections=40):
    import docx
    from docx.enum.text import WD_BREAK
    d = docx.Document()
    d.add_heading(w.title(), 0)
    for i in range(sections):
        d.add_heading(f"{i + 1} {w.title()}", 1)
        for j in range(2):
            d.add_heading(f"{i + 1}.{j + 1} {w.title()}", 2)
            for _ in range(3): d.add_paragraph(w.para())
        if i % 5 == 4:
            t = d.add_table(rows=6, cols=4)
            for r in t.rows:
                for c in r.cells: c.text = w.title((1, 3))
        if i % 3 == 2: d.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
    d.save(path)

def make_pptx(path: Path, w: Words, slides=80):
    from pptx import Presentation
    p = Presentation()
    for i in range(slides):
        s = p.slides.add_slide(p.slide_layouts[1])
        s.shapes.title.text = f"{i + 1}. {w.title()}"
        body = s.placeholders[1].text_frame
        body.text = w.sentence()
        for _ in range(4): body.add_paragraph().text = w.sentence()
        s.notes_slide.notes_text_frame.text = w.para((2, 4))
    p.save(path)

def _columns(w: Words): return ["id", "date", "region", "product", "quantity", "price", "status", "comment"]

def _row(w: Words, i: int):
    import datetime as dt
    return [i, dt.date(2024, 1, 1) + dt.timedelta(days=i % 700), w.word().capitalize(), w.title((1, 2)), w.rng.randint(1, 500),
            round(w.rng.uniform(1, 900), 2), w.rng.choice(["open", "shipped", "returned", "closed"]), w.sentence()[:80]]

def make_xlsx(path: Path, w: Words, rows=3000, sheets=3):
    import openpyxl
    wb = openpyxl.Workbook(write_only=True)
    for s in range(sheets):
        ws = wb.create_sheet(f"{w.word().capitalize()} {s + 1}")
        ws.append(_columns(w))
        for i in range(rows): ws.append(_row(w, i))
    wb.save(path)

def make_csv(path: Path, w: Words, rows=10000):
    with open(path, "w", newline="") as f:
        cw = csv.writer(f); cw.writerow(_columns(w))
        for i in range(rows): cw.writerow(_row(w, i))

def _esc(s: str) -> str: return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

_ODF_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
           'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
           'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" '
           'xmlns:office-value="urn:oasis:names:tc:opendocument:xmlns:office:1.0" office:version="1.2"')

def _odf_zip(path: Path, mime: str, body: str):
    "An OpenDocument file as LibreOffice lays it out: mimetype first and stored, the manifest, content.xml."
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), mime, compress_type=zipfile.ZIP_STORED)
        z.writestr("META-INF/manifest.xml", '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
                   'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
                   f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{mime}"/>'
                   '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>')
        z.writestr("content.xml", f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {_ODF_NS}><office:body>{body}</office:body></office:document-content>')

def make_odt(path: Path, w: Words, sections=40):
    out = []
    for i in range(sections):
        out.append(f'<text:h text:outline-level="1">{i + 1} {_esc(w.title())}</text:h>')
        for j in range(2):
            out.append(f'<text:h text:outline-level="2">{i + 1}.{j + 1} {_esc(w.title())}</text:h>')
            out += [f"<text:p>{_esc(w.para())}</text:p>" for _ in range(3)]
        if i % 3 == 2: out.append("<text:soft-page-break/>")
    _odf_zip(path, "application/vnd.oasis.opendocument.text", f"<office:text>{''.join(out)}</office:text>")

def make_odp(path: Path, w: Words, slides=80):
    out = []
    for i in range(slides):
        body = "".join(f"<text:p>{_esc(w.sentence())}</text:p>" for _ in range(5))
        out.append(f'<draw:page draw:name="page{i + 1}"><draw:frame presentation:class="title"><draw:text-box><text:p>{i + 1}. {_esc(w.title())}</text:p>'
                   f'</draw:text-box></draw:frame><draw:frame presentation:class="outline"><draw:text-box>{body}</draw:text-box></draw:frame>'
                   f'<presentation:notes><draw:frame><draw:text-box><text:p>{_esc(w.para((2, 4)))}</text:p></draw:text-box></draw:frame></presentation:notes></draw:page>')
    _odf_zip(path, "application/vnd.oasis.opendocument.presentation", f"<office:presentation>{''.join(out)}</office:presentation>")

def make_ods(path: Path, w: Words, rows=3000, sheets=3):
    def cell(v):
        if isinstance(v, (int, float)): return f'<table:table-cell office:value-type="float" office:value="{v}"><text:p>{v}</text:p></table:table-cell>'
        return f'<table:table-cell office:value-type="string"><text:p>{_esc(str(v))}</text:p></table:table-cell>'
    out = []
    for s in range(sheets):
        rs = [_columns(w)] + [[str(v) if not isinstance(v, (int, float)) else v for v in _row(w, i)] for i in range(rows)]
        out.append(f'<table:table table:name="{w.word().capitalize()} {s + 1}">'
                   + "".join("<table:table-row>" + "".join(map(cell, r)) + "</table:table-row>" for r in rs) + "</table:table>")
    _odf_zip(path, "application/vnd.oasis.opendocument.spreadsheet", f"<office:spreadsheet>{''.join(out)}</office:spreadsheet>")

def make_epub(path: Path, w: Words, chapters=25):
    "An EPUB 3 book: container, package, navigation document and XHTML chapters with h1/h2 headings."
    xh = lambda title, body: ('<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">'
                              f"<head><title>{_esc(title)}</title></head><body>{body}</body></html>")
    chaps = []
    for i in range(chapters):
        t = f"Chapter {i + 1}: {w.title()}"
        body = f"<h1>{_esc(t)}</h1>" + "".join(f"<h2>{_esc(w.title())}</h2>" + "".join(f"<p>{_esc(w.para())}</p>" for _ in range(4)) for _ in range(3))
        chaps.append((f"ch{i + 1:03}.xhtml", t, xh(t, body)))
    nav = xh("Contents", '<nav epub:type="toc"><ol>' + "".join(f'<li><a href="{n}">{_esc(t)}</a></li>' for n, t, _ in chaps) + "</ol></nav>")
    opf = ('<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">'
           '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">bench-book</dc:identifier>'
           f"<dc:title>{_esc(w.title())}</dc:title><dc:language>en</dc:language></metadata><manifest>"
           '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>'
           + "".join(f'<item id="c{i}" href="{n}" media-type="application/xhtml+xml"/>' for i, (n, _, _) in enumerate(chaps))
           + "</manifest><spine>" + "".join(f'<itemref idref="c{i}"/>' for i in range(len(chaps))) + "</spine></package>")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        z.writestr("META-INF/container.xml", '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
                   '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>')
        z.writestr("OEBPS/content.opf", opf); z.writestr("OEBPS/nav.xhtml", nav)
        for n, _, x in chaps: z.writestr(f"OEBPS/{n}", x)

def make_markdown(path: Path, w: Words, sections=40):
    path.write_text("".join(f"# {w.title()}\n\n" + "".join(f"## {w.title()}\n\n" + "\n\n".join(w.para() for _ in range(3)) + "\n\n" for _ in range(2))
                            for _ in range(sections)))

def make_html(path: Path, w: Words, sections=40):
    body = "".join(f"<h1>{_esc(w.title())}</h1>" + "".join(f"<h2>{_esc(w.title())}</h2>" + "".join(f"<p>{_esc(w.para())}</p>" for _ in range(3))
                                                       for _ in range(2)) for _ in range(sections))
    path.write_text(f"<!doctype html><html><head><title>{_esc(w.title())}</title></head><body>{body}</body></html>")

def make_rst(path: Path, w: Words, sections=40):
    title = w.title()
    path.write_text(f"{'=' * len(title)}\n{title}\n{'=' * len(title)}\n\n" + "".join(
        f"{(t := w.title())}\n{'=' * len(t)}\n\n" + "".join(f"{(u := w.title())}\n{'-' * len(u)}\n\n" + "\n\n".join(w.para() for _ in range(3)) + "\n\n"
                                                      for _ in range(2)) for _ in range(sections)))

def make_adoc(path: Path, w: Words, sections=40):
    path.write_text(f"= {w.title()}\n\n" + "".join(f"== {w.title()}\n\n" + "".join(f"=== {w.title()}\n\n" + "\n\n".join(w.para() for _ in range(3)) + "\n\n"
                                                                               for _ in range(2)) for _ in range(sections)))

def make_org(path: Path, w: Words, sections=40):
    "An Org outline: a title, headlines with a property drawer, and a source block in each subsection."
    path.write_text(f"#+TITLE: {w.title()}\n\n" + "".join(
        f"* {w.title()}\n:PROPERTIES:\n:CUSTOM_ID: s{i}\n:END:\n\n" + "".join(
            f"** {w.title()}\n\n" + "\n\n".join(w.para() for _ in range(3)) + f"\n\n#+begin_src sh\n{w.word()} --{w.word()} =[[{w.word()}]]=\n#+end_src\n\n"
            for _ in range(2)) for i in range(sections)))

def make_vtt(path: Path, w: Words, cues=1500):
    "A meeting transcript as Teams writes it: a sentence a cue, with its speaker's voice tag, four speakers taking turns."
    speakers, clock = [w.title() for _ in range(4)], lambda t: f"{int(t // 3600):02}:{int(t % 3600 // 60):02}:{t % 60:06.3f}"
    path.write_text("WEBVTT\n\n" + "".join(f"{clock(i * 4.0)} --> {clock(i * 4.0 + 3.8)}\n<v {speakers[i // 7 % 4]}>{w.sentence()}</v>\n\n" for i in range(cues)))

def make_latex(path: Path, w: Words, sections=40):
    body = "".join(f"\\section{{{w.title()}}}\n" + "".join(f"\\subsection{{{w.title()}}}\n" + "\n\n".join(w.para() for _ in range(3)) + "\n\n"
                                                           for _ in range(2)) for _ in range(sections))
    path.write_text(f"\\documentclass{{article}}\n\\title{{{w.title()}}}\n\\begin{{document}}\n\\maketitle\n{body}\\end{{document}}\n")

def make_notebook(path: Path, w: Words, sections=40):
    cells = []
    for i in range(sections):
        cells.append({"cell_type": "markdown", "metadata": {}, "source": f"## {w.title()}\n\n{w.para()}"})
        for j in range(2):
            f = _ident(w)
            cells.append({"cell_type": "code", "metadata": {}, "execution_count": j, "source": f"def {f}(xs):\n    return sorted(xs)[:{j + 3}]\n\n{f}(data)",
                          "outputs": [{"output_type": "execute_result", "execution_count": j, "data": {"text/plain": str([w.word() for _ in range(6)])}}]})
    path.write_text(json.dumps({"cells": cells, "metadata": {"kernelspec": {"language": "python", "name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}))

def make_rtf(path: Path, w: Words, sections=40):
    "As TextEdit writes it: a font table, a colour table, bold headings, escaped accents and dashes."
    esc = lambda t: t.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}")
    body = "".join(f"\\f1\\b {esc(w.title())}\\\n\\f0\\b0 " + "\\\n\\\n".join(esc(w.para()) + " Caf\\'e9 \\uc0\\u8212  done." for _ in range(3)) + "\\\n"
                   for _ in range(sections))
    path.write_text("{\\rtf1\\ansi\\ansicpg1252{\\fonttbl\\f0\\fswiss\\fcharset0 Helvetica;\\f1\\fswiss\\fcharset0 Helvetica-Bold;}"
                    "{\\colortbl;\\red255\\green255\\blue255;}{\\info{\\title " + esc(w.title()) + "}}\n" + body + "}")

def make_mbox(path: Path, w: Words, messages=80):
    import mailbox
    from email.message import EmailMessage
    box = mailbox.mbox(path)
    for i in range(messages):
        m = EmailMessage()
        m["From"], m["To"], m["Subject"], m["Date"] = f"{w.word()}@example.org", "team@example.org", w.title(), f"Tue, {1 + i % 28:02} Dec 2026 09:30:00 +0000"
        m.set_content("\n\n".join(w.para() for _ in range(3)))
        box.add(m)
    box.flush(); box.close()

def _ident(w: Words) -> str: return "_".join(w.word() for _ in range(2))

def make_code(folder: Path, w: Words, per_language=6):
    "Source files in several languages: functions and classes with doc comments (JavaScript, Go, Rust, SQL, YAML, shell)."
    folder.mkdir(parents=True, exist_ok=True)
    for k in range(per_language):
        js, go, rs, sql, yml, sh = [], ["package main\n\nimport \"fmt\"\n"], [], [], [], ["#!/bin/sh\nset -eu\n"]
        for i in range(25):
            f, c = _ident(w), w.sentence()
            js.append(f"/** {c} */\nexport function {f}(items, options = {{}}) {{\n  const out = [];\n  for (const x of items) {{\n"
                      f"    if (x.{w.word()} > options.limit) out.push(x);\n  }}\n  return out;\n}}\n")
            go.append(f"// {c}\nfunc {f}(xs []int) int {{\n\ttotal := 0\n\tfor _, x := range xs {{\n\t\ttotal += x\n\t}}\n"
                      f"\tfmt.Println(\"{w.word()}\", total)\n\treturn total\n}}\n")
            rs.append(f"/// {c}\npub fn {f}(xs: &[u32]) -> u32 {{\n    xs.iter().filter(|x| **x > {i}).sum()\n}}\n\n"
                      f"pub struct {f.title().replace('_', '')} {{\n    pub {w.word()}: u32,\n    pub {w.word()}_name: String,\n}}\n")
            sql.append(f"-- {c}\nCREATE TABLE {f} (\n  id INTEGER PRIMARY KEY,\n  {w.word()} TEXT NOT NULL,\n  created DATE\n);\n"
                       f"INSERT INTO {f} (id, {w.word()}) VALUES ({i}, '{w.word()}');\n")
            yml.append(f"{f}:\n  description: \"{c[:60]}\"\n  enabled: true\n  items:\n    - {w.word()}\n    - {w.word()}\n")
            sh.append(f"# {c}\n{f}() {{\n  for f in \"$@\"; do\n    grep -c '{w.word()}' \"$f\" || true\n  done\n}}\n")
        for ext, parts in ((".js", js), (".go", go), (".rs", rs), (".sql", sql), (".yaml", yml), (".sh", sh)):
            (folder / f"m{k}{ext}").write_text("\n".join(parts))

def generate_formats(folder: Path, quick: bool) -> dict[str, list[Path]]:
    "The generated files, by format name."
    w, f = Words(1), (lambda n: max(2, n // 8) if quick else n)
    out = {}
    def one(name, maker, suffix, **kw):
        p = folder / f"generated{suffix}"; maker(p, w, **kw); out[name] = [p]
    one("docx", make_docx, ".docx", sections=f(40)); one("odt", make_odt, ".odt", sections=f(40))
    one("pptx", make_pptx, ".pptx", slides=f(80)); one("odp", make_odp, ".odp", slides=f(80))
    one("xlsx", make_xlsx, ".xlsx", rows=f(3000)); one("ods", make_ods, ".ods", rows=f(3000)); one("csv", make_csv, ".csv", rows=f(10000))
    one("epub", make_epub, ".epub", chapters=f(25)); one("markdown", make_markdown, ".md", sections=f(40)); one("html", make_html, ".html", sections=f(40))
    one("rst", make_rst, ".rst", sections=f(40)); one("asciidoc", make_adoc, ".adoc", sections=f(40)); one("org", make_org, ".org", sections=f(40)); one("latex", make_latex, ".tex", sections=f(40))
    one("notebook", make_notebook, ".ipynb", sections=f(40)); one("mbox", make_mbox, ".mbox", messages=f(80))
    one("rtf", make_rtf, ".rtf", sections=f(40)); one("transcript", make_vtt, ".vtt", cues=f(1500))
    make_code(folder / "code", w, per_language=2 if quick else 6)
    for ext in (".js", ".go", ".rs", ".sql", ".yaml", ".sh"): out[f"code {ext[1:]}"] = sorted((folder / "code").glob(f"*{ext}"))
    return out

def stdlib_sources(n: int) -> list[Path]:
    "Real Python source: the standard library's own modules (the largest n below 200 KB, for a stable sample)."
    lib = Path(os.__file__).parent
    files = sorted((p for p in lib.glob("*.py") if p.stat().st_size < 200_000), key=lambda p: (-p.stat().st_size, p.name))
    return files[:n]

# ------------------------------------------------------------------------------------------------ Debian packages

def fetch_debian(cache: Path, packages) -> tuple[dict[str, Path], list[str]]:
    "({package: the folder it was unpacked into}, notes): `apt-get download` and `dpkg-deb -x`, once, into `cache`."
    debs, unpacked, got, notes = cache / "debs", cache / "unpacked", {}, []
    debs.mkdir(parents=True, exist_ok=True)
    for pkg in packages:
        target = unpacked / pkg
        if (target / ".done").exists(): got[pkg] = target; continue
        have = sorted(debs.glob(f"{pkg}_*.deb"))
        if not have:
            if not shutil.which("apt-get"): notes.append(f"{pkg}: skipped, no apt-get on this machine"); continue
            try: r = subprocess.run(["apt-get", "download", pkg], cwd=debs, capture_output=True, text=True, timeout=300)
            except subprocess.TimeoutExpired: notes.append(f"{pkg}: skipped, apt-get download timed out"); continue
            have = sorted(debs.glob(f"{pkg}_*.deb"))
            if r.returncode or not have:
                notes.append(f"{pkg}: skipped, apt-get download failed ({(r.stderr.strip().splitlines() or ['?'])[-1]})"); continue
        shutil.rmtree(target, ignore_errors=True); target.mkdir(parents=True)
        r = subprocess.run(["dpkg-deb", "-x", str(have[-1]), str(target)], capture_output=True, text=True)
        if r.returncode: notes.append(f"{pkg}: skipped, dpkg-deb -x failed ({r.stderr.strip()})"); continue
        (target / ".done").touch(); got[pkg] = target
    for n in notes: print("note:", n, flush=True)
    return got, notes

def debian_files(got: dict[str, Path]) -> dict[str, list[Path]]:
    "Real files to parse, by format name."
    out = {}
    def find(pkg, pattern):
        if pkg not in got: return []
        return sorted({p.resolve() for p in got[pkg].rglob(pattern) if p.is_file()})   # a package may link a file from a second folder
    if (f := [p for p in find("r-doc-pdf", "*.pdf") if p.name in ("R-intro.pdf", "R-exts.pdf", "R-data.pdf")]): out["pdf"] = f
    if (f := find("live-manual-epub", "live-manual.en.epub")): out["epub"] = f
    if (f := find("live-manual-odf", "live-manual.en.odt")): out["odt"] = f
    xlsx = find("r-cran-readxl", "*.xlsx") + find("r-cran-openxlsx", "*.xlsx") + find("r-cran-officer", "*.xlsx")
    if xlsx: out["xlsx"] = xlsx
    if (f := find("r-cran-officer", "*.docx")): out["docx"] = f
    if (f := find("r-cran-officer", "*.pptx")): out["pptx"] = f
    git = ("user-manual", "gitfaq", "gittutorial", "git-rebase", "git-stash", "git-bisect", "giteveryday")
    if (f := [p for p in find("git-doc", "*.html") if p.stem in git]): out["html"] = f
    if (f := [p for p in find("git-doc", "*.txt") if p.stem in git]): out["text"] = f
    if (f := [p for p in find("git-man", "*.gz") if p.name.split(".")[0] in git]): out["man"] = f
    if (f := find("findutils", "find.info*.gz")): out["info"] = f
    if (f := find("elpa-org-drill", "*.org.gz")): out["org"] = f
    return out

# ------------------------------------------------------------------------------------------------ 1. parse speed

UNIT = {"pdf": "page", "docx": "section", "odt": "section", "markdown": "section", "html": "section", "pptx": "slide", "odp": "slide",
        "xlsx": "row", "ods": "row", "csv": "row", "epub": "chapter", "rst": "section", "asciidoc": "section", "org": "section", "latex": "section",
        "notebook": "section", "mbox": "section", "text": "section", "man": "section", "rtf": "section", "info": "section", "transcript": "section"}

def units_of(name: str, pages) -> int:
    "How many of the format's units a file's Pages hold."
    u = UNIT.get(name, "line")
    if u in ("page", "slide", "chapter"): return len({p.page for p in pages})
    if u == "row": return sum(p.span[1] - p.span[0] for p in pages if p.span)   # rows under the header: the header repeats per group
    if u == "line": return max((p.span[1] for p in pages if p.span), default=0)
    return len(pages)

def time_parse(name: str, files: list[Path], s: Settings, min_s: float) -> dict:
    "Load every file once to warm up (imports, caches), then time whole passes until `min_s` have gone by; the median pass."
    failed = {}
    good = []
    for f in files:
        try: load_document(f, s); good.append(f)
        except LoadError as e: failed[f.name] = e.reason
    if not good: return {"files": 0, "failed": failed}
    passes, t_all = [], time.perf_counter()
    while not passes or (time.perf_counter() - t_all < min_s and len(passes) < 20):
        t0 = time.perf_counter()
        pages = [load_document(f, s) for f in good]
        passes.append(time.perf_counter() - t0)
    sec = statistics.median(passes)
    units = sum(units_of(name, p) for p in pages)
    chars = sum(len(pg.text) for p in pages for pg in p)
    real_pages = units if UNIT.get(name) == "page" else None
    npages = real_pages if real_pages is not None else chars / CHARS_PER_PAGE
    mb = sum(f.stat().st_size for f in good) / 2**20
    return {"files": len(good), "mb": mb, "unit": UNIT.get(name, "line"), "units": units, "pages": npages, "pages_are_real": real_pages is not None,
            "chars": chars, "parts": sum(map(len, pages)), "passes": len(passes), "seconds": sec, "units_per_s": units / sec,
            "pages_per_s": npages / sec, "mb_per_s": mb / sec, "failed": failed, "names": [f.name for f in good][:8]}

def bench_parse(gen: dict, real: dict, s: Settings, min_s: float) -> list[dict]:
    rows = []
    for source, group in (("generated", gen), ("debian", real)):
        for name, files in group.items():
            r = time_parse(name.split()[0] if not name.startswith("code") else name, files, s, min_s)
            r.update(format=name, source=source); rows.append(r)
            if r["files"]: print(f"  {name:10} {source:9} {r['files']:3} files {r['units']:7} {r['unit']}s  {r['seconds']*1000:8.1f} ms  "
                                 f"{r['units_per_s']:9.1f} {r['unit']}s/s  {r['pages_per_s']:7.1f} pages/s", flush=True)
            for f, why in r["failed"].items(): print(f"    {f}: {why}", flush=True)
    return rows

def parse_table(rows: list[dict]) -> str:
    head = f"{'format':11} {'source':9} {'files':>5} {'MB':>6} {'units':>8} {'unit':8} {'ms/pass':>9} {'units/s':>10} {'pages/s':>9} {'MB/s':>6}"
    out = [head, "-" * len(head)]
    for r in rows:
        if not r["files"]: continue
        pg = f"{r['pages_per_s']:.1f}" + ("" if r["pages_are_real"] else "~")
        out.append(f"{r['format']:11} {r['source']:9} {r['files']:5} {r['mb']:6.2f} {r['units']:8} {r['unit']:8} {r['seconds'] * 1000:9.1f} "
                   f"{r['units_per_s']:10.1f} {pg:>9} {r['mb_per_s']:6.2f}")
    out.append(f"(pages/s marked ~: page equivalents of {CHARS_PER_PAGE:,} characters of extracted text; row = data row of a sheet; "
               "line = source line; section = a heading's section)")
    return "\n".join(out)

# ------------------------------------------------------------------------------------------------ 2. OCR

def levenshtein(a: str, b: str) -> int:
    "Edit distance of two strings: Myers' bit-parallel algorithm (Hyyroe's form), one big-integer step per character of `b`."
    if not a: return len(b)
    if not b: return len(a)
    m, peq = len(a), {}
    for i, c in enumerate(a): peq[c] = peq.get(c, 0) | (1 << i)
    full, top = (1 << m) - 1, 1 << (m - 1)
    pv, mv, score = full, 0, m
    for c in b:
        eq = peq.get(c, 0)
        xv = eq | mv
        xh = ((((eq & pv) + pv) & full) ^ pv) | eq
        ph = (mv | ~(xh | pv)) & full
        mh = pv & xh
        if ph & top: score += 1
        elif mh & top: score -= 1
        ph = ((ph << 1) | 1) & full
        mh = (mh << 1) & full
        pv = (mh | ~(xv | ph)) & full
        mv = ph & xv
    return score

def _levenshtein_dp(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1): cur.append(min(prev[j] + 1, cur[-1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]

def norm_ws(s: str) -> str: return " ".join(s.split())

def render_page(lines: list[str], font, scan: bool, seed: int):
    "A page of A4 at 300 dpi in grey with `lines` typeset; a `scan` is tilted, noisy and blurred like a flatbed scan."
    from PIL import Image, ImageDraw, ImageFilter
    import numpy as np
    im = Image.new("L", (2480, 3508), 255)
    d, y = ImageDraw.Draw(im), 250
    for line in lines: d.text((220, y), line, fill=0, font=font); y += int(font.size * 1.45)
    if scan:
        rng = np.random.default_rng(seed)
        im = im.rotate(0.6, resample=Image.BICUBIC, fillcolor=255).filter(ImageFilter.GaussianBlur(1.1))
        a = np.asarray(im, dtype=np.float32) + rng.normal(0, 18, (im.height, im.width))
        im = Image.fromarray(np.clip(a * 0.92 + 12, 0, 255).astype("uint8"))
    return im

def make_scans(folder: Path, pages: int, scan: bool, w: Words) -> tuple[Path, list[str]]:
    "An image-only PDF of `pages` pages (300 dpi, JPEG inside as scanners write) and the text of each page."
    from PIL import ImageFont
    font_file = next((p for p in ("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf")
                      if Path(p).exists()), None)
    font = ImageFont.truetype(font_file, 46) if font_file else ImageFont.load_default(46)   # 11 pt at 300 dpi
    images, truths = [], []
    for i in range(pages):
        lines = []
        while len(lines) < 40:
            para = w.para((2, 4))
            words, line = para.split(), ""
            for word in words:                                    # wrap by the rendered width (2,040 px of text)
                if line and font.getlength(f"{line} {word}") > 2040: lines.append(line); line = word
                else: line = f"{line} {word}".strip()
            lines += [line, ""]
        lines = lines[:40]
        images.append(render_page(lines, font, scan, i)); truths.append("\n".join(lines))
    path = folder / f"scanned-{'noisy' if scan else 'clean'}.pdf"
    images[0].save(path, "PDF", resolution=300, save_all=True, append_images=images[1:], quality=80)
    return path, truths

def bench_ocr(folder: Path, pages: int, s: Settings) -> dict:
    if not shutil.which("tesseract"): return {"skipped": "tesseract is not installed (apt-get install tesseract-ocr tesseract-ocr-eng)"}
    v = subprocess.run(["tesseract", "--version"], capture_output=True, text=True)
    out = {"tesseract": (v.stdout or v.stderr).splitlines()[0], "languages": s.ocr_languages, "workers": os.cpu_count(), "variants": {}}
    for scan in (False, True):
        path, truths = make_scans(folder, pages, scan, Words(7 + scan))
        t0 = time.perf_counter(); got = load_document(path, s); sec = time.perf_counter() - t0
        by_page = {}
        for p in got: by_page.setdefault(p.page, []).append(p.text)
        errs, chars, per_page = 0, 0, []
        for i, truth in enumerate(truths, 1):
            t, o = norm_ws(truth), norm_ws(" ".join(by_page.get(i, [])))
            e = levenshtein(t, o); errs += e; chars += len(t); per_page.append(e / len(t))
        name = "scan (tilted, noisy, blurred)" if scan else "clean render"
        out["variants"][name] = {"pages": len(truths), "seconds": sec, "pages_per_s": len(truths) / sec, "cer": errs / chars,
                                 "cer_worst_page": max(per_page), "chars": chars, "pdf_kb": path.stat().st_size / 1024}
        print(f"  OCR {name:30} {len(truths)} pages in {sec:.1f} s = {len(truths) / sec:.2f} pages/s, CER {errs / chars:.2%}", flush=True)
    return out

# ------------------------------------------------------------------------------------------------ 3-4. many files, sync

def make_notes(folder: Path, n: int, w: Words) -> list[Path]:
    "n notes of 1-2 KB (Markdown and plain text), in 20 subfolders, as a notes folder holds them."
    files = []
    for i in range(n):
        sub = folder / f"topic-{i % 20:02}"; sub.mkdir(parents=True, exist_ok=True)
        md = i % 10 < 7
        target, body = w.rng.randint(1000, 2000), []
        while sum(map(len, body)) < target: body.append(w.para((2, 4)))
        head = f"# {w.title()} ({i})\n\n" if md else f"{w.title()} ({i})\n\n"
        p = sub / f"note-{i:04}{'.md' if md else '.txt'}"
        p.write_text(head + "\n\n".join(body) + "\n"); files.append(p)
    return files

def one_file_of(files: list[Path], path: Path) -> Path:
    "The same text as `files` in one Markdown file, each note a section under its own heading."
    parts = []
    for f in files:
        t = f.read_text()
        parts.append(t if t.startswith("# ") else f"# {t}")
    path.write_text("\n".join(parts)); return path

def timed_ingest(engine, paths, **kw):
    t0 = time.perf_counter(); r = engine.ingest(paths, **kw); return time.perf_counter() - t0, r

def bench_folder(work: Path, n: int, reps: int) -> dict:
    "Many small files against one file of the same text; then one edit synced against that file ingested alone."
    w = Words(3)
    notes = work / "notes"; files = make_notes(notes, n, w)
    single = work / "single"; single.mkdir(); one = one_file_of(files, single / "all-notes.md")
    kb = [f.stat().st_size / 1024 for f in files]
    out = {"files": n, "file_kb_min": min(kb), "file_kb_mean": statistics.fmean(kb), "file_kb_max": max(kb), "one_file_kb": one.stat().st_size / 1024}
    with tempfile.TemporaryDirectory() as d:
        s = settings_for(Path(d))
        with Engine(s) as engine:
            engine.dense.embed_documents(["warm up the model"] * 16); engine.sparse.embed_documents(["warm up"])
            sec_one, r_one = timed_ingest(engine, [one], collection="one")
            sec_many, r_many = timed_ingest(engine, [notes], collection="many")
            if r_many.failed or r_one.failed: raise RuntimeError(f"ingest failed: {r_many.failed or r_one.failed}")
            out["many"] = {"seconds": sec_many, "chunks": r_many.chunks, "files_per_s": n / sec_many, "chunks_per_s": r_many.chunks / sec_many}
            out["one"] = {"seconds": sec_one, "chunks": r_one.chunks, "chunks_per_s": r_one.chunks / sec_one, "files_per_s_equivalent": n / sec_one}
            out["ratio_time_one_over_many"] = sec_one / sec_many
            out["ratio_chunks_per_s_many_over_one"] = out["many"]["chunks_per_s"] / out["one"]["chunks_per_s"]
            print(f"  {n} files: {sec_many:.1f} s ({n / sec_many:.1f} files/s, {r_many.chunks / sec_many:.1f} chunks/s); one file: {sec_one:.1f} s "
                  f"({r_one.chunks / sec_one:.1f} chunks/s); chunks/s ratio {out['ratio_chunks_per_s_many_over_one']:.2f}", flush=True)
            # What a sync reads before it decides: the folder walk and a hash of every file.
            t0 = time.perf_counter(); found, _ = find_documents([notes]); [file_sha256(f) for f in found]
            out["scan_and_hash_s"] = time.perf_counter() - t0
            # Nothing changed: a sync that only checks.
            out["sync_unchanged_s"], r = timed_ingest(engine, [notes], collection="many", sync=True)
            assert not (r.added or r.updated or r.removed), r
            syncs, dries, alones, steps = [], [], [], []
            for k in range(reps):
                f = files[(k * 337 + 11) % n]
                with open(f, "a") as fh: fh.write(f"\n{w.para()}\n")          # one edit
                dry, rd = timed_ingest(engine, [notes], collection="many", sync=True, dry_run=True)
                with Timers(engine) as t_sync: sync, rs = timed_ingest(engine, [notes], collection="many", sync=True)
                if len(rs.updated) != 1 or rs.added or rs.removed or len(rd.updated) != 1:
                    raise RuntimeError(f"sync after one edit did not update exactly one file: {rs}")
                with Timers(engine) as t_alone: alone, ra = timed_ingest(engine, [f], collection=f"alone-{k}")   # the same file, a fresh collection
                steps.append({"sync": t_sync.seconds, "alone": t_alone.seconds})
                syncs.append(sync); dries.append(dry); alones.append(alone)
                print(f"  edit {k + 1}: dry run {dry * 1000:.0f} ms, sync {sync * 1000:.0f} ms ({rs.chunks} chunks), "
                      f"that file alone into a fresh collection {alone * 1000:.0f} ms ({ra.chunks} chunks)", flush=True)
            out["sync"] = {"edits": reps, "steps_s": steps, "sync_s": syncs, "dry_run_s": dries, "one_file_alone_s": alones,
                           "sync_median_s": statistics.median(syncs), "dry_run_median_s": statistics.median(dries),
                           "one_file_alone_median_s": statistics.median(alones),
                           "ratio_sync_to_one_file": statistics.median(syncs) / statistics.median(alones)}
    return out

# ------------------------------------------------------------------------------------------------ 5. the large folder

class Timers:
    "Seconds spent in each of the engine's steps during a block: the methods are wrapped on the instances, then unwrapped."
    def __init__(self, engine):
        self.targets = [(engine.store, n) for n in ("upsert", "optimize", "write_registry", "delete_where", "create_collection")]
        self.targets += [(engine.dense, "embed_documents"), (engine.sparse, "embed_documents"), (engine.dense, "release_memory")]
        # reading and chunking run in the indexer's loader thread, beside these: what they cost shows as waiting, in the rest
        self.seconds = {}
    def _wrap(self, obj, name):
        f, key = getattr(obj, name), f"{type(obj).__name__}.{name}"
        def timed(*a, **kw):
            t0 = time.perf_counter()
            try: return f(*a, **kw)
            finally: self.seconds[key] = self.seconds.get(key, 0.0) + time.perf_counter() - t0
        setattr(obj, name, timed)
    def __enter__(self):
        for obj, name in self.targets: self._wrap(obj, name)
        return self
    def __exit__(self, *a):
        for obj, name in self.targets: obj.__dict__.pop(name, None)

class RssSampler(threading.Thread):
    "RSS every `every` seconds, with the phase the ingest reported last (from its progress messages)."
    def __init__(self, every=0.1):
        super().__init__(daemon=True); self.every, self.phase, self.samples, self._halt = every, "start", [], threading.Event()
    def run(self):
        t0 = time.perf_counter()
        while not self._halt.wait(self.every): self.samples.append((time.perf_counter() - t0, rss_mb(), self.phase))
    def stop(self): self._halt.set(); self.join()
    def by_phase(self) -> dict:
        out = {}
        for t, r, ph in self.samples:
            o = out.setdefault(ph, {"max_rss_mb": 0, "first_s": t, "last_s": t})
            o["max_rss_mb"] = max(o["max_rss_mb"], r); o["last_s"] = t
        return out

def large_child(folder: Path, out_path: Path, sample: int = 1):
    "Part 5, run in a child process of its own: ingest `folder`, then embed the same chunk texts alone."
    res = {"folder": str(folder), "rss_start_mb": rss_mb()}
    files, _ = find_documents([folder])
    with tempfile.TemporaryDirectory() as d:
        s = settings_for(Path(d))
        res["settings"] = {"embedding_batch_size": s.embedding_batch_size, "chunk_size": s.chunk_size, "parent_chunk_size": s.parent_chunk_size,
                           "embedding_threads": s.embedding_threads, "embedding_cache": s.embedding_cache, "backend": "qdrant_url" if s.qdrant_url else "edge"}
        with Engine(s) as engine:
            engine.dense.embed_documents(["warm up the model " * 20] * s.embedding_batch_size); engine.sparse.embed_documents(["warm up"])
            _ = engine.store
            res["rss_models_loaded_mb"] = rss_mb(); res["peak_rss_before_ingest_mb"] = peak_rss_mb()
            sampler = RssSampler(); sampler.start()
            def progress(done, total, msg): sampler.phase = "loading" if msg.startswith("loading") else "embedding" if msg.startswith("embedding") else msg
            t0, cpu0, res["load_average_before_ingest"] = time.perf_counter(), cpu_s(), os.getloadavg()
            with Timers(engine) as timers: report = engine.ingest([folder], collection="large", on_progress=progress)
            ingest_s, res["ingest_cpu_s"], res["load_average_after_ingest"] = time.perf_counter() - t0, cpu_s() - cpu0, os.getloadavg()
            res["ingest_steps_s"] = timers.seconds
            sampler.phase = "after ingest"; time.sleep(0.3); sampler.stop()
            res["peak_rss_ingest_mb"] = peak_rss_mb()
            if report.failed: raise RuntimeError(f"ingest failed: {report.failed}")
            res["ingest"] = {"files": [f.name for f in files], "pages": report.pages, "chunks": report.chunks, "seconds": ingest_s,
                             "pages_per_s": report.pages / ingest_s, "chunks_per_s": report.chunks / ingest_s}
            res["rss_by_phase"] = sampler.by_phase()
            res["rss_timeline"] = [(round(t, 1), round(r), ph) for t, r, ph in sampler.samples[::max(1, len(sampler.samples) // 300)]]   # ~300 points
            # the embedding inside the ingest against the ingest's wall time: both under the same load of the machine at the same time
            embed_in = res["ingest_steps_s"].get("DenseEmbedder.embed_documents", 0) + res["ingest_steps_s"].get("SparseEmbedder.embed_documents", 0)
            res["embedding_share_of_ingest"] = embed_in / ingest_s
            print(f"  ingest: {report.pages} pages, {report.chunks} chunks in {ingest_s:.1f} s ({ingest_s and report.chunks / ingest_s:.1f} chunks/s), "
                  f"embedding {res['embedding_share_of_ingest']:.1%} of it; peak RSS {res['peak_rss_ingest_mb']:.0f} MB; load average {res['load_average_after_ingest']}", flush=True)
            out_path.write_text(json.dumps(res, indent=2, default=str))   # what is known so far, should the ceiling not finish
            # The same texts, loaded and chunked again (timed: the parse share of the ingest), then embedded alone.
            texts, t0 = [], time.perf_counter()
            load_s = 0.0
            for f in files:   # the pieces the indexer reads (a PDF a window at a time), chunked as it chunks them: the same texts
                version, pieces = version_of(str(f.resolve()), file_sha256(f)), document_pieces(f, s, Indexer.window)
                chunker = Chunker(s, version)
                while True:
                    t1 = time.perf_counter(); pages = next(pieces, None); load_s += time.perf_counter() - t1
                    texts += [embed_text(c) for c in chunker.add(pages or [], last=pages is None)[1]]
                    if pages is None: break
            res["load_and_chunk_s"], res["load_s"] = time.perf_counter() - t0, load_s
            bs, dense_s, sparse_s = s.embedding_batch_size, 0.0, 0.0
            t0, cpu0, res["load_average_before_ceiling"] = time.perf_counter(), cpu_s(), os.getloadavg()
            n_all = len(texts)   # embed every `sample`-th batch only: the rate of a uniform sample, in 1/sample of the time
            texts = [t for k, i in enumerate(range(0, len(texts), bs)) if k % sample == 0 for t in texts[i:i + bs]]
            res["ceiling_sample"] = sample
            for i in range(0, len(texts), bs):
                batch = texts[i:i + bs]
                t1 = time.perf_counter(); engine.dense.embed_documents(batch); t2 = time.perf_counter(); engine.sparse.embed_documents(batch)
                dense_s += t2 - t1; sparse_s += time.perf_counter() - t2
            embed_s, res["ceiling_cpu_s"], res["load_average_after_ceiling"] = time.perf_counter() - t0, cpu_s() - cpu0, os.getloadavg()
            res["ceiling"] = {"chunks": len(texts), "of_chunks": n_all, "seconds": embed_s, "seconds_for_all": embed_s * n_all / len(texts), "dense_s": dense_s, "sparse_s": sparse_s, "chunks_per_s": len(texts) / embed_s}
            res["ratio_to_ceiling"] = (report.chunks / ingest_s) / (len(texts) / embed_s)   # throughput against throughput
            res["other_s"] = ingest_s - res["ceiling"]["seconds_for_all"]   # what the ingest took beyond embedding its chunks alone
            print(f"  ceiling: {len(texts)} of {n_all} chunks embedded alone in {embed_s:.1f} s (dense {dense_s:.1f} s, BM25 {sparse_s:.1f} s); "
                  f"load+chunk {res['load_and_chunk_s']:.1f} s; ratio {res['ratio_to_ceiling']:.3f}", flush=True)
    res["peak_rss_mb"] = peak_rss_mb()
    out_path.write_text(json.dumps(res, indent=2, default=str))

def bench_large(got: dict, quick: bool, cache: Path, sample: int = 1) -> dict:
    if "r-doc-pdf" not in got: return {"skipped": "r-doc-pdf could not be fetched"}
    manuals = next(got["r-doc-pdf"].rglob("R-exts.pdf")).resolve().parent
    names = ["R-data.pdf"] if quick else ["refman.pdf", "R-exts.pdf"]
    folder = cache / ("large-quick" if quick else "large")
    folder.mkdir(parents=True, exist_ok=True)
    for n in names:
        if not (folder / n).exists(): shutil.copy2(manuals / n, folder / n)
    with tempfile.TemporaryDirectory() as d:
        part = Path(d) / "large.json"
        r = subprocess.run([sys.executable, __file__, "--large-child", str(folder), "--large-out", str(part), "--ceiling-sample", str(sample)], env={**os.environ})
        if r.returncode: return {"failed": f"the child process exited with {r.returncode}"}
        res = json.loads(part.read_text())
    res["targets"] = {"peak_rss_mb_under": 2048, "ratio_at_least": 0.9,
                      "peak_rss_met": res["peak_rss_mb"] < 2048, "ratio_met": res["ratio_to_ceiling"] >= 0.9}
    return res

# ------------------------------------------------------------------------------------------------ 6. content detection

# what a loader does with a file whose name says nothing: which format's loader takes it, or none
_TRUTH = {".pdf": "pdf", ".docx": "docx", ".pptx": "pptx", ".xlsx": "sheet", ".odt": "odt", ".odp": "odp", ".ods": "sheet", ".epub": "epub",
          ".png": "image", ".jpg": "image", ".jpeg": "image", ".tif": "image", ".tiff": "image", ".html": "html", ".htm": "html"}
_TEXTS = (".md", ".txt", ".rst", ".py", ".c", ".h", ".json", ".yaml", ".yml", ".toml", ".sh", ".js", ".cfg", ".ini", ".csv", ".css", ".go", ".rs", ".sql")
_BINARIES = (".so", ".gz", ".xz", ".zip", ".whl", ".pyc", ".mo", ".ttf", ".otf", ".db", ".sqlite", ".deb", ".a", ".o", ".wasm", ".ogg", ".woff2", ".gif", ".bz2")
_MAGIKA = {"pdf": "pdf", "docx": "docx", "pptx": "pptx", "xlsx": "sheet", "odt": "odt", "odp": "odp", "ods": "sheet", "epub": "epub",
           "png": "image", "jpeg": "image", "tiff": "image", "html": "html"}

def detection_sample(got: dict, gen: dict, per_kind: int = 30) -> list[tuple[Path, str]]:
    "(file, what a loader should do with it) for real files of this machine and the generated ones: documents, text and code, binaries."
    rng, roots = random.Random(0), [Path("/usr/share"), Path("/usr/lib"), Path(os.__file__).parent, *got.values()]
    by = {}
    for root in roots:
        for dirpath, _, names in os.walk(root):
            for n in names:
                f = Path(dirpath, n); suf = f.suffix.lower()
                if f.is_symlink() or not f.is_file(): continue
                kind = _TRUTH.get(suf) or ("text" if suf in _TEXTS else "none" if suf in _BINARIES else None)
                if kind and f.stat().st_size > 0: by.setdefault((kind, suf), []).append(f)
    by[("none", "elf")] = [f for f in Path("/usr/bin").iterdir() if f.is_file() and not f.is_symlink() and f.read_bytes()[:4] == b"\x7fELF"]
    by[("text", "license")] = [f for f in Path("/usr/share/common-licenses").iterdir() if f.is_file()]
    for name, files in gen.items():
        for f in files: by.setdefault((_TRUTH.get(f.suffix.lower(), "text"), f.suffix.lower()), []).append(f)
    out = []
    for (kind, suf), files in sorted(by.items()):
        files = sorted(set(files)); rng.shuffle(files)
        out += [(f, kind) for f in files[:per_kind // (3 if kind in ("text", "none") else 1)]]
    return out

def bench_detection(work: Path, sample: list[tuple[Path, str]]) -> dict:
    "Our sniff (`loaders.format_of` on a name without suffix) against Magika 1.0.3 where it is installed: right decisions and time per file."
    from self_rag.loaders import format_of
    names = {"self_rag.loaders:load_pdf": "pdf", "self_rag.formats:load_docx": "docx", "self_rag.formats:load_pptx": "pptx", "self_rag.formats:load_odt": "odt",
             "self_rag.formats:load_odp": "odp", "self_rag.formats:load_epub": "epub", "self_rag.formats:load_image": "image",
             "self_rag.loaders:load_html": "html", "self_rag.loaders:load_text": "text", "self_rag.formats:load_code": "text",
             "self_rag.formats:load_workbook": "sheet"}
    def ours(link: Path, f: Path) -> str:
        fmt = format_of(link)
        if fmt is None: return "none"
        key = fmt.loader if isinstance(fmt.loader, str) else f"{fmt.loader.__module__}:{fmt.loader.__name__}"
        return names.get(key, key)
    links = work / "nameless"; links.mkdir()
    pairs = []
    for i, (f, kind) in enumerate(sample):
        (link := links / f"file{i:04}").symlink_to(f); pairs.append((link, f, kind))
    t0 = time.perf_counter(); got_ours = [ours(l, f) for l, f, _ in pairs]; ours_s = time.perf_counter() - t0
    res = {"files": len(pairs), "by_truth": dict(sorted(collections.Counter(k for _, _, k in pairs).items())),
           "sniff": {"right": sum(g == k for g, (_, _, k) in zip(got_ours, pairs)), "ms_per_file": 1000 * ours_s / len(pairs),
                     "wrong": [(str(f), k, g) for g, (_, f, k) in zip(got_ours, pairs) if g != k][:40]}}
    try:
        t0 = time.perf_counter(); from magika import Magika; m = Magika(); load_s = time.perf_counter() - t0
    except ImportError:
        res["magika"] = {"skipped": "magika is not installed (pip install magika==1.0.3 to compare)"}; return res
    t0 = time.perf_counter(); preds = m.identify_paths([l for l, _, _ in pairs]); m_s = time.perf_counter() - t0
    def theirs(p) -> str:
        label = str(p.output.label)
        return _MAGIKA.get(label) or ("text" if p.output.is_text else "none")
    got_m = [theirs(p) for p in preds]
    import magika
    res["magika"] = {"version": magika.__version__, "load_s": load_s, "ms_per_file": 1000 * m_s / len(pairs),
                     "right": sum(g == k for g, (_, _, k) in zip(got_m, pairs)),
                     "wrong": [(str(f), k, g) for g, (_, f, k) in zip(got_m, pairs) if g != k][:40],
                     "installed_mb": sum(f.size or 0 for f in importlib.metadata.files("magika")) / 2**20}   # the package, its model and its CLI binary
    return res

# ------------------------------------------------------------------------------------------------ 7. one 3,000-page PDF

def long_pdf(got: dict, cache: Path, pages: int = 3000) -> Path | None:
    "One PDF of at least `pages` pages: the R manuals of `r-doc-pdf` one after the other (pypdf's writer), made once into `cache`."
    if "r-doc-pdf" not in got: return None
    out = cache / f"r-manuals-{pages}.pdf"
    if out.exists(): return out
    from pypdf import PdfWriter
    manuals = next(got["r-doc-pdf"].rglob("R-exts.pdf")).resolve().parent
    w, n = PdfWriter(), 0
    for name in ("refman.pdf", "R-exts.pdf", "R-lang.pdf", "R-ints.pdf", "R-admin.pdf", "R-intro.pdf", "R-data.pdf"):
        if n >= pages: break
        w.append(manuals / name); n = len(w.pages)
    with open(out.with_suffix(".tmp"), "wb") as f: w.write(f)
    out.with_suffix(".tmp").rename(out)
    return out

def stream_child(path: Path, out_path: Path):
    "Part 7, in a child process of its own: read a long PDF window by window (`pdf_windows`), RSS after each window."
    from self_rag.loaders import PDF_WINDOW, pdf_windows
    res, t0, rss = {"file": path.name, "window": PDF_WINDOW, "rss_start_mb": rss_mb()}, time.perf_counter(), []
    for n, pages in enumerate(pdf_windows(path, settings_for(Path(tempfile.gettempdir())))):
        if n == 0: res["first_window_s"] = time.perf_counter() - t0
        rss.append((pages[-1].page, round(rss_mb(), 1)))
    res.update(seconds=time.perf_counter() - t0, pages=rss[-1][0], windows=len(rss), peak_rss_mb=peak_rss_mb(), rss_by_window=rss[::10] + rss[-1:])
    res["rss_after_100_pages_mb"] = next(r for p, r in rss if p >= 100)
    res["rss_growth_after_100_pages_mb"] = max(r for _, r in rss) - res["rss_after_100_pages_mb"]
    out_path.write_text(json.dumps(res))

def bench_stream(got: dict, cache: Path) -> dict:
    path = long_pdf(got, cache)
    if path is None: return {"skipped": "r-doc-pdf could not be fetched"}
    with tempfile.TemporaryDirectory() as d:
        part = Path(d) / "stream.json"
        r = subprocess.run([sys.executable, __file__, "--stream-child", str(path), "--large-out", str(part)], env={**os.environ})
        return json.loads(part.read_text()) if r.returncode == 0 else {"failed": f"the child process exited with {r.returncode}"}

# ------------------------------------------------------------------------------------------------ main

def summary(res: dict) -> str:
    out = []
    if "parse" in res: out += ["Parse speed (load_document, median of passes):", parse_table(res["parse"]), ""]
    o = res.get("ocr", {})
    if "variants" in o:
        out.append(f"OCR ({o['tesseract']}, {o['workers']} parallel tesseract processes, 300 dpi A4, 40 lines of 11 pt serif):")
        for name, v in o["variants"].items():
            out.append(f"  {name:30} {v['pages']:2} pages  {v['pages_per_s']:.2f} pages/s  CER {v['cer']:.2%} (worst page {v['cer_worst_page']:.2%})")
        out.append("")
    elif o: out += [f"OCR: {o.get('skipped')}", ""]
    f = res.get("folder")
    if f:
        out.append(f"{f['files']} small files ({f['file_kb_min']:.1f}-{f['file_kb_max']:.1f} KB, mean {f['file_kb_mean']:.1f}) against the same text in one file ({f['one_file_kb']:.0f} KB):")
        m, o1 = f["many"], f["one"]
        out.append(f"  {f['files']} files: {m['seconds']:.1f} s, {m['files_per_s']:.1f} files/s, {m['chunks']} chunks, {m['chunks_per_s']:.1f} chunks/s")
        out.append(f"  one file:  {o1['seconds']:.1f} s, {o1['chunks']} chunks, {o1['chunks_per_s']:.1f} chunks/s")
        out.append(f"  ratio chunks/s many/one: {f['ratio_chunks_per_s_many_over_one']:.2f}   time one/many: {f['ratio_time_one_over_many']:.2f}")
        sy = f["sync"]
        out.append(f"Sync of the {f['files']}-file folder after one edit (median of {sy['edits']}):")
        out.append(f"  sync {sy['sync_median_s'] * 1000:.0f} ms, that file alone into a fresh collection {sy['one_file_alone_median_s'] * 1000:.0f} ms: "
                   f"ratio {sy['ratio_sync_to_one_file']:.2f}")
        mid = sy["steps_s"][sy["sync_s"].index(sy["sync_median_s"])] if sy["sync_median_s"] in sy["sync_s"] else sy["steps_s"][0]
        for what in ("sync", "alone"):
            out.append(f"    inside the {what:5}: " + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in sorted(mid[what].items(), key=lambda kv: -kv[1]) if v >= 0.001))
        out.append(f"  dry run {sy['dry_run_median_s'] * 1000:.0f} ms; sync with nothing changed {f['sync_unchanged_s'] * 1000:.0f} ms; "
                   f"walking and hashing the folder {f['scan_and_hash_s'] * 1000:.0f} ms")
        out.append("")
    dt = res.get("detect")
    if dt:
        out.append(f"Content detection, {dt['files']} real files without their names ({', '.join(f'{k} {n}' for k, n in dt['by_truth'].items())}):")
        sn, mg = dt["sniff"], dt["magika"]
        out.append(f"  our sniff:   {sn['right']}/{dt['files']} right ({sn['right'] / dt['files']:.1%}), {sn['ms_per_file']:.2f} ms a file")
        if "right" in mg:
            out.append(f"  Magika {mg['version']}: {mg['right']}/{dt['files']} right ({mg['right'] / dt['files']:.1%}), {mg['ms_per_file']:.2f} ms a file, "
                       f"{mg['load_s']:.1f} s to load, {mg['installed_mb']:.0f} MB installed")
        else: out.append(f"  Magika: {mg['skipped']}")
        out.append("")
    st = res.get("stream")
    if st and "pages" in st:
        out.append(f"One {st['pages']}-page PDF ({st['file']}) read {st['window']} pages at a time: first window after {st['first_window_s']:.1f} s, "
                   f"all in {st['seconds']:.0f} s; RSS {st['rss_after_100_pages_mb']:.0f} MB after 100 pages, at most {st['rss_growth_after_100_pages_mb']:.0f} MB more "
                   f"over the remaining {st['pages'] - 100}; peak {st['peak_rss_mb']:.0f} MB")
        out.append("")
    elif st: out += [f"One long PDF: {st.get('skipped') or st.get('failed')}", ""]
    l = res.get("large")
    if l and "ingest" in l:
        i, c, t = l["ingest"], l["ceiling"], l["targets"]
        out.append(f"Large folder ({', '.join(i['files'])}): {i['pages']} pages, {i['chunks']} chunks")
        out.append(f"  ingest {i['seconds']:.1f} s = {i['pages_per_s']:.1f} pages/s, {i['chunks_per_s']:.1f} chunks/s")
        out.append(f"  embedding alone (dense + BM25, batches of {l['settings']['embedding_batch_size']}; {c['chunks']} of the {c['of_chunks']} chunks, "
                   f"every {l['ceiling_sample']}. batch) {c['seconds']:.1f} s = {c['chunks_per_s']:.1f} chunks/s (dense {c['dense_s']:.1f} s, BM25 {c['sparse_s']:.1f} s)")
        out.append(f"  ratio to the ceiling {l['ratio_to_ceiling']:.3f} (target >= 0.9: {'met' if t['ratio_met'] else 'MISSED'}); "
                   f"reading and chunking alone {l['load_and_chunk_s']:.1f} s (load {l['load_s']:.1f} s), overlapped with embedding; the ingest's time beyond embedding alone {l['other_s']:.1f} s")
        out.append(f"  inside the same ingest, embedding took {l['embedding_share_of_ingest']:.1%} of its time (a ratio measured under one load of the machine); "
                   f"load average {l['load_average_before_ingest'][0]:.1f} -> {l['load_average_after_ingest'][0]:.1f} during the ingest, "
                   f"{l['load_average_before_ceiling'][0]:.1f} -> {l['load_average_after_ceiling'][0]:.1f} during the ceiling; CPU seconds: ingest {l['ingest_cpu_s']:.0f}, ceiling {l['ceiling_cpu_s']:.0f}")
        st = l.get("ingest_steps_s", {})
        out.append("  inside the ingest: " + ", ".join(f"{k} {v:.1f} s" for k, v in sorted(st.items(), key=lambda kv: -kv[1]) if v >= 0.05))
        ph = ", ".join(f"{k} {v['max_rss_mb']:.0f} MB" for k, v in l["rss_by_phase"].items())
        out.append(f"  peak RSS {l['peak_rss_ingest_mb']:.0f} MB during the ingest (target < 2048 MB: {'met' if t['peak_rss_met'] else 'MISSED'}); "
                   f"models loaded {l['rss_models_loaded_mb']:.0f} MB; max by phase: {ph}")
    elif l: out.append(f"Large folder: {l.get('skipped') or l.get('failed')}")
    return "\n".join(out)

def main(argv=None):
    ap = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    ap.add_argument("--quick", action="store_true", help="small everything: a check of the script, not figures")
    ap.add_argument("--skip-large", action="store_true", help="leave out the large folder (r-doc-pdf, ~2,650 pages)")
    ap.add_argument("--files", type=int, default=None, help="small files for the folder and sync parts (default 1000; --quick 100)")
    ap.add_argument("--ocr-pages", type=int, default=None, help="pages per OCR variant (default 6; --quick 2)")
    ap.add_argument("--edits", type=int, default=3, help="edits synced, one at a time (the median is reported)")
    ap.add_argument("--min-parse-s", type=float, default=None, help="seconds of passes per format (default 1.5; --quick 0.2)")
    ap.add_argument("--only", default=",".join(PARTS), help="the parts to run, comma-separated: parse, ocr, folder (3-4), large, detect (6)")
    ap.add_argument("--cache", type=Path, default=CACHE, help="where Debian packages are downloaded and unpacked")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "documents.json")
    ap.add_argument("--ceiling-sample", type=int, default=1, help="large folder: embed every k-th batch alone for the ceiling (its rate, in 1/k of the time)")
    ap.add_argument("--large-child", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--stream-child", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--large-out", type=Path, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.large_child: return large_child(a.large_child, a.large_out, a.ceiling_sample)
    if a.stream_child: return stream_child(a.stream_child, a.large_out)
    n_files = a.files or (100 if a.quick else 1000)
    ocr_pages = a.ocr_pages or (2 if a.quick else 6)
    min_s = a.min_parse_s if a.min_parse_s is not None else (0.2 if a.quick else 1.5)
    parts = set(a.only.split(","))
    if parts - set(PARTS): ap.error(f"--only takes {', '.join(PARTS)}; got {a.only}")
    # a run of some parts keeps the others' figures from the last run, each part with the code and time it was measured at
    prev = json.loads(a.out.read_text()) if a.out.exists() and parts != set(PARTS) else {}
    res = {k: prev[k] for k in PARTS if k in prev and k not in parts}
    res["measured"] = {k: v for k, v in prev.get("measured", {}).items() if k in res}
    res.update({"machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
                "code": evalsets.code_version(), "quick": a.quick, "started": time.strftime("%Y-%m-%d %H:%M:%S")})
    res["measured"].update({k: {"started": res["started"], "commit": res["code"].get("commit")} for k in parts})
    t_all = time.perf_counter()
    got, res["debian_notes"] = fetch_debian(a.cache, DEBIAN)
    res["debian_packages"] = {p: str(d) for p, d in got.items()}
    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        s = settings_for(work / "data")
        (work / "gen").mkdir()
        gen = generate_formats(work / "gen", a.quick) if parts & {"parse", "detect"} else {}
        if "parse" in parts:
            print("== 1. parse speed per format", flush=True)
            gen["code python"] = stdlib_sources(8 if a.quick else 40)   # real code, but not from Debian: counted with the generated group
            res["parse"] = bench_parse(gen, debian_files(got), s, min_s)
            for r in res["parse"]:
                if r["format"] == "code python": r["source"] = "stdlib"
            save(res, a.out)
        if "ocr" in parts:
            print("== 2. OCR", flush=True)
            (work / "ocr").mkdir()
            res["ocr"] = bench_ocr(work / "ocr", ocr_pages, s); save(res, a.out)
        if "detect" in parts:
            print("== 6. content detection: our sniff against Magika", flush=True)
            res["detect"] = bench_detection(work, detection_sample(got, gen, 10 if a.quick else 30)); save(res, a.out)
        if "folder" in parts:
            print(f"== 3-4. {n_files} small files, and sync after one edit", flush=True)
            (work / "folder").mkdir()
            res["folder"] = bench_folder(work / "folder", n_files, a.edits); save(res, a.out)
    if "large" in parts and not a.skip_large:
        print("== 5. large folder (child process)", flush=True)
        res["large"] = bench_large(got, a.quick, a.cache, a.ceiling_sample); save(res, a.out)
    if "stream" in parts:
        print("== 7. one 3,000-page PDF, window by window (child process)", flush=True)
        res["stream"] = bench_stream(got, a.cache); save(res, a.out)
    res["wall_s"] = time.perf_counter() - t_all
    res["table"] = summary(res)
    save(res, a.out)
    print(); print(res["table"])
    a.out.with_suffix(".txt").write_text(res["table"] + "\n")
    print(f"wrote {a.out} and {a.out.with_suffix('.txt')}")

if __name__ == "__main__":
    main()
