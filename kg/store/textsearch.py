"""A small BM25 index for the embedded store's full-text search."""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict

__all__ = ["BM25Index", "tokenize", "words_of"]

_TOKEN = re.compile(r"[a-z0-9]+")


def tokenize(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


_WORD = re.compile(r"[^\W_]+")


def words_of(text: str) -> list[str]:
    """Lower-cased runs of letters and digits, any script (as Lucene's standard tokenizer splits most names).

    >>> words_of("Aapo Hyvärinen, sharpness-aware")
    ['aapo', 'hyvärinen', 'sharpness', 'aware']
    """
    return _WORD.findall(text.lower())


class BM25Index:
    """Okapi BM25 (k1=1.2, b=0.75) over documents given as strings."""

    def __init__(self, docs: dict[str, str], *, k1: float = 1.2, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.postings: dict[str, dict[str, int]] = defaultdict(dict)
        self.lengths: dict[str, int] = {}
        for doc_id, text in docs.items():
            counts = Counter(tokenize(text))
            self.lengths[doc_id] = sum(counts.values())
            for term, tf in counts.items():
                self.postings[term][doc_id] = tf
        self.avg = (sum(self.lengths.values()) / len(self.lengths)) if self.lengths else 0.0

    def search(self, query: str, limit: int) -> list[tuple[str, float]]:
        n = len(self.lengths)
        scores: dict[str, float] = defaultdict(float)
        for term in set(tokenize(query)):
            docs = self.postings.get(term)
            if not docs:
                continue
            idf = math.log(1 + (n - len(docs) + 0.5) / (len(docs) + 0.5))
            for doc_id, tf in docs.items():
                norm = tf + self.k1 * (1 - self.b + self.b * self.lengths[doc_id] / self.avg)
                scores[doc_id] += idf * tf * (self.k1 + 1) / norm
        ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
        return [(doc_id, round(score, 4)) for doc_id, score in ranked[:limit]]
