"""Concept extraction: markup, abbreviations, vocabulary, candidates, corpus-aware ranking."""
