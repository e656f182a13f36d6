"""Topic vectors: where a paper sits among the literature's themes, read from all of its words.

Concepts name a few things a paper is about; two papers on one theme often name
different ones. A topic vector places a paper by every word of its title and
abstract: latent semantic analysis (tf-idf, then a truncated SVD) fitted once on
the scale corpus's titles and abstracts (``papers-paperlists.jsonl.gz``, 30
conferences, 1987-2025) with ``python -m kg.extract.topics``, and shipped in
``data/topics.npz``. Shares-concept scoring adds the cosine of two papers' topic
vectors to the cosine of their concepts (``kg.graph.shares``).

A vector is stored as a short string: its ``DIMS`` components at unit length, as
signed bytes, in base64. Numpy only at run time; fitting also needs scikit-learn.
"""

from __future__ import annotations

import base64
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np

__all__ = ["TopicModel", "decode", "encode", "load_topics", "paper_text", "paper_topics"]

TOKEN = re.compile(r"(?u)\b\w\w+\b")  # scikit-learn's default token pattern, lower-cased text
DIMS = 64


def paper_text(title: str | None, abstract: str) -> str:
    """What a topic vector is read from: title and abstract."""
    return f"{title}. {abstract}" if title else abstract


def encode(vector: np.ndarray) -> str:
    """A unit vector as stored: one signed byte a component, base64 ('' for the zero vector)."""
    length = float(np.linalg.norm(vector))
    if not length:
        return ""
    quantized = np.clip(np.rint(vector / length * 127), -127, 127).astype(np.int8)
    return base64.b64encode(quantized.tobytes()).decode("ascii")


def decode(stored: str | None) -> np.ndarray | None:
    """A stored vector's signed bytes as floats (-127..127; not rescaled, so that dot products of
    stored vectors are exact integers, the same in every engine); None for a paper without one."""
    if not stored:
        return None
    return np.frombuffer(base64.b64decode(stored), dtype=np.int8).astype(np.float64)


@dataclass(frozen=True)
class TopicModel:
    """Terms (their idf) and the projection of their tf-idf space onto ``DIMS`` topics."""

    terms: dict[str, int]
    idf: np.ndarray  # (terms,)
    components: np.ndarray  # (dims, terms)

    def vector(self, text: str) -> np.ndarray:
        """tf-idf (sublinear tf, unit length) of the known terms, projected; zero when none is known."""
        counts = Counter(self.terms[t] for t in TOKEN.findall(text.lower()) if t in self.terms)
        if not counts:
            return np.zeros(self.components.shape[0], dtype=np.float32)
        cols = np.fromiter(counts, dtype=np.int64, count=len(counts))
        weights = np.array([(1.0 + math.log(counts[c])) for c in cols]) * self.idf[cols]
        weights /= np.linalg.norm(weights)
        return (self.components[:, cols].astype(np.float64) @ weights).astype(np.float32)

    def encode_all(self, texts: Iterable[str]) -> list[str]:
        return [encode(self.vector(t)) for t in texts]

    def save(self, path) -> None:
        terms = sorted(self.terms, key=self.terms.__getitem__)
        np.savez_compressed(path, terms=np.array(terms), idf=self.idf.astype(np.float32),
                            components=self.components.astype(np.float16))

    @classmethod
    def read(cls, path) -> "TopicModel":
        with np.load(path) as data:
            terms = {str(t): i for i, t in enumerate(data["terms"])}
            return cls(terms, data["idf"].astype(np.float64), data["components"].astype(np.float32))


@lru_cache(maxsize=1)
def load_topics() -> TopicModel | None:
    """The shipped model; None if the package has none (papers then get no topic vector)."""
    resource = resources.files("kg.extract") / "data" / "topics.npz"
    return TopicModel.read(str(resource)) if resource.is_file() else None


def paper_topics(papers: Iterable) -> dict[str, str]:
    """Paper id -> stored topic vector of each paper (``kg.models.Paper``) with a known word, by the shipped model."""
    model = load_topics()
    if model is None:
        return {}
    found = ((p.id, encode(model.vector(paper_text(p.title, p.abstract)))) for p in papers)
    return {pid: topic for pid, topic in found if topic}


def fit(texts: Sequence[str], *, dims: int = DIMS, max_terms: int = 12000, min_df: int = 5) -> TopicModel:
    """Fit the model (scikit-learn): the ``max_terms`` commonest terms in at least ``min_df`` texts,
    English stop words left out; a seeded randomized SVD, so one corpus gives one model."""
    from sklearn.decomposition import TruncatedSVD
    from sklearn.feature_extraction.text import TfidfVectorizer

    tfidf = TfidfVectorizer(sublinear_tf=True, stop_words="english", min_df=min_df, max_features=max_terms,
                            token_pattern=TOKEN.pattern, dtype=np.float64)
    matrix = tfidf.fit_transform(texts)
    svd = TruncatedSVD(dims, algorithm="randomized", n_iter=7, random_state=0).fit(matrix)
    return TopicModel(dict(tfidf.vocabulary_), tfidf.idf_, svd.components_)


def main(argv: list[str] | None = None) -> None:
    """Fit the shipped model: ``python -m kg.extract.topics --data ../shared/data -o kg/extract/data/topics.npz``."""
    import argparse
    import gzip
    import json
    from pathlib import Path

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--data", type=Path, required=True, help="the folder holding papers-paperlists.jsonl.gz")
    parser.add_argument("-o", "--output", type=Path, required=True)
    args = parser.parse_args(argv)
    with gzip.open(args.data / "papers-paperlists.jsonl.gz", "rt", encoding="utf-8") as handle:
        rows = (json.loads(line) for line in handle)
        texts = [paper_text(r.get("title"), r["abstract"]) for r in rows if r.get("abstract")]
    model = fit(texts)
    model.save(args.output)
    print(f"{len(texts)} texts, {len(model.terms)} terms, {model.components.shape[0]} topics -> {args.output}")


if __name__ == "__main__":
    main()
