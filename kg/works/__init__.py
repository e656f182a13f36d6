"""Which records are one paper: the work-identity stage of an ingest.

Every record is a key of the paper it belongs to. Records that share an id of a known kind
(``keys``) are one paper; otherwise a record is compared with the papers whose titles share its
rarest words (``fold``), through a learned model over title, authors, year and venue (``features``,
``model``), and joins the most likely one when the model says so (``resolve``). The fields of a
paper with several records are merged by fixed rules (``merge``).
"""
