"""Turning records and their extracted concepts into graph entities and edges."""
