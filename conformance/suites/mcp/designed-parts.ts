// Which part of a contract output an advertised schema's complaint is about: one the seed states, or one of our design.
// The contract marks what the seed does not show with `x-contract-source: inferred` (the approval object, …). A live
// output schema that refuses a contract example only there, or only for a member the gateway added and requires
// (output may hold more than listed), differs from our design, not from the seed's words.
import type { ErrorObject } from "ajv";
import { compileLive } from "./contract.js";

type Node = Record<string, any>;

/** A local `#/…` reference of `root`, resolved (undefined when it is not local). */
function resolve(root: Node, node: Node): Node | undefined {
  let at: any = node;
  for (let hops = 0; at && typeof at.$ref === "string" && hops < 16; hops++) {
    // A schema marked inferred that merely refers elsewhere keeps its mark.
    if (at["x-contract-source"] === "inferred") return at;
    const ref: string = at.$ref;
    if (!ref.startsWith("#/")) return undefined;
    at = root;
    for (const seg of ref.slice(2).split("/")) at = at?.[seg.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return at && typeof at === "object" ? at : undefined;
}

/**
 * What the contract's schema says of the value at `path` (JSON Pointer segments): "inferred" when a schema on the
 * way (or the value's own) is marked inferred in a branch that reaches it, "unknown" when no branch describes it,
 * else "seed".
 */
export function partAt(root: Node, path: readonly string[], node: Node = root, depth = 0): "seed" | "inferred" | "unknown" {
  const n = depth > 64 ? undefined : resolve(root, node);
  if (!n) return "unknown";
  if (n["x-contract-source"] === "inferred") return "inferred";
  const branches = ["anyOf", "oneOf", "allOf"].flatMap((k) => (Array.isArray(n[k]) ? (n[k] as Node[]) : []));
  const found: ("seed" | "inferred")[] = [];
  for (const b of branches) {
    const p = partAt(root, path, b, depth + 1);
    if (p !== "unknown") found.push(p);
  }
  if (path.length) {
    const [seg, ...rest] = path as [string, ...string[]];
    const child = n.properties?.[seg] ?? (/^\d+$/.test(seg) ? (Array.isArray(n.items) ? n.items[Number(seg)] : n.items) : undefined);
    if (child && typeof child === "object") {
      const p = partAt(root, rest, child, depth + 1);
      if (p !== "unknown") found.push(p);
    }
  } else if (!branches.length) return "seed";
  if (!found.length) return path.length ? "unknown" : "seed";
  // A value one of whose forms is our design (the approval object, or null) is judged as that design.
  return found.includes("inferred") ? "inferred" : "seed";
}

const pointer = (p: string) => (p ? p.split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~")) : []);

/** Whether a live schema's complaint concerns only our design: an inferred part, or a member the contract does not have. */
export function designedOnly(contract: Node, e: ErrorObject): boolean {
  const at = pointer(e.instancePath);
  const member = (e.params as { missingProperty?: string; additionalProperty?: string }).missingProperty ?? (e.params as { additionalProperty?: string }).additionalProperty;
  const part = partAt(contract, member === undefined ? at : [...at, member]);
  return part === "inferred" || (e.keyword === "required" && part === "unknown");
}

/** The schema once per branch of its `data` member's anyOf/oneOf (output or envelope), or as it is. */
function perBranch(schema: unknown): unknown[] {
  const s = schema as Node;
  const data = s?.properties?.data;
  const branches = data && (Array.isArray(data.anyOf) ? data.anyOf : Array.isArray(data.oneOf) ? data.oneOf : undefined);
  if (!branches) return [schema];
  return branches.map((b: unknown) => ({ ...s, properties: { ...s.properties, data: b } }));
}

/**
 * A contract output judged by a live output schema, its complaints split: those about what the seed states, and
 * those only about our design (a required member the contract does not describe is the gateway's addition: output
 * may hold more).
 * The branch of the data's anyOf that fits best is judged (the output's, not the envelope's). `contract` is judged
 * instead when the live schema is not valid JSON Schema.
 */
export function liveOutputProblems(schema: unknown, data: unknown, contract: Node): { seed: string[]; designed: string[] } {
  const whole = compileLive(schema);
  const usable = whole instanceof Error ? compileLive(contract) : whole;
  if (usable instanceof Error) return { seed: [`the schema is ${usable.message}`], designed: [] };
  if (usable(data)) return { seed: [], designed: [] };
  let best: { seed: string[]; designed: string[] } | undefined;
  for (const branch of perBranch(whole instanceof Error ? contract : schema)) {
    const v = compileLive(branch);
    if (v instanceof Error || v(data)) continue;
    const out = { seed: [] as string[], designed: [] as string[] };
    for (const e of (v.errors ?? []).filter((e) => e.keyword !== "anyOf" && e.keyword !== "oneOf"))
      (designedOnly(contract, e) ? out.designed : out.seed).push(`${e.instancePath || "(root)"} ${e.message ?? "is invalid"}`);
    if (!best || out.seed.length < best.seed.length || (out.seed.length === best.seed.length && out.designed.length < best.designed.length)) best = out;
  }
  best ??= { seed: (usable.errors ?? []).map((e) => `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}`), designed: [] };
  if (!best.seed.length && !best.designed.length) best.seed.push("(root) is refused (by the whole schema, though a branch of its data takes it)");
  return { seed: best.seed.slice(0, 5), designed: best.designed.slice(0, 5) };
}
