#!/usr/bin/env python3
"""Fetch the corpus of the Debian evaluation set: three manuals from Debian bookworm packages, md5-checked.

    python bench/sets/debian/fetch.py [--out DIR]

Importable: `fetch(out=None, quiet=False) -> Path` returns the corpus folder. How a manual is fetched and checked, and
what it needs (Debian's `apt-get` and `dpkg-deb`): see bench/sets/manuals.py.
"""
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from manuals import FetchError, default_out, fetch_manuals, fetch_main  # noqa: E402,F401 (FetchError: for importers)

# (package, version, path inside the package, file name in corpus/, md5, physical pages)
MANUALS = [
    ("gnuplot-doc", "5.4.4+dfsg1-2", "usr/share/doc/gnuplot/gnuplot.pdf",
     "gnuplot.pdf", "6f5fab6cecd05c26d7f20eb6ca3d0a11", 311),
    ("bash-doc", "5.2.15-2", "usr/share/doc/bash/bashref.pdf",
     "bashref.pdf", "f2db7b457e3c6c1572158fbc2ef59bc0", 196),
    ("gutenprint-doc", "5.3.4.20220624T01008808d602-1", "usr/share/doc/gutenprint-doc/gutenprint-users-manual.pdf",
     "gutenprint-users-manual.pdf", "912c0c112f302f3b958038a7e69bdfd2", 73),
]
TAG = "debian-set"

fetch = partial(fetch_manuals, MANUALS, TAG)   # fetch(out=None, quiet=False) -> the corpus folder

if __name__ == "__main__": sys.exit(fetch_main(__doc__, fetch, default_out(TAG)))
