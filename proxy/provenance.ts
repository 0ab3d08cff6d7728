// Which rules are our design where the seeds are silent (provenance inferred), so that a service breaking only those
// is drift: reported with its evidence, never a failure, as the conformance suite reports it against a real target.
import { mcpCatalogue } from "../conformance/suites/mcp/catalogue.js";
import { restCatalogue } from "../conformance/suites/rest/catalogue.js";

let inferred: ReadonlySet<string> | undefined;

function inferredIds(): ReadonlySet<string> {
  const out = new Set<string>();
  for (const catalogue of [restCatalogue(), mcpCatalogue()]) {
    for (const rule of catalogue.rules) if (rule.provenance === "inferred") out.add(rule.id);
    // A family named alone stands for every member: inferred when all of them are.
    for (const [family, members] of catalogue.families) if (members.every((m) => m.provenance === "inferred")) out.add(family);
  }
  return out;
}

/** Whether every rule named is inferred (an empty list names none: not drift). */
export function inferredOnly(ids: readonly string[]): boolean {
  inferred ??= inferredIds();
  return ids.length > 0 && ids.every((id) => inferred!.has(id));
}
