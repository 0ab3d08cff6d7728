// Calls that reach every tool of a family: a valid input for each tool (the contract's first valid example, whose
// ids name nothing on a real target, with what would make something real replaced by the run's own values), and the
// token that sees the tool. Used by the checks that judge a per-tool rule on every tool it names.
import { contractTool, contractTools, type ContractTool } from "./contract.js";
import type { McpTokenKind } from "./target.js";

/** A valid input of `tool` (the contract's first valid example), with `overrides` on top. */
export function exampleInput(tool: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const t = contractTool.get(tool);
  if (!t?.examples.validInputs[0]) throw new Error(`the contract has no valid input example for ${tool}`);
  return { ...structuredClone(t.examples.validInputs[0]), ...overrides };
}

/** The token that sees a tool: the partner's for partner-only tools, the normal one otherwise. */
export const tokenFor = (t: ContractTool): McpTokenKind => (t.meta.partnerOnly ? "partner" : "normal");

/** The contract tools `where` selects (the same filter a catalogue family uses, by name). */
export const toolsWhere = (where: (t: ContractTool) => boolean): ContractTool[] => contractTools.filter(where);

/** A valid input for a probe of `tool` that must not make anything: create_profile gets the run's own externalId. */
export function probeInput(tool: string, run: string, website: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const own = tool === "create_profile" ? { externalId: `conformance-${run}-probe`, websiteUrl: website, name: `Conformance probe ${run}` } : {};
  return exampleInput(tool, { ...own, ...overrides });
}
