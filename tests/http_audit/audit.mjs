// Runs every GraphQL-over-HTTP server audit (graphql-http, by the spec's authors) against a URL.
// Usage: node audit.mjs http://127.0.0.1:8000/graphql
// Prints one JSON line per audit ({id, name, status, reason}) and a closing summary line;
// exits 1 when any audit is not "ok".
import { auditServer } from 'graphql-http';

const url = process.argv[2];
if (!url) {
  console.error('usage: node audit.mjs URL');
  process.exit(2);
}
const results = await auditServer({ url });
let bad = 0;
for (const r of results) {
  if (r.status !== 'ok') bad += 1;
  console.log(JSON.stringify({ id: r.id, name: r.name, status: r.status, reason: r.reason ?? null }));
}
const count = (s) => results.filter((r) => r.status === s).length;
console.log(JSON.stringify({ summary: { audits: results.length, ok: count('ok'), notice: count('notice'), warn: count('warn'), error: count('error') } }));
process.exit(bad ? 1 : 0);
