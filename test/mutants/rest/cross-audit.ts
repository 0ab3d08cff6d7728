// The held-out audit of seed 000's cross-operation statements (conformance/core/walks/AUDIT.md): one mutant per sampled
// statement, each breaking that statement alone, the way a real service could (one call's effect on what another
// call, or a later repeat, shows). test/cross-audit.test.ts runs each against the whole REST suite (scripted checks
// and the default walks, as `npm run conformance` does) and requires a failure naming one of `rules`. Each call
// makes fresh instances: a mutant keeps what it saw of the run's brands, batches and ideas.
import type { RuleId } from "../../../generated/rules.js";
import { rewriteBody, type Answer, type Exchange, type Mutant } from "./proxy.js";
import { at } from "../../support/json.js";

export interface AuditMutant extends Mutant {
  /** The audit's number for the statement (AUDIT.md) and the seed's words, with their section. */
  statement: string;
  /** The rules a failure may name to count as enforcing the statement (`rule` is the first). */
  rules: string[];
}

const pathOnly = (p: string) => p.split("?")[0]!;
const is = (req: Exchange, method: string, re: RegExp) => req.method === method && re.test(pathOnly(req.path));
const brandPath = /^\/v1\/brands\/[^/]+$/;
const batchPath = /^\/v1\/ideas\/[^/]+$/;
const idOf = (req: Exchange) => pathOnly(req.path).split("/").pop()!;
const isBrand = (b: unknown) => at(b, "object") === "brand";
const isBatch = (b: unknown) => at(b, "object") === "idea_batch";
const ok = (res: Answer) => res.status >= 200 && res.status < 300;
/** The answer with its body changed in place on a copy by `f`. */
const body = (res: Answer, f: Parameters<typeof rewriteBody>[1]): Answer => rewriteBody(res, (b) => (f(b), b));
/** The reference's team token (conformance/targets/reference.yaml): another team's calls carry another. */
const team = "test_team_a";

const audit = (statement: string, rules: RuleId[], m: Omit<Mutant, "rule">): AuditMutant => ({ ...m, rule: rules[0]!, rules, statement });

export function restCrossAuditMutants(): AuditMutant[] {
  const sites = new Map<string, unknown>();
  const oldSite = new Map<string, unknown>();
  const batchIds = new Map<string, number>();
  const patched = new Set<string>();
  const archetypePatched = new Set<string>();
  const ideaBrand = new Map<string, string>();
  const fedBack = new Set<string>();
  const brands: string[] = [];
  const failedBrands = new Set<string>();
  const withoutSite = new Set<string>();
  const countryCleared = new Set<string>();
  const laterRanks = new Set<string>();
  const touchedByOther = new Set<string>();
  const doneReads = new Map<string, number>();
  const alwaysSent = new Map<string, string[]>();
  return [
    audit("R1 · What the service does: the service reads the website again when `website` is changed in an update", ["brand-patch-website-kept"], {
      id: "audit-rest-patched-website-not-shown",
      description: "after a PATCH with a new website, GET of the brand shows the website it had before",
      response: (req, res) => {
        if (is(req, "POST", /^\/v1\/brands$/) && ok(res) && isBrand(res.body)) sites.set(res.body.id, res.body.website);
        if (is(req, "PATCH", brandPath) && ok(res) && typeof req.body?.website === "string" && !oldSite.has(idOf(req))) oldSite.set(idOf(req), sites.get(idOf(req)));
        if (is(req, "GET", brandPath) && ok(res) && isBrand(res.body) && oldSite.has(res.body.id)) return body(res, (b) => (b.website = oldSite.get(b.id)));
        return res;
      },
    }),
    audit("R2 · What the service does: the ideas arrive in the same batch later", ["batch-readable-after-create", "batch-terminal-stays"], {
      id: "audit-rest-done-batch-other-id",
      description: "once a batch is done, GET of it answers with another batch id",
      response: (req, res) => {
        if (!is(req, "GET", batchPath) || !ok(res) || !isBatch(res.body) || res.body.status !== "done") return res;
        return body(res, (b) => (b.id = `${b.id}_done`));
      },
    }),
    audit("R3 · Brand object: ideas can be requested once `ready`", ["ideas-accepted-202"], {
      id: "audit-rest-patched-brand-refuses-ideas",
      description: "after any PATCH without a new website, POST /v1/ideas for the (ready) brand answers 409 brand_not_ready",
      response: (req, res) => {
        if (is(req, "PATCH", brandPath) && ok(res) && !("website" in (req.body ?? {}))) patched.add(idOf(req));
        if (is(req, "PATCH", brandPath) && "website" in (req.body ?? {})) patched.delete(idOf(req));
        if (is(req, "POST", /^\/v1\/ideas$/) && res.status === 202 && patched.has(String(req.body?.brand)))
          return { ...res, status: 409, body: { error: { type: "invalid_request", code: "brand_not_ready", message: "The brand is not ready.", param: "brand" } } };
        return res;
      },
    }),
    audit("R4 · Brand object: archetype `rationale` is `null` when the caller set the archetype", ["brand-archetype-set-rationale-null", "brand-patch-partial/archetype"], {
      id: "audit-rest-patched-archetype-keeps-rationale",
      description: "after a PATCH of archetype, GET of the brand shows a rationale",
      response: (req, res) => {
        if (is(req, "PATCH", brandPath) && ok(res) && typeof req.body?.archetype === "string") archetypePatched.add(idOf(req));
        if (is(req, "GET", brandPath) && ok(res) && isBrand(res.body) && archetypePatched.has(res.body.id) && res.body.archetype)
          return body(res, (b) => (b.archetype.rationale = "Read from the website."));
        return res;
      },
    }),
    audit("R5 · Brand object: rules are never overridden by what is learned from feedback", ["brand-supplied-values-kept/rules", "brand-patch-lists-replaced/never", "brand-patch-lists-replaced/always", "brand-patch-partial/rules"], {
      id: "audit-rest-feedback-adds-never-rule",
      description: "after feedback on one of its ideas, GET of the brand shows a rules.never entry learned from it",
      response: (req, res) => {
        if (is(req, "GET", batchPath) && ok(res) && isBatch(res.body)) for (const idea of res.body.data ?? []) ideaBrand.set(idea.id, res.body.brand);
        if (is(req, "POST", /^\/v1\/feedback$/) && ok(res) && ideaBrand.has(String(req.body?.idea))) fedBack.add(ideaBrand.get(String(req.body.idea))!);
        if (is(req, "GET", brandPath) && ok(res) && isBrand(res.body) && fedBack.has(res.body.id))
          return body(res, (b) => (b.rules = { ...b.rules, never: [...(b.rules?.never ?? []), "Learned: avoid puns."] }));
        return res;
      },
    }),
    audit("R6 · Idea batch object: `brand` is the brand id the ideas are for", ["batch-brand-matches-request", "batch-terminal-stays"], {
      id: "audit-rest-done-batch-names-other-brand",
      description: "once a batch is done, GET of it names the team's first brand when another brand asked",
      response: (req, res) => {
        if (is(req, "POST", /^\/v1\/brands$/) && ok(res) && isBrand(res.body) && req.token === team) brands.push(res.body.id);
        if (!is(req, "GET", batchPath) || !ok(res) || !isBatch(res.body) || res.body.status !== "done") return res;
        const other = brands.find((b) => b !== res.body.brand);
        return other ? body(res, (b) => (b.brand = other)) : res;
      },
    }),
    audit("R7 · Brand status: created with `name`, `language`, `description`, `archetype` null and `offerings` empty unless supplied", ["brand-supplied-values-kept/description", "brand-create-reading/description"], {
      id: "audit-rest-reading-forgets-description",
      description: "GET of a brand still reading shows description null although one was supplied",
      response: (req, res) => {
        if (is(req, "GET", brandPath) && ok(res) && isBrand(res.body) && res.body.status === "reading" && typeof res.body.description === "string")
          return body(res, (b) => (b.description = null));
        return res;
      },
    }),
    audit("R8 · Brand status: reading → ready, name, language, description, offerings … are filled", ["brand-reading-to-ready/language"], {
      id: "audit-rest-ready-language-null",
      description: "GET of a ready brand shows language null",
      response: (req, res) => (is(req, "GET", brandPath) && ok(res) && isBrand(res.body) && res.body.status === "ready" ? body(res, (b) => (b.language = null)) : res),
    }),
    audit("R9 · Brand status: when reading fails, the caller creates the brand again with `name` and `description`", ["brand-create-website-or-name-description/name_and_description", "brand-reading-to-ready/status"], {
      id: "audit-rest-brand-without-website-fails",
      description: "a brand created from a name and a description without a website shows failed when read",
      response: (req, res) => {
        if (is(req, "POST", /^\/v1\/brands$/) && ok(res) && isBrand(res.body) && res.body.website === null) withoutSite.add(res.body.id);
        if (is(req, "GET", brandPath) && ok(res) && isBrand(res.body) && withoutSite.has(res.body.id) && res.body.status === "ready") return body(res, (b) => (b.status = "failed"));
        return res;
      },
    }),
    audit("R10 · Batch status: thinking → done, `data` filled best first, `done_at` set", ["batch-thinking-to-done/data", "batch-only-done-has-ideas"], {
      id: "audit-rest-done-batch-empty",
      description: "GET of a done batch shows data empty",
      response: (req, res) => (is(req, "GET", batchPath) && ok(res) && isBatch(res.body) && res.body.status === "done" ? body(res, (b) => (b.data = [])) : res),
    }),
    audit("R11 · Batch status: thinking → failed, `error` says why", ["batch-thinking-to-failed/error"], {
      id: "audit-rest-failed-batch-no-error",
      description: "GET of a failed batch shows error null",
      response: (req, res) => (is(req, "GET", batchPath) && ok(res) && isBatch(res.body) && res.body.status === "failed" ? body(res, (b) => (b.error = null)) : res),
    }),
    audit("R12 · PATCH /v1/brands/{brand_id}: only the fields sent change", ["brand-patch-partial/country", "brand-patch-partial/name", "brand-patch-partial/description", "brand-patch-partial/language", "brand-patch-partial/archetype", "brand-patch-partial/rules", "brand-terminal-stays", "brand-supplied-values-kept/country"], {
      id: "audit-rest-patch-clears-country",
      description: "after a PATCH that does not send country, GET of the brand shows country null",
      response: (req, res) => {
        if (is(req, "PATCH", brandPath) && ok(res) && !("country" in (req.body ?? {}))) countryCleared.add(idOf(req));
        if (is(req, "GET", brandPath) && ok(res) && isBrand(res.body) && countryCleared.has(res.body.id)) return body(res, (b) => (b.country = null));
        return res;
      },
    }),
    audit("R13 · PATCH /v1/brands/{brand_id}: lists (such as `rules.never`) are replaced, not merged", ["brand-patch-lists-replaced/always"], {
      id: "audit-rest-always-merged",
      description: "a PATCH of rules.always adds the list sent to the one sent last, instead of replacing it",
      request: (req) => {
        if (!is(req, "PATCH", brandPath) || !Array.isArray(req.body?.rules?.always)) return req;
        const before = alwaysSent.get(idOf(req));
        alwaysSent.set(idOf(req), req.body.rules.always);
        if (!before) return req;
        const merged = [...new Set([...before, ...req.body.rules.always])].slice(0, 20);
        return { ...req, body: { ...req.body, rules: { ...req.body.rules, always: merged } } };
      },
    }),
    audit("R14 · POST /v1/ideas: `brand` must be a brand whose `status` is `ready` (409 `brand_not_ready` otherwise)", ["ideas-failed-brand-409"], {
      id: "audit-rest-failed-brand-ideas-accepted",
      description: "POST /v1/ideas for a brand whose read failed answers 202 with a thinking batch",
      response: (req, res) => {
        if (is(req, "GET", brandPath) && ok(res) && isBrand(res.body) && res.body.status === "failed") failedBrands.add(res.body.id);
        if (!is(req, "POST", /^\/v1\/ideas$/) || res.status !== 409 || !failedBrands.has(String(req.body?.brand))) return res;
        return accepted(res, String(req.body?.brand));
      },
    }),
    audit("R15 · POST /v1/feedback: ideas are referenced by their id", ["feedback-recorded", "create-feedback-201"], {
      id: "audit-rest-feedback-later-ideas-unknown",
      description: "feedback on an idea ranked 2 or lower answers 404 not_found",
      response: (req, res) => {
        if (is(req, "GET", batchPath) && ok(res) && isBatch(res.body)) for (const idea of res.body.data ?? []) if (idea.rank >= 2) laterRanks.add(idea.id);
        if (is(req, "POST", /^\/v1\/feedback$/) && ok(res) && laterRanks.has(String(req.body?.idea)))
          return { ...res, status: 404, body: { error: { type: "not_found", code: null, message: "No idea with that id.", param: "idea" } } };
        return res;
      },
    }),
    audit("R16 · Authentication 4: credentials reach every brand that team creates", ["team-reaches-own-brands", "team-isolation-403/get", "team-isolation-403/patch"], {
      id: "audit-rest-other-team-locks-owner",
      description: "once another team has tried a brand, the owning team's GET of it answers 403",
      response: (req, res) => {
        if (is(req, "GET", brandPath) || is(req, "PATCH", brandPath)) {
          if (req.token && req.token !== team && res.status === 403) touchedByOther.add(idOf(req));
          else if (req.token === team && is(req, "GET", brandPath) && touchedByOther.has(idOf(req)))
            return { ...res, status: 403, body: { error: { type: "permission_error", code: null, message: "Not your brand.", param: null } } };
        }
        return res;
      },
    }),
    audit("R17 · Authentication 4: … and no others; reaching another team's brand gives `403`", ["team-isolation-403/patch", "team-isolation-403"], {
      id: "audit-rest-other-team-patch-404",
      description: "another team's PATCH of a brand answers 404 not_found instead of 403",
      response: (req, res) =>
        is(req, "PATCH", brandPath) && req.token !== team && res.status === 403
          ? { ...res, status: 404, body: { error: { type: "not_found", code: null, message: "No brand with that id.", param: null } } }
          : res,
    }),
    audit("R18 · Errors: 404 means no brand, batch or idea with that id (a batch made stays there)", ["batch-terminal-stays", "get-batch-200", "batch-readable-after-create"], {
      id: "audit-rest-done-batch-forgotten",
      description: "a done batch read twice answers 404 from then on",
      response: (req, res) => {
        if (!is(req, "GET", batchPath) || !ok(res) || !isBatch(res.body) || res.body.status !== "done") return res;
        const n = (doneReads.get(res.body.id) ?? 0) + 1;
        doneReads.set(res.body.id, n);
        return n > 2 ? { ...res, status: 404, body: { error: { type: "not_found", code: null, message: "No batch with that id.", param: null } } } : res;
      },
    }),
  ];

  function accepted(res: Answer, brand: string): Answer {
    const now = new Date().toISOString();
    const id = `batch_audit${batchIds.size}`;
    batchIds.set(id, 1);
    return { ...res, status: 202, body: { id, object: "idea_batch", status: "thinking", model: "audit", brand, data: [], left_out: [], error: null, created_at: now, done_at: null } };
  }
}
