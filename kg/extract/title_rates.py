"""Title rates: how often the literature puts a concept key in a paper's title when the paper has it.

Authors name what a paper is about in its title. A phrase that titles often carry (*graph neural
network*, *federated learning*) is more likely a key concept of a paper that only mentions it in
its abstract than one that titles rarely carry (*real data*, *real world*). The table
shipped in ``data/title_rates.json.gz`` holds, for each key that is a candidate in at least
five papers of the scale corpus (``papers-paperlists.jsonl.gz``: 87,666 papers with a title
and an abstract, 30 conferences, 1987-2025), the papers whose title has it and the papers that
have it at all. Counted with ``python -m kg.training.title_rates --data ../shared/data``; titles and
abstracts only, no keyword labels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

from kg.extract.background import packaged_json

if TYPE_CHECKING:
    from kg.extract.candidates import Occurrence

__all__ = ["TitleRates", "load_title_rates", "FILE"]

FILE = "title_rates.json.gz"  # in kg/extract/data


@dataclass(frozen=True)
class TitleRates:
    n_docs: int = 0
    counts: dict[str, tuple[int, int]] = field(default_factory=dict)  # key -> (papers with it in the title, papers with it)

    @cached_property
    def _log_docs(self) -> float:
        return math.log(self.n_docs + 1) if self.n_docs else 1.0

    def features(self, key: str) -> tuple[float, float, float]:
        """(title rate, smoothed; corpus document frequency on a log scale; papers titled with it, log)."""
        titled, docs = self.counts.get(key, (0, 0))
        return titled / (docs + 5), math.log1p(docs) / self._log_docs, math.log1p(titled)

    def to_json(self) -> dict:
        return {"n_docs": self.n_docs, "counts": {k: list(v) for k, v in sorted(self.counts.items())}}

    def attested(self, occurrences: list[Occurrence]) -> list[Occurrence]:
        """Occurrences with the ``attested`` ones (led by an -ing word that may be a verb: 'vanishing gradients') kept
        only where the table has their key, a phrase other papers name, and then weighed as nested ones (``sub``)."""
        return [
            replace(o, kind="sub") if o.kind == "attested" else o
            for o in occurrences
            if o.kind != "attested" or o.key in self.counts
        ]


@lru_cache(maxsize=1)
def load_title_rates() -> TitleRates:
    """The shipped table; an empty one if the package has none."""
    obj = packaged_json(FILE)
    return TitleRates(obj["n_docs"], {k: (v[0], v[1]) for k, v in obj["counts"].items()}) if obj else TitleRates()
