// Every rule id the proxy reports, in one place, as literal strings: the ids of spec/rules/rest.yaml and
// spec/rules/mcp.yaml. test/proxy-rules.test.ts loads both catalogues and fails naming any id here that they do
// not hold, so a renamed rule is fixed in this one file.
//
// The judges also call the conformance suite's assertions (conformance/suites/rest/expect.ts, conformance/suites/mcp/expect.ts),
// which report under the ids of their own `R` tables (JSON, kinds, prefixes, times, envelopes, retryable, the
// text mirror, …); the same test checks those ids too, so they are not repeated here.
import type { RuleId } from "../generated/rules.js";

// `satisfies`: an id neither catalogue holds does not compile (the test above also checks the members exist).
export const restRules = {
  schema: "response-matches-schema",
  field400: "invalid-field-400",
  paramNamesField: "error-param-names-field",
  serverError: "server-error-500",
  authRequired: "auth-required-401",
  ideasAccepted: "ideas-accepted-202",
  notReady409: "ideas-brand-not-ready-409",
  brandCreateReading: "brand-create-reading",
  brandRereads: "brand-patch-website-rereads",
  brandTerminal: "brand-terminal-stays",
  batchFailed: "batch-thinking-to-failed",
  batchOnlyDone: "batch-only-done-has-ideas",
  batchRanks: "batch-ranks-ordered",
  batchCount: "batch-count-respected",
  batchFormats: "batch-formats-respected",
  batchDoneAt: "batch-done-at-after-created",
  batchTerminal: "batch-terminal-stays",
  batchUnchanged: "batch-terminal-unchanged",
  // The record showing the reason is our design (record fields are not shown); the seed rule is its acceptance.
  feedbackReason: "feedback-rejection-reason/wrong_language",
  predictionsRank: "predictions-rank-drafts",
  limitCount: "limit-count",
  limitDescription: "limit-description",
  limitFocus: "limit-focus",
  limitRules: "limit-rules-entries",
  limitDate: "limit-date-horizon",
  limitDrafts: "limit-drafts",
  websiteHttps: "website-https",
  enumValues: "enum-values",
  createNeedsSomething: "brand-create-needs-something-to-read",
} as const satisfies Record<string, RuleId>;

export const mcpRules = {
  answered: "stateless-requests",
  listSchemas: "tools-list-schemas",
  structured: "success-structured-data",
  schema: "result-matches-output-schema",
  envelope: "failure-envelope",
  refusedFirst: "schema-violation-refused-first",
  unknownArgument: "unknown-argument-refused",
  unknownTool: "unknown-tool-fails",
  unknownToolNoEnvelope: "unknown-tool-no-envelope",
  readOnlyHint: "read-only-hint",
  unauthenticated: "unauthenticated-401",
  bearerChallenge: "bearer-challenge",
  readScope: "read-scope-suffices",
  deleteConfirm: "delete-confirm-true",
  batchStatus: "batch-status-values",
  batchCounts: "batch-counts-consistent",
  batchItems: "batch-items",
  batchSettles: "batch-stays-settled",
  settledCopy: "settled-copy-only",
  timesUtc: "times-to-utc",
  readiness: "readiness-consistent",
  listBrands: "list-brands",
  workspaces: "workspaces-limit-truncated",
  deletedSticky: "deleted-sticky",
  deactivation: "deactivation-progress",
  profileIdempotent: "create-profile-idempotent",
} as const satisfies Record<string, RuleId>;

/**
 * Every id above, for the catalogue test. Family ids (spec/rules/README.md) stand for their members: the judges
 * name the member (`${restRules.limitCount}/max`), and the test checks the family exists.
 */
export const allRuleIds = { rest: Object.values(restRules), mcp: Object.values(mcpRules) };
