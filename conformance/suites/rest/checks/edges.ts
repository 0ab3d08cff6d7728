// The accepting side of every limit of every request field, on every operation that takes the field (negative.ts
// sends the refusing side): each edge derived from the request schemas (negative-inputs.ts, acceptedEdges), sent
// on its own, must be accepted (any 2xx the seed allows) and, where the resource holds the field, read back as sent.
import { isDeepStrictEqual } from "node:util";
import type { CheckContext, RestCheck } from "../check.js";
import { operations, pathOf, type OperationId } from "../contract.js";
import { answerRulesOf, expectSuccess } from "../expect.js";
import type { ApiResponse } from "../../../core/http.js";
import { acceptedEdges, type AcceptedEdge } from "../negative-inputs.js";
import { baseValues } from "./negative.js";
import { valueAt, type Answered } from "../../../core/answered.js";
import type { Prediction } from "../../../../generated/rest/types.js";

const show = (v: unknown) => JSON.stringify(v)?.slice(0, 120);
const edges = acceptedEdges();

/**
 * The value the target shows for an accepted edge, or undefined where its answer does not hold the field: a brand
 * shows what was sent on create, and a read after a PATCH what was sent then (an archetype as its `value`); a
 * feedback record its comment; a prediction ranks every draft sent, under the caller's id.
 */
async function shown(ctx: CheckContext, edge: AcceptedEdge, res: ApiResponse, brandPath: string | undefined): Promise<{ got: unknown; want: unknown } | undefined> {
  const field = (b: unknown) => (edge.path[0] === "archetype" ? valueAt(b, ["archetype", "value"]) : valueAt(b, edge.path));
  switch (edge.op) {
    case "createBrand":
      return { got: field(res.body), want: edge.value };
    case "updateBrand":
      return { got: field((await ctx.api.get(brandPath!)).body), want: edge.value };
    case "createFeedback":
      return edge.path[0] === "comment" && res.body && typeof res.body === "object" ? { got: res.body.comment, want: edge.value } : undefined;
    case "createPrediction": {
      const sent = edge.body({ brandId: "", ideaId: "", today: "" }).drafts as { id?: string }[];
      const body: Answered<Prediction> | undefined = res.body;
      const data = Array.isArray(body?.data) ? body.data : [];
      return { got: data.map((d) => d?.id ?? null).sort(), want: sent.map((d) => d.id ?? null).sort() };
    }
    default:
      return undefined;
  }
}

/** Sends one edge and judges it: a success, and the value read back. */
async function sendEdge(ctx: CheckContext, edge: AcceptedEdge, brandPath: string | undefined): Promise<void> {
  const { values, path } = await baseValues(ctx, edge);
  const to = edge.op === "updateBrand" ? brandPath! : path;
  const res = await ctx.api.send({ method: operations[edge.op].method, path: to, body: edge.body(values) });
  const status = Number(Object.keys(operations[edge.op].responses).find((s) => s.startsWith("2")));
  if (!expectSuccess(ctx, res, edge.op, status, edge.rules)) return void ctx.note(`${edge.id}: answered ${res.status}`);
  const seen = await shown(ctx, edge, res, to);
  if (seen) ctx.expect(isDeepStrictEqual(seen.got, seen.want), edge.rules, `${edge.description}, but reads back as ${show(seen.got)}, not the ${show(seen.want)} sent`);
}

/** The statuses an operation's success answer may name rules of (its body's, for ops whose body the seed shows). */
const answerRules = (op: OperationId) => {
  const schema = operations[op].responses[Number(Object.keys(operations[op].responses).find((s) => s.startsWith("2")))];
  return op !== "updateBrand" && (schema === "Brand" || schema === "IdeaBatch" || schema === "Feedback" || schema === "Prediction") ? answerRulesOf(schema) : [];
};

export const edgeChecks: RestCheck[] = [
  {
    id: "limits-at-the-bound-accepted",
    description: `The accepting edge of every limit of every request field, on every operation (${edges.length}: the longest string, the fullest list, the largest and smallest number, each listed value), is accepted and read back`,
    rules: [...new Set([...edges.flatMap((e) => [...e.rules, ...answerRules(e.op)])])],
    group: "negative",
    needs: ["stateful"],
    async run(ctx: CheckContext) {
      // A brand of the check's own to update (its fields change here), from a name and a description: nothing to read.
      const made = await ctx.api.post(pathOf("createBrand"), { name: `Conformance Edges ${ctx.fixtures.run}`, description: "A bakery whose fields are set at their limits." });
      const brandPath = typeof made.body?.id === "string" ? pathOf("updateBrand", { brand_id: made.body.id }) : undefined;
      const updates = edges.filter((e) => e.op === "updateBrand");
      if (!brandPath) ctx.note(`no brand to update (POST /v1/brands answered ${made.status}): ${updates.length} edges of updateBrand not sent`);
      // Side by side, but the updates of one field one after another (each reads back what it sent).
      const byField = new Map<string, AcceptedEdge[]>();
      for (const e of brandPath ? updates : []) byField.set(e.path[0]!, [...(byField.get(e.path[0]!) ?? []), e]);
      await Promise.all([
        ...edges.filter((e) => e.op !== "updateBrand").map((e) => sendEdge(ctx, e, undefined)),
        ...[...byField.values()].map(async (group) => {
          for (const e of group) await sendEdge(ctx, e, brandPath);
        }),
      ]);
    },
  },
];
