"""The embedded store: one networkx graph in memory, persisted as an append-only log of batches.

``store`` answers the store interface from the graph; ``log`` keeps it on disk.
"""

from kg.store.embedded.log import FORMAT_VERSION, GraphLog
from kg.store.embedded.store import EmbeddedStore

__all__ = ["EmbeddedStore", "GraphLog", "FORMAT_VERSION"]
