"""The HTTP layer: FastAPI app with the GraphQL API."""
