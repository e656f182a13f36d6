from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from kg.api.app import create_app


class GraphQLClient:
    def __init__(self, client: TestClient) -> None:
        self.http = client

    def raw(self, query: str, variables: dict | None = None):
        return self.http.post("/graphql", json={"query": query, "variables": variables or {}})

    def __call__(self, query: str, variables: dict | None = None) -> dict:
        response = self.raw(query, variables)
        assert response.status_code == 200, response.text
        body = response.json()
        assert "errors" not in body, body["errors"]
        return body["data"]

    def errors(self, query: str, variables: dict | None = None) -> list[str]:
        response = self.raw(query, variables)
        assert response.status_code in (200, 400), response.text
        body = response.json()
        assert body.get("errors"), body
        return [e["message"] for e in body["errors"]]


@pytest.fixture(scope="module")
def gql(seeded_embedded) -> GraphQLClient:
    with TestClient(create_app(seeded_embedded)) as client:
        yield GraphQLClient(client)
