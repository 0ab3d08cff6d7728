// Transport: plain HTTP is refused when the target is served over HTTPS. The probe carries no token: a token
// never travels in the clear, not even to see whether it would be refused.
import type { CheckContext, RestCheck } from "../check.js";
import { pathOf } from "../contract.js";
import { unknownId } from "./common.js";

export const transportChecks: RestCheck[] = [
  {
    id: "https-plain-http-refused",
    description: "A plain-HTTP request to the HTTPS target's host and port is refused, not served",
    rules: ["https-only"],
    group: "transport",
    needs: ["https"],
    tokenless: true,
    async run(ctx: CheckContext) {
      let res;
      try {
        res = await ctx.api.sendPlain(pathOf("getBrand", { brand_id: unknownId("brand_") }));
      } catch (err) {
        ctx.note(`plain HTTP failed at the connection: ${(err as Error).message}`);
        return;
      }
      // Refused: a redirect to https, or an error that is not the API serving the request (a 401 or 404 from
      // the API itself would mean the request was served over plain HTTP).
      const location = res.header("location") ?? "";
      if (res.status >= 300 && res.status < 400) {
        ctx.expect(location.startsWith("https://"), "https-only", `plain HTTP was redirected to ${JSON.stringify(location)}, not to https`);
        return;
      }
      const served = res.status < 400 || res.status === 401 || res.status === 403 || res.status === 404;
      ctx.expect(!served, "https-only", `plain HTTP was served: ${res.method} ${res.path} → ${res.status} ${res.text.slice(0, 200)}`);
      ctx.note(`plain HTTP answered ${res.status}`);
    },
  },
];
