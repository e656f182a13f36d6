"""Background document frequencies: how common each concept key is across a collection.

The table shipped in ``data/background.json.gz`` was counted over the ICLR 2024
and ICML 2024 abstracts (4,870 documents) with ``python -m kg.training.background``.
It tells the ranking how specific a phrase is; it is never a list of answers.
"""

from __future__ import annotations

import gzip
import json
import math
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

__all__ = ["Background", "load_background", "packaged_json", "write_packaged_json"]


@dataclass(frozen=True)
class Background:
    n_docs: int = 0
    df: dict[str, int] = field(default_factory=dict)

    def ratio(self, key: str) -> float:
        return self.df.get(key, 0) / self.n_docs if self.n_docs else 0.0

    def specificity(self, key: str) -> float:
        """Inverse document frequency scaled to (0, 1]."""
        if not self.n_docs:
            return 1.0
        return math.log((self.n_docs + 1) / (self.df.get(key, 0) + 1)) / math.log(self.n_docs + 1)

    def to_json(self) -> dict:
        return {"n_docs": self.n_docs, "df": dict(sorted(self.df.items()))}


def packaged_json(name: str) -> dict | None:
    """A gzipped JSON table shipped in ``kg/extract/data``; None if the package has none."""
    resource = resources.files("kg.extract") / "data" / name
    if not resource.is_file():
        return None
    with gzip.open(str(resource), "rt", encoding="utf-8") as handle:
        return json.load(handle)


def write_packaged_json(path, obj: dict) -> None:
    """Write a table ``packaged_json`` reads; no name or time in the gzip header, so one count gives one file, byte for byte."""
    with open(path, "wb") as out, gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0) as raw:
        raw.write(json.dumps(obj, separators=(",", ":")).encode("utf-8"))


@lru_cache(maxsize=1)
def load_background() -> Background:
    obj = packaged_json("background.json.gz")
    return Background(n_docs=obj["n_docs"], df=obj["df"]) if obj else Background()
