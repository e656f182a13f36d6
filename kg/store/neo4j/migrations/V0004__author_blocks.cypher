// People (kg.authors): the ingest reads the known people of a name block (surname and first initial).
CREATE INDEX author_block IF NOT EXISTS FOR (a:Author) ON (a.block);
