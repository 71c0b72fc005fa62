#!/usr/bin/env python3
"""Fetch the corpus of the held-out evaluation set: three manuals from Debian bookworm packages.

Runs `apt-get download PKG=VERSION` for each pinned package into a temporary folder,
unpacks it with `dpkg-deb -x`, copies the chosen PDF into `OUT/corpus/` and checks its md5
against the pinned value. Files already present with the right md5 are left alone, so
running it again downloads nothing.

    python bench/sets/heldout/fetch.py [--out DIR]

Importable: `fetch(out=None) -> Path` returns the corpus folder.
Needs Debian (or a derivative with bookworm's packages in its apt sources), `apt-get` and `dpkg-deb`.
"""
import argparse, hashlib, os, shutil, subprocess, sys, tempfile
from pathlib import Path

# (package, version, path inside the package, file name in corpus/, md5, physical pages)
MANUALS = [
    ("doxygen-doc", "1.9.4-4", "usr/share/doc/doxygen/doxygen_manual.pdf",
     "doxygen_manual.pdf", "8c7adf540e92c083336bcc7940c3b01d", 336),
    ("nut-doc", "2.8.0-7", "usr/share/doc/nut-doc/pdf/user-manual.pdf",
     "nut-user-manual.pdf", "98e97120c38ed990981fc20950d3310e", 135),
    ("python-reportlab-doc", "3.6.12-1+deb12u1", "usr/share/doc/python-reportlab-doc/reportlab-userguide.pdf",
     "reportlab-userguide.pdf", "9752680678fbea09112cc88c27abb06e", 134),
]

class FetchError(RuntimeError): pass

def default_out() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "self_rag" / "heldout-set"

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

def fetch(out=None, quiet=False) -> Path:
    "Download (if needed) and verify the three manuals; returns `out/corpus`."
    out = Path(out) if out else default_out()
    corpus = out / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    say = (lambda *a: None) if quiet else (lambda *a: print(*a, file=sys.stderr))
    todo = []
    for m in MANUALS:
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
    with tempfile.TemporaryDirectory(prefix="heldout-set-") as tmp:
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

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=None, help=f"output folder (default: {default_out()})")
    args = ap.parse_args(argv)
    try: corpus = fetch(args.out)
    except FetchError as e:
        print(f"fetch.py: error: {e}", file=sys.stderr); return 1
    print(corpus)
    return 0

if __name__ == "__main__": sys.exit(main())
