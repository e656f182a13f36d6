"""Build-time code: the commands that retrain what kg ships, and nothing kg runs when it serves or ingests.

Each module is a command (``python -m kg.training.<name>``) and writes one small data file into the
package that reads it:

- ``concepts``: the concept ranker (``kg/extract/data/ranker.json``);
- ``background`` and ``title_rates``: the extractor's frequency tables (``kg/extract/data``);
- ``related``: the related-papers ranker, learned from citation links (``kg/graph/data/related.npz``);
- ``authors``: who is who, the pairwise model and name counts (``kg/authors/data``), over the papers
  ``author_papers`` reads with their venues' author ids.

It sits above every other layer (``lint-imports``): it may use the whole pipeline, and nothing
imports it.
"""
