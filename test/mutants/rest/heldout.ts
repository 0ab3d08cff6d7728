// A held-out audit of seed 000 (issue 25): statements sampled by line before looking at coverage (every 7th line
// from line 31, or the next line that states something testable), each broken once in the reference by a proxy.
// The suite must fail each with a rule that names the statement. Kept as mutants so the figure stays true.
import { rewriteBody, type Answer, type Exchange, type Mutant } from "./proxy.js";
import { at, isFields, objectsAt, type Fields } from "../../support/json.js";

const pathOnly = (p: string) => p.split("?")[0]!;
const is = (req: Exchange, method: string, re: RegExp) => req.method === method && re.test(pathOnly(req.path));
const isBatch = (b: unknown) => at(b, "object") === "idea_batch";
const isBrand = (b: unknown) => at(b, "object") === "brand";
const body = rewriteBody;
/** Rewrites every done batch's ideas (in any answer that carries them). */
const ideas = (res: Answer, f: (idea: Fields, i: number) => void): Answer =>
  isBatch(res.body) && res.body.status === "done" && Array.isArray(res.body.data) && res.body.data.length ? body(res, (b) => (objectsAt(b, "data").forEach(f), b)) : res;
const refuse = (res: Answer, param: string): Answer => ({ ...res, status: 400, body: { error: { type: "invalid_request", code: "invalid_value", message: `${param} is refused.`, param } } });

export const heldoutMutants: Mutant[] = [
  {
    // L31: "Every object has an `object` field naming its kind."
    id: "heldout-idea-object-missing",
    rule: "object-field-names-kind/Idea",
    description: "ideas inside a done batch carry no object member",
    response: (_req, res) => ideas(res, (idea) => delete idea.object),
  },
  {
    // L37: "One of twelve values".
    id: "heldout-archetype-outside-twelve",
    rule: "brand-field-types/archetype",
    description: "a ready brand read by GET shows the archetype value 'hero-ish'",
    response: (req, res) =>
      is(req, "GET", /^\/v1\/brands\/[^/]+$/) && isBrand(res.body) && res.body.archetype ? body(res, (b) => ((b.archetype.value = "hero-ish"), b)) : res,
  },
  {
    // L45: "`explorer` | Curious, free, looks for what is new".
    id: "heldout-explorer-refused",
    rule: "brand-archetype-echoed/explorer",
    description: "POST /v1/brands refuses the archetype explorer",
    response: (req, res) => (is(req, "POST", /^\/v1\/brands$/) && req.body?.archetype === "explorer" ? refuse(res, "archetype") : res),
  },
  {
    // L52: "`sage` | Wise, explains" — on the update side.
    id: "heldout-sage-refused-on-patch",
    rule: "brand-patch-partial/archetype",
    description: "PATCH /v1/brands refuses the archetype sage",
    response: (req, res) => (is(req, "PATCH", /^\/v1\/brands\/[^/]+$/) && req.body?.archetype === "sage" ? refuse(res, "archetype") : res),
  },
  {
    // L59: "`object` | string | yes | Always `brand`".
    id: "heldout-brand-object-capitalised-on-create",
    rule: "object-field-names-kind/Brand",
    description: "POST /v1/brands answers object 'Brand'",
    response: (req, res) => (is(req, "POST", /^\/v1\/brands$/) && isBrand(res.body) ? body(res, (b) => ((b.object = "Brand"), b)) : res),
  },
  {
    // L66: "`offerings` | string[] | yes | ... empty list while reading".
    id: "heldout-offerings-null-while-reading",
    rule: "brand-field-types/offerings",
    description: "a brand read while reading shows offerings null",
    response: (req, res) => (is(req, "GET", /^\/v1\/brands\/[^/]+$/) && isBrand(res.body) && res.body.status === "reading" ? body(res, (b) => ((b.offerings = null), b)) : res),
  },
  {
    // L80: "`data` | idea[] | yes | Ideas, best first. Empty until `done`".
    id: "heldout-data-before-done",
    rule: "batch-only-done-has-ideas",
    description: "a thinking batch read by GET shows one idea in data",
    response: async (req, res, ctx) => {
      if (!(is(req, "GET", /^\/v1\/ideas\/[^/]+$/) && isBatch(res.body) && res.body.status === "thinking")) return res;
      return body(res, (b) => ((b.data = [{ id: "idea_placeholder0", object: "idea", title: "Soon" }]), b));
    },
  },
  {
    // L88: "`id` | string | yes | Starts with `idea_`".
    id: "heldout-idea-id-dash-on-get",
    rule: "id-prefixes/IdeaId",
    description: "ideas read by GET have ids idea-… (a dash)",
    response: (req, res) => (is(req, "GET", /^\/v1\/ideas\/[^/]+$/) ? ideas(res, (idea) => (idea.id = String(idea.id).replace(/^idea_/, "idea-"))) : res),
  },
  {
    // L94: "`hook` | string | yes | Opening line".
    id: "heldout-last-hook-null",
    rule: "idea-field-types/hook",
    description: "the last idea of a done batch has hook null",
    response: (_req, res) => ideas(res, (idea, i) => void (i === res.body.data.length - 1 && (idea.hook = null))),
  },
  {
    // L102: "`outline` ... `key_points` (string[], one to five)".
    id: "heldout-six-key-points",
    rule: "idea-outline-key-points/max",
    description: "the first idea's outline has six key points",
    response: (_req, res) => ideas(res, (idea, i) => void (i === 0 && isFields(idea.outline) && (idea.outline.key_points = ["a", "b", "c", "d", "e", "f"]))),
  },
  {
    // L108: "`url` | string or null | Where to see it when it is a page".
    id: "heldout-source-url-number",
    rule: "source-field-types/url",
    description: "a source's url is a number",
    response: (_req, res) => ideas(res, (idea) => void (Array.isArray(idea.sources) && idea.sources[0] && (idea.sources[0].url = 404))),
  },
  {
    // L115: "the feedback rejection reason `wrong_language`".
    id: "heldout-wrong-language-refused",
    rule: "feedback-wrong-language",
    description: "POST /v1/feedback refuses the reason wrong_language",
    response: (req, res) => (is(req, "POST", /^\/v1\/feedback$/) && req.body?.reason === "wrong_language" ? refuse(res, "reason") : res),
  },
  {
    // L123: "(none) | POST /v1/brands | ... Returned at once with name, language, description, archetype null".
    id: "heldout-create-language-guessed",
    rule: "brand-create-reading/language",
    description: "POST /v1/brands with only a website answers language en at once",
    response: (req, res) =>
      is(req, "POST", /^\/v1\/brands$/) && isBrand(res.body) && req.body?.language === undefined && res.body.status === "reading" ? body(res, (b) => ((b.language = "en"), b)) : res,
  },
  {
    // L136: "`thinking` | Work fails | Any failure | `failed` | `error` says why".
    id: "heldout-failed-error-null",
    rule: "batch-thinking-to-failed/error",
    description: "a failed batch has error null",
    response: (_req, res) => (isBatch(res.body) && res.body.status === "failed" ? body(res, (b) => ((b.error = null), b)) : res),
  },
  {
    // L150: "`website` ... Starts with `https://`".
    id: "heldout-http-website-accepted",
    rule: "website-https",
    description: "POST /v1/brands accepts an http:// website (sent on as https)",
    request: (req) =>
      is(req, "POST", /^\/v1\/brands$/) && typeof req.body?.website === "string" && req.body.website.startsWith("http://")
        ? { ...req, body: { ...req.body, website: req.body.website.replace(/^http:/, "https:") } }
        : req,
  },
  {
    // L166: "Only the fields sent change."
    id: "heldout-patch-name-clears-description",
    rule: "brand-patch-partial/name",
    description: "a PATCH of name alone sets description to null too",
    request: (req) =>
      is(req, "PATCH", /^\/v1\/brands\/[^/]+$/) && req.body && Object.keys(req.body).join() === "name" ? { ...req, body: { ...req.body, description: null } } : req,
  },
  {
    // L178: "`date` ... up to 45 days ahead".
    id: "heldout-date-46-days-accepted",
    rule: "limit-date-horizon",
    description: "POST /v1/ideas accepts a date 46 days ahead (sent on as today)",
    request: (req) => {
      if (!(is(req, "POST", /^\/v1\/ideas$/) && typeof req.body?.date === "string")) return req;
      const days = (Date.parse(req.body.date) - Date.parse(new Date().toISOString().slice(0, 10))) / 86_400_000;
      return days > 45 ? { ...req, body: { ...req.body, date: undefined } } : req;
    },
  },
  {
    // L186: "No body. Response: the batch object."
    id: "heldout-get-batch-object-batch",
    rule: "object-field-names-kind/IdeaBatch",
    description: "GET /v1/ideas/{id} answers object 'batch'",
    response: (req, res) => (is(req, "GET", /^\/v1\/ideas\/[^/]+$/) && isBatch(res.body) ? body(res, (b) => ((b.object = "batch"), b)) : res),
  },
  {
    // L199: "Reaching another team's brand gives `403`."
    id: "heldout-other-team-404-on-patch",
    rule: "team-isolation-403/updateBrand",
    description: "PATCH of another team's brand answers 404",
    response: (req, res) => (is(req, "PATCH", /^\/v1\/brands\/[^/]+$/) && res.status === 403 ? body({ ...res, status: 404 }, (b) => ((b.error.type = "not_found"), b)) : res),
  },
  {
    // L213: "403 | `permission_error` | Credentials cannot reach that brand".
    id: "heldout-403-type-forbidden-on-feedback",
    rule: "team-isolation-403/createFeedback",
    description: "403 answers of POST /v1/feedback carry type forbidden",
    response: (req, res) => (is(req, "POST", /^\/v1\/feedback$/) && res.status === 403 ? body(res, (b) => ((b.error.type = "forbidden"), b)) : res),
  },
  {
    // L220: "Values of `code` other than `brand_not_ready`: not shown" (brand_not_ready is shown).
    id: "heldout-not-ready-code-renamed",
    rule: "ideas-brand-not-ready-409/code",
    description: "409 for a brand still reading carries code not_ready",
    response: (_req, res) => (res.status === 409 && res.body?.error?.code === "brand_not_ready" ? body(res, (b) => ((b.error.code = "not_ready"), b)) : res),
  },
  {
    // L227: "`description` length | up to 2,000 characters" — the accepting edge, on update.
    id: "heldout-description-2000-refused-on-patch",
    rule: "limit-description",
    description: "PATCH refuses a description of exactly 2,000 characters",
    response: (req, res) => (is(req, "PATCH", /^\/v1\/brands\/[^/]+$/) && typeof req.body?.description === "string" && req.body.description.length === 2000 ? refuse(res, "description") : res),
  },
];
