// The generated tools manifest as rules point into it: `tool:<name>[#/json/pointer]`, and the `tools` family
// filtered by partnerOnly, readOnly, status, scopes and name.
import { followPointer } from "../json-pointer.js";
import { contractDocument, mcpToolsJsonPath } from "./documents.js";
import type { ContractSource } from "./source.js";

interface ToolEntry {
  name: string;
  annotations?: { readOnlyHint?: boolean };
  _meta: Record<string, { status: string; partnerOnly: boolean; scopes: string[] }>;
}
interface ToolFilter {
  partnerOnly?: boolean;
  readOnly?: boolean;
  status?: string;
  scopes?: string;
  name?: string[];
}

const tools = () => (contractDocument(mcpToolsJsonPath) as { tools: ToolEntry[] }).tools;
const metaOf = (t: ToolEntry) => t._meta["ideas-contract/contract"]!;

export const toolSource: ContractSource = {
  kind: "tool",
  resolve(rest) {
    const [name, inner] = rest.split("#", 2) as [string, string | undefined];
    const tool = tools().find((t) => t.name === name);
    return tool === undefined ? undefined : followPointer(tool, inner === undefined ? "" : `#${inner}`);
  },
  families: {
    tools: (filter) => {
      const where = filter as ToolFilter;
      return tools()
        .filter((t) => {
          const m = metaOf(t);
          return (
            (where.partnerOnly === undefined || m.partnerOnly === where.partnerOnly) &&
            (where.readOnly === undefined || (t.annotations?.readOnlyHint === true) === where.readOnly) &&
            (where.status === undefined || m.status === where.status) &&
            (where.scopes === undefined || m.scopes.includes(where.scopes)) &&
            (where.name === undefined || where.name.includes(t.name))
          );
        })
        .map((t) => ({ name: t.name, contract: `tool:${t.name}` }));
    },
  },
};
