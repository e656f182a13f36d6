// Build what the browser loads into kg/api/static/ (committed, so that pip users need no Node):
//   explorer/   the explorer: app.js (bundled with esbuild), index.html, style.css
//   vendor/     GraphiQL and React, the exact files strawberry's GraphiQL page loads from unpkg,
//               at the same paths, so that /graphql works offline with its integrity hashes.
// Usage: npm ci --prefix explorer && npm run build --prefix explorer [-- OUT_DIR]
import { build } from "esbuild";
import { cpSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] || join(here, "..", "kg", "api", "static");

const VENDOR = [
  ["react", "umd/react.production.min.js"],
  ["react-dom", "umd/react-dom.production.min.js"],
  ["js-cookie", "dist/js.cookie.min.js"],
  ["graphiql", "graphiql.min.css"],
  ["graphiql", "graphiql.min.js"],
  ["@graphiql/plugin-explorer", "dist/style.css"],
  ["@graphiql/plugin-explorer", "dist/index.umd.js"],
];

rmSync(join(out, "explorer"), { recursive: true, force: true });
rmSync(join(out, "vendor"), { recursive: true, force: true });
mkdirSync(join(out, "explorer"), { recursive: true });

await build({
  entryPoints: [join(here, "src", "main.js")],
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2020"],
  legalComments: "eof",
  outfile: join(out, "explorer", "app.js"),
  logLevel: "warning",
});
for (const name of ["index.html", "style.css"]) cpSync(join(here, "src", name), join(out, "explorer", name));

for (const [pkg, file] of VENDOR) {
  const version = JSON.parse(readFileSync(join(here, "node_modules", pkg, "package.json"), "utf8")).version;
  const target = join(out, "vendor", `${pkg}@${version}`, file);
  mkdirSync(dirname(target), { recursive: true });
  cpSync(join(here, "node_modules", pkg, file), target);
}
console.log(`built into ${out}`);
