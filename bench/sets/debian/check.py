#!/usr/bin/env python3
"""Validate the Debian evaluation set against its corpus (fetched first if needed): the checks bench/sets/manuals.py describes.

    python bench/sets/debian/check.py [--out DIR] [--cooccur]

--cooccur also lists, per question, the non-gold pages on which all its keywords co-occur (for reviewing that `pages` is
complete; such pages are not errors). Exit status 0 when every check passes, 1 otherwise.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]
from fetch import MANUALS, fetch  # noqa: E402
from manuals import check_main  # noqa: E402

if __name__ == "__main__": sys.exit(check_main(__doc__, HERE, MANUALS, fetch))
