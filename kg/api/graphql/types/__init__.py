"""GraphQL object types, one module per domain."""
