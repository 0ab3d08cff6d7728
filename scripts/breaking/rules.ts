// The rule catalogue: every kind of difference the gate knows, its classification and the reason.
// Classification lives here and only here; the diff modules name a rule and never decide a Kind themselves.
//
// Sources: seed 001 "Versioning" item 5 (MCP) — breaking: removing or renaming a tool or field, tightening an
// input, changing what a field or code means, removing an enum value from output, changing which error code a
// failure returns, changing a default; not breaking: new tools, new optional inputs, new output fields, new
// output enum values, new codes for new failures. Seed 000 "Versioning" (REST) — the version is in the path
// (`/v1`); a change that would break client code gets a new version; additive changes (new fields) can occur
// within a version. Both seeds' conventions: clients ignore unknown fields (and, for MCP, unknown enum values
// and codes).
import type { Kind } from "./types.js";

export interface Rule {
  kind: Kind;
  /** One line: what changed. */
  summary: string;
  /** Why it is classified so (who breaks, or why nobody does). */
  why: string;
}

const breaking = (summary: string, why: string): Rule => ({ kind: "breaking", summary, why });
const compatible = (summary: string, why: string): Rule => ({ kind: "compatible", summary, why });
const review = (summary: string, why: string): Rule => ({ kind: "review", summary, why });

export const RULES = {
  // ── Requests: what clients send (MCP tool inputs, REST parameters and bodies). Accepting less breaks. ──
  "request.field-removed": breaking(
    "An input field was removed",
    "Clients still send it: a closed schema refuses the call, an open one silently drops what it meant.",
  ),
  "request.field-renamed": breaking("An input field was renamed", "Clients send the old name (a removal plus an addition)."),
  "request.required-field-added": breaking("A new required input", "Existing calls lack it and are refused."),
  "request.optional-field-added": compatible("A new optional input", "Existing calls stay valid; seed 001: new optional inputs are not breaking."),
  "request.field-made-required": breaking("An optional input became required", "Calls that omitted it are refused."),
  "request.field-made-optional": compatible("A required input became optional", "Every call that was valid still is."),
  "request.type-narrowed": breaking("An input accepts fewer types", "Values of the dropped type are refused (a type narrowed)."),
  "request.null-refused": breaking("An input no longer accepts null", "Clients sending null are refused."),
  "request.type-widened": compatible("An input accepts more types (or null)", "Every value that was valid still is."),
  "request.type-changed": breaking("An input's type was replaced", "Values of the old type are refused."),
  "request.enum-value-removed": breaking("An accepted enum value was removed", "Clients sending it are refused."),
  "request.enum-value-added": compatible("An input accepts a new enum value", "Every value that was valid still is."),
  "request.enum-added": breaking("An input is newly limited to a list of values", "Values outside the list are refused."),
  "request.enum-removed": compatible("An input's value list was lifted", "Every value that was valid still is."),
  "request.limit-tightened": breaking(
    "An input limit tightened (minLength/maxLength/minimum/maximum/minItems/maxItems/… added or narrowed, pattern/format added)",
    "Values that passed the old limit are refused.",
  ),
  "request.limit-loosened": compatible("An input limit loosened or lifted", "Every value that was valid still is."),
  "request.constraint-changed": breaking(
    "An input pattern/format/multipleOf was replaced",
    "Neither set of values contains the other in general; some valid values are refused.",
  ),
  "request.additional-properties-refused": breaking(
    "An input object now refuses (or constrains) fields it does not list",
    "Clients sending extra fields are refused (a new additionalProperties refusal).",
  ),
  "request.additional-properties-allowed": compatible("An input object now accepts unlisted fields", "Every call that was valid still is."),
  "request.variant-removed": breaking("A request alternative (anyOf/oneOf branch) was removed", "Clients sending that shape are refused."),
  "request.variant-added": compatible("A new request alternative (anyOf/oneOf branch)", "Every call that was valid still is."),
  "request.payload-wrapped": breaking(
    "Input fields moved into a new wrapper object",
    "Clients send the fields at the old level; the wrapper is new to them.",
  ),
  "request.default-changed": breaking("An input default changed", "Seed 001: changing a default is breaking; calls omitting the field now behave differently."),
  "request.default-removed": breaking("An input default was removed", "Calls omitting the field lose the documented behaviour."),
  "request.default-added": review(
    "An input default was documented",
    "Breaking if it differs from what omitting the field did before; a person must check.",
  ),

  // ── Responses: what clients read (MCP outputs, REST response bodies and headers). Holding more breaks. ──
  "response.field-removed": breaking(
    "An output field was removed (required or optional)",
    "Readers that use it lose it. oasdiff only warns for optional ones; seed 001 calls removing a field breaking.",
  ),
  "response.field-renamed": breaking("An output field was renamed", "Readers look for the old name."),
  "response.field-added": compatible("A new output field", "Seeds: new fields can appear at any time and clients ignore unknown fields."),
  "response.field-made-optional": breaking(
    "A required output field became optional",
    "Readers that rely on it being present (required → optional) now meet responses without it.",
  ),
  "response.field-made-required": compatible("An optional output field became required", "Readers already handle it present."),
  "response.made-nullable": breaking("An output field can now be null", "Readers that use the value without a null check fail."),
  "response.type-widened": breaking("An output field can hold more types", "Readers handle only the old types."),
  "response.type-narrowed": compatible("An output field holds fewer types (or is no longer null)", "Every value readers can get they already handle."),
  "response.type-changed": breaking("An output field's type was replaced", "Readers handle only the old type."),
  "response.enum-value-removed": breaking(
    "An output enum value was removed",
    "Seed 001: removing an enum value from output is breaking (clients branch on it and wait for it).",
  ),
  "response.enum-value-added": compatible(
    "A new output enum value",
    "Seed 001: new output enum values are not breaking; its conventions (and ours for REST) say clients tolerate unknown values.",
  ),
  "response.enum-added": compatible("An output field is newly limited to a list of values", "Readers get a subset of what they handled."),
  "response.enum-removed": breaking("An output field's value list was lifted", "Readers may now get values never listed."),
  "response.limit-loosened": breaking(
    "An output limit loosened or lifted (e.g. maxLength raised)",
    "Readers sized to the old promise (storage, display, validation with the old schema) meet larger values.",
  ),
  "response.limit-tightened": compatible("An output limit tightened", "Readers get a subset of what they handled."),
  "response.constraint-changed": breaking("An output pattern/format/multipleOf was replaced or dropped", "Readers parsing by the old pattern/format fail."),
  "response.additional-properties-allowed": compatible(
    "An output object may now carry unlisted fields",
    "Conventions: clients ignore fields they do not use.",
  ),
  "response.additional-properties-refused": compatible("An output object no longer carries unlisted fields", "Readers get a subset."),
  "response.variant-added": breaking("A response can take a new shape (anyOf/oneOf branch)", "Readers parse only the shapes they know."),
  "response.variant-removed": breaking(
    "A response shape (anyOf/oneOf branch) was removed",
    "Like removing an output enum value: readers that wait for or branch on it lose it.",
  ),
  "response.payload-wrapped": breaking(
    "Output fields moved into a new wrapper object (payload wrapped in an envelope)",
    "Readers find nothing at the old level. Diff tools that see only an added property plus removed optional ones miss this.",
  ),
  "response.default-changed": breaking("An output default changed", "Seed 001: changing a default is breaking."),
  "response.default-removed": breaking("An output default was removed", "Seed 001: changing a default is breaking."),
  "response.default-added": review("An output default was documented", "A person must check it matches what was returned before."),

  // ── Either direction ──
  "description-changed": review(
    "A description changed",
    "Seed 001: changing what a field or code means is breaking; words cannot be judged by a machine, so a person reviews.",
  ),
  "annotation-changed": review("readOnly/writeOnly/deprecated/discriminator changed", "Affects generated clients and intent; a person reviews."),
  "composition-changed": review("anyOf became oneOf or the reverse", "Validation of overlapping shapes changes; a person reviews."),
  "keyword-changed": review("A schema keyword the gate does not model changed", "Unknown effect; a person reviews."),
  "docs-changed": { kind: "docs", summary: "Examples, titles, summaries or x- annotations changed", why: "Documentation only." },

  // ── REST operations (seed 000) ──
  "rest.operation-removed": breaking("An operation (method + path) was removed", "Clients calling it get 404/405."),
  "rest.operation-added": compatible("A new operation", "Nobody calls it yet."),
  "rest.parameter-removed": breaking("A parameter was removed", "Clients still send it; its meaning is lost or it is refused."),
  "rest.required-parameter-added": breaking("A new required parameter", "Existing calls lack it and are refused."),
  "rest.optional-parameter-added": compatible("A new optional parameter", "Existing calls stay valid."),
  "rest.parameter-made-required": breaking("An optional parameter became required", "Calls that omitted it are refused."),
  "rest.parameter-made-optional": compatible("A required parameter became optional", "Every call that was valid still is."),
  "rest.request-body-removed": breaking("The request body was removed", "Clients still send one."),
  "rest.required-request-body-added": breaking("A required request body was added", "Existing calls send none."),
  "rest.optional-request-body-added": compatible("An optional request body was added", "Existing calls stay valid."),
  "rest.request-body-made-required": breaking("The request body became required", "Calls without one are refused."),
  "rest.request-body-made-optional": compatible("The request body became optional", "Every call that was valid still is."),
  "rest.request-media-type-removed": breaking("A request content type is no longer accepted", "Clients sending it are refused."),
  "rest.request-media-type-added": compatible("A new request content type is accepted", "Every call that was valid still is."),
  "rest.response-status-removed": breaking(
    "A response status code was removed",
    "The failure or outcome that answered it now answers something else (changing which code a failure returns).",
  ),
  "rest.success-status-changed": breaking("The success status code changed", "Clients check the old status."),
  "rest.success-status-added": breaking("An operation can answer a second success status", "Clients expect the old success status and body."),
  "rest.error-status-added": compatible(
    "A new error status for a new failure",
    "New codes for new failures are not breaking (seed 001, applied to REST); clients handle unknown 4xx/5xx generically.",
  ),
  "rest.response-media-type-removed": breaking("A response content type is no longer served", "Clients asking for it get nothing usable."),
  "rest.response-media-type-added": compatible("A new response content type is served", "Clients keep the one they ask for."),
  "rest.response-header-removed": breaking("A response header was removed", "Clients reading it (e.g. Retry-After) lose it."),
  "rest.response-header-made-optional": breaking("A required response header became optional", "Clients relying on it meet responses without it."),
  "rest.response-header-added": compatible("A new response header", "Clients ignore headers they do not use."),
  "rest.error-type-changed": breaking(
    "An error status answers a different error `type`",
    "Changing which error type a failure returns breaks clients that branch on it.",
  ),
  "rest.operation-id-changed": review("An operationId changed", "Generated client method names change; a person reviews."),
  "rest.security-changed": review("Security requirements changed", "May refuse existing tokens; a person reviews."),

  // ── MCP tools and error catalogue (seed 001) ──
  "mcp.tool-removed": breaking("A tool was removed (or renamed)", "Seed 001: removing or renaming a tool is breaking."),
  "mcp.tool-added": compatible("A new tool", "Seed 001: new tools are not breaking."),
  "mcp.tool-error-code-removed": breaking(
    "A tool no longer lists an error code",
    "Seed 001: changing which error code a failure returns is breaking; the failure that answered it answers something else now.",
  ),
  "mcp.tool-error-code-added": compatible(
    "A tool lists a new error code",
    "Seed 001: new codes for new failures are not breaking. If an existing failure moved to it, the removal of the old code shows too.",
  ),
  "mcp.scope-added": breaking("A tool needs an extra scope", "Tokens without it are refused (an input tightened at the auth level)."),
  "mcp.scope-removed": compatible("A tool needs fewer scopes", "Every token that worked still does."),
  "mcp.partner-only-added": breaking("A tool became partner-only", "Other tokens no longer see it: removed for them."),
  "mcp.partner-only-removed": compatible("A partner-only tool opened to every token", "A new tool for the others."),
  "mcp.status-changed": review("A tool's or code's status badge changed", "Preview / in development: a person reviews."),
  "mcp.annotation-changed": review("A tool annotation (readOnlyHint) changed", "Changes what the tool means to hosts; a person reviews."),
  "mcp.error-code-removed": breaking("A code left the error catalogue", "Seed 001: changing which error code a failure returns is breaking."),
  "mcp.error-code-added": compatible("A new code in the error catalogue", "Seed 001: new codes for new failures are not breaking."),
  "mcp.error-retryable-changed": breaking(
    "An error code's retryable flag changed",
    "Clients treat codes by retryable (seed 001 conventions); flipping it changes what the code means.",
  ),
  "mcp.error-field-removed": breaking("An error envelope no longer carries a field for a code", "Readers of that field lose it."),
  "mcp.error-field-added": compatible("An error envelope carries a new field for a code", "New output fields are not breaking."),
  "mcp.error-rule-changed": breaking(
    "How codes are formed or mapped changed (upstream pattern, HTTP status, publish status)",
    "Clients matching codes by the old rule misread failures.",
  ),
  "mcp.error-meaning-changed": review(
    "An error code's meaning or action text changed",
    "Seed 001: changing what a code means is breaking; a person judges the words.",
  ),
  "mcp.error-entry-changed": review("Another catalogue attribute changed", "A person reviews."),
} as const satisfies Record<string, Rule>;

export type RuleId = keyof typeof RULES;

export function ruleOf(id: string): Rule {
  const rule = (RULES as Record<string, Rule>)[id];
  if (!rule) throw new Error(`unknown breaking-change rule ${id}`);
  return rule;
}

/** The catalogue as a Markdown table (CLI `--rules`, the rules table in scripts/breaking/README.md). */
export function rulesTable(): string {
  const rows = Object.entries(RULES as Record<string, Rule>).map(
    ([id, r]) => `| \`${id}\` | ${r.kind} | ${r.summary} | ${r.why} |`,
  );
  return ["| Rule | Class | What | Why |", "| --- | --- | --- | --- |", ...rows].join("\n");
}
