// Allowed variants of the REST reference: each is the reference behind the mutant proxy (test/mutants/rest/proxy.ts),
// changing its answers (or what it accepts) only in a way seed 000 allows, with `basis` quoting the seed's words
// that allow it. The conformance suite must pass every one (exit 0), and with --strict fail only on drift that
// names inferred rules (test/conformance-variants-rest.test.ts). A variant that the suite fails is a false
// failure of the suite, not of the variant.
import { rewriteBody, type Answer, type Exchange, type Rewriter } from "../mutants/rest/proxy.js";
import type { Idea, IdeaBatch } from "../../generated/rest/types.js";
import { serviceTime } from "../support/driven-time.js";
import { at, isFields, listAt, type Fields } from "../support/json.js";

export interface Variant extends Rewriter {
  /** Stable kebab-case id. */
  id: string;
  description: string;
  /** The sentence of seed 000 that allows the change (quoted, with its section). */
  basis: string;
  /** Inferred rules the change must still be reported under as drift (so the inferred part stays judged). */
  drift?: string[];
  /** Forgets what the variant remembered of earlier exchanges (the reference's ids repeat from run to run). */
  reset?(): void;
  /** Hands the variant the service's time (the reference's clock), for work or windows it times itself. */
  useTime?: (now: () => number) => void;
  /**
   * Runs on the wall clock instead of the run's driven time: the variant holds a request until the reference's
   * background work ends, and driven time moves only when no request is in flight.
   */
  wallClock?: true;
}

const pathOnly = (p: string) => p.split("?")[0]!;
const isPost = (req: Exchange, path: string) => req.method === "POST" && pathOnly(req.path) === path;
const isPatch = (req: Exchange) => req.method === "PATCH" && /^\/v1\/brands\/[^/]+$/.test(pathOnly(req.path));
const isGetBatch = (req: Exchange) => req.method === "GET" && /^\/v1\/ideas\/[^/]+$/.test(pathOnly(req.path));
export const isObject = isFields;
const isBrand = (b: unknown) => at(b, "object") === "brand";
/** A done batch of the reference (which answers only what the contract allows): its ideas are Ideas. */
export const isDone = (b: unknown): b is IdeaBatch => at(b, "object") === "idea_batch" && at(b, "status") === "done" && Array.isArray(at(b, "data"));
/** The ideas of a done batch (none for anything else). */
export const doneIdeas = (b: unknown): Idea[] => (isDone(b) ? b.data : []);
export const isJson = (res: Answer) => res.body !== undefined;

/** Rewrites the JSON body of an answer (on a copy). */
export const body = rewriteBody;
/** Applies `f` to every object of a JSON value, innermost first, and keeps what it returns. */
export function everyObject(value: unknown, f: (o: Fields, depth: number) => Fields, depth = 0): unknown {
  if (Array.isArray(value)) return value.map((v) => everyObject(v, f, depth + 1));
  if (!isObject(value)) return value;
  return f(Object.fromEntries(Object.entries(value).map(([k, v]) => [k, everyObject(v, f, depth + 1)])), depth);
}
const withStatus = (req: Exchange, res: Answer, path: string, from: number, to: number): Answer =>
  isPost(req, path) && res.status === from ? { ...res, status: to } : res;

/** ISO 3166-1 alpha-2 → alpha-3, for the countries the suite and the reference use. */
const alpha3: Record<string, string> = {
  AT: "AUT",
  IE: "IRL",
  NO: "NOR",
  US: "USA",
  GB: "GBR",
  DE: "DEU",
};
const alpha2 = Object.fromEntries(Object.entries(alpha3).map(([a2, a3]) => [a3, a2]));

/** A time written with an offset and microseconds instead of Z and milliseconds: the same instant. */
const offsetTime = (v: unknown) =>
  typeof v === "string" && /Z$/.test(v) && !Number.isNaN(Date.parse(v)) ? new Date(v).toISOString().replace(/\.(\d{3})Z$/, ".$1000+00:00") : v;

/** Ids with a dash and more after the prefix's letters and digits (opaque ids), mapped back on the way in. */
const idForm = /\b(brand|batch|idea|fb)_(?!batch\b)([A-Za-z0-9]+)\b(?!-)/g;
const dashed = /\b(brand|batch|idea|fb)_([A-Za-z0-9]+)-v2\b/g;
function mapStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === "string") return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]));
  return value;
}

/** The time scale the corpus runs the reference at (test/conformance-variants-rest.test.ts): target seconds → real ms. */
export const variantTimeScale = 0.01;
const targetMs = (seconds: number) => seconds * 1000 * variantTimeScale;

/** Every time field of every object of an answer, rewritten by `f` (null and non-times left alone). */
const onTimes = (res: Answer, f: (iso: string) => string): Answer =>
  isJson(res)
    ? body(res, (b) =>
        everyObject(b, (o) => {
          for (const k of ["created_at", "done_at"]) if (typeof o[k] === "string" && !Number.isNaN(Date.parse(o[k]))) o[k] = f(o[k]);
          return o;
        }),
      )
    : res;
/** The instant written in local time two hours east of UTC, with its numeric offset (the same instant). */
const plusTwo = (iso: string) => new Date(Date.parse(iso) + 2 * 3_600_000).toISOString().replace(/Z$/, "+02:00");

/**
 * Background work that takes `holdSeconds` of target time from when the variant first saw it: until then a settled
 * resource is shown still at work (`pending(now, lastAtWork, sent)`, `sent` the fields a PATCH sent meanwhile, which
 * change at once); once let through, a batch's done_at is when it was let through.
 */
function slowWork(kind: "brand" | "idea_batch", holdSeconds: number, pending: (b: Fields, atWork: Fields, sent: Set<string>) => unknown): Pick<Variant, "response" | "reset" | "useTime"> {
  const { now, useTime } = serviceTime();
  const started = new Map<string, number>();
  const atWork = new Map<string, Fields>();
  const sent = new Map<string, Set<string>>();
  const released = new Map<string, string>();
  return {
    response: (req, res) => {
      const b = res.body;
      const held = (id: string) => started.has(id) && now() - started.get(id)! < targetMs(holdSeconds);
      // A brand still shown reading takes no ideas yet: what the reference accepted is refused as the seed says.
      if (kind === "brand" && isPost(req, "/v1/ideas") && res.status === 202 && held(req.body?.brand))
        return { status: 409, headers: { "content-type": "application/json" }, raw: Buffer.alloc(0), body: { error: { type: "invalid_request", code: "brand_not_ready", message: "The brand is still being read.", param: "brand" } } };
      if (!isObject(b) || b.object !== kind || typeof b.id !== "string") return res;
      const id = b.id;
      if (!started.has(id)) started.set(id, now());
      if (isPatch(req) && isObject(req.body)) for (const k of Object.keys(req.body)) (sent.get(id) ?? sent.set(id, new Set()).get(id)!).add(k);
      const settled = kind === "brand" ? b.status !== "reading" : b.status !== "thinking";
      if (!settled) {
        atWork.set(id, structuredClone(b));
        return res;
      }
      if (held(id) && atWork.has(id)) return body(res, (now) => pending(now, atWork.get(id)!, sent.get(id) ?? new Set()));
      if (!released.has(id)) released.set(id, new Date(now()).toISOString());
      return kind === "idea_batch" && typeof b.done_at === "string" ? body(res, (x) => ((x.done_at = released.get(id)), x)) : res;
    },
    reset: () => (started.clear(), atWork.clear(), sent.clear(), released.clear()),
    useTime,
  };
}

/**
/**
 * A per-client limit of `perWindow` requests in each fixed window of `windowSeconds` (seconds of the service's time): the excess is
 * answered 429 rate_limit with Retry-After the whole seconds left of the window. With `advertise`, every answer to a
 * client also states the limit in the IETF RateLimit-Limit/-Remaining/-Reset headers.
 */
export function windowLimit(perWindow: number, windowSeconds: number, options: { advertise?: boolean } = {}): Pick<Variant, "answer" | "response" | "reset" | "useTime"> {
  const time = serviceTime();
  const windows = new Map<string, { start: number; count: number }>();
  const error = { error: { type: "rate_limit", code: "rate_limited", message: "Too many requests for this client; wait as Retry-After says.", param: null } };
  const left = (w: { start: number }, now: number) => Math.max(1, Math.ceil((w.start + windowSeconds * 1000 - now) / 1000));
  return {
    answer: (req) => {
      if (!req.token) return undefined;
      const now = time.now();
      let w = windows.get(req.token);
      if (!w || now - w.start >= windowSeconds * 1000) windows.set(req.token, (w = { start: now, count: 0 }));
      if (++w.count <= perWindow) return undefined;
      return { status: 429, headers: { "content-type": "application/json", "retry-after": String(left(w, now)) }, body: error, raw: Buffer.from(JSON.stringify(error)) };
    },
    ...(options.advertise
      ? {
          response: (req: Exchange, res: Answer): Answer => {
            const w = req.token ? windows.get(req.token) : undefined;
            if (!w) return res;
            const stated = { "ratelimit-limit": String(perWindow), "ratelimit-remaining": String(Math.max(0, perWindow - w.count)), "ratelimit-reset": String(left(w, time.now())) };
            return { ...res, headers: { ...res.headers, ...stated } };
          },
        }
      : {}),
    reset: () => windows.clear(),
    useTime: time.useTime,
  };
}

/** JSON written as PHP and others do by default: every "/" as "\/", every non-ASCII character as a \u escape. */
export const escapedJson = (value: unknown) => JSON.stringify(value).replace(/\//g, "\\/").replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

export const variants: Variant[] = [
  // ── Success statuses the seed does not show ─────────────────────────────────────────────────────────────
  {
    id: "brand-created-200",
    description: "POST /v1/brands answers 200 instead of 201",
    basis: 'Endpoints: "Success status codes other than 202 for POST /v1/ideas, and the response body of PATCH /v1/brands/{brand_id}: not shown."',
    drift: ["create-brand-201"],
    response: (req, res) => withStatus(req, res, "/v1/brands", 201, 200),
  },
  {
    id: "prediction-201",
    description: "POST /v1/predictions answers 201 instead of 200",
    basis: 'POST /v1/predictions: "Body and response shape: not shown."; Endpoints: "Success status codes other than 202 for POST /v1/ideas … not shown."',
    drift: ["create-prediction-200"],
    response: (req, res) => withStatus(req, res, "/v1/predictions", 200, 201),
  },
  {
    id: "feedback-200",
    description: "POST /v1/feedback answers 200 instead of 201",
    basis: 'POST /v1/feedback: "Body and response shape: not shown."; Endpoints: "Success status codes other than 202 for POST /v1/ideas … not shown."',
    drift: ["create-feedback-201"],
    response: (req, res) => withStatus(req, res, "/v1/feedback", 201, 200),
  },
  {
    id: "brand-created-202",
    description: "POST /v1/brands answers 202 Accepted (the website is read in the background)",
    basis: 'Endpoints: "Success status codes other than 202 for POST /v1/ideas … not shown."; "Creating a brand returns at once with status `reading`."',
    drift: ["create-brand-201"],
    response: (req, res) => withStatus(req, res, "/v1/brands", 201, 202),
  },
  {
    id: "patch-204-empty",
    description: "PATCH /v1/brands/{id} answers 204 with no body",
    basis: 'Endpoints: "… and the response body of PATCH /v1/brands/{brand_id}: not shown."',
    drift: ["update-brand-200"],
    response: (req, res) => {
      if (!isPatch(req) || res.status !== 200) return res;
      const { "content-type": _t, ...headers } = res.headers;
      return { status: 204, headers, body: undefined, raw: Buffer.alloc(0) };
    },
  },
  {
    id: "patch-answers-what-changed",
    description: "PATCH /v1/brands/{id} answers 200 with the brand's id and object and the fields that were sent, nothing else",
    basis: 'Endpoints: "… and the response body of PATCH /v1/brands/{brand_id}: not shown."',
    drift: ["update-brand-200"],
    response: (req, res) =>
      isPatch(req) && res.status === 200 && isBrand(res.body) && isObject(req.body)
        ? body(res, (b) => Object.fromEntries(Object.entries(b).filter(([k]) => k === "id" || k === "object" || k in req.body)))
        : res,
  },
  {
    id: "patch-202-with-brand",
    description: "PATCH /v1/brands/{id} answers 202 Accepted with the brand",
    basis: 'Endpoints: "Success status codes other than 202 for POST /v1/ideas … not shown."; a new website "triggers a re-read" (work in the background).',
    drift: ["update-brand-200"],
    response: (req, res) => (isPatch(req) && res.status === 200 ? { ...res, status: 202 } : res),
  },
  // ── Kept values in another form ─────────────────────────────────────────────────────────────────────────
  {
    id: "website-normalised",
    description: "brands show their website as a normalised URL (https://www.example.com → https://www.example.com/)",
    basis: 'Brand object: "`website` | string or null | The website that was read" (the same site, however the URL is written).',
    response: (_req, res) => (isBrand(res.body) && typeof res.body.website === "string" ? body(res, (b) => ((b.website = new URL(b.website).href), b)) : res),
  },
  {
    id: "country-alpha-3",
    description: "countries are accepted and shown as ISO 3166-1 alpha-3 (AT as AUT)",
    basis:
      'Brand object: "`country` | string or null | ISO 3166-1 code"; POST /v1/brands: "`country` | string | no | ISO 3166-1" (alpha-3 is an ISO 3166-1 code).',
    drift: ["inferred-output-forms"],
    request: (req) =>
      isObject(req.body) && typeof req.body.country === "string" && alpha2[req.body.country]
        ? { ...req, body: { ...req.body, country: alpha2[req.body.country] } }
        : req,
    response: (_req, res) => (isBrand(res.body) && alpha3[res.body.country] ? body(res, (b) => ((b.country = alpha3[b.country]), b)) : res),
  },
  {
    id: "rule-lists-always-shown",
    description: "a brand's rules always show both lists, empty when none were given",
    basis: 'Brand object: "`rules` | object | Members `always` (string[], optional, up to 20) and `never` (string[], optional, up to 20)".',
    response: (_req, res) => (isBrand(res.body) && isObject(res.body.rules) ? body(res, (b) => ((b.rules = { always: [], never: [], ...b.rules }), b)) : res),
  },
  (() => {
    const seenReady = new Set<string>();
    return {
      id: "re-read-keeps-ready",
      description: "a ready brand whose website is changed keeps showing ready while it is read again",
      wallClock: true,
      basis: 'Brand status: "`ready` | `PATCH` with a new `website` | Website changed | A new read starts | Status during the re-read: not shown".',
      async response(req, res, ctx) {
        // Shown ready, the brand takes ideas too: a request the reference refuses while it re-reads is held until the
        // re-read ends and sent again (the service answers a little later, never "not ready" for a ready brand).
        if (res.status === 409 && res.body?.error?.code === "brand_not_ready" && isPost(req, "/v1/ideas") && seenReady.has(req.body?.brand)) {
          // However long the re-read takes on a busy host (a count of polls would be a wall-clock budget in disguise,
          // and its end a false 409): a re-read that never ends fails by the test's hang guard.
          for (;;) {
            const brand = await ctx.upstream("GET", `/v1/brands/${req.body.brand}`, req.token);
            if (brand.body?.status !== "reading") return ctx.upstream(req.method, req.path, req.token, req.body);
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        }
        if (!isBrand(res.body)) return res;
        if (res.body.status === "ready") seenReady.add(res.body.id);
        return res.body.status === "reading" && seenReady.has(res.body.id) ? body(res, (b) => ((b.status = "ready"), b)) : res;
      },
      reset: () => seenReady.clear(),
    } satisfies Variant;
  })(),
  {
    id: "opaque-ids",
    description: "ids carry a dash and more after the prefix (brand_x1-v2): they still start with their kind",
    basis: 'Conventions 3: "Ids start with the kind of thing: `brand_`, `batch_`, `idea_`, `fb_`."',
    drift: ["inferred-output-forms"],
    request: (req) => {
      const back = (s: string) => s.replace(dashed, "$1_$2");
      const path = back(req.path);
      const sent = req.body === undefined ? undefined : mapStrings(req.body, back);
      return path === req.path && JSON.stringify(sent) === JSON.stringify(req.body) ? req : { ...req, path, body: sent };
    },
    response: (_req, res) => (isJson(res) ? body(res, (b) => mapStrings(b, (s) => s.replace(idForm, "$1_$2-v2"))) : res),
  },
  // ── Evolution: new fields ───────────────────────────────────────────────────────────────────────────────
  {
    id: "new-fields-on-resources",
    description: "every answer body (brands, batches, ideas, feedback, predictions, errors) carries a field the contract does not list",
    basis:
      'Conventions 5: "New fields can appear at any time; clients ignore fields they do not use."; Versioning 4: "Additive changes (new fields) can occur within a version."',
    response: (_req, res) =>
      isJson(res) ? body(res, (b) => everyObject(b, (o, depth) => (depth === 0 || o.object === "idea" ? { ...o, request_region: "eu-north" } : o))) : res,
  },
  {
    id: "new-members-in-nested-objects",
    description: "the archetype, rules, sources, outlines, ranked drafts and error details gain a member the contract does not list",
    basis: 'Conventions 5: "New fields can appear at any time; clients ignore fields they do not use."',
    response: (_req, res) =>
      isJson(res) ? body(res, (b) => everyObject(b, (o, depth) => (depth > 0 && o.object === undefined ? { ...o, confidence: 0.75 } : o))) : res,
  },
  (() => {
    const batchLooks = new Map<string, number>();
    return {
      id: "done-batch-new-field-later",
      description: "a done batch shows a new field (and its ideas one too) from its second look on",
      basis: 'Conventions 5: "New fields can appear at any time; clients ignore fields they do not use."',
      response: (req, res) => {
        if (!isGetBatch(req) || !isDone(res.body)) return res;
        const n = (batchLooks.get(res.body.id) ?? 0) + 1;
        batchLooks.set(res.body.id, n);
        if (n < 2) return res;
        return body(res, (b) => ({
          ...b,
          feedback_summary: { posted: 0, saved: 0, rejected: 0 },
          data: doneIdeas(b).map((i) => ({ ...i, performance: null })),
        }));
      },
      reset: () => batchLooks.clear(),
    } satisfies Variant;
  })(),
  // ── Other ways to write the same ────────────────────────────────────────────────────────────────────────
  {
    id: "times-with-offset-and-microseconds",
    description: "times are written with +00:00 and six fractional digits instead of Z and milliseconds",
    basis: 'Conventions 2: "times are ISO 8601 strings".',
    response: (_req, res) =>
      isJson(res)
        ? body(res, (b) =>
            everyObject(b, (o) => ({
              ...o,
              ...("created_at" in o ? { created_at: offsetTime(o.created_at) } : {}),
              ...("done_at" in o ? { done_at: offsetTime(o.done_at) } : {}),
            })),
          )
        : res,
  },
  {
    id: "pretty-printed-json",
    description: "JSON answers are pretty-printed (two-space indents, a final newline)",
    basis: 'Conventions 1: "Requests and responses are JSON" (whitespace is no part of a JSON value).',
    response: (_req, res) =>
      isJson(res)
        ? {
            ...res,
            body: undefined,
            raw: Buffer.from(`${JSON.stringify(res.body, null, 2)}\n`),
          }
        : res,
  },
  {
    id: "content-type-charset-spelling",
    description: "JSON answers say Content-Type: application/json;charset=UTF-8",
    basis: 'Conventions 1: "Requests and responses are JSON" (a media type\'s parameters and their case are free).',
    response: (_req, res) =>
      isJson(res)
        ? {
            ...res,
            headers: {
              ...res.headers,
              "content-type": "application/json;charset=UTF-8",
            },
          }
        : res,
  },
  {
    id: "header-names-title-case",
    description: "answer header names are sent in title case (Content-Type, Retry-After, Cache-Control)",
    basis: 'Errors: "wait as many seconds as the `Retry-After` header says"; HTTP header names are case-insensitive (the seed names no case).',
    response: (_req, res) => {
      const title = (k: string) => k.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
      const headers = Object.fromEntries(
        Object.entries(res.headers)
          .filter(([k]) => !["content-length", "connection", "keep-alive", "transfer-encoding"].includes(k))
          .map(([k, v]) => [title(k), v]),
      );
      return { ...res, headers };
    },
  },
  {
    id: "members-in-another-order",
    description: "every object's members come in reverse order",
    basis: 'Conventions 1: "Requests and responses are JSON" (the seed fixes no member order; the tables list fields, not positions).',
    response: (_req, res) => (isJson(res) ? body(res, (b) => everyObject(b, (o) => Object.fromEntries(Object.entries(o).reverse()))) : res),
  },
  // ── Other contents the seed allows ──────────────────────────────────────────────────────────────────────
  {
    id: "ideas-cite-fewer-sources",
    description: "each idea of a done batch cites only one source besides those built on the focus",
    basis: 'Idea object: "`sources` | object[] | Up to four"; "Every idea cites its sources … with quoted words."',
    response: (_req, res) =>
      isDone(res.body)
        ? body(res, (b) => {
            for (const idea of doneIdeas(b)) {
              const quoting = idea.sources.filter((s) => s.type !== "focus" && typeof s.quote === "string" && s.quote.trim() !== "").slice(0, 1);
              const [first, ...others] = [...quoting, ...idea.sources.filter((s) => s.type === "focus")];
              if (first) idea.sources = [first, ...others];
            }
            return b;
          })
        : res,
  },
  {
    id: "left-out-not-empty",
    description: "a done batch lists an idea it left out",
    basis: 'Idea batch object: "`left_out` | string[] | Ideas considered and omitted because nothing backed them; often empty".',
    response: (_req, res) =>
      isDone(res.body) ? body(res, (b) => ((b.left_out = [...b.left_out, "A post about a price cut: nothing on the site backs it."]), b)) : res,
  },
  {
    id: "language-uppercase",
    description: "languages are accepted in either case and shown in uppercase (de as DE)",
    basis: 'Brand object: "`language` | string or null | yes | ISO 639-1 code"; POST /v1/brands: "`language` | string | no | ISO 639-1" (the seed fixes no letter case).',
    drift: ["input-language-lowercase", "inferred-output-forms"],
    request: (req) =>
      isObject(req.body) && typeof req.body.language === "string" && /^[A-Z]{2}$/.test(req.body.language) ? { ...req, body: { ...req.body, language: req.body.language.toLowerCase() } } : req,
    response: (_req, res) => (isBrand(res.body) && typeof res.body.language === "string" ? body(res, (b) => ((b.language = b.language.toUpperCase()), b)) : res),
  },
  {
    id: "errors-as-problem-json",
    description: "error answers say Content-Type: application/problem+json (the body is still the seed's error object)",
    basis: 'Conventions 1: "Requests and responses are JSON" (application/problem+json is a JSON media type); Errors gives the body, not the media type.',
    response: (_req, res) => (res.status >= 400 && isJson(res) ? { ...res, headers: { ...res.headers, "content-type": "application/problem+json" } } : res),
  },
  {
    id: "extra-response-headers",
    description: "every answer carries headers the contract does not list (request id, server timing, caching, vary)",
    basis: 'Conventions 5: "New fields can appear at any time; clients ignore fields they do not use." (the seed lists no headers but Retry-After; HTTP lets a server add its own).',
    response: (_req, res) => ({
      ...res,
      headers: { ...res.headers, "x-request-id": "req_variant", "server-timing": "app;dur=12", "cache-control": res.headers["cache-control"] ?? "no-store", vary: "Authorization, Accept-Encoding" },
    }),
  },
  {
    id: "other-error-codes-and-wording",
    description: "errors other than brand_not_ready carry codes of their own and other messages",
    basis: 'Errors: "Values of `code` other than `brand_not_ready`: not shown."; `message` is not fixed by the seed.',
    response: (_req, res) =>
      res.status >= 400 && isObject(res.body?.error) && res.body.error.code !== "brand_not_ready"
        ? body(res, (b) => ((b.error.code = `e_${res.status}_variant`), (b.error.message = `Request not served (${b.error.type}).`), b))
        : res,
  },
  // ── Held-out-style variants: other framings, times, paces and orders the seed allows ──────────────────────
  {
    id: "times-in-whole-seconds",
    description: "times are written in whole seconds, without a fraction (2026-01-01T10:00:00Z)",
    basis: 'Conventions 2: "times are ISO 8601 strings" (a fraction of a second is optional in ISO 8601).',
    response: (_req, res) => onTimes(res, (iso) => new Date(Math.floor(Date.parse(iso) / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z")),
  },
  {
    id: "times-with-local-offset",
    description: "times are written in local time with a numeric offset (+02:00), the same instants",
    basis: 'Conventions 2: "times are ISO 8601 strings" (ISO 8601 writes a time with Z or a numeric offset from UTC).',
    response: (_req, res) => onTimes(res, plusTwo),
  },
  {
    id: "chunked-answers",
    description: "every answer is sent with Transfer-Encoding: chunked instead of a Content-Length",
    basis: 'Conventions 1: "Requests and responses are JSON" (how HTTP/1.1 frames the body is not the contract\'s).',
    response: (_req, res) => ({ ...res, framing: { chunked: true } }),
  },
  {
    id: "connection-closed-after-each-answer",
    description: "every answer says Connection: close and the service closes the connection after it (no keep-alive)",
    basis: 'Conventions 6: "All requests use HTTPS; plain HTTP is refused." (the seed says nothing of persistent connections; HTTP/1.1 lets a server close after any answer).',
    response: (_req, res) => ({ ...res, framing: { close: true } }),
  },
  {
    id: "batches-think-six-minutes",
    description: "every batch thinks for six minutes, the top of the stated range (the reference takes two to six)",
    basis: 'What the service does: "the ideas arrive in the same batch later (typically two to six minutes). The caller polls with GET."',
    ...slowWork("idea_batch", 360, (b, thinking, _sent) => ({ ...b, status: "thinking", data: thinking.data, left_out: thinking.left_out, error: null, done_at: null })),
  },
  {
    id: "brands-read-for-three-minutes",
    description: "a brand reads its website for three minutes (the reference takes 20 to 40 seconds)",
    basis: 'What the service does: "Creating a brand returns at once with status `reading`"; Brand status: "While `reading`, clients ask again about every ten seconds" (no duration is stated).',
    // What reading fills shows as it was while reading, but for what a PATCH sent meanwhile ("Only the fields sent change").
    ...slowWork("brand", 180, (b, reading, sent) => ({ ...b, status: "reading", ...Object.fromEntries(["name", "language", "description", "offerings", "archetype"].filter((k) => !sent.has(k)).map((k) => [k, reading[k]])) })),
  },
  {
    id: "unordered-lists-reversed",
    description: "lists whose order the seed does not state come in reverse: a brand's offerings, an idea's sources, a batch's left_out",
    basis: 'Brand object: "`offerings` | string[] | What the business sells or does"; Idea object: "`sources` | object[] | Up to four"; Idea batch: "`left_out` | string[]" (an order is stated only for `data`, "best first").',
    response: (_req, res) =>
      isBrand(res.body) && res.body.offerings?.length > 1
        ? body(res, (b) => ((b.offerings = [...b.offerings].reverse()), b))
        : at(res.body, "object") === "idea_batch" && (listAt(res.body, "data").length || listAt(res.body, "left_out").length > 1)
          ? body(res, (b) => ((b.left_out = [...b.left_out].reverse()), listAt(b, "data").filter(isFields).forEach((i) => (i.sources = [...listAt(i, "sources")].reverse())), b))
          : res,
  },
  {
    id: "fewer-ideas-than-asked",
    description: "a done batch with more than one idea omits its last idea and reports it in left_out",
    basis: 'What the service does: "An idea that cannot be backed is omitted and reported in the batch\'s `left_out`."',
    response: (_req, res) =>
      isDone(res.body) && res.body.data.length > 1
        ? body(res, (b) => {
            const dropped = b.data.pop();
            b.left_out = [...b.left_out, `${dropped.title}: nothing on the site backs it.`];
            return b;
          })
        : res,
  },
  {
    id: "outlines-with-one-key-point",
    description: "every idea's outline has a single key point",
    basis: 'Idea object: "`outline` | object | yes | Members: `opening` (string), `key_points` (string[], one to five)".',
    response: (_req, res) =>
      isDone(res.body) ? body(res, (b) => (doneIdeas(b).forEach((i) => (i.outline.key_points = [i.outline.key_points[0]])), b)) : res,
  },
  {
    id: "rate-limit-five-second-window",
    description: "each token may make 100 requests in a fixed five-second window; the excess gets 429 rate_limit with Retry-After the seconds left (1 to 5)",
    basis: 'Limits: "A per-client-ID limit exists during the preview and exceeding it gives `429`; its numeric value: not shown"; Errors: "429 | `rate_limit` | Too many requests; wait as many seconds as the `Retry-After` header says".',
    ...windowLimit(100, 5),
  },
  {
    id: "poll-hints-on-background-work",
    description: "answers showing a brand reading or a batch thinking carry Retry-After (the seed's poll interval) and a Location",
    basis: 'Brand status: "While `reading`, clients ask again about every ten seconds"; batch: "about every 15 seconds"; Conventions 5: "New fields can appear at any time; clients ignore fields they do not use."',
    response: (_req, res) => {
      const b = res.body;
      const working = isBrand(b) ? b.status === "reading" : isObject(b) && b.object === "idea_batch" && b.status === "thinking";
      if (!working || res.status >= 300) return res;
      const path = isBrand(b) ? `/v1/brands/${b.id}` : `/v1/ideas/${b.id}`;
      return { ...res, headers: { ...res.headers, "retry-after": isBrand(b) ? "10" : "15", location: path } };
    },
  },
  {
    id: "json-with-escaped-slashes",
    description: "JSON answers escape every / as \\/ and every non-ASCII character as \\u (as PHP's json_encode does)",
    basis: 'Conventions 1: "Requests and responses are JSON" (an escaped character is the same JSON string).',
    response: (_req, res) => (isJson(res) ? { ...res, body: undefined, raw: Buffer.from(escapedJson(res.body)) } : res),
  },
  {
    id: "feedback-204-empty",
    description: "POST /v1/feedback answers 204 with no body",
    basis: 'POST /v1/feedback: "Body and response shape: not shown."; Endpoints: "Success status codes other than 202 for POST /v1/ideas … not shown."',
    drift: ["create-feedback-201"],
    response: (req, res) => {
      if (!isPost(req, "/v1/feedback") || res.status !== 201) return res;
      const { "content-type": _t, ...headers } = res.headers;
      return { status: 204, headers, body: undefined, raw: Buffer.alloc(0) };
    },
  },
  {
    id: "prediction-202",
    description: "POST /v1/predictions answers 202 Accepted (with the same body)",
    basis: 'POST /v1/predictions: "In development. … Body and response shape: not shown."; Endpoints: "Success status codes other than 202 for POST /v1/ideas … not shown."',
    drift: ["create-prediction-200"],
    response: (req, res) => withStatus(req, res, "/v1/predictions", 200, 202),
  },
];


