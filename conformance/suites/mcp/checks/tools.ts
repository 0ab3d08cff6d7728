// tools/list against the contract: every tool of the chosen profile listed with its schemas; live input schemas
// accept every valid input the contract documents and refuse every invalid one; live output schemas accept the
// contract's valid outputs; readOnlyHint as the contract says; partner-only tools for partners only. The live
// list is right where it differs (the seed says so): differences are reported as notes, never as failures.
import { isObject, memberOf } from "../../../core/answered.js";
import type { FamilyId, RuleId } from "../../../../generated/rules.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { RunContext } from "../../../core/check.js";
import {
  compileLive,
  contractTool,
  documentedLimits,
  expectedTools,
  limitOf,
  liveProblems,
  usesInDevelopmentInput,
  type ContractTool,
} from "../contract.js";
import type { CallOutcome } from "../client.js";
import { liveOutputProblems } from "../designed-parts.js";
import { describeCall, forTool, isEnvelope } from "../expect.js";
import type { McpContext } from "../extension.js";
import { probeInput } from "../probes.js";
import { unknownUuid, type McpCheck } from "./common.js";

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

const isObjectSchema = (s: unknown) => isObject(s) && s.type === "object";

const propsOf = (schema: unknown): string[] => {
  const properties = memberOf(schema, "properties");
  return isObject(properties) ? Object.keys(properties) : [];
};

/** How a call failed, as far as a caller can tell: a JSON-RPC error, isError with text only, or an envelope code. */
function failureForm(o: CallOutcome): string {
  if (o.error) return o.error.kind === "rpc" ? "a JSON-RPC error" : `${o.error.kind} error`;
  if (o.result?.isError !== true) return "a success";
  return isEnvelope(o.data) ? `an envelope with ${JSON.stringify(o.data.error.code)}` : "isError with text only";
}

/** The family judging a tool against the contract's examples: documented tools by the seed, the others by our design. */
const bySource = (tool: ContractTool, seed: FamilyId, inferred: FamilyId): RuleId => `${tool.meta.source === "documented" ? seed : inferred}/${tool.name}`;

export const toolsChecks: McpCheck[] = [
  {
    id: "mcp-tools-list-schemas",
    description: "tools/list gives every tool an object input schema and an object output schema, each valid JSON Schema in the dialect it names",
    rules: ["tools-list-schemas"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const tools = [...(await liveTools(m)).values()];
      ctx.expect(tools.length > 0, "tools-list-schemas", "tools/list listed no tool");
      for (const t of tools) {
        // rule: tools-list-schemas/<tool>
        const rule = forTool("tools-list-schemas", t.name);
        ctx.expect(isObjectSchema(t.inputSchema), rule, `${t.name}: inputSchema is not an object schema: ${JSON.stringify(t.inputSchema)?.slice(0, 120)}`);
        if (!ctx.expect(isObjectSchema(t.outputSchema), rule, `${t.name}: no object outputSchema`)) continue;
        for (const [which, schema] of [["inputSchema", t.inputSchema], ["outputSchema", t.outputSchema]] as const) {
          const v = compileLive(schema);
          ctx.expect(!(v instanceof Error), rule, `${t.name}: ${which} is ${v instanceof Error ? v.message : ""}`);
        }
      }
    },
  },
  {
    id: "mcp-contract-tools-listed",
    description: "Every contract tool of the chosen profile is in tools/list: the partner-only ones for the partner token, the others for the normal token",
    rules: ["contract-tools-listed"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const normal = new Set((await m.session.tools("normal")).map((t) => t.name));
      const partner = m.target.tokens.partner ? new Set((await m.session.tools("partner")).map((t) => t.name)) : undefined;
      for (const t of expectedTools(m.target.profile, true)) {
        const live = t.meta.partnerOnly ? partner : normal;
        if (!live) continue; // partner-only tools without a partner token: no case (the ledger says why)
        ctx.expect(live.has(t.name), `contract-tools-listed/${t.name}`, `tools/list (${m.target.profile} profile, ${t.meta.partnerOnly ? "partner" : "normal"} token) lacks ${t.name}`);
      }
    },
  },
  {
    id: "mcp-partner-tools-listed",
    description: "A partner token sees the partner-only tools in tools/list",
    rules: ["partner-only-listed"],
    group,
    needs: ["mcp:profile-all"],
    async run(ctx) {
      const m = ctx.mcp;
      const live = new Set((await m.session.tools("partner")).map((t) => t.name));
      for (const t of expectedTools(m.target.profile, true).filter((t) => t.meta.partnerOnly))
        ctx.expect(live.has(t.name), `partner-only-listed/${t.name}`, `the partner token's tools/list lacks ${t.name}`);
    },
  },
  {
    id: "mcp-partner-only-hidden",
    description: "Each partner-only tool is not listed for a normal token, and calling it fails as an unknown tool (for a read-only token too, not as a refused write)",
    rules: ["partner-only-hidden", "partner-only-call-unknown"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      const live = new Set((await m.session.tools("normal")).map((t) => t.name));
      // "Fails as an unknown tool": the way a call of a tool nobody has fails, whatever that form is.
      const unknown = failureForm(await m.session.callRaw(`conformance_no_such_tool_${m.run.id}`, {}));
      const asUnknown = (o: CallOutcome) => o.error?.kind === "rpc" || o.result?.isError === true ? failureForm(o) === unknown : false;
      for (const t of [...contractTool.values()].filter((t) => t.meta.partnerOnly)) {
        ctx.expect(!live.has(t.name), `partner-only-hidden/${t.name}`, `tools/list shows ${t.name} to a normal token`);
        // Ids nobody issued: should the tool run after all, it touches nothing (and a profile it made is erased).
        const args = probeInput(t.name, `${m.run.id}-hidden`, m.slot("mcp.inputs.website"), t.name === "create_profile" ? {} : { brandId: unknownUuid() });
        const o = await m.session.callRaw(t.name, args);
        ctx.expect(asUnknown(o), `partner-only-call-unknown/${t.name}`, `${describeCall(o)}: expected the call to fail as an unknown tool does (${unknown}), got ${failureForm(o)}`);
        const made = (o.data as { brandId?: unknown } | undefined)?.brandId;
        if (typeof made === "string" && m.target.tokens.partner) await m.session.call("delete_profile", { brandId: made, confirm: true }, "partner");
        // A read-only token must not learn the tool exists from a 403 insufficient_scope.
        if (!m.target.tokens.readonly) continue;
        const ro = await m.session.callRaw(t.name, args, "readonly");
        ctx.expect(asUnknown(ro), `partner-only-call-unknown/${t.name}`, `${describeCall(ro)}: expected the call to fail as an unknown tool does (${unknown}) for a read-only token too, got ${failureForm(ro)}`);
      }
    },
  },
  {
    id: "mcp-input-schemas-accept-contract-inputs",
    description: "Each live input schema accepts every valid input the contract documents (no tightening)",
    rules: ["input-schema-not-tightened", "inferred-input-not-tightened"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      for (const { contract, live } of await pairs(m))
        for (const input of contract.examples.validInputs) {
          if (m.target.profile === "preview" && usesInDevelopmentInput(contract, input)) continue;
          const problems = liveProblems(live.inputSchema, input, contract.inputSchema);
          ctx.expect(problems.length === 0, bySource(contract, "input-schema-not-tightened", "inferred-input-not-tightened"), `${contract.name}: the live inputSchema refuses the contract's valid input ${JSON.stringify(input).slice(0, 200)}: ${problems.join("; ")}`);
        }
    },
  },
  {
    id: "mcp-input-schemas-refuse-contract-invalid",
    description: "Each live input schema refuses every invalid input the contract documents, the seed's limits included",
    rules: ["input-schema-keeps-limits"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      for (const { contract, live } of await pairs(m))
        for (const bad of contract.examples.invalidInputs) {
          const problems = liveProblems(live.inputSchema, bad.input, contract.inputSchema);
          ctx.expect(problems.length > 0, `input-schema-keeps-limits/${contract.name}`, `${contract.name}: the live inputSchema accepts ${JSON.stringify(bad.input).slice(0, 160)} (${bad.reason})`);
        }
    },
  },
  {
    id: "mcp-output-schemas-accept-contract-outputs",
    description: "Each live output schema accepts every valid output the contract documents (as structuredContent {data})",
    rules: ["output-schema-accepts-contract", "inferred-output-schema-accepts"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      for (const { contract, live } of await pairs(m)) {
        const rule = bySource(contract, "output-schema-accepts-contract", "inferred-output-schema-accepts");
        if (!ctx.expect(isObjectSchema(live.outputSchema), rule, `${contract.name}: no live outputSchema to accept the contract's outputs`)) continue;
        for (const output of contract.examples.validOutputs) {
          // Refused only where the output is our design (the approval object, a member the gateway added and
          // requires): the inferred rule's failure, not the seed's.
          const { seed, designed } = liveOutputProblems(live.outputSchema, { data: output }, contract.outputSchema);
          const shown = `${contract.name}: the live outputSchema refuses the contract's valid output ${JSON.stringify(output).slice(0, 160)}`;
          ctx.expect(seed.length === 0, rule, `${shown}: ${seed.join("; ")}`);
          ctx.expect(designed.length === 0, `inferred-output-schema-accepts/${contract.name}`, `${shown}, in parts of the contract's design: ${designed.join("; ")}`);
        }
      }
    },
  },
  {
    id: "mcp-output-schemas-allow-cancelled",
    description: "The live output schema of every tool that changes data also admits { cancelled: true, changed: false }",
    rules: ["output-schema-allows-cancelled"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      for (const { contract, live } of await pairs(m)) {
        if (contract.annotations?.readOnlyHint !== false) continue;
        const problems = liveProblems(live.outputSchema, { data: { cancelled: true, changed: false } }, contract.outputSchema);
        ctx.expect(problems.length === 0, `output-schema-allows-cancelled/${contract.name}`, `${contract.name}: the live outputSchema refuses { cancelled: true, changed: false }: ${problems.join("; ")}`);
      }
    },
  },
  {
    id: "mcp-read-only-hints",
    description: "Each tool's readOnlyHint says whether it changes data, as the contract does",
    rules: ["read-only-hint"],
    group,
    async run(ctx) {
      const m = ctx.mcp;
      for (const { contract, live } of await pairs(m)) {
        const want = contract.annotations?.readOnlyHint;
        if (want === undefined) continue;
        ctx.expect(live.annotations?.readOnlyHint === want, `read-only-hint/${contract.name}`, `${contract.name}: readOnlyHint is ${JSON.stringify(live.annotations?.readOnlyHint)}, the contract says ${want}`);
      }
    },
  },
  {
    id: "mcp-tools-drift-report",
    description: "Reports, as information, where the live tools/list differs from the contract (the live list wins)",
    // Notes only: the live list is right where it differs (rule live-list-wins, for callers), so nothing fails here.
    rules: [],
    group,
    async run(ctx) {
      const m = ctx.mcp;
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
  },
];
