"""Who is who: author mentions (a name on a paper's byline) grouped into people.

The stage between extraction and the graph: names are folded and blocked
(``names``), each person carries a profile of what their papers say about them
(``profile``), and a learned pairwise model decides whether a mention is a
person already known or someone new (``model``, ``assign``).
"""
