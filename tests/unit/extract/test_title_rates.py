"""Title rates: how often the literature's titles carry a phrase, counted from titles and abstracts."""

from __future__ import annotations

from kg.extract.title_rates import TitleRates, load_title_rates
from kg.training.title_rates import count


def test_title_rates_read_how_often_titles_carry_a_phrase():
    rates = TitleRates(1000, {"graph neural network": (45, 95), "experimental result": (0, 195)})
    gnn, result, unseen = (rates.features(k) for k in ("graph neural network", "experimental result", "widget"))
    assert gnn[0] == 45 / 100 and result[0] == 0.0 and unseen == (0.0, 0.0, 0.0)
    assert result[1] > gnn[1] > 0 and gnn[2] > result[2] == 0.0


def test_the_shipped_title_rates_were_counted_over_the_literature():
    rates = load_title_rates()
    assert rates.n_docs > 80_000 and len(rates.counts) > 30_000
    assert all(docs >= 5 and 0 <= titled <= docs for titled, docs in rates.counts.values())
    # a field's name is in titles far more often than a phrase of the results section
    assert rates.features("federated learning")[0] > 5 * rates.features("real world")[0]


def test_counting_reads_titles_and_abstracts(extractor):
    papers = [
        ("Federated learning with secure aggregation", "We study federated learning on phones in the real world."),
        ("Robust federated learning", "Federated learning meets attacks in the real world."),
        ("Sparse attention", "Our experiments in the real world use federated learning as a baseline."),
    ]
    rates = count(extractor, papers, min_docs=2)
    assert rates.n_docs == 3
    assert rates.counts["federated learning"] == (2, 3)
    assert rates.counts["real world"] == (0, 3)
    assert "secure aggregation" not in rates.counts  # in one paper only: below min_docs
