// The structured fields of an error, by the seed's own terms (Structured fields on error): each field the catalogue
// names for a code is judged, when present, by the contract's ErrorDetail schema of it — arrays are arrays of their
// items, a destination is uppercase, a channel lowercase, a time ISO 8601 with a zone, a count an integer — open to
// new enum values but not to a listed value in another case. Presence of the required ones is expect.ts's part.
import { catalogue, contractTool } from "./contract.js";
import { contractFieldProblems } from "./fields.js";

const entries = catalogue as readonly { code: string; kind: string; fields?: string[] }[];
const named = new Map(entries.filter((e) => e.kind === "envelope").map((e) => [e.code, e.fields ?? []]));

/** The structured fields the catalogue names for an envelope code (required and optional alike). */
export const fieldsNamed = (code: string): readonly string[] => named.get(code) ?? [];

/** The contract tool whose output $defs hold the ErrorDetail to judge by: the call's own, else one that has it. */
const errorDefTool = (tool: string): string | undefined => {
  if (contractTool.get(tool)?.outputSchema.$defs?.ErrorDetail) return tool;
  return [...contractTool.values()].find((t) => t.outputSchema.$defs?.ErrorDetail)?.name;
};

/** What is wrong with the structured fields of `error` (code `code`, answered by `tool`); [] when nothing is. */
export function structuredFieldProblems(tool: string, code: string, error: Record<string, unknown>): string[] {
  const holder = errorDefTool(tool);
  if (!holder) return [];
  return fieldsNamed(code)
    .filter((f) => f in error)
    .flatMap((f) => contractFieldProblems(holder, "ErrorDetail", f, error[f]));
}
