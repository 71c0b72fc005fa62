#!/usr/bin/env python3
"""Fetch the corpus of the held-out evaluation set: three manuals from Debian bookworm packages, md5-checked.

    python bench/sets/heldout/fetch.py [--out DIR]

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
    ("doxygen-doc", "1.9.4-4", "usr/share/doc/doxygen/doxygen_manual.pdf",
     "doxygen_manual.pdf", "8c7adf540e92c083336bcc7940c3b01d", 336),
    ("nut-doc", "2.8.0-7", "usr/share/doc/nut-doc/pdf/user-manual.pdf",
     "nut-user-manual.pdf", "98e97120c38ed990981fc20950d3310e", 135),
    ("python-reportlab-doc", "3.6.12-1+deb12u1", "usr/share/doc/python-reportlab-doc/reportlab-userguide.pdf",
     "reportlab-userguide.pdf", "9752680678fbea09112cc88c27abb06e", 134),
]
TAG = "heldout-set"

fetch = partial(fetch_manuals, MANUALS, TAG)   # fetch(out=None, quiet=False) -> the corpus folder

if __name__ == "__main__": sys.exit(fetch_main(__doc__, fetch, default_out(TAG)))
