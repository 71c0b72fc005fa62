#!/usr/bin/env python3
"""Fetch the corpus of the blind evaluation set: three manuals from Debian bookworm packages.

Runs `apt-get download PKG=VERSION` for each pinned package into a temporary folder,
unpacks it with `dpkg-deb -x`, copies the chosen PDF into `OUT/corpus/` and checks its md5
against the pinned value. Files already present with the right md5 are left alone, so
running it again downloads nothing. The beamer guide comes in a 50 MB package
(texlive-latex-recommended-doc); the other two packages are small.

    python bench/sets/blind/fetch.py [--out DIR]

Importable: `fetch(out=None) -> Path` returns the corpus folder.
Needs Debian (or a derivative with bookworm's packages in its apt sources), `apt-get` and `dpkg-deb`.
"""
import sys
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

def fetch(out=None, quiet=False) -> Path:
    "Download (if needed) and verify the manuals; returns `out/corpus`."
    return fetch_manuals(MANUALS, TAG, out, quiet)

if __name__ == "__main__": sys.exit(fetch_main(__doc__, fetch, default_out(TAG)))
