"""Topic vectors and term weights: where a paper sits among the literature's themes, and which of
its words mark it, read from all of its words.

Concepts name a few things a paper is about; two papers on one theme often name
different ones. A topic vector places a paper by every word of its title and
abstract: latent semantic analysis (tf-idf, then a truncated SVD) fitted once on
the scale corpus's titles and abstracts (``papers-paperlists.jsonl.gz``, 30
conferences, 1987-2025) with ``python -m kg.extract.topics``, and shipped in
``data/topics.npz``. Shares-concept scoring adds the cosine of two papers' topic
vectors, and the cosine of their term weights (the tf-idf the projection starts from:
the exact words two papers share, weighed by their rarity in the literature), to the cosine of
their concepts (``kg.graph.shares``).

Both are stored in one short string, a paper's *signature*: the topic vector's ``DIMS``
components at unit length as signed bytes, in base64; then a ``.`` and the term weights (term
number as two bytes, weight at unit length as a signed byte), in base64. Linking adds a ``~`` and a
few numbers it keeps about the paper (``with_stats``: its year and how close its nearest papers
were, which ``kg.graph.rerank`` reads back). Numpy only at run time;
fitting also needs scikit-learn.
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

__all__ = [
    "TopicModel",
    "decode",
    "decode_stats",
    "decode_terms",
    "encode",
    "load_topics",
    "paper_text",
    "paper_topics",
    "with_stats",
]

TOKEN = re.compile(r"(?u)\b\w\w+\b")  # scikit-learn's default token pattern, lower-cased text
DIMS = 64


def paper_text(title: str | None, abstract: str) -> str:
    """What a topic vector is read from: title and abstract."""
    return f"{title}. {abstract}" if title else abstract


def _bytes(vector: np.ndarray) -> np.ndarray:
    """A vector at unit length, one signed byte a component."""
    return np.clip(np.rint(vector / float(np.linalg.norm(vector)) * 127), -127, 127).astype(np.int8)


def encode(vector: np.ndarray, terms: tuple[np.ndarray, np.ndarray] | None = None) -> str:
    """A signature as stored ('' for the zero vector): the topic vector, then, if given, the
    (term numbers, weights) whose weight is still non-zero as a signed byte."""
    if not np.linalg.norm(vector):
        return ""
    stored = base64.b64encode(_bytes(vector).tobytes()).decode("ascii")
    if terms is None:
        return stored
    numbers, weights = terms
    quantized = _bytes(np.asarray(weights, dtype=np.float64))
    keep = quantized != 0
    packed = np.asarray(numbers)[keep].astype("<u2").tobytes() + quantized[keep].tobytes()
    return f"{stored}.{base64.b64encode(packed).decode('ascii')}"


def decode(stored: str | None) -> np.ndarray | None:
    """A stored topic vector's signed bytes as floats (-127..127; not rescaled, so that dot products
    of stored vectors are exact integers, the same in every engine); None for a paper without one."""
    stored = (stored or "").partition("~")[0]
    if not stored:
        return None
    return np.frombuffer(base64.b64decode(stored.partition(".")[0]), dtype=np.int8).astype(np.float64)


def decode_terms(stored: str | None) -> tuple[np.ndarray, np.ndarray] | None:
    """A signature's term numbers and their signed-byte weights as floats (exact, like ``decode``);
    None for a paper without term weights (none stored, or stored before they were)."""
    packed = base64.b64decode(stored.partition("~")[0].partition(".")[2]) if stored else b""
    if not packed:
        return None
    n = len(packed) // 3
    numbers = np.frombuffer(packed[: 2 * n], dtype="<u2").astype(np.int64)
    return numbers, np.frombuffer(packed[2 * n :], dtype=np.int8).astype(np.float64)


def with_stats(stored: str, stats: Iterable[float]) -> str:
    """A signature with numbers kept beside it (NaN for an unknown one), replacing any it had.

    >>> with_stats("AAE=", [2017, 0.25, float("nan")])
    'AAE=~2017;0.25;'
    >>> decode_stats("AAE=~2017;0.25;")
    (2017.0, 0.25, nan)
    """
    text = ";".join("" if math.isnan(v) else f"{v:g}" for v in stats)
    return f"{stored.partition('~')[0]}~{text}"


def decode_stats(stored: str | None) -> tuple[float, ...] | None:
    """The numbers ``with_stats`` kept (NaN for an unknown one); None when there are none."""
    if not stored or "~" not in stored:
        return None
    return tuple(float(v) if v else math.nan for v in stored.partition("~")[2].split(";"))


@dataclass(frozen=True)
class TopicModel:
    """Terms (their idf) and the projection of their tf-idf space onto ``DIMS`` topics."""

    terms: dict[str, int]
    idf: np.ndarray  # (terms,)
    components: np.ndarray  # (dims, terms)

    def term_weights(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """The known terms' numbers and tf-idf (sublinear tf, unit length); empty when none is known."""
        counts = Counter(self.terms[t] for t in TOKEN.findall(text.lower()) if t in self.terms)
        cols = np.fromiter(sorted(counts), dtype=np.int64, count=len(counts))
        weights = np.array([(1.0 + math.log(counts[c])) for c in cols]) * self.idf[cols]
        return cols, weights / (np.linalg.norm(weights) or 1.0)

    def vector(self, text: str) -> np.ndarray:
        """The term weights projected onto the topics; zero when no term is known."""
        return self._project(*self.term_weights(text))

    def signature(self, text: str) -> str:
        """What a paper stores (``encode``): its topic vector and term weights; '' when no term is known."""
        cols, weights = self.term_weights(text)
        return encode(self._project(cols, weights), (cols, weights))

    def _project(self, cols: np.ndarray, weights: np.ndarray) -> np.ndarray:
        return (self.components[:, cols].astype(np.float64) @ weights).astype(np.float32)

    def save(self, path) -> None:
        terms = sorted(self.terms, key=self.terms.__getitem__)
        np.savez_compressed(
            path, terms=np.array(terms), idf=self.idf.astype(np.float32), components=self.components.astype(np.float16)
        )

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
    """Paper id -> stored signature of each paper (``kg.models.Paper``) with a known word, by the shipped model."""
    model = load_topics()
    if model is None:
        return {}
    found = ((p.id, model.signature(paper_text(p.title, p.abstract))) for p in papers)
    return {pid: topic for pid, topic in found if topic}


def fit(texts: Sequence[str], *, dims: int = DIMS, max_terms: int = 12000, min_df: int = 5) -> TopicModel:
    """Fit the model (scikit-learn): the ``max_terms`` commonest terms in at least ``min_df`` texts,
    English stop words left out; a seeded randomized SVD, so one corpus gives one model."""
    from sklearn.decomposition import TruncatedSVD
    from sklearn.feature_extraction.text import TfidfVectorizer

    tfidf = TfidfVectorizer(
        sublinear_tf=True,
        stop_words="english",
        min_df=min_df,
        max_features=max_terms,
        token_pattern=TOKEN.pattern,
        dtype=np.float64,
    )
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
