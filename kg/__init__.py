"""kg: a knowledge graph of research literature.

Data flows one way: read -> extract -> build graph -> store -> serve.
"""

__version__ = "0.1.0"
