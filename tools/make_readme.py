"""Write README.md from nbs/index.ipynb (nbdev's readme_nb) without Quarto, which can't be installed here.

Markdown cells are copied as they are; code cells become fenced Python with nbdev directives removed;
`#| hide` cells are left out. `--check` exits 1 when README.md is out of date.
"""
import json, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

def render(nb_path: Path) -> str:
    parts = []
    for cell in json.loads(nb_path.read_text())["cells"]:
        src = "".join(cell["source"]).strip()
        lines = src.splitlines()
        directives = [l for l in lines if l.startswith("#|")]
        if any(d.split()[1:2] == ["hide"] for d in directives): continue
        body = "\n".join(l for l in lines if not l.startswith("#|")).strip()
        if not body: continue
        parts.append(body if cell["cell_type"] == "markdown" else f"```python\n{body}\n```")
    return "\n\n".join(parts) + "\n"

if __name__ == "__main__":
    text = render(ROOT / "nbs" / "index.ipynb")
    readme = ROOT / "README.md"
    if "--check" in sys.argv:
        if readme.read_text() != text: sys.exit("README.md is out of date: run python tools/make_readme.py")
    else: readme.write_text(text)
