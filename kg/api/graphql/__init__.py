"""The GraphQL schema: types by domain, loaders per request, one Query."""
