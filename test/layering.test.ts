// How the folders may depend on each other, read from the import statements: the product (what runs for users:
// the conformance suite, the mocks, the proxy, the CLI, the entry points, lib/) never imports the generator
// (scripts/) or the tests, and no module of the product takes part in an import circle, at run time (a circle makes
// the order modules load in matter) or through its types (how a protocol's suite gets tangled with the generic core).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../lib/paths.js";

const product = ["conformance", "mock", "proxy", "cli", "entry", "lib"];

function sources(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".d.ts"))
    .map((e) => path.relative(repoRoot, path.join(e.parentPath, e.name)));
}

/** The relative modules a file imports: at run time only (`import type` and `export type` are erased), or all of them. */
function imports(file: string, kind: "runtime" | "all"): string[] {
  const text = readFileSync(path.join(repoRoot, file), "utf8");
  const statement = kind === "runtime" ? /^(?:import|export)(?!\s+type\b)[^;]*?from\s+"(\.[^"]+)"/gm : /^(?:import|export)[^;]*?from\s+"(\.[^"]+)"/gm;
  const specs = [...text.matchAll(statement), ...text.matchAll(/import\("(\.[^"]+)"\)/g)].map((m) => m[1]!);
  return specs.map((s) => path.normalize(path.join(path.dirname(file), s)).replace(/\.js$/, ".ts"));
}

/** The strongly connected groups of more than one module (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      for (let w = stack.pop()!; ; w = stack.pop()!) {
        on.delete(w);
        group.push(w);
        if (w === v) break;
      }
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("layering", () => {
  const files = product.flatMap(sources);
  const graph = new Map(files.map((f) => [f, imports(f, "runtime")]));

  it("the product never imports the generator or the tests", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(graph.get(path.join("conformance", "core", "runner.ts"))).toContain(path.join("conformance", "core", "judge.ts"));
    const wrong = [...graph].flatMap(([f, deps]) => deps.filter((d) => d.startsWith(`scripts${path.sep}`) || d.startsWith(`test${path.sep}`)).map((d) => `${f} → ${d}`));
    expect(wrong).toEqual([]);
  });

  it("the conformance core knows no protocol, and each suite knows only the core and itself", () => {
    const all = new Map(files.map((f) => [f, imports(f, "all")]));
    const under = (dir: string) => (f: string) => f.startsWith(path.join("conformance", dir) + path.sep);
    const core = under("core");
    const suites = ["rest", "mcp"].map((s) => ({ name: s, own: under(path.join("suites", s)) }));
    const conformance = under("");
    const wrong = [...all].flatMap(([f, deps]) => {
      const bad = (d: string) =>
        core(f)
          ? conformance(d) && !core(d)
          : suites.some((s) => s.own(f) && conformance(d) && !core(d) && !s.own(d));
      return deps.filter(bad).map((d) => `${f} → ${d}`);
    });
    expect(all.get(path.join("conformance", "suites", "rest", "suite.ts"))).toContain(path.join("conformance", "core", "suite.ts"));
    expect(wrong).toEqual([]);
  });

  it("the conformance core names no contract document: the suites give it their resolver (lib/contract/)", () => {
    const core = files.filter((f) => f.startsWith(path.join("conformance", "core") + path.sep));
    const contractLib = path.join("lib", "contract") + path.sep;
    // The documents a rule points into and the catalogues themselves, by name or by path.
    const document = /openapi|tools\.json|errors\.json|\b(?:rest|mcp)\.yaml\b/i;
    const named = core.flatMap((f) => {
      const text = readFileSync(path.join(repoRoot, f), "utf8");
      const line = text.split("\n").findIndex((l) => document.test(l));
      return line < 0 ? [] : [`${f}:${line + 1} names ${document.exec(text)![0]}`];
    });
    const imported = core.flatMap((f) => imports(f, "all").filter((d) => d.startsWith(contractLib)).map((d) => `${f} → ${d}`));
    expect(core.length).toBeGreaterThan(20);
    expect(named).toEqual([]);
    expect(imported).toEqual([]);
  });

  it("no module of the product is in an import circle at run time", () => {
    expect(circles(graph)).toEqual([]);
  });

  it("nor through the types it imports", () => {
    expect(circles(new Map(files.map((f) => [f, imports(f, "all")])))).toEqual([]);
  });

  it("finds a circle when there is one (the detector itself)", () => {
    expect(circles(new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]]))).toEqual([["a", "b", "c"]]);
  });
});
