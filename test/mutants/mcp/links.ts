// The MCP mock writes the links it serves itself (connect links) on its own origin. Behind the mutant proxy they
// are handed out on the proxy's instead (the host the suite called), as a reverse proxy would, so a check that
// opens a link still reaches the mock through the proxy, and through the mutant.
import type { Answer, Mutant } from "../rest/proxy.js";
import { dataOf, isSuccess, onResult, withData } from "./rewrite.js";

const linksViaProxy = onResult(
  (c, r) => c.name === "create_connect_link" && isSuccess(r) && typeof dataOf(r).url === "string",
  (r, _c, req) => {
    const link = new URL(dataOf(r).url);
    return withData(r, { ...dataOf(r), url: `http://${req.headers.host}${link.pathname}${link.search}` });
  },
)!;

/** The mutant (or none) with the proxy's own link rewriting after its answers. */
export function throughProxy<M extends Mutant>(mutant: M | null): Mutant {
  const own = mutant?.response;
  return {
    ...(mutant ?? { id: "none", rule: "none", description: "the proxy alone" }),
    async response(req, res, ctx): Promise<Answer> {
      return linksViaProxy(req, own ? await own(req, res, ctx) : res, ctx);
    },
  };
}
