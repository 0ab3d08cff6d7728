// `npm run bench:validators`: the generated validators (ajv's runtime helpers and ajv-formats' checks inlined,
// nothing imported at run time) against the same schemas compiled by ajv with ajv-formats at run time — the
// baseline, measured in the same run:
//   - throughput on the contract's examples (valid and invalid inputs, outputs, results, REST schemas):
//     generated ÷ runtime-compiled; the goal is ≥ 0.95.
//   - start-up: a fresh Node process that imports every validator and runs each once, against a fresh process
//     that imports ajv, compiles the same schemas and runs each once; runtime ÷ generated; the goal is ≥ 10.
// BENCH_ROUNDS (default 7) rounds each, alternating which goes first; medians are reported.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { ajvOptions, createAjv, type Ajv } from "../scripts/lib/ajv.js";
import { loadDefs, loadTools } from "../scripts/lib/mcp-source.js";
import { toolValidatorSchemas } from "../scripts/lib/mcp.js";
import { componentDefs, openResponseDefs, restSchemaId } from "../scripts/lib/rest.js";
import { collectExtensionKeys, pascalCase, type JsonObject } from "../lib/schema-walk.js";
import { generatedDir, repoRoot } from "../lib/paths.js";
import * as rest from "../generated/rest/validators.js";
import * as mcp from "../generated/mcp/validators.js";

const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const addFormats = addFormatsModule.default;
const require = createRequire(import.meta.url);
type Fn = (data: unknown) => boolean;

// ---------------------------------------------------------------------------------------------------------------
// The same schemas as the generator compiles, compiled by ajv at run time.

const openapi = JSON.parse(fs.readFileSync(path.join(generatedDir, "openapi/openapi.json"), "utf8")) as JsonObject;
const restDefs = componentDefs(openapi);
const restAjv = createAjv({ annotations: collectExtensionKeys(restDefs) });
restAjv.addSchema({ $id: restSchemaId, $defs: openResponseDefs(openapi, restDefs) });
const restRefs = Object.fromEntries(Object.keys(restDefs).map((n) => [`validate${n}`, `${restSchemaId}#/$defs/${n}`]));
const tools = loadTools();
const mcpSide = toolValidatorSchemas(tools, loadDefs(), { open: true });

/** [side, export name, value]: every example the contract holds, each against the validator it belongs to. */
const corpus: ["rest" | "mcp", string, unknown][] = [];
for (const [name, schema] of Object.entries(restDefs)) for (const ex of ((schema as JsonObject).examples as unknown[]) ?? []) corpus.push(["rest", `validate${name}`, ex]);
for (const t of tools) {
  const p = pascalCase(t.name);
  for (const input of t.examples.validInputs) corpus.push(["mcp", `validate${p}Input`, input]);
  for (const bad of t.examples.invalidInputs) corpus.push(["mcp", `validate${p}Input`, bad.input]);
  for (const output of t.examples.validOutputs) corpus.push(["mcp", `validate${p}Output`, output], ["mcp", `validate${p}Result`, { data: output }]);
}

/** A generated module's validators by export name (its other exports are not functions). */
function validatorsOf(module: object): Record<string, Fn> {
  const out: Record<string, Fn> = {};
  for (const [name, v] of Object.entries(module) as [string, unknown][]) if (typeof v === "function") out[name] = v as Fn;
  return out;
}
const generated = { rest: validatorsOf(rest), mcp: validatorsOf(mcp) };
const runtime = { rest: (name: string) => restAjv.getSchema(restRefs[name]!) as Fn, mcp: (name: string) => mcpSide.ajv.getSchema(mcpSide.refs[name]!) as Fn };
const pairs = corpus.map(([side, name, value]) => ({ value, generated: generated[side][name]!, runtime: runtime[side](name) }));
for (const p of pairs) if (p.generated(p.value) !== p.runtime(p.value)) throw new Error("generated and runtime validators disagree; run the tests");

/** Validations per second over the whole corpus, for about `ms` milliseconds. */
function throughput(pick: (p: (typeof pairs)[number]) => Fn, ms = 400): number {
  let n = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (const p of pairs) pick(p)(p.value);
    n += pairs.length;
    elapsed = performance.now() - started;
  }
  return (n / elapsed) * 1000;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// ---------------------------------------------------------------------------------------------------------------
// Start-up, each in a fresh process: the clock starts before the first import and stops after the last call.

/** The schemas an ajv holds under our ids, and the keywords it knows beyond a fresh one (our annotations). */
function ajvSetup(ajv: Ajv, refs: string[]) {
  const fresh = new Ajv2020(ajvOptions);
  addFormats(fresh);
  const keywords = (a: Ajv) => Object.keys(a.RULES.keywords);
  const known = new Set(keywords(fresh));
  const schemas = Object.entries(ajv.schemas)
    .filter(([id]) => id.startsWith("ideas-contract:"))
    .map(([, env]) => env?.schema);
  return { annotations: keywords(ajv).filter((k) => !known.has(k)), schemas, refs };
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-validators-"));
const url = (file: string) => JSON.stringify(pathToFileURL(file).href);
const setupFile = path.join(work, "schemas.json");
fs.writeFileSync(setupFile, JSON.stringify([ajvSetup(restAjv, Object.values(restRefs)), ajvSetup(mcpSide.ajv, Object.values(mcpSide.refs))]));

const generatedChild = `
const t0 = performance.now();
for (const file of [${url(path.join(generatedDir, "rest/validators.js"))}, ${url(path.join(generatedDir, "mcp/validators.js"))}]) {
  const m = await import(file);
  for (const [name, fn] of Object.entries(m)) if (name.startsWith("validate")) fn({});
}
console.log(performance.now() - t0);
`;
const runtimeChild = `
const t0 = performance.now();
const { Ajv2020 } = await import(${url(require.resolve("ajv/dist/2020.js"))});
const addFormats = (await import(${url(require.resolve("ajv-formats"))})).default.default;
const { readFileSync } = await import("node:fs");
for (const side of JSON.parse(readFileSync(${JSON.stringify(setupFile)}, "utf8"))) {
  const ajv = new Ajv2020(${JSON.stringify(ajvOptions)});
  ajv.addVocabulary(side.annotations);
  addFormats(ajv);
  for (const schema of side.schemas) ajv.addSchema(schema);
  for (const ref of side.refs) ajv.getSchema(ref)({});
}
console.log(performance.now() - t0);
`;

function startup(source: string, name: string): number {
  const file = path.join(work, name);
  fs.writeFileSync(file, source);
  const res = spawnSync(process.execPath, [file], { cwd: repoRoot, encoding: "utf8" });
  if (res.status !== 0) throw new Error(`${name} failed:\n${res.stderr}`);
  return Number(res.stdout.trim());
}

// ---------------------------------------------------------------------------------------------------------------

try {
  const speed = { generated: [] as number[], runtime: [] as number[] };
  const start = { generated: [] as number[], runtime: [] as number[] };
  throughput((p) => p.generated, 200); // warm both up
  throughput((p) => p.runtime, 200);
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? (["runtime", "generated"] as const) : (["generated", "runtime"] as const);
    for (const which of order) speed[which].push(throughput((p) => p[which]));
    for (const which of order) start[which].push(startup(which === "generated" ? generatedChild : runtimeChild, `${which}.mjs`));
  }
  const validators = [rest, mcp].flatMap((m) => Object.keys(m)).filter((k) => k.startsWith("validate")).length;
  console.log(`${validators} validators, ${pairs.length} examples, ${rounds} rounds (medians)\n`);
  const line = (cells: string[]) => console.log(cells.map((c, i) => (i === 0 ? c.padEnd(44) : c.padStart(14))).join(" "));
  line(["", "generated", "ajv runtime", "ratio", "goal"]);
  const tp = median(speed.generated) / median(speed.runtime);
  line(["throughput (validations/s)", median(speed.generated).toFixed(0), median(speed.runtime).toFixed(0), `${tp.toFixed(2)}×`, "≥ 0.95×"]);
  const su = median(start.runtime) / median(start.generated);
  line(["start-up: import/compile + 1st validation (ms)", median(start.generated).toFixed(1), median(start.runtime).toFixed(1), `${su.toFixed(1)}×`, "≥ 10×"]);
  console.log(`\nthroughput ratio = generated ÷ runtime; start-up ratio = runtime ÷ generated.`);
  if (tp < 0.95 || su < 10) console.log("BELOW GOAL: see the row(s) above.");
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
