// Words found as people type them: the full-text indexes fold accents (Lucene's ASCII folding), so that "Aurelien"
// finds "Aurélien" and "hernandez" finds "Hernández", as the embedded store folds them (kg.authors.names.fold).
DROP INDEX suggest IF EXISTS;
CREATE FULLTEXT INDEX suggest IF NOT EXISTS FOR (n:Author|Concept|Paper) ON EACH [n.name, n.alias_text, n.label]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-folding'}};
DROP INDEX paper_text IF EXISTS;
CREATE FULLTEXT INDEX paper_text IF NOT EXISTS FOR (p:Paper) ON EACH [p.title, p.abstract]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-folding'}};
