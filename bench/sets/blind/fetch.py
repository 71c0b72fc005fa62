#!/usr/bin/env python3
"""Fetch the corpus of the blind evaluation set: three manuals from Debian bookworm packages, md5-checked.

The beamer guide comes in a 50 MB package (texlive-latex-recommended-doc); the other two packages are small.

    python bench/sets/blind/fetch.py [--out DIR]

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
    ("texlive-latex-recommended-doc", "2022.20230122-3", "usr/share/doc/texlive-doc/latex/beamer/beameruserguide.pdf",
     "beameruserguide.pdf", "7a153bab42fe22a070a6b865f54670ed", 234),
    ("asymptote-doc", "2.85+ds-1", "usr/share/doc/asymptote/asymptote.pdf",
     "asymptote.pdf", "7e06593517e159da6a59fe929cb1167d", 196),
    ("firehol-doc", "3.1.7+ds-2.1", "usr/share/doc/firehol/firehol-manual.pdf",
     "firehol-manual.pdf", "f5d642e138d70d93af0bfa5e99ce9a45", 174),
]
TAG = "blind-set"

fetch = partial(fetch_manuals, MANUALS, TAG)   # fetch(out=None, quiet=False) -> the corpus folder

if __name__ == "__main__": sys.exit(fetch_main(__doc__, fetch, default_out(TAG)))
