"""The Neo4j store, its Cypher, migrations and the local server launcher."""
