// What `npm run build` leaves out of dist/ so that the package stays within 3.1 MB installed (a types-only consumer
// gets all of it): the comments and layout of the compiled JavaScript (the sources in the repository keep them;
// declarations keep theirs, editors show them), and the declaration files no entry point's types reach (the
// exports map allows no deep import, so no consumer can name them).
import fs from "node:fs";
import path from "node:path";
import { transformSync } from "esbuild";

/** Files under dir (recursively) whose name ends with `suffix`. */
const filesUnder = (dir: string, suffix: string): string[] =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(suffix))
    .map((e) => path.join(e.parentPath, e.name));

/**
 * Every .js file under `dir` printed again without comments or whitespace: esbuild parses and prints it (nothing
 * renamed, no syntax changed or lowered), so the code and its names in stack traces are the same; a formatter
 * makes it readable again. A hashbang stays. (The generated validators are minified the same way.)
 */
export function compactJavaScript(dir: string): { before: number; after: number } {
  let before = 0;
  let after = 0;
  for (const file of filesUnder(dir, ".js")) {
    const code = fs.readFileSync(file, "utf8");
    const out = transformSync(code, { loader: "js", legalComments: "none", charset: "utf8", minifyWhitespace: true, sourcefile: file }).code;
    fs.writeFileSync(file, out);
    before += code.length;
    after += out.length;
  }
  return { before, after };
}

/** The relative module specifiers a declaration file refers to (imports, re-exports, import types, references). */
function specifiersOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\b(?:from|import)\s*\(?\s*["']([^"']+)["']|\/\/\/\s*<reference\s+path=["']([^"']+)["']/g)) {
    const spec = m[1] ?? m[2]!;
    if (spec.startsWith(".")) out.push(spec);
  }
  return out;
}

/** The declaration files a relative specifier may resolve to, from the file that names it. */
function declarationsFor(from: string, spec: string): string[] {
  const base = path.resolve(path.dirname(from), spec);
  const stem = base.replace(/\.(m|c)?js$/, "");
  return [`${stem}.d.ts`, base.endsWith(".d.ts") ? base : "", path.join(base, "index.d.ts")].filter(Boolean);
}

/**
 * Deletes every .d.ts under `dirs` that none of `entries` reaches through the declarations it imports; returns the
 * bytes deleted. Files outside `dirs` are never deleted (they are followed all the same).
 */
export function dropUnreachableDeclarations(entries: readonly string[], dirs: readonly string[]): number {
  const reached = new Set<string>();
  const pending = entries.map((e) => path.resolve(e));
  while (pending.length) {
    const file = pending.pop()!;
    if (reached.has(file) || !fs.existsSync(file)) continue;
    reached.add(file);
    for (const spec of specifiersOf(fs.readFileSync(file, "utf8"))) pending.push(...declarationsFor(file, spec));
  }
  let dropped = 0;
  for (const dir of dirs)
    for (const file of filesUnder(dir, ".d.ts"))
      if (!reached.has(path.resolve(file))) {
        dropped += fs.statSync(file).size;
        fs.rmSync(file);
      }
  return dropped;
}
