// Build what the browser loads into kg/api/static/ (committed, so that pip users need no Node):
//   explorer/   the explorer: app.js (bundled with esbuild from src/main.js); its index.html and
//               style.css are written by hand in kg/api/static/explorer/ and copied to another OUT_DIR
//   vendor/     GraphiQL and React, the exact files strawberry's GraphiQL page loads from unpkg,
//               at the same paths, so that /graphql works offline with its integrity hashes.
// Usage: npm ci --prefix explorer && npm run build --prefix explorer [-- OUT_DIR]
import { build } from "esbuild";
import { cpSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const shipped = join(here, "..", "kg", "api", "static");
const out = process.argv[2] || shipped;

const VENDOR = [
  ["react", "umd/react.production.min.js"],
  ["react-dom", "umd/react-dom.production.min.js"],
  ["js-cookie", "dist/js.cookie.min.js"],
  ["graphiql", "graphiql.min.css"],
  ["graphiql", "graphiql.min.js"],
  ["@graphiql/plugin-explorer", "dist/style.css"],
  ["@graphiql/plugin-explorer", "dist/index.umd.js"],
];

// The page's operations are graphql/operations/explorer_*.graphql (the API tests run them): bundled
// as one-line strings, without their comments.
const graphqlOperations = {
  name: "graphql-operations",
  setup(b) {
    b.onLoad({ filter: /\.graphql$/ }, (args) => {
      const lines = readFileSync(args.path, "utf8").split("\n").filter((line) => !line.trim().startsWith("#"));
      return { contents: `export default ${JSON.stringify(lines.join(" ").replace(/\s+/g, " ").trim())};`, loader: "js" };
    });
  },
};

rmSync(join(out, "explorer", "app.js"), { force: true });
rmSync(join(out, "vendor"), { recursive: true, force: true });
mkdirSync(join(out, "explorer"), { recursive: true });

await build({
  entryPoints: [join(here, "src", "main.js")],
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2020"],
  legalComments: "eof",
  plugins: [graphqlOperations],
  outfile: join(out, "explorer", "app.js"),
  logLevel: "warning",
});
if (out !== shipped) for (const name of ["index.html", "style.css"]) cpSync(join(shipped, "explorer", name), join(out, "explorer", name));

for (const [pkg, file] of VENDOR) {
  const version = JSON.parse(readFileSync(join(here, "node_modules", pkg, "package.json"), "utf8")).version;
  const target = join(out, "vendor", `${pkg}@${version}`, file);
  mkdirSync(dirname(target), { recursive: true });
  cpSync(join(here, "node_modules", pkg, file), target);
}
console.log(`built into ${out}`);
