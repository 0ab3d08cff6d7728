// More allowed variants of the REST reference (the corpus of ./rest.ts goes on here), each changing the reference
// only as seed 000 allows, with `basis` quoting the seed's words. test/conformance-variants-rest.test.ts runs them
// with the others: a failure is a false failure of the suite.
import { gzipSync } from "node:zlib";
import type { Answer } from "../mutants/rest/proxy.js";
import type { Idea } from "../../generated/rest/types.js";
import { body, doneIdeas, everyObject, isDone, isJson, isObject, windowLimit, type Variant } from "./rest.js";

/** A stable short tag of a string (the same batch always reads the same model). */
const tag = (s: string) => [...s].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7).toString(36).slice(0, 4);

/** An ISO 8601 time in UTC written with nine fractional digits (the same instant to the millisecond). */
const nanoseconds = (v: string) => (/Z$/.test(v) && !Number.isNaN(Date.parse(v)) ? new Date(v).toISOString().replace(/\.(\d{3})Z$/, ".$1456789Z") : v);

/** The request's answers whose JSON body is a done batch, rewritten idea by idea (on a copy). */
const onIdeas = (res: Answer, f: (idea: Idea) => void): Answer => (isDone(res.body) ? body(res, (b) => (doneIdeas(b).forEach(f), b)) : res);

export const moreVariants: Variant[] = [
  {
    id: "auth-challenge-list",
    description: "401 answers offer a DPoP challenge first, then Bearer with realm, error and error_description",
    basis: 'Errors: "401 | `authentication_error` | Token missing, expired or not for this API" (the seed names no challenge; HTTP lets WWW-Authenticate list several, in any order).',
    response: (_req, res) =>
      res.status === 401 ? { ...res, headers: { ...res.headers, "www-authenticate": 'DPoP algs="ES256 PS256", Bearer realm="ideas", error="invalid_token", error_description="The access token is missing, expired or not for this API"' } } : res,
  },
  {
    id: "vendor-json-media-type",
    description: "every JSON answer says Content-Type: application/vnd.ideas.v1+json; charset=utf-8",
    basis: 'Conventions 1: "Requests and responses are JSON" (a +json media type is JSON; the seed names no media type).',
    response: (_req, res) => (isJson(res) ? { ...res, headers: { ...res.headers, "content-type": "application/vnd.ideas.v1+json; charset=utf-8" } } : res),
  },
  {
    id: "model-named-per-batch",
    description: "each batch names its own model version (ideas-2026-11-<tag>), the same on every read of that batch",
    basis: 'Versioning 3: "The `model` field in each batch names the model that answered, so a change of the model is visible."',
    response: (_req, res) =>
      isJson(res) ? body(res, (b) => everyObject(b, (o) => (typeof o.model === "string" && typeof o.id === "string" ? { ...o, model: `ideas-2026-11-${tag(o.id)}` } : o))) : res,
  },
  {
    id: "outlines-with-five-key-points",
    description: "every idea's outline has five key points (its own points, repeated in other words as needed)",
    basis: 'Idea object: "`outline` | object | yes | Members: `opening` (string), `key_points` (string[], one to five)".',
    response: (_req, res) =>
      onIdeas(res, (i) => {
        const points: string[] = i.outline.key_points;
        for (let n = 0; points.length < 5; n++) points.push(`${points[n % points.length]} (${n + 2})`);
      }),
  },
  {
    id: "why-now-evergreen",
    description: "every idea's why_now is the literal Evergreen",
    basis: 'Idea object: "`why_now` | string | yes | Why it fits the moment (season, date, news), or the literal `Evergreen` when timeless".',
    response: (_req, res) => onIdeas(res, (i) => (i.why_now = "Evergreen")),
  },
  {
    id: "product-sources-with-pages",
    description: "every product source of an idea has the page where the product is shown (url set)",
    basis: 'Source object: "`url` | string or null | Where to see it when it is a page"; `type` "`website`, `review`, `product` or `focus`".',
    response: (req, res) =>
      onIdeas(res, (i) => {
        for (const s of i.sources) if (s.type === "product" && s.url === null) s.url = `https://shop.example.com/products/${tag(String(s.title))}`;
      }),
  },
  {
    id: "times-with-nanoseconds",
    description: "times are written with nine fractional digits (2026-01-01T10:00:00.123456789Z)",
    basis: 'Conventions 2: "times are ISO 8601 strings" (ISO 8601 sets no number of fractional digits).',
    response: (_req, res) =>
      isJson(res)
        ? body(res, (b) =>
            everyObject(b, (o) => {
              for (const k of ["created_at", "done_at"]) if (typeof o[k] === "string") o[k] = nanoseconds(o[k]);
              return o;
            }),
          )
        : res,
  },
  {
    id: "rate-limit-headers-advertised",
    description: "each token may make 100 requests in a fixed five-second window, and every answer states it in RateLimit-Limit/-Remaining/-Reset; the excess gets 429 with Retry-After",
    basis: 'Limits: "A per-client-ID limit exists during the preview and exceeding it gives `429`; its numeric value: not shown"; Conventions 5: "New fields can appear at any time; clients ignore fields they do not use."',
    ...windowLimit(100, 5, { advertise: true }),
  },
  {
    id: "error-codes-null",
    description: "every error but brand_not_ready answers code null",
    basis: 'Errors: "An error has an HTTP status and a JSON body `{ error: { type, code, message, param } }`"; "Values of `code` other than `brand_not_ready`: not shown."',
    response: (_req, res) =>
      res.status >= 400 && isObject(res.body?.error) && res.body.error.code !== "brand_not_ready" && res.body.error.code !== null ? body(res, (b) => ((b.error.code = null), b)) : res,
  },
  {
    id: "feedback-minimal-record",
    drift: ["feedback-fields-complete/idea"],
    description: "POST /v1/feedback answers its record with only id and object (fb_…, feedback)",
    basis: 'POST /v1/feedback: "Body and response shape: not shown."; "Feedback record fields and prediction fields: not shown beyond the id prefix `fb_`".',
    response: (req, res) =>
      req.method === "POST" && req.path.split("?")[0] === "/v1/feedback" && res.status < 300 && isObject(res.body) && typeof res.body.id === "string"
        ? body(res, (b) => ({ id: b.id, object: b.object }))
        : res,
  },
  {
    id: "gzip-answers",
    description: "every answer with a body is sent gzip-compressed (Content-Encoding: gzip), unless the request's Accept-Encoding leaves gzip out",
    basis: 'Conventions 1: "Requests and responses are JSON" (content coding is HTTP\'s: a request without Accept-Encoding accepts any, RFC 9110 12.5.3).',
    response: (req, res) => {
      const asked = req.headers["accept-encoding"];
      const plain = res.body !== undefined ? Buffer.from(JSON.stringify(res.body)) : res.raw;
      if ((asked !== undefined && !/\bgzip\b/i.test(asked)) || res.headers["content-encoding"] || !plain.length) return res;
      return { ...res, headers: { ...res.headers, "content-encoding": "gzip", vary: "accept-encoding" }, body: undefined, raw: gzipSync(plain) };
    },
  },
];
