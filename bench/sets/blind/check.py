#!/usr/bin/env python3
"""Validate the blind evaluation set against its corpus.

Fetches the corpus (see fetch.py), extracts every page with pypdf and checks that
  * every question has the fields of its kind (the same schema as the dev set);
  * every answer_keyword of a factual/multi question occurs on at least one of its gold pages;
  * a `semantic` question contains none of its answer_keywords;
  * no absence_checked_term of an unanswerable question occurs anywhere in the corpus.
Matching is case-insensitive and whitespace-insensitive: NFKC, curly quotes made straight,
lower case, all whitespace removed, and a line-break hyphen tried both joined and kept (the same
rule as the dev set's README). Removing all whitespace makes the absence check stricter, not looser.

    python bench/sets/blind/check.py [--out DIR] [--cooccur]

--cooccur also lists, per question, the non-gold pages on which all its keywords co-occur
(for reviewing that `pages` is complete; such pages are not errors).
Exit status 0 when every check passes, 1 otherwise.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]
from fetch import MANUALS, fetch  # noqa: E402
from manuals import check_main  # noqa: E402

if __name__ == "__main__": sys.exit(check_main(__doc__, HERE, MANUALS, fetch))
