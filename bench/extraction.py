"""Concept extraction against human gold, side by side with YAKE.

    python bench/extraction.py [--json results.json] [--data ../shared/data] [--limit N]

Runs `kg extract` (the command, as a user would, with one worker: one core,
KG_CONCEPTS_PER_PAPER=10) and YAKE (pip `yake`, n<=3, top 10) on the same documents,
so both list 10 phrases, scored by the same code:

* Inspec (500 abstracts, gold `keyphrases`): precision/recall/F1 at 5 and 10,
  exact match after lower-casing and Porter stemming, against all gold
  keyphrases; also against only the gold keyphrases present in the text.
* SciERC (100 AI abstracts): document-level precision/recall/F1 of the whole
  extracted set against the set of gold entities that are not Generic.
* ICLR 2024 author keywords (2,260 papers, the KP20k way): `kg extract` on
  title + abstract with the keywords hidden, using a ranker trained WITHOUT
  ICLR 2024 (`python -m kg.training.concepts --without iclr2024`, run here first);
  F1 at 5 and 10 against the keywords, and recall at 10 of the keywords that
  occur in title + abstract, stemmed exact match.

Extraction time is per document, on one core, without the command's start-up: wall
time (`ms_per_doc`) and the process's CPU time (`cpu_ms_per_doc`, user + system).
Targets: Inspec F1@10 >= 0.30 and SciERC F1 >= 0.35; ICLR 2024 F1@5 >= 0.26 and
present recall@10 >= 0.60; each at least 1.5x YAKE.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from nltk.stem import PorterStemmer

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data"
TOP = 10  # phrases each system lists: SciERC scores the whole list, the other sets its first 5 and 10
_STEM = PorterStemmer()
_TOKEN = re.compile(r"[a-z0-9]+")


def normal(phrase: str) -> str:
    """Lower-case, split on non-alphanumerics, Porter-stem each token."""
    return " ".join(_STEM.stem(t) for t in _TOKEN.findall(phrase.lower()))


def prf(predicted: list[str], gold: set[str]) -> tuple[float, float, float]:
    pred = list(dict.fromkeys(p for p in predicted if p))
    hits = sum(1 for p in pred if p in gold)
    p = hits / len(pred) if pred else 0.0
    r = hits / len(gold) if gold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_kg(docs: list[dict], model: Path | None = None) -> tuple[list[list[str]], dict]:
    """`kg extract` over the documents; returns concepts per doc and the time per doc (start-up excluded)."""
    env = dict(os.environ, KG_WORKERS="1", KG_CONCEPTS_PER_PAPER=str(TOP))  # as many as YAKE lists
    if model is not None:
        env["KG_CONCEPT_MODEL"] = str(model)
    cmd = [sys.executable, "-m", "kg.cli", "extract"]
    started, cpu = time.perf_counter(), _children_cpu()
    subprocess.run(cmd, input="", capture_output=True, text=True, env=env, check=True)
    startup, startup_cpu = time.perf_counter() - started, _children_cpu() - cpu
    payload = "".join(json.dumps({"id": d["id"], "text": d["text"], "title": d.get("title")}) + "\n" for d in docs)
    started, cpu = time.perf_counter(), _children_cpu()
    out = subprocess.run(cmd, input=payload, capture_output=True, text=True, env=env, check=True)
    total, total_cpu = time.perf_counter() - started, _children_cpu() - cpu
    rows = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    assert [r["id"] for r in rows] == [d["id"] for d in docs], "kg extract must answer in input order"
    return [r["concepts"] for r in rows], _per_doc(total - startup, total_cpu - startup_cpu, len(docs))


def _per_doc(wall: float, cpu: float, n: int) -> dict:
    """Wall and CPU (user + system) milliseconds per document."""
    return {
        "ms_per_doc": round(max(wall, 0.0) * 1000 / max(n, 1), 2),
        "cpu_ms_per_doc": round(max(cpu, 0.0) * 1000 / max(n, 1), 2),
    }


def run_yake(docs: list[dict]) -> tuple[list[list[str]], dict]:
    import yake

    extractor = yake.KeywordExtractor(lan="en", n=3, top=TOP)
    started, cpu = time.perf_counter(), time.process_time()
    found = [[kw for kw, _ in extractor.extract_keywords(_full_text(d))] for d in docs]
    return found, _per_doc(time.perf_counter() - started, time.process_time() - cpu, len(docs))


def _full_text(doc: dict) -> str:
    return f"{doc['title']}. {doc['text']}" if doc.get("title") else doc["text"]


def score_keywords(found: list[list[str]], docs: list[dict]) -> dict:
    """F1 at 5 and 10 against the author keywords; recall at 10 of those that occur in the text."""
    sums = {"f1@5": 0.0, "f1@10": 0.0, "p@5": 0.0, "r@10": 0.0}
    present_recall, with_present = 0.0, 0
    for predicted, doc in zip(found, docs, strict=True):
        gold = {normal(k) for k in doc["keywords"]}
        pred = list(dict.fromkeys(normal(p) for p in predicted))
        for k in (5, 10):
            p, r, f = prf(pred[:k], gold)
            sums[f"f1@{k}"] += f
            if k == 5:
                sums["p@5"] += p
            else:
                sums["r@10"] += r
        text = f" {normal(_full_text(doc))} "
        present = {g for g in gold if f" {g} " in text}
        if present:
            present_recall += sum(1 for g in present if g in pred[:10]) / len(present)
            with_present += 1
    out = {k: round(v / len(docs), 4) for k, v in sums.items()}
    out["present_r@10"] = round(present_recall / max(with_present, 1), 4)
    return out


def train_without_iclr2024(data: Path, output: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "kg.training.concepts", "--data", str(data), "--without", "iclr2024", "-o", str(output)],
        check=True,
    )


def score_inspec(found: list[list[str]], docs: list[dict]) -> dict:
    sums: dict[str, float] = {}
    for predicted, doc in zip(found, docs, strict=True):
        gold = {normal(k) for k in doc["keyphrases"]}
        text = f" {normal(doc['text'])} "
        present = {g for g in gold if f" {g} " in text}
        pred = [normal(p) for p in predicted]
        for k in (5, 10):
            for name, g in (("", gold), ("present_", present)):
                p, r, f = prf(pred[:k], g)
                for metric, value in (("p", p), ("r", r), ("f1", f)):
                    key = f"{name}{metric}@{k}"
                    sums[key] = sums.get(key, 0.0) + value
    return {k: round(v / len(docs), 4) for k, v in sums.items()}


def score_scierc(found: list[list[str]], docs: list[dict]) -> dict:
    sums = {"p": 0.0, "r": 0.0, "f1": 0.0}
    for predicted, doc in zip(found, docs, strict=True):
        gold = {normal(e["text"]) for e in doc["entities"] if e["type"] != "Generic"}
        p, r, f = prf([normal(x) for x in predicted], gold)
        sums["p"] += p
        sums["r"] += r
        sums["f1"] += f
    return {k: round(v / len(docs), 4) for k, v in sums.items()}


def load(path: Path, limit: int | None) -> list[dict]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return rows[:limit] if limit else rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--limit", type=int, help="only the first N documents of each set (quick runs)")
    parser.add_argument("--model-without-iclr", type=Path, help="a ranker already trained without ICLR 2024")
    args = parser.parse_args()
    results: dict = {}
    for name, file, scorer in (
        ("inspec", "gold-inspec-test.jsonl", score_inspec),
        ("scierc", "gold-scierc-test.jsonl", score_scierc),
    ):
        docs = load(args.data / file, args.limit)
        results[name] = {}
        for system, runner in (("kg", run_kg), ("yake", run_yake)):
            found, timing = runner(docs)
            results[name][system] = scorer(found, docs) | timing
    docs = [
        {"id": r["id"], "title": r["title"], "text": r["abstract"], "keywords": r["keywords"]}
        for r in load(args.data / "papers-iclr2024.jsonl", args.limit)
    ]
    with tempfile.TemporaryDirectory() as tmp:
        model = args.model_without_iclr
        if model is None:
            model = Path(tmp) / "ranker-without-iclr2024.json"
            train_without_iclr2024(args.data, model)
        found, timing = run_kg(docs, model)
        results["iclr2024"] = {"kg": score_keywords(found, docs) | timing}
    found, timing = run_yake(docs)
    results["iclr2024"]["yake"] = score_keywords(found, docs) | timing
    print_table(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


def print_table(results: dict) -> None:
    ins, sci = results["inspec"], results["scierc"]
    print(f"{'':24}{'kg':>10}{'yake':>10}{'kg/yake':>10}")
    for metric in ("p@5", "r@5", "f1@5", "p@10", "r@10", "f1@10", "present_f1@10", "ms_per_doc", "cpu_ms_per_doc"):
        a, b = ins["kg"][metric], ins["yake"][metric]
        print(f"{'inspec ' + metric:24}{a:>10.4f}{b:>10.4f}{(a / b if b else 0):>10.2f}")
    for metric in ("p", "r", "f1", "ms_per_doc", "cpu_ms_per_doc"):
        a, b = sci["kg"][metric], sci["yake"][metric]
        print(f"{'scierc ' + metric:24}{a:>10.4f}{b:>10.4f}{(a / b if b else 0):>10.2f}")
    icl = results["iclr2024"]
    for metric in ("p@5", "f1@5", "f1@10", "r@10", "present_r@10", "ms_per_doc", "cpu_ms_per_doc"):
        a, b = icl["kg"][metric], icl["yake"][metric]
        print(f"{'iclr2024 ' + metric:24}{a:>10.4f}{b:>10.4f}{(a / b if b else 0):>10.2f}")


if __name__ == "__main__":
    main()
