"""The evaluation sets the benches run on, an engine over one of them (`ingested`), and the side-by-side table they print.

- `dev`: the shared dev set (`../shared/eval/dev`: two R manuals, 40 questions), read in place.
- `debian`: our held-out set (`bench/sets/debian`: gnuplot, bash and Gutenprint manuals, 90 questions); its PDFs are
  fetched from Debian and md5-checked by `bench/sets/debian/fetch.py` (a no-op when the cache already holds them).
- `heldout`: a second held-out set (`bench/sets/heldout`: Doxygen, Network UPS Tools and ReportLab manuals, 67
  questions), fetched and checked the same way by `bench/sets/heldout/fetch.py`.
- `blind`: a third held-out set (`bench/sets/blind`: beamer, Asymptote and FireHOL manuals, 97 questions), written
  without running the engine on it, fetched and checked the same way by `bench/sets/blind/fetch.py`.

Both benches take `--set dev|debian|heldout|blind|both|all` (default both = dev + debian; all = the four). Tune on
dev, only report on debian, heldout and blind (see their READMEs).
"""
import importlib.util, subprocess, tempfile, time
from contextlib import contextmanager
from pathlib import Path

from self_rag.config import Settings
from self_rag.engine import Engine

ROOT = Path(__file__).resolve().parents[1]
FETCHED = {name: ROOT / "bench" / "sets" / name for name in ("debian", "heldout", "blind")}  # sets with a fetch.py
SETS = ("dev", *FETCHED)
GROUPS = {"both": ("dev", "debian"), "all": SETS}
DEBIAN, HELDOUT, BLIND = FETCHED["debian"], FETCHED["heldout"], FETCHED["blind"]

def add_arguments(ap):
    "The options both benches share: which sets, and where each one lives."
    ap.add_argument("--set", dest="sets", choices=(*SETS, *GROUPS), default="both",
                    help="question set(s) to run on (default both = dev + debian; all = dev + debian + heldout + blind; "
                         "dev-only sections run when dev is among them)")
    ap.add_argument("--dev", type=Path, default=ROOT.parent / "shared" / "eval" / "dev", help="the dev set folder (questions.jsonl, corpus/)")
    for name in FETCHED:
        ap.add_argument(f"--{name}-out", type=Path, default=None,
                        help=f"where fetch.py keeps the {name} corpus (default its own: ~/.cache/self_rag/{name}-set)")
    ap.add_argument("--quick", action="store_true", help="skip the dev-only sections (timings, registry padding, backends): quality figures only")

def chosen(a) -> list[str]: return list(GROUPS.get(a.sets, (a.sets,)))

def _fetch_module(folder: Path = DEBIAN):
    "The `fetch.py` of a fetched set (a folder of `FETCHED`), loaded under its own module name."
    spec = importlib.util.spec_from_file_location(f"{folder.name}_set_fetch", folder / "fetch.py")
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    return mod

def locate(name: str, a) -> tuple[Path, Path]:
    "`(corpus folder, questions.jsonl)` of a set; the corpora of the `FETCHED` sets are fetched (and checked) first."
    if name == "dev": return a.dev / "corpus", a.dev / "questions.jsonl"
    if name in FETCHED:
        folder = FETCHED[name]
        return _fetch_module(folder).fetch(getattr(a, f"{name}_out", None)), folder / "questions.jsonl"
    raise ValueError(f"unknown set {name!r}; one of {SETS}")

@contextmanager
def ingested(name: str, corpus: Path, data_dir: Path = None):
    """An engine over one set's manuals, ingested into its `eval` collection, and the ingest's report and seconds: in
    DATA_DIR/<name> when given (a store there is reused: nothing changed, nothing is embedded again), else in a
    temporary folder. A file that fails to ingest stops the bench: figures from part of a set would mislead."""
    with tempfile.TemporaryDirectory() as tmp, Engine(Settings(_env_file=None, data_dir=data_dir / name if data_dir else Path(tmp))) as engine:
        t0 = time.perf_counter()
        rep = engine.ingest([corpus], collection="eval")
        if rep.failed: raise RuntimeError(f"ingesting {corpus} failed for some files:\n{rep}")
        yield engine, rep, time.perf_counter() - t0

def code_version() -> dict:
    "The commit the benches ran on, and the library files that differed from it (figures from a dirty tree say so)."
    def git(*args):
        try: return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=30).stdout
        except (OSError, subprocess.SubprocessError): return ""
    return {"commit": git("rev-parse", "HEAD").strip() or None,
            "uncommitted": [l[3:] for l in git("status", "--porcelain", "--", "self_rag", "bench", ":!bench/results").splitlines() if l.strip()]}

def side_by_side(names: list[str], heads: list[str], rows: list[tuple[str, dict[str, list[str]]]], extra: list[str] = (),
                 extra_rows: list[list[str]] = None, label: str = "", notes: dict[str, str] = None) -> str:
    """A plain-text table with one group of columns per set: `rows` are `(label, {set: [cell per head]})`; a set a row
    has no figures for shows '-'. `extra` heads (and `extra_rows`, one list per row) go after the groups."""
    notes = notes or {}
    w0 = max([len(label)] + [len(r[0]) for r in rows])
    cw = [max([len(h)] + [len(r[1].get(n, ["-"] * len(heads))[i]) for r in rows for n in names]) for i, h in enumerate(heads)]
    gw = sum(cw) + 2 * (len(heads) - 1)
    groups = []
    for n in names:
        t = f"{n} {notes.get(n, '')}".strip()
        gw_n = max(gw, len(t)); groups.append((n, t, gw_n))
    ew = [max([len(h)] + [len(er[i]) for er in (extra_rows or [])]) for i, h in enumerate(extra)]
    line1 = f"{'':{w0}}" + "".join(f"   {t:^{g}}" for _, t, g in groups)
    def cells(vals, g): s = "  ".join(f"{v:>{c}}" for v, c in zip(vals, cw)); return f"{s:>{g}}"
    line2 = f"{label:{w0}}" + "".join(f"   {cells(heads, g)}" for _, _, g in groups) + "".join(f"  {h:>{c}}" for h, c in zip(extra, ew))
    out = [line1.rstrip(), line2, "-" * len(line2)]
    for i, (lab, by) in enumerate(rows):
        s = f"{lab:{w0}}" + "".join(f"   {cells(by.get(n, ['-'] * len(heads)), g)}" for n, _, g in groups)
        if extra: s += "".join(f"  {v:>{c}}" for v, c in zip(extra_rows[i], ew))
        out.append(s.rstrip())
    return "\n".join(out)
