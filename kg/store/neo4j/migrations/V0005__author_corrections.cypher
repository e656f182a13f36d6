// Corrections of who is who (kg authors merge/split): an id merged into another person still resolves.
CREATE CONSTRAINT author_alias_key IF NOT EXISTS FOR (x:AuthorAlias) REQUIRE x.key IS UNIQUE;
CREATE INDEX author_alias_block IF NOT EXISTS FOR (x:AuthorAlias) ON (x.block);
CREATE INDEX author_alias_to IF NOT EXISTS FOR (x:AuthorAlias) ON (x.to);
