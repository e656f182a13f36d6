"""The author model's fit takes the id source as a nuisance (kg.training.authors.fit).

Each id system labels by its own rule, so the same evidence is "one person" more often in one
source than in another. A feature that merely reveals the source (an affiliation printed at all,
say) must not carry that rule into the model kg ships, which meets no source at ingest.
"""

from __future__ import annotations

import math
import random

from kg.training.authors import fit


def _pairs(n: int = 4000, seed: int = 7):
    """Two sources with opposite base rates; x0 is real evidence in both, x1 only says which source it is."""
    rng = random.Random(seed)
    X, y, sources = [], [], []
    for i in range(n):
        source = "ieee" if i % 2 else "acl"
        evidence = rng.gauss(0.0, 1.0)
        reveals = 1.0 if rng.random() < (0.9 if source == "acl" else 0.1) else 0.0
        base = 2.0 if source == "acl" else -2.0
        y.append(int(rng.random() < 1 / (1 + math.exp(-(2.0 * evidence + base)))))
        X.append([evidence, reveals])
        sources.append(source)
    return X, y, sources


def test_a_feature_that_only_reveals_the_source_gets_no_weight():
    X, y, sources = _pairs()
    model, offsets = fit(X, y, sources)
    evidence, reveals = model.coef
    assert evidence > 1.5  # the real evidence keeps its weight
    assert abs(reveals) < 0.15  # the source's rule stays with the source
    assert offsets["acl"] - offsets["ieee"] > 3.0  # learned apart: acl's labels say "same" far more often
    # Pooled into one column, the revealing feature would have carried the base rates instead.
    pooled, _ = fit(X, y, ["one"] * len(y))
    assert pooled.coef[1] > 1.0


def test_the_sources_are_folded_in_at_their_training_mix():
    X, y, sources = _pairs()
    model, offsets = fit(X, y, sources, threshold=0.02)
    assert model.threshold == 0.02 and len(model.coef) == 2  # the shipped shape: features only
    # Evidence at its mean, the revealing feature at its mean: halfway between the sources' base rates.
    p = model.probability(list(model.mean))
    assert 0.3 < p < 0.7
