// The mutant catalogue: variants of the REST reference server, each breaking exactly one rule of
// spec/rules/rest.yaml, made by rewriting requests or answers in a proxy (proxy.ts). The conformance suite must
// catch every one with a failing check that names the broken rule.
import { heldoutMutants } from "./heldout.js";
import { rewriteBody, withoutHeader, type Answer, type Exchange, type Mutant } from "./proxy.js";
import { restSkipsMutants, type ScopedMutant } from "./skips.js";
import { at, deleteAt, isFields, listAt, objectsAt, type Fields } from "../../support/json.js";

const pathOnly = (p: string) => p.split("?")[0]!;
const isBatch = (b: unknown) => at(b, "object") === "idea_batch";
const isBrand = (b: unknown) => at(b, "object") === "brand";
const isDone = (b: unknown) => isBatch(b) && at(b, "status") === "done";
const is = (req: Exchange, method: string, re: RegExp) => req.method === method && re.test(pathOnly(req.path));
const brandPath = /^\/v1\/brands\/[^/]+$/;
const batchPath = /^\/v1\/ideas\/[^/]+$/;

/** Rewrites the JSON body of an answer. */
const body = rewriteBody;

/** Replaces a text in every string of a JSON value. */
function replaceText(value: unknown, from: RegExp, to: string): unknown {
  if (typeof value === "string") return value.replace(from, to);
  if (Array.isArray(value)) return value.map((v) => replaceText(v, from, to));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceText(v, from, to)]));
  return value;
}

function erroring(res: Answer, status: number, type: string): Answer {
  return { ...res, status, body: { error: { ...(res.body?.error ?? {}), type } } };
}

/** A 400 invalid_request naming `param`, in place of a success. */
const refused = (res: Answer, param: string): Answer => ({
  ...res,
  status: 400,
  body: { error: { type: "invalid_request", code: "invalid_value", message: `${param} is not accepted.`, param } },
});
const isPost = (req: Exchange, path: string) => is(req, "POST", new RegExp(`^${path}$`));
/** Answers from the ideas of done batches, one idea at a time. */
const eachIdea = (res: Answer, f: (idea: Fields) => void): Answer => (isDone(res.body) ? body(res, (b) => (objectsAt(b, "data").forEach(f), b)) : res);

export const mutants: ScopedMutant[] = [
  {
    id: "wrong-error-type-for-400",
    rule: "error-type-per-status/400",
    description: "400 answers carry type not_found",
    response: (_req, res) => (res.status === 400 ? body(res, (b) => ((b.error.type = "not_found"), b)) : res),
  },
  {
    id: "param-missing-on-400",
    rule: "invalid-field-400/wrong-value",
    description: "400 answers do not name the field (param null)",
    response: (_req, res) => (res.status === 400 ? body(res, (b) => ((b.error.param = null), b)) : res),
  },
  {
    id: "ideas-answer-200-not-202",
    rule: "ideas-accepted-202/status-202",
    description: "POST /v1/ideas answers 200 instead of 202",
    response: (req, res) => (is(req, "POST", /^\/v1\/ideas$/) && res.status === 202 ? { ...res, status: 200 } : res),
  },
  {
    id: "batch-never-leaves-thinking",
    rule: "batch-thinking-to-done/status",
    description: "a batch stays thinking for ever",
    // Only the check that waits for the end: the whole suite waits out every batch (62–88 s alone on a busy host).
    run: { only: ["batch-thinking-to-done"] },
    response: (_req, res) =>
      isBatch(res.body) && res.body.status === "done"
        ? body(res, (b) => ({ ...b, status: "thinking", data: [], left_out: [], error: null, done_at: null }))
        : res,
  },
  {
    id: "ranks-out-of-order",
    rule: "batch-ranks-ordered",
    description: "a done batch lists its ideas worst first",
    response: (_req, res) => (isDone(res.body) ? body(res, (b) => ((b.data = b.data.reverse()), b)) : res),
  },
  {
    id: "done-at-null-when-done",
    rule: "batch-done-at-after-created",
    description: "a done batch has done_at null",
    response: (_req, res) => (isDone(res.body) ? body(res, (b) => ((b.done_at = null), b)) : res),
  },
  {
    id: "cross-team-read-allowed",
    rule: "team-isolation-403/getBrand",
    description: "team B's token reads team A's brands (it is swapped for team A's)",
    request: (req) => (req.token === "test_team_b" && is(req, "GET", brandPath) ? { ...req, token: "test_team_a" } : req),
  },
  {
    id: "count-limit-not-enforced",
    rule: "limit-count/max",
    description: "count above 10 is quietly lowered to 10 instead of refused",
    request: (req) =>
      is(req, "POST", /^\/v1\/ideas$/) && typeof req.body?.count === "number" && req.body.count > 10 ? { ...req, body: { ...req.body, count: 10 } } : req,
  },
  (() => {
    const seenDone = new Set<string>();
    return {
      id: "done-batch-changes-later",
      rule: "batch-terminal-stays",
      description: "a done batch reads as failed from its second look on",
      response: (_req: Exchange, res: Answer) => {
        if (!isDone(res.body)) return res;
        if (!seenDone.has(res.body.id)) {
          seenDone.add(res.body.id);
          return res;
        }
        return body(res, (b) => ({ ...b, status: "failed", data: [], left_out: [], error: "Changed its mind.", done_at: null }));
      },
    } satisfies Mutant;
  })(),
  {
    id: "retry-after-missing",
    rule: "rate-limit-retry-after",
    description: "429 answers come without Retry-After",
    response: withoutHeader(429, "retry-after"),
  },
  {
    id: "401-without-challenge",
    rule: "auth-401-bearer-challenge",
    description: "401 answers come without WWW-Authenticate",
    response: withoutHeader(401, "www-authenticate"),
  },
  {
    id: "id-prefix-wrong",
    rule: "id-prefixes/BrandId",
    description: "brand ids start with brnd_ (requests are mapped back)",
    request: (req) => ({ ...req, path: req.path.split("brnd_").join("brand_"), body: replaceText(req.body, /\bbrnd_/g, "brand_") }),
    response: (_req, res) => (res.body === undefined ? res : body(res, (b) => replaceText(b, /\bbrand_(?=[A-Za-z0-9]+\b)/g, "brnd_"))),
  },
  {
    id: "object-field-wrong",
    rule: "object-field-names-kind/IdeaBatch",
    description: "batches say object: batch instead of idea_batch",
    response: (_req, res) => (isBatch(res.body) ? body(res, (b) => ((b.object = "batch"), b)) : res),
  },
  {
    id: "forbidden-answered-401",
    rule: "team-isolation-403/getIdeaBatch",
    description: "another team's resource answers 401 authentication_error instead of 403",
    response: (_req, res) => (res.status === 403 ? erroring(res, 401, "authentication_error") : res),
  },
  {
    id: "not-found-answered-500",
    rule: "unknown-id-404/batch",
    description: "unknown ids answer 500 server_error instead of 404",
    response: (_req, res) => (res.status === 404 ? erroring(res, 500, "server_error") : res),
  },
  {
    id: "brand-field-missing",
    rule: "brand-fields-complete/country",
    description: "brands lack the required field country",
    response: (_req, res) => (isBrand(res.body) ? body(res, (b) => (delete b.country, b)) : res),
  },
  {
    id: "count-not-respected",
    rule: "batch-count-respected/given",
    description: "a done batch holds one idea more than asked for",
    response: (_req, res) =>
      isDone(res.body) && res.body.data.length
        ? body(res, (b) => {
            const last = b.data[b.data.length - 1];
            b.data.push({ ...last, id: `${last.id}x`, rank: b.data.length + 1 });
            return b;
          })
        : res,
  },
  {
    id: "formats-not-respected",
    rule: "batch-formats-respected",
    description: "every idea is a video, whatever formats were asked for",
    response: (_req, res) => (isDone(res.body) ? body(res, (b) => ((b.data = objectsAt(b, "data").map((i) => ({ ...i, format: "video" }))), b)) : res),
  },
  {
    id: "sources-over-four",
    rule: "idea-sources-limit/max",
    description: "ideas cite five sources",
    response: (_req, res) =>
      isDone(res.body)
        ? body(res, (b) => {
            for (const idea of b.data) while (idea.sources.length < 5) idea.sources.push({ ...idea.sources[0] });
            return b;
          })
        : res,
  },
  {
    id: "brand-never-gets-ready",
    rule: "brand-reading-to-ready/status",
    description: "brands stay reading for ever",
    // Only the check that waits for the end: the whole suite waits out every brand (68 s alone on a busy host).
    run: { only: ["brand-reading-to-ready"] },
    response: (_req, res) =>
      isBrand(res.body) && res.body.status === "ready" ? body(res, (b) => ({ ...b, status: "reading", offerings: [] })) : res,
  },
  {
    id: "patch-merges-lists",
    rule: "brand-patch-lists-replaced/never",
    description: "PATCH of rules.never adds to the list instead of replacing it",
    request: async (req, ctx) => {
      if (!is(req, "PATCH", brandPath) || !Array.isArray(req.body?.rules?.never)) return req;
      const current = await ctx.upstream("GET", req.path, req.token);
      const never = [...(current.body?.rules?.never ?? []), ...req.body.rules.never];
      return { ...req, body: { ...req.body, rules: { ...req.body.rules, never } } };
    },
  },
  (() => {
    const websites = new Map<string, string>();
    const idOf = (req: Exchange) => pathOnly(req.path).split("/").pop()!;
    return {
      id: "patch-website-not-reread",
      rule: "brand-patch-website-rereads",
      description: "PATCH of the website shows the new website but never reads it",
      request: (req: Exchange) => {
        if (!is(req, "PATCH", brandPath) || typeof req.body?.website !== "string") return req;
        websites.set(idOf(req), req.body.website);
        const { website: _w, ...rest } = req.body;
        return { ...req, body: rest };
      },
      response: (req: Exchange, res: Answer) => {
        const website = isBrand(res.body) ? websites.get(res.body.id) : undefined;
        return website ? body(res, (b) => ((b.website = website), b)) : res;
      },
    } satisfies Mutant;
  })(),
  {
    id: "not-ready-code-missing",
    rule: "ideas-brand-not-ready-409/code",
    description: "409 for a brand that is not ready has no code brand_not_ready",
    response: (_req, res) => (res.status === 409 ? body(res, (b) => ((b.error.code = null), b)) : res),
  },
  {
    id: "missing-token-accepted",
    rule: "auth-required-401/createFeedback",
    description: "a request without a token is served as team A",
    request: (req) => (req.token ? req : { ...req, token: "test_team_a" }),
  },
  {
    id: "content-type-not-json",
    rule: "json-content-type",
    description: "answers say Content-Type: text/plain",
    response: (_req, res) => ({ ...res, headers: { ...res.headers, "content-type": "text/plain; charset=utf-8" } }),
  },
  {
    id: "failed-batch-without-error",
    rule: "batch-thinking-to-failed/error",
    description: "a failed batch does not say why (error null)",
    response: (_req, res) => (isBatch(res.body) && res.body.status === "failed" ? body(res, (b) => ((b.error = null), b)) : res),
  },
  {
    id: "model-not-named",
    rule: "batch-model-named",
    description: "batches name no model (empty string)",
    response: (_req, res) => (isBatch(res.body) ? body(res, (b) => ((b.model = ""), b)) : res),
  },
  {
    id: "focus-not-cited",
    rule: "focus-cited-as-source",
    description: "ideas never cite the focus as a source",
    response: (_req, res) =>
      isDone(res.body)
        ? body(res, (b) => {
            for (const idea of objectsAt(b, "data")) {
              const sources = objectsAt(idea, "sources");
              const rest = sources.filter((s) => s.type !== "focus");
              idea.sources = rest.length ? rest : sources.map((s) => ({ ...s, type: "website" }));
            }
            return b;
          })
        : res,
  },
  {
    id: "key-points-over-five",
    rule: "idea-outline-key-points/max",
    description: "outlines hold six key points",
    response: (_req, res) =>
      isDone(res.body)
        ? body(res, (b) => {
            for (const idea of b.data) while (idea.outline.key_points.length < 6) idea.outline.key_points.push("One more point.");
            return b;
          })
        : res,
  },
  {
    id: "predictions-unranked",
    rule: "predictions-rank-drafts",
    description: "predictions list the drafts with ranks reversed",
    response: (req, res) =>
      is(req, "POST", /^\/v1\/predictions$/) && res.status === 200 && res.body?.data?.length > 1
        ? body(res, (b) => ((b.data = objectsAt(b, "data").map((d, i, all) => ({ ...d, rank: all.length - i }))), b))
        : res,
  },
  {
    id: "description-limit-not-enforced",
    rule: "limit-description",
    description: "a description over 2,000 characters is cut instead of refused",
    request: (req) =>
      typeof req.body?.description === "string" && req.body.description.length > 2000 ? { ...req, body: { ...req.body, description: req.body.description.slice(0, 2000) } } : req,
  },
  {
    id: "http-website-accepted",
    rule: "website-https",
    description: "a website starting with http:// is accepted (rewritten to https://)",
    request: (req) =>
      typeof req.body?.website === "string" && req.body.website.startsWith("http://")
        ? { ...req, body: { ...req.body, website: `https://${req.body.website.slice(7)}` } }
        : req,
  },
  {
    id: "date-horizon-not-enforced",
    rule: "limit-date-horizon",
    description: "a real day of any distance is accepted (the date is dropped)",
    request: (req) => {
      if (!is(req, "POST", /^\/v1\/ideas$/) || typeof req.body?.date !== "string") return req;
      const day = req.body.date as string;
      const real = /^\d{4}-\d{2}-\d{2}$/.test(day) && new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day;
      if (!real) return req;
      const { date: _d, ...rest } = req.body;
      return { ...req, body: rest };
    },
  },
  {
    id: "server-error-answered-503",
    rule: "server-error-500",
    description: "a failure on the service side answers 503 instead of 500",
    response: (_req, res) => (res.status === 500 ? { ...res, status: 503 } : res),
  },
  {
    id: "supplied-archetype-given-rationale",
    rule: "brand-archetype-set-rationale-null",
    description: "an archetype the caller set comes back with a rationale once ready",
    response: (_req, res) =>
      isBrand(res.body) && res.body.status === "ready" && res.body.archetype && res.body.archetype.rationale === null
        ? body(res, (b) => ((b.archetype.rationale = "It fits."), b))
        : res,
  },
  {
    id: "patch-changes-other-fields",
    rule: "brand-patch-partial/country",
    description: "PATCH of country also changes the description",
    request: (req) =>
      is(req, "PATCH", brandPath) && typeof req.body?.country === "string" && Object.keys(req.body).length === 1
        ? { ...req, body: { ...req.body, description: "Changed along the way." } }
        : req,
  },
  {
    id: "new-brand-shows-name",
    rule: "brand-create-reading/name",
    description: "a new brand shows a made-up name before its site was read",
    response: (req, res) =>
      is(req, "POST", /^\/v1\/brands$/) && isBrand(res.body) && res.body.name === null ? body(res, (b) => ((b.name = "Unknown"), b)) : res,
  },
  {
    id: "failed-read-stays-reading",
    rule: "brand-reading-to-failed",
    description: "a brand whose site cannot be read stays reading",
    response: (_req, res) => (isBrand(res.body) && res.body.status === "failed" ? body(res, (b) => ((b.status = "reading"), b)) : res),
  },
  {
    id: "new-batch-has-left-out",
    rule: "ideas-accepted-202/left-out-empty",
    description: "a new (thinking) batch already lists left_out entries",
    response: (req, res) =>
      is(req, "POST", /^\/v1\/ideas$/) && isBatch(res.body) && res.body.status === "thinking"
        ? body(res, (b) => ((b.left_out = ["An idea nobody asked for."]), b))
        : res,
  },
  {
    id: "feedback-reason-dropped",
    rule: "feedback-rejection-reason/wrong_language",
    description: "feedback with reason wrong_language is recorded without a reason",
    // The scripted checks that catch it: the walks catch it too and shrink their walk (102 s alone on a busy host).
    run: { only: ["feedback-wrong-language", "feedback-rejection-reasons"] },
    response: (req, res) =>
      is(req, "POST", /^\/v1\/feedback$/) && res.body?.object === "feedback" ? body(res, (b) => ((b.reason = null), b)) : res,
  },
  {
    id: "not-found-param-missing",
    rule: "error-param-names-field/idea",
    description: "404 for an id sent in the body does not name the field",
    response: (req, res) => (res.status === 404 && req.method === "POST" ? body(res, (b) => ((b.error.param = null), b)) : res),
  },
  {
    id: "expired-token-accepted",
    rule: "auth-expired-401/getBrand",
    description: "an expired token is served as team A",
    request: (req) => (req.token === "test_expired" ? { ...req, token: "test_team_a" } : req),
  },
  {
    id: "terminal-brand-flips",
    rule: "brand-terminal-stays",
    description: "a ready brand reads as failed from its second look on",
    ...(() => {
      const looks = new Map<string, number>();
      return {
        response: (req: Exchange, res: Answer) => {
          if (!is(req, "GET", brandPath) || !isBrand(res.body) || res.body.status !== "ready") return res;
          const n = (looks.get(res.body.id) ?? 0) + 1;
          looks.set(res.body.id, n);
          return n >= 2 ? body(res, (b) => ((b.status = "failed"), b)) : res;
        },
      };
    })(),
  },
  (() => {
    const slowed = new Set<string>();
    return {
      id: "slow-answers",
      rule: "answers-within-seconds",
      description: "the first GET of each batch takes longer than the target file allows (0.2 s here)",
      timing: { answer_within_seconds: 0.2 },
      response: async (req: Exchange, res: Answer) => {
        if (is(req, "GET", batchPath) && !slowed.has(req.path)) {
          slowed.add(req.path);
          await new Promise((r) => setTimeout(r, 300));
        }
        return res;
      },
    } satisfies Mutant;
  })(),
  // Families in full (issue 15): each breaks a member other than the first the fixtures use.
  {
    id: "supplied-language-overridden",
    rule: "brand-supplied-values-kept/language",
    description: "a language the caller supplies with a website is dropped (the website's is used)",
    request: (req) => {
      if (!isPost(req, "/v1/brands") || typeof req.body?.website !== "string" || req.body.language === undefined) return req;
      const { language: _l, ...rest } = req.body;
      return { ...req, body: rest };
    },
  },
  {
    id: "archetype-ruler-not-kept",
    rule: "brand-archetype-echoed/ruler",
    description: "a brand created with archetype ruler is made a sage",
    request: (req) => (isPost(req, "/v1/brands") && req.body?.archetype === "ruler" ? { ...req, body: { ...req.body, archetype: "sage" } } : req),
  },
  {
    id: "format-video-refused",
    rule: "formats-accepted/video",
    description: "POST /v1/ideas asking for video alone is refused",
    // Only the check that asks for each format (the whole suite: 22 s alone on a busy host).
    run: { only: ["ideas-each-format-accepted"] },
    response: (req, res) => (isPost(req, "/v1/ideas") && res.status === 202 && JSON.stringify(req.body?.formats) === '["video"]' ? refused(res, "formats") : res),
  },
  {
    id: "count-one-refused",
    rule: "limit-count/min",
    description: "count 1, the lower bound itself, is refused",
    response: (req, res) => (isPost(req, "/v1/ideas") && res.status === 202 && req.body?.count === 1 ? refused(res, "count") : res),
  },
  {
    id: "twenty-drafts-refused",
    rule: "limit-drafts",
    description: "a prediction of 20 drafts, the bound itself, is refused",
    response: (req, res) => (isPost(req, "/v1/predictions") && res.status === 200 && req.body?.drafts?.length === 20 ? refused(res, "drafts") : res),
  },
  {
    id: "past-date-accepted",
    rule: "date-not-in-past",
    description: "a date in the past is accepted (the date is dropped)",
    request: (req) => {
      if (!isPost(req, "/v1/ideas") || typeof req.body?.date !== "string" || Date.parse(req.body.date) >= Date.now() - 86_400_000) return req;
      const { date: _d, ...rest } = req.body;
      return { ...req, body: rest };
    },
  },
  {
    id: "timestamp-date-accepted",
    rule: "date-format",
    description: "a timestamp given as date is cut to its day instead of refused",
    request: (req) => (isPost(req, "/v1/ideas") && typeof req.body?.date === "string" && req.body.date.includes("T") ? { ...req, body: { ...req.body, date: req.body.date.slice(0, 10) } } : req),
  },
  {
    id: "language-region-accepted",
    rule: "input-language-iso-639-1",
    description: "a language tag with a region (en-GB) is cut to its language instead of refused",
    request: (req) => (typeof req.body?.language === "string" && /^[a-z]{2}-[A-Z]{2}$/.test(req.body.language) ? { ...req, body: { ...req.body, language: req.body.language.slice(0, 2) } } : req),
  },
  {
    id: "country-not-iso-accepted",
    rule: "input-country-iso-3166-1/name",
    description: "a country that is not ISO 3166-1 alpha-2 (NOR, Norway, no) is cut to two uppercase letters instead of refused",
    request: (req) =>
      typeof req.body?.country === "string" && !/^[A-Z]{2}$/.test(req.body.country) ? { ...req, body: { ...req.body, country: req.body.country.slice(0, 2).toUpperCase() } } : req,
  },
  {
    id: "saved-feedback-recorded-as-posted",
    rule: "feedback-outcome-recorded/saved",
    description: "feedback with outcome saved is recorded as posted",
    response: (req, res) => (isPost(req, "/v1/feedback") && res.body?.outcome === "saved" ? body(res, (b) => ((b.outcome = "posted"), b)) : res),
  },
  {
    id: "rejection-reason-off-brand-dropped",
    rule: "feedback-rejection-reason/off_brand",
    description: "a rejection with reason off_brand is recorded without a reason",
    response: (req, res) => (isPost(req, "/v1/feedback") && res.body?.reason === "off_brand" ? body(res, (b) => ((b.reason = null), b)) : res),
  },
  {
    id: "patch-language-ignored",
    rule: "brand-patch-partial/language",
    description: "PATCH of language alone changes nothing",
    request: (req) => (is(req, "PATCH", brandPath) && req.body && Object.keys(req.body).join() === "language" ? { ...req, body: {} } : req),
  },
  {
    id: "patch-merges-always",
    rule: "brand-patch-lists-replaced/always",
    description: "PATCH of rules.always adds to the list instead of replacing it",
    request: async (req, ctx) => {
      if (!is(req, "PATCH", brandPath) || !Array.isArray(req.body?.rules?.always)) return req;
      const current = await ctx.upstream("GET", req.path, req.token);
      const always = [...(current.body?.rules?.always ?? []), ...req.body.rules.always];
      return { ...req, body: { ...req.body, rules: { ...req.body.rules, always } } };
    },
  },
  {
    id: "source-url-missing",
    rule: "source-fields-complete/url",
    description: "sources lack url",
    response: (_req, res) => eachIdea(res, (idea) => objectsAt(idea, "sources").forEach((src) => delete src.url)),
  },
  {
    id: "idea-prompt-missing",
    rule: "idea-fields-complete/prompt",
    description: "ideas lack prompt",
    response: (_req, res) => eachIdea(res, (idea) => delete idea.prompt),
  },
  {
    id: "error-message-missing",
    rule: "error-envelope/message",
    description: "error bodies lack message",
    response: (_req, res) => (res.status >= 400 && res.body?.error ? body(res, (b) => (delete b.error.message, b)) : res),
  },
  {
    id: "brand-field-camel-case",
    rule: "snake-case-field-names",
    description: "brands say createdAt instead of created_at",
    response: (_req, res) =>
      isBrand(res.body) ? body(res, (b) => {
        b.createdAt = b.created_at;
        delete b.created_at;
        return b;
      }) : res,
  },
  {
    id: "path-id-param-missing",
    rule: "error-param-path-id",
    description: "a 404 for an id in the path does not name the path parameter",
    response: (req, res) => (res.status === 404 && req.method === "GET" ? body(res, (b) => ((b.error.param = null), b)) : res),
  },
  {
    id: "done-batch-has-error",
    rule: "batch-error-null-unless-failed",
    description: "a done batch carries an error text",
    response: (_req, res) => (isDone(res.body) ? body(res, (b) => ((b.error = "Nothing went wrong."), b)) : res),
  },
  {
    id: "batch-names-other-brand",
    rule: "batch-brand-matches-request",
    description: "a done batch names another brand than the one asked for",
    response: (_req, res) => (isDone(res.body) ? body(res, (b) => ((b.brand = "brand_SomeoneElse1"), b)) : res),
  },
  {
    id: "batch-created-before-brand",
    rule: "batch-created-after-brand",
    description: "batches say they were created in 2001",
    response: (_req, res) => (isBatch(res.body) ? body(res, (b) => ((b.created_at = "2001-01-01T00:00:00.000Z"), b)) : res),
  },
  {
    id: "ready-language-not-iso",
    rule: "brand-language-iso-639-1",
    description: "a ready brand's language is written ENG",
    response: (_req, res) => (isBrand(res.body) && res.body.status === "ready" && res.body.language ? body(res, (b) => ((b.language = "ENG"), b)) : res),
  },
  {
    id: "focus-quote-reworded",
    rule: "focus-quote-exact",
    description: "focus sources quote words the focus does not contain",
    response: (_req, res) => eachIdea(res, (idea) => objectsAt(idea, "sources").forEach((src) => src.type === "focus" && src.quote && (src.quote = `In other words: ${src.quote}`))),
  },
  {
    id: "prediction-ids-lost",
    rule: "predictions-keep-caller-ids",
    description: "ranked drafts lose the caller's ids",
    response: (req, res) => (isPost(req, "/v1/predictions") && res.status === 200 ? body(res, (b) => (objectsAt(b, "data").forEach((d) => (d.id = null)), b)) : res),
  },
  // One mutant per family not proven above.
  {
    id: "done-at-not-a-time",
    rule: "iso-8601-times/done_at",
    description: "a done batch's done_at reads \"yesterday\"",
    response: (_req, res) => (isDone(res.body) ? body(res, (b) => ((b.done_at = "yesterday"), b)) : res),
  },
  {
    id: "prediction-object-wrong",
    rule: "object-field-inferred-kinds/Prediction",
    description: "predictions say object: ranking",
    response: (req, res) => (isPost(req, "/v1/predictions") && res.body?.object === "prediction" ? body(res, (b) => ((b.object = "ranking"), b)) : res),
  },
  {
    id: "brand-website-plain-http",
    rule: "brand-field-types/website",
    description: "a brand's website is shown with http:// instead of https://",
    response: (_req, res) => (isBrand(res.body) && typeof res.body.website === "string" ? body(res, (b) => ((b.website = b.website.replace(/^https:/, "http:")), b)) : res),
  },
  {
    id: "batch-left-out-missing",
    rule: "batch-fields-complete/left_out",
    description: "batches lack left_out",
    response: (_req, res) => (isBatch(res.body) ? body(res, (b) => (delete b.left_out, b)) : res),
  },
  {
    id: "batch-error-a-number",
    rule: "batch-field-types/error",
    description: "a thinking batch's error is 0 instead of null",
    response: (_req, res) => (isBatch(res.body) && res.body.status === "thinking" ? body(res, (b) => ((b.error = 0), b)) : res),
  },
  {
    id: "idea-rank-a-string",
    rule: "idea-field-types/rank",
    description: "ideas give their rank as a string",
    response: (_req, res) => eachIdea(res, (idea) => (idea.rank = String(idea.rank))),
  },
  {
    id: "source-type-unknown",
    rule: "source-field-types/type",
    description: "sources of type product say type: shop",
    response: (_req, res) => eachIdea(res, (idea) => objectsAt(idea, "sources").forEach((src) => src.type === "product" && (src.type = "shop"))),
  },
  {
    id: "outline-visual-missing",
    rule: "outline-fields-complete/visual",
    description: "outlines lack visual",
    response: (_req, res) => eachIdea(res, (idea) => deleteAt(idea, "outline.visual")),
  },
  {
    id: "feedback-comment-missing",
    rule: "feedback-fields-complete/comment",
    description: "feedback records lack comment",
    response: (req, res) => (isPost(req, "/v1/feedback") && res.body?.object === "feedback" ? body(res, (b) => (delete b.comment, b)) : res),
  },
  {
    id: "prediction-model-missing",
    rule: "prediction-fields-complete/model",
    description: "predictions lack model",
    response: (req, res) => (isPost(req, "/v1/predictions") && res.body?.object === "prediction" ? body(res, (b) => (delete b.model, b)) : res),
  },
  {
    id: "ranked-draft-score-over-one",
    rule: "ranked-draft-fields-complete/score",
    description: "ranked drafts score 2 on a 0–1 scale",
    response: (req, res) => (isPost(req, "/v1/predictions") && res.status === 200 ? body(res, (b) => (objectsAt(b, "data").forEach((d) => (d.score = 2)), b)) : res),
  },
  {
    id: "name-and-description-refused",
    rule: "brand-create-website-or-name-description/name_and_description",
    description: "a brand from a name and a description without a website is refused",
    response: (req, res) => (isPost(req, "/v1/brands") && res.status === 201 && req.body?.website === undefined ? refused(res, "website") : res),
  },
  {
    id: "rules-always-over-limit-cut",
    rule: "limit-rules-entries/always",
    description: "rules.always over 20 entries is cut to 20 instead of refused",
    request: (req) =>
      Array.isArray(req.body?.rules?.always) && req.body.rules.always.length > 20
        ? { ...req, body: { ...req.body, rules: { ...req.body.rules, always: req.body.rules.always.slice(0, 20) } } }
        : req,
  },
  {
    id: "unknown-format-dropped",
    rule: "enum-values/formats",
    description: "an unknown format in formats is dropped instead of refused",
    request: (req) =>
      isPost(req, "/v1/ideas") && Array.isArray(req.body?.formats) && req.body.formats.some((f: unknown) => !["image", "carousel", "video", "text"].includes(f as string))
        ? { ...req, body: { ...req.body, formats: ["text"] } }
        : req,
  },
  {
    id: "unknown-draft-format-dropped",
    rule: "inferred-enum-values/draft-format",
    description: "a draft with an unknown format is ranked (the format is dropped) instead of refused",
    request: (req) =>
      isPost(req, "/v1/predictions") && Array.isArray(req.body?.drafts)
        ? { ...req, body: { ...req.body, drafts: listAt(req.body, "drafts").map((d) => (isFields(d) && typeof d.format === "string" && !["image", "carousel", "video", "text"].includes(d.format) ? { text: d.text, id: d.id } : d)) } }
        : req,
  },
  {
    id: "blank-name-accepted",
    rule: "inferred-input-constraints/min-length",
    description: "a blank name is replaced by a made-up one instead of refused",
    request: (req) => (req.method !== "GET" && req.body?.name === "" ? { ...req, body: { ...req.body, name: "Unnamed" } } : req),
  },
  {
    id: "not-found-typed-invalid-request",
    rule: "error-type-per-status/404",
    description: "404 answers carry type invalid_request",
    response: (_req, res) => (res.status === 404 && res.body?.error ? body(res, (b) => ((b.error.type = "invalid_request"), b)) : res),
  },
  {
    id: "ready-brand-no-suggested-archetype",
    rule: "brand-reading-to-ready/archetype",
    description: "a ready brand whose archetype was not supplied gets none",
    response: (_req, res) => (isBrand(res.body) && res.body.status === "ready" && res.body.archetype?.rationale ? body(res, (b) => ((b.archetype = null), b)) : res),
  },
  {
    id: "date-horizon-off-by-one",
    rule: "limit-date-horizon",
    description: "a date 45 days ahead, the horizon itself, is refused",
    response: (req, res) => {
      if (!isPost(req, "/v1/ideas") || res.status !== 202 || typeof req.body?.date !== "string") return res;
      const today = String(res.body?.created_at).slice(0, 10);
      const ahead = Math.round((Date.parse(`${req.body.date}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
      return ahead >= 45 ? refused(res, "date") : res;
    },
  },
  {
    id: "malformed-bearer-accepted",
    rule: "auth-invalid-token-401/getBrand",
    description: "an Authorization value of several words after Bearer is served as team A",
    request: (req) =>
      /^Bearer +\S+ +\S/i.test(req.headers.authorization ?? "") ? { ...req, headers: { ...req.headers, authorization: "Bearer test_team_a" }, token: "test_team_a" } : req,
  },
  // Authentication on the other operations, and against resources that exist (issue 25: one operation, one
  // variant, or only unknown ids let each of these through).
  {
    id: "unknown-token-served-on-patch",
    rule: "auth-invalid-token-401/updateBrand",
    description: "PATCH /v1/brands/{id} with a token the service never issued is served as team A",
    request: (req) => (req.method === "PATCH" && req.token?.startsWith("conformance-not-a-token") ? { ...req, token: "test_team_a" } : req),
  },
  {
    id: "other-scheme-served-on-ideas",
    rule: "auth-invalid-token-401/createIdeas",
    description: "POST /v1/ideas with `Authorization: Token <token>` is served as if it were a bearer token",
    request: (req) => {
      const token = /^Token +(\S+)$/.exec(req.headers.authorization ?? "")?.[1];
      return isPost(req, "/v1/ideas") && token ? { ...req, token } : req;
    },
  },
  {
    id: "empty-bearer-served-on-batch-read",
    rule: "auth-invalid-token-401/getIdeaBatch",
    description: "GET /v1/ideas/{id} with `Authorization: Bearer` and no token is served as team A",
    request: (req) => (is(req, "GET", batchPath) && /^Bearer\s*$/.test(req.headers.authorization ?? "") ? { ...req, token: "test_team_a" } : req),
  },
  {
    id: "no-token-served-when-brand-exists",
    rule: "auth-required-401/getBrand",
    description: "GET /v1/brands/{id} without a token answers the brand when it exists (401 only for ids that name nothing)",
    response: async (req, res, ctx) => {
      if (req.token || !is(req, "GET", brandPath)) return res;
      const served = await ctx.upstream("GET", req.path, "test_team_a");
      return served.status === 200 ? served : res;
    },
  },
  {
    id: "expired-token-served-on-feedback",
    rule: "auth-expired-401/createFeedback",
    description: "POST /v1/feedback with an expired token is served as team A",
    request: (req) => (isPost(req, "/v1/feedback") && req.token === "test_expired" ? { ...req, token: "test_team_a" } : req),
  },
  // Seed verdicts apart from what we inferred (issues 25, 26): each semantic comparison still catches a real break.
  {
    id: "country-alpha-3-accepted",
    rule: "input-country-alpha-2/alpha-3",
    description: "an alpha-3 country (NOR) is read as its first two letters instead of refused (our alpha-2-only design)",
    request: (req) => (typeof req.body?.country === "string" && /^[A-Z]{3}$/.test(req.body.country) ? { ...req, body: { ...req.body, country: req.body.country.slice(0, 2) } } : req),
  },
  {
    id: "feedback-object-member-dropped",
    rule: "object-field-present/Feedback",
    description: "feedback records carry no `object` member at all",
    response: (req, res) => (isPost(req, "/v1/feedback") && res.body?.object === "feedback" ? body(res, (b) => (delete b.object, b)) : res),
  },
  {
    id: "supplied-website-other-site",
    rule: "brand-supplied-values-kept/website",
    description: "a brand shows another site than the one it was made from (not merely the URL normalised)",
    response: (_req, res) => (isBrand(res.body) && typeof res.body.website === "string" ? body(res, (b) => ((b.website = b.website.replace(/^https:\/\/[^/]+/, "https://www.someone-else.example")), b)) : res),
  },
  {
    id: "supplied-country-other-country",
    rule: "brand-supplied-values-kept/country",
    description: "a brand supplied with country AT shows DEU (an ISO 3166-1 code, but of another country)",
    response: (_req, res) => (isBrand(res.body) && res.body.country === "AT" ? body(res, (b) => ((b.country = "DEU"), b)) : res),
  },
  {
    id: "country-shown-alpha-3",
    rule: "inferred-output-forms",
    description: "brands show their country in alpha-3 (AT as AUT): an ISO 3166-1 code, not the contract's alpha-2",
    response: (_req, res) => (isBrand(res.body) && res.body.country === "AT" ? body(res, (b) => ((b.country = "AUT"), b)) : res),
  },
  {
    id: "twenty-never-rules-refused",
    rule: "limit-rules-entries/never",
    description: "a brand with 20 rules.never entries, the bound itself, is refused",
    response: (req, res) => (isPost(req, "/v1/brands") && res.status === 201 && req.body?.rules?.never?.length === 20 ? refused(res, "rules.never") : res),
  },
  (() => {
    const seen = new Set<string>();
    return {
      id: "done-batch-ideas-reworded-later",
      rule: "batch-terminal-unchanged",
      description: "a done batch's first idea has another title from the second look on",
      response: (_req: Exchange, res: Answer) => {
        if (!isDone(res.body) || !res.body.data.length) return res;
        if (!seen.has(res.body.id)) return seen.add(res.body.id), res;
        return body(res, (b) => ((b.data[0].title = `${b.data[0].title} (revised)`), b));
      },
    } satisfies Mutant;
  })(),
  (() => {
    const looks = new Map<string, number>();
    return {
      id: "ready-brand-offerings-drift",
      rule: "brand-ready-unchanged",
      description: "a ready brand's offerings change on their own from the second look on",
      response: (req: Exchange, res: Answer) => {
        if (!is(req, "GET", brandPath) || !isBrand(res.body) || res.body.status !== "ready") return res;
        const n = (looks.get(res.body.id) ?? 0) + 1;
        looks.set(res.body.id, n);
        return n >= 2 ? body(res, (b) => ((b.offerings = [...b.offerings, "Something new"]), b)) : res;
      },
    } satisfies Mutant;
  })(),
  {
    id: "wrong-language-refused",
    rule: "feedback-wrong-language",
    description: "a rejection with the reason wrong_language is refused (400 naming reason)",
    response: (req, res) => (isPost(req, "/v1/feedback") && res.status === 201 && req.body?.reason === "wrong_language" ? refused(res, "reason") : res),
  },
  // Issue 25, the REST side of each pattern. Every reply is judged wherever it appears: a field wrong only in a
  // nested resource of a read no check looked at closely, or in an idea after the first of a later read.
  {
    id: "reread-failed-archetype-capitalised",
    rule: "brand-field-types/archetype",
    description: "a brand whose new website could not be read (failed, having had an archetype) shows archetype.value capitalised (Sage)",
    response: (_req, res) =>
      isBrand(res.body) && res.body.status === "failed" && typeof res.body.archetype?.value === "string"
        ? body(res, (b) => ((b.archetype.value = b.archetype.value[0].toUpperCase() + b.archetype.value.slice(1)), b))
        : res,
  },
  (() => {
    const focused = new Set<string>();
    const doneReads = new Map<string, number>();
    return {
      id: "later-read-source-quote-number",
      rule: "source-field-types/quote",
      description: "a batch asked with a focus, from its third read once done: the sources of every idea after the first quote a number",
      response: (req: Exchange, res: Answer) => {
        if (isPost(req, "/v1/ideas") && typeof req.body?.focus === "string" && isBatch(res.body)) focused.add(res.body.id);
        if (!is(req, "GET", batchPath) || !isDone(res.body) || !focused.has(res.body.id)) return res;
        const n = (doneReads.get(res.body.id) ?? 0) + 1;
        doneReads.set(res.body.id, n);
        return n >= 3 ? body(res, (b) => (objectsAt(b, "data").slice(1).forEach((idea) => objectsAt(idea, "sources").forEach((s) => (s.quote = 42))), b)) : res;
      },
    } satisfies Mutant;
  })(),
  // Strict formats: ISO 8601 by its own terms, not by what Date.parse or a lenient pattern takes.
  {
    id: "done-at-basic-offset",
    rule: "iso-8601-times/done_at",
    description: "done batches write done_at with a basic-format zone after an extended time (…T10:00:00+0000), which is not ISO 8601",
    response: (_req, res) => (isDone(res.body) && typeof res.body.done_at === "string" ? body(res, (b) => ((b.done_at = b.done_at.replace(/(\.\d+)?Z$/, "+0000")), b)) : res),
  },
  // The accepting edge on update only, and a wrong type accepted on one operation only.
  {
    id: "patch-description-at-limit-refused",
    rule: "limit-description",
    description: "PATCH with a description of 2,000 characters, the bound itself, is refused (create takes it)",
    response: (req, res) => (is(req, "PATCH", brandPath) && res.status === 200 && req.body?.description?.length === 2000 ? refused(res, "description") : res),
  },
  {
    id: "ideas-count-boolean-accepted",
    rule: "count-whole-number",
    description: "POST /v1/ideas takes count true as 1 (JavaScript's coercion) instead of refusing it",
    request: (req) => (isPost(req, "/v1/ideas") && typeof req.body?.count === "boolean" ? { ...req, body: { ...req.body, count: Number(req.body.count) } } : req),
  },
  // A constraint checked on create only (issue 25's audit): PATCH takes any subset of the create fields.
  {
    id: "patch-country-name-accepted",
    rule: "input-country-iso-3166-1/name",
    description: "PATCH takes a country name (Norway) as its first two letters, uppercased; create still refuses it",
    request: (req) =>
      is(req, "PATCH", brandPath) && typeof req.body?.country === "string" && req.body.country.length > 3 ? { ...req, body: { ...req.body, country: req.body.country.slice(0, 2).toUpperCase() } } : req,
  },
  // A held-out audit's statements (issue 25), kept so its figure stays true.
  ...heldoutMutants,
  // Answers that once made checks skip (issue 25, "a skip is a verdict").
  ...restSkipsMutants,
];




/**
 * Mutants only a stateful walk can kill (test/walks-mutants.test.ts): each breaks a rule on a path no scripted
 * check follows — an effect on another view, a fact a later read forgets, a terminal state that does not stick,
 * a list that keeps what was removed. Made afresh for each run (each keeps what it saw of the run's brands).
 */
export function walkOnlyMutants(): Mutant[] {
  const idOf = (req: Exchange) => pathOnly(req.path).split("/").pop()!;
  const withIdeas = new Set<string>();
  const createdAlways = new Map<string, string[]>();
  const quietPatches = new Map<string, number>();
  const unsettled = new Set<string>();
  // GET or PATCH of an unsettled brand shows it reading while it is ready.
  const unsettledView = (res: Answer): Answer =>
    isBrand(res.body) && unsettled.has(res.body.id as string) && res.body.status === "ready" ? body(res, (b) => ((b.status = "reading"), b)) : res;
  const neverPatches = new Map<string, number>();
  return [
    {
      id: "walk-ideas-empty-brand-offerings",
      rule: "brand-terminal-stays",
      description: "once ideas are asked for a brand, GET of the brand shows its offerings emptied (an effect on another view)",
      response: (req, res) => {
        if (isPost(req, "/v1/ideas") && res.status === 202 && typeof res.body?.brand === "string") withIdeas.add(res.body.brand);
        if (is(req, "GET", brandPath) && isBrand(res.body) && withIdeas.has(res.body.id)) return body(res, (b) => ((b.offerings = []), b));
        return res;
      },
    },
    {
      id: "walk-patch-forgets-rules-always",
      rule: "brand-patch-lists-replaced/always",
      description: "a PATCH without rules puts rules.always back as the brand was created (a fact a later read forgets)",
      request: (req) => {
        if (!is(req, "PATCH", brandPath) || !req.body || typeof req.body !== "object" || "rules" in req.body) return req;
        const created = createdAlways.get(idOf(req));
        return created ? { ...req, body: { ...req.body, rules: { always: created } } } : req;
      },
      response: (req, res) => {
        if (isPost(req, "/v1/brands") && res.status === 201 && isBrand(res.body)) createdAlways.set(res.body.id, [...(req.body?.rules?.always ?? [])]);
        return res;
      },
    },
    {
      id: "walk-second-patch-unsettles-brand",
      rule: "brand-terminal-stays",
      description: "from the second PATCH without a new website that finds a brand ready, it shows reading (a terminal state that does not stick)",
      response: (req, res) => {
        if (!isBrand(res.body) || !is(req, "PATCH", brandPath) || res.status !== 200) return unsettledView(res);
        const id = res.body.id as string;
        // Only PATCHes that find the brand ready count, and a new website starts the count again: what the mutant
        // does follows from the walk's steps (a wait, then two PATCHes), not from how fast a read ended.
        if ("website" in (req.body ?? {})) quietPatches.delete(id);
        else if (res.body.status === "ready") {
          const n = (quietPatches.get(id) ?? 0) + 1;
          quietPatches.set(id, n);
          if (n >= 2) unsettled.add(id);
        }
        return unsettledView(res);
      },
    },
    {
      id: "walk-second-never-patch-merges",
      rule: "brand-patch-lists-replaced/never",
      description: "from the second PATCH of rules.never on, the list sent is added to the old one instead of replacing it (a list that keeps what was removed)",
      request: async (req, ctx) => {
        if (!is(req, "PATCH", brandPath) || !Array.isArray(req.body?.rules?.never)) return req;
        const n = (neverPatches.get(idOf(req)) ?? 0) + 1;
        neverPatches.set(idOf(req), n);
        if (n < 2) return req;
        const current = await ctx.upstream("GET", req.path, req.token);
        const never = [...(current.body?.rules?.never ?? []), ...req.body.rules.never];
        return { ...req, body: { ...req.body, rules: { ...req.body.rules, never } } };
      },
    },
  ];
}
