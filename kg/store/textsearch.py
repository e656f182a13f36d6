"""The embedded store's text indexes: BM25 for full-text search, a word-prefix index for autocomplete."""

from __future__ import annotations

import bisect
import heapq
import itertools
import math
import re
from collections import Counter, defaultdict

from kg.authors.names import fold

__all__ = ["BM25Index", "PrefixIndex", "tokenize", "words_of"]

_TOKEN = re.compile(r"[a-z0-9]+")


def tokenize(text: str) -> list[str]:
    """The words full-text search indexes and looks up (accents folded, as in Neo4j's index: ``kg.authors.names.fold``)."""
    return _TOKEN.findall(fold(text))


_WORD = re.compile(r"[^\W_]+")


def words_of(text: str) -> list[str]:
    """Runs of letters and digits, any script, case and accents folded (as Lucene's standard tokenizer with ASCII
    folding splits and folds most names).

    >>> words_of("Aapo Hyvärinen, sharpness-aware")
    ['aapo', 'hyvarinen', 'sharpness', 'aware']
    """
    return _WORD.findall(fold(text))


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


class PrefixIndex:
    """Autocomplete: words of names (and aliases, or labels) -> keys, each word's keys best first.

    Built from ``(key, label, names, weight)`` entries; best = most weight, then label, then key.

    ``best`` merges the lists of the words the typed prefix starts, so a one-letter
    prefix costs one step per word it matches, not one per entry.
    """

    def __init__(self, entries) -> None:
        self.meta: dict[str, tuple[str, int]] = {}
        self.words: dict[str, set[str]] = {}
        self.exact: dict[str, list[str]] = defaultdict(list)
        postings: dict[str, list[str]] = defaultdict(list)
        for key, label, names, weight in entries:
            self.meta[key] = (label, weight)
            ws = self.words[key] = {w for name in names for w in words_of(name)}
            for w in ws:
                postings[w].append(key)
            for name in {n.lower() for n in names}:
                self.exact[name].append(key)
        order = {key: (-weight, label.casefold(), key) for key, (label, weight) in self.meta.items()}
        self.rank = order.__getitem__
        self.postings = {w: sorted(keys, key=self.rank) for w, keys in postings.items()}
        self.vocab = sorted(self.postings)

    def best(self, typed: list[str], exact: str, limit: int) -> list[str]:
        """Keys every typed word is the start of a word of: the exact names, then the ``limit`` best."""
        first, rest = typed[0], typed[1:]

        def fits(key: str) -> bool:
            return all(any(w.startswith(t) for w in self.words[key]) for t in rest)

        start = bisect.bisect_left(self.vocab, first)
        lists = [self.postings[w] for w in itertools.takewhile(lambda w: w.startswith(first), self.vocab[start:])]
        chosen = [k for k in self.exact.get(exact, ()) if fits(k) and any(w.startswith(first) for w in self.words[k])]
        seen = set(chosen)
        taken = 0
        for key in heapq.merge(*lists, key=self.rank):
            if key not in seen and fits(key):
                seen.add(key)
                chosen.append(key)
                taken += 1
                if taken == limit:
                    break
        return chosen
