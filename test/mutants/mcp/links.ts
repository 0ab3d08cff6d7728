// The MCP mock writes the addresses it serves itself (connect links, pictures, app links) on its own origin. Behind
// the mutant proxy they are handed out on the proxy's instead (the host the suite called), as a reverse proxy
// would, so a check that opens a link or fetches a picture still reaches the mock through the proxy, and through
// the mutant.
import type { Answer, Exchange, Mutant } from "../rest/proxy.js";
import { dataOf, isSuccess, onCall, onResult } from "./rewrite.js";

/** The value with every string address on origin `from` moved to origin `to` (both `http://host:port`). */
function moved(value: unknown, from: string, to: string): unknown {
  if (typeof value === "string") return value.startsWith(`${from}/`) ? `${to}${value.slice(from.length)}` : value;
  if (Array.isArray(value)) return value.map((v) => moved(v, from, to));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, moved(v, from, to)]));
  return value;
}

/**
 * The mock's addresses in a tool's result, handed out on the proxy's origin (the host the suite called): in the
 * structured data and in the text, each as it is (a mutant may have made them differ on purpose).
 */
const addressesOut = (upstream: string, publicOrigin: (req: Exchange) => string) =>
  onResult(
    (_c, r) => isSuccess(r) && JSON.stringify(r).includes(`${upstream}/`),
    (r, _c, req: Exchange) => {
      const to = publicOrigin(req);
      const content = r.content?.map((c) => (c?.type === "text" && typeof c.text === "string" ? { ...c, text: c.text.split(`${upstream}/`).join(`${to}/`) } : c));
      return { ...r, structuredContent: { ...r.structuredContent, data: moved(dataOf(r), upstream, to) }, ...(content ? { content } : {}) };
    },
  )!;

/** The proxy's addresses in a tool's arguments (a picture it handed out, sent back to upload), on the mock's again. */
const addressesIn = (upstream: string, publicOrigin: (req: Exchange) => string) => onCall((call, req) => ({ args: moved(call.args, publicOrigin(req), upstream) as Record<string, any> }))!;

/**
 * The mutant (or none) behind the proxy's own address rewriting: `upstream` is the mock's origin. The addresses go
 * out on the origin the suite called (the Host it sent), or on `publicOrigin()` when another proxy in front of this
 * one names its upstream as Host (as the contract proxy does).
 */
export function throughProxy<M extends Mutant>(mutant: M | null, upstream: URL, publicOrigin?: () => string | undefined): Mutant {
  const origin = upstream.origin;
  const called = (req: Exchange) => publicOrigin?.() ?? `http://${req.headers.host}`;
  const [ownRequest, ownResponse] = [mutant?.request, mutant?.response];
  return {
    ...(mutant ?? { id: "none", rule: "none", description: "the proxy alone" }),
    async request(req, ctx): Promise<Exchange> {
      const inward = await addressesIn(origin, called)(req, ctx);
      return ownRequest ? ownRequest(inward, ctx) : inward;
    },
    async response(req, res, ctx): Promise<Answer> {
      return addressesOut(origin, called)(req, ownResponse ? await ownResponse(req, res, ctx) : res, ctx);
    },
  };
}
