// tools/list against the contract: every tool of the chosen profile listed with its schemas; live input schemas
// accept every valid input the contract documents and refuse every invalid one; live output schemas accept the
// contract's valid outputs; readOnlyHint as the contract says; partner-only tools for partners only. The live
// list is right where it differs (the seed says so): differences are reported as notes, never as failures.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Check, CheckContext } from "../../check.js";
import {
  compileLive,
  contractTool,
  documentedLimits,
  expectedTools,
  limitOf,
  liveProblems,
  usesInDevelopmentInput,
  type ContractTool,
} from "../../mcp/contract.js";
import { describeCall } from "../../mcp/expect.js";
import type { McpContext } from "../../mcp/extension.js";
import { isEnvelope } from "../../mcp/expect.js";
import { mcpCheck } from "./common.js";

const group = "mcp-tools";

/** The live tools of the normal token, and of the partner token when there is one (merged by name). */
async function liveTools(m: McpContext): Promise<Map<string, Tool>> {
  const out = new Map<string, Tool>();
  for (const t of await m.session.tools("normal")) out.set(t.name, t);
  if (m.target.tokens.partner) for (const t of await m.session.tools("partner")) if (!out.has(t.name)) out.set(t.name, t);
  return out;
}

/** Contract tools of the profile that are live, with their live definition. */
async function pairs(m: McpContext): Promise<{ contract: ContractTool; live: Tool }[]> {
  const live = await liveTools(m);
  return expectedTools(m.target.profile, !!m.target.tokens.partner)
    .map((contract) => ({ contract, live: live.get(contract.name)! }))
    .filter((p) => p.live);
}

const isObjectSchema = (s: unknown) => !!s && typeof s === "object" && !Array.isArray(s) && (s as any).type === "object";

const propsOf = (schema: any): string[] => Object.keys(schema?.properties ?? {});

export const toolsChecks: Check[] = [
  mcpCheck({
    id: "mcp-tools-list-schemas",
    description: "tools/list gives every tool an object input schema and an object output schema that compile",
    rules: ["tools-list-schemas"],
    group,
    async run(ctx, m) {
      const tools = await m.session.tools("normal");
      ctx.expect(tools.length > 0, "tools-list-schemas", "tools/list listed no tool");
      for (const t of tools) {
        ctx.expect(isObjectSchema(t.inputSchema), "tools-list-schemas", `${t.name}: inputSchema is not an object schema: ${JSON.stringify(t.inputSchema)?.slice(0, 120)}`);
        if (!ctx.expect(isObjectSchema(t.outputSchema), "tools-list-schemas", `${t.name}: no object outputSchema`)) continue;
        for (const [which, schema] of [["inputSchema", t.inputSchema], ["outputSchema", t.outputSchema]] as const) {
          const v = compileLive(schema);
          ctx.expect(!(v instanceof Error), "tools-list-schemas", `${t.name}: ${which} does not compile: ${v instanceof Error ? v.message : ""}`);
        }
      }
    },
  }),
  mcpCheck({
    id: "mcp-contract-tools-listed",
    description: "Every contract tool of the chosen profile (not partner-only) is in the normal token's tools/list",
    rules: ["contract-tools-listed"],
    group,
    async run(ctx, m) {
      const live = new Set((await m.session.tools("normal")).map((t) => t.name));
      const missing = expectedTools(m.target.profile, false)
        .map((t) => t.name)
        .filter((n) => !live.has(n));
      ctx.expect(missing.length === 0, "contract-tools-listed", `tools/list (${m.target.profile} profile) lacks ${missing.join(", ")}`);
    },
  }),
  mcpCheck({
    id: "mcp-partner-tools-listed",
    description: "A partner token sees the partner-only tools (and every other tool of the profile)",
    rules: ["partner-only-listed", "contract-tools-listed"],
    group,
    needs: ["mcp:partner-token", "mcp:profile-all"],
    async run(ctx, m) {
      const live = new Set((await m.session.tools("partner")).map((t) => t.name));
      const expected = expectedTools(m.target.profile, true);
      const partnerOnly = expected.filter((t) => t.meta.partnerOnly).map((t) => t.name);
      const missingPartner = partnerOnly.filter((n) => !live.has(n));
      ctx.expect(missingPartner.length === 0, "partner-only-listed", `the partner token's tools/list lacks ${missingPartner.join(", ")}`);
      const missing = expected.filter((t) => !t.meta.partnerOnly && !live.has(t.name)).map((t) => t.name);
      ctx.expect(missing.length === 0, "contract-tools-listed", `the partner token's tools/list lacks ${missing.join(", ")}`);
    },
  }),
  mcpCheck({
    id: "mcp-partner-only-hidden",
    description: "Partner-only tools are not listed for a normal token, and calling one fails as an unknown tool",
    rules: ["partner-only-hidden"],
    group,
    async run(ctx, m) {
      const live = new Set((await m.session.tools("normal")).map((t) => t.name));
      const shown = [...contractTool.values()].filter((t) => t.meta.partnerOnly && live.has(t.name)).map((t) => t.name);
      ctx.expect(shown.length === 0, "partner-only-hidden", `tools/list shows ${shown.join(", ")} to a normal token`);
      const o = await m.session.call("create_profile", { websiteUrl: m.target.inputs.website, name: `Conformance ${m.jobs.run}`, externalId: `conformance-${m.jobs.run}-hidden` });
      const refused = o.error?.kind === "rpc" || (o.result?.isError === true && !isEnvelope(o.data));
      ctx.expect(refused, "partner-only-hidden", `${describeCall(o)}: expected the call to fail as an unknown tool (no envelope)`);
    },
  }),
  mcpCheck({
    id: "mcp-input-schemas-accept-contract-inputs",
    description: "Each live input schema accepts every valid input the contract documents (no tightening)",
    rules: ["input-schema-not-tightened"],
    group,
    async run(ctx, m) {
      for (const { contract, live } of await pairs(m))
        for (const input of contract.examples.validInputs) {
          if (m.target.profile === "preview" && usesInDevelopmentInput(contract, input)) continue;
          const problems = liveProblems(live.inputSchema, input);
          ctx.expect(problems.length === 0, "input-schema-not-tightened", `${contract.name}: the live inputSchema refuses the contract's valid input ${JSON.stringify(input).slice(0, 200)}: ${problems.join("; ")}`);
        }
    },
  }),
  mcpCheck({
    id: "mcp-input-schemas-refuse-contract-invalid",
    description: "Each live input schema refuses every invalid input the contract documents, the seed's limits included",
    rules: ["input-schema-keeps-limits"],
    group,
    async run(ctx, m) {
      for (const { contract, live } of await pairs(m))
        for (const bad of contract.examples.invalidInputs) {
          const problems = liveProblems(live.inputSchema, bad.input);
          ctx.expect(problems.length > 0, "input-schema-keeps-limits", `${contract.name}: the live inputSchema accepts ${JSON.stringify(bad.input).slice(0, 160)} (${bad.reason})`);
        }
    },
  }),
  mcpCheck({
    id: "mcp-output-schemas-accept-contract-outputs",
    description: "Each live output schema accepts every valid output the contract documents (as structuredContent {data})",
    rules: ["output-schema-accepts-contract"],
    group,
    async run(ctx, m) {
      for (const { contract, live } of await pairs(m)) {
        if (!ctx.expect(isObjectSchema(live.outputSchema), "output-schema-accepts-contract", `${contract.name}: no live outputSchema to accept the contract's outputs`)) continue;
        for (const output of contract.examples.validOutputs) {
          const problems = liveProblems(live.outputSchema, { data: output });
          ctx.expect(problems.length === 0, "output-schema-accepts-contract", `${contract.name}: the live outputSchema refuses the contract's valid output ${JSON.stringify(output).slice(0, 160)}: ${problems.join("; ")}`);
        }
      }
    },
  }),
  mcpCheck({
    id: "mcp-read-only-hints",
    description: "Each tool's readOnlyHint says whether it changes data, as the contract does",
    rules: ["read-only-hint"],
    group,
    async run(ctx, m) {
      for (const { contract, live } of await pairs(m)) {
        const want = contract.annotations?.readOnlyHint;
        if (want === undefined) continue;
        ctx.expect(live.annotations?.readOnlyHint === want, "read-only-hint", `${contract.name}: readOnlyHint is ${JSON.stringify(live.annotations?.readOnlyHint)}, the contract says ${want}`);
      }
    },
  }),
  mcpCheck({
    id: "mcp-tools-drift-report",
    description: "Reports, as information, where the live tools/list differs from the contract (the live list wins)",
    rules: ["tools-list-schemas"],
    group,
    async run(ctx: CheckContext, m) {
      const live = await liveTools(m);
      const extra = [...live.keys()].filter((n) => !contractTool.has(n));
      if (extra.length) ctx.note(`tools not in the contract: ${extra.join(", ")}`);
      const notLive = [...contractTool.keys()].filter((n) => !live.has(n));
      if (notLive.length) ctx.note(`contract tools not listed (any profile, these tokens): ${notLive.join(", ")}`);
      for (const [name, tool] of live) {
        const c = contractTool.get(name);
        if (!c) continue;
        const extraIn = propsOf(tool.inputSchema).filter((p) => !propsOf(c.inputSchema).includes(p));
        const missingIn = propsOf(c.inputSchema).filter((p) => !propsOf(tool.inputSchema).includes(p));
        if (extraIn.length) ctx.note(`${name}: inputs not in the contract: ${extraIn.join(", ")}`);
        if (missingIn.length) ctx.note(`${name}: contract inputs not live: ${missingIn.join(", ")}`);
        if (!tool.outputSchema) ctx.note(`${name}: no outputSchema`);
      }
      for (const l of documentedLimits) {
        const tool = live.get(l.tool);
        if (!tool) continue;
        const got = limitOf(tool.inputSchema as Record<string, any>, l.field, l.keyword);
        if (got !== l.value) ctx.note(`${l.tool}.${l.field}: ${l.keyword} is ${got ?? "absent"} live, ${l.value} in the seed`);
      }
    },
  }),
];
