// Authentication, on every operation of the contract: without a token, with every kind of Authorization the seed
// refuses (a token it never issued, another scheme, an empty bearer, several words), and with an expired token —
// each against a resource that exists where the operation names one, so that a service that looks the resource up
// before it checks the caller (and serves what exists) fails. Every refusal is 401 authentication_error.
import type { CheckContext, RestCheck } from "../check.js";
import { operations, pathOf, type OperationId } from "../contract.js";
import { expectError } from "../expect.js";
import type { Auth } from "../../../core/http.js";
import { errorRules, unknownId } from "./common.js";

const group = "auth";
const operationIds = Object.keys(operations) as OperationId[];

interface Ids {
  brand: string;
  batch: string;
  idea: string;
}

/** A request for each operation: path and a body valid enough to get past everything but the credentials. */
function requestFor(op: OperationId, ids: Ids): { path: string; body?: unknown } {
  switch (op) {
    case "createBrand":
      return { path: pathOf(op), body: { website: "https://www.example.com" } };
    case "getBrand":
      return { path: pathOf(op, { brand_id: ids.brand }) };
    case "updateBrand":
      return { path: pathOf(op, { brand_id: ids.brand }), body: { country: "IE" } };
    case "createIdeas":
      return { path: pathOf(op), body: { brand: ids.brand } };
    case "getIdeaBatch":
      return { path: pathOf(op, { batch_id: ids.batch }) };
    case "createFeedback":
      return { path: pathOf(op), body: { idea: ids.idea, outcome: "saved" } };
    case "createPrediction":
      return { path: pathOf(op), body: { brand: ids.brand, drafts: [{ text: "Fresh bread." }] } };
  }
}

const unknownIds = (): Ids => ({ brand: unknownId("brand_"), batch: unknownId("batch_"), idea: unknownId("idea_") });

/**
 * Ids of this team's own brand, batch and idea, where the target made them; an unknown id where it did not (the
 * 401 is owed either way, so the check runs on, and says so).
 */
async function existingIds(ctx: CheckContext): Promise<Ids> {
  const fallback = unknownIds();
  const [probe, batch] = await Promise.all([ctx.fixtures.statefulness(), ctx.fixtures.batch("main")]);
  const idea = batch.last?.data?.[0]?.id;
  const ids = {
    brand: probe.brandId ?? fallback.brand,
    batch: batch.id ?? fallback.batch,
    idea: typeof idea === "string" ? idea : fallback.idea,
  };
  const missing = (Object.keys(ids) as (keyof Ids)[]).filter((k) => ids[k] === fallback[k]);
  if (missing.length) ctx.note(`no existing ${missing.join(", ")} to ask about; sent unknown ids instead (401 is owed either way)`);
  return ids;
}

const send = (ctx: CheckContext, op: OperationId, ids: Ids, auth: Auth) => {
  const r = requestFor(op, ids);
  return ctx.api.send({ method: operations[op].method, path: r.path, body: r.body, auth });
};

// Check ids are literal so that an id seen in a report can be found with grep.
const noTokenIds: Record<OperationId, string> = {
  createBrand: "no-token-401-create-brand",
  getBrand: "no-token-401-get-brand",
  updateBrand: "no-token-401-update-brand",
  createIdeas: "no-token-401-create-ideas",
  getIdeaBatch: "no-token-401-get-idea-batch",
  createFeedback: "no-token-401-create-feedback",
  createPrediction: "no-token-401-create-prediction",
};

/** Without any token the checks can run against a target that gave none: unknown ids, nothing of the team's. */
const noToken: RestCheck[] = operationIds.map((op) => ({
  id: noTokenIds[op],
  description: `${operations[op].method} ${operations[op].template} without a token answers 401 authentication_error`,
  rules: [...errorRules(401), `auth-required-401/${op}`, "error-param-null-otherwise"],
  group,
  tokenless: true,
  async run(ctx: CheckContext) {
    const res = await send(ctx, op, unknownIds(), "none");
    expectError(ctx, res, op, 401, { statusRules: `auth-required-401/${op}`, param: null, paramRules: "error-param-null-otherwise" });
  },
}));

const badCredentialIds: Record<OperationId, string> = {
  createBrand: "bad-credentials-401-create-brand",
  getBrand: "bad-credentials-401-get-brand",
  updateBrand: "bad-credentials-401-update-brand",
  createIdeas: "bad-credentials-401-create-ideas",
  getIdeaBatch: "bad-credentials-401-get-idea-batch",
  createFeedback: "bad-credentials-401-create-feedback",
  createPrediction: "bad-credentials-401-create-prediction",
};

/**
 * Authorization values the seed refuses ("Authorization: Bearer <ACCESS_TOKEN>"; 401 for a token missing, expired or
 * not for this API). The team's own token appears only where the value is still not one bearer token. A lower-case
 * `bearer` is not among them: the scheme is case-insensitive (RFC 7235), so a service may accept it.
 */
function refusedCredentials(team: string, run: string): { auth: Auth; what: string; rule: "auth-required-401" | "auth-invalid-token-401" }[] {
  return [
    { auth: "none", what: "no Authorization header", rule: "auth-required-401" },
    { auth: { bearer: `conformance-not-a-token-${run}` }, what: "a token the service never issued", rule: "auth-invalid-token-401" },
    { auth: { authorization: `Bearer ${team} and-more-words` }, what: "the team's token followed by more words", rule: "auth-invalid-token-401" },
    { auth: { authorization: `Token ${team}` }, what: "the team's token under another scheme (Token)", rule: "auth-invalid-token-401" },
    { auth: { authorization: `Basic ${Buffer.from(`${team}:`).toString("base64")}` }, what: "Basic credentials", rule: "auth-invalid-token-401" },
    { auth: { authorization: "Bearer" }, what: "Bearer with no token", rule: "auth-invalid-token-401" },
  ];
}

const badCredentials: RestCheck[] = operationIds.map((op) => ({
  id: badCredentialIds[op],
  description: `${operations[op].method} ${operations[op].template} for an existing resource answers 401 authentication_error to no token, an unknown token, another scheme, an empty or a malformed bearer`,
  rules: [...errorRules(401), `auth-required-401/${op}`, `auth-invalid-token-401/${op}`],
  group,
  // A stateless mock (Prism) knows no issued tokens: it serves any bearer-like value.
  needs: ["stateful"],
  async run(ctx: CheckContext) {
    const ids = await existingIds(ctx);
    for (const { auth, what, rule } of refusedCredentials(ctx.target.tokens.team!, ctx.fixtures.run)) {
      const res = await send(ctx, op, ids, auth);
      if (!expectError(ctx, res, op, 401, { statusRules: `${rule}/${op}` })) ctx.note(`${what}: answered ${res.status}`);
    }
  },
}));

const expiredIds: Record<OperationId, string> = {
  createBrand: "expired-token-401-create-brand",
  getBrand: "expired-token-401-get-brand",
  updateBrand: "expired-token-401-update-brand",
  createIdeas: "expired-token-401-create-ideas",
  getIdeaBatch: "expired-token-401-get-idea-batch",
  createFeedback: "expired-token-401-create-feedback",
  createPrediction: "expired-token-401-create-prediction",
};

const expired: RestCheck[] = operationIds.map((op) => ({
  id: expiredIds[op],
  description: `${operations[op].method} ${operations[op].template} with an expired token, for an existing resource, answers 401 authentication_error`,
  rules: [...errorRules(401), `auth-expired-401/${op}`],
  group,
  needs: ["stateful"],
  async run(ctx: CheckContext) {
    expectError(ctx, await send(ctx, op, await existingIds(ctx), "expired"), op, 401, { statusRules: `auth-expired-401/${op}` });
  },
}));

export const authenticationChecks: RestCheck[] = [...noToken, ...badCredentials, ...expired];
