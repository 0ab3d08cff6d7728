// How the MCP suite plays the client's browser on a connect link (McpHttp.open): only links on the gateway's own
// origin and folder are opened, never with a token, and a redirect is answered as it is (not followed). And the
// target file's mcp.inputs.logo_url, the logo address the branding checks upload.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpHttp } from "../conformance/suites/mcp/http.js";
import { resolveMcpTarget } from "../conformance/suites/mcp/target.js";
import { parseTargetFile } from "../conformance/target-file.js";
import { Redactor } from "../conformance/core/redact.js";

/** The `mcp:` section of a target file holding `section`, read. */
const mcpSection = (section: unknown, env: NodeJS.ProcessEnv) => parseTargetFile({ mcp: section }, "inline", env).mcp!;

describe("opening a connect link", () => {
  const seen: { url: string; authorization: string | undefined }[] = [];
  let server: http.Server;
  let base: URL;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ url: req.url ?? "", authorization: req.headers.authorization });
      if (req.url?.startsWith("/gw/connect/")) {
        res.writeHead(302, { location: "https://return.example/back?status=needs_selection&connectToken=abc", "content-length": 0 });
        return res.end();
      }
      res.writeHead(404, { "content-length": 0 });
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/gw/mcp`);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const client = () => {
    const target = resolveMcpTarget({ file: mcpSection({ url: base.href, tokens: { normal: "secret-normal-token" } }, {}), env: {} });
    return new McpHttp(target, new Redactor(["secret-normal-token"]), new AbortController().signal);
  };

  it("answers the redirect of a link in the endpoint's folder, without the token", async () => {
    const res = await client().open(new URL("connect/tok123?account=x", base));
    expect(res?.status).toBe(302);
    expect(res?.header("location")).toContain("connectToken=abc");
    expect(seen.at(-1)).toEqual({ url: "/gw/connect/tok123?account=x", authorization: undefined });
  });

  it("opens nothing off the gateway's origin or outside its folder", async () => {
    const before = seen.length;
    const h = client();
    expect(await h.open(new URL("https://provider.example/connect/tok123"))).toBeUndefined();
    expect(await h.open(new URL(`http://localhost:${base.port}/gw/connect/tok123`))).toBeUndefined();
    expect(await h.open(new URL("/elsewhere/connect/tok123", base))).toBeUndefined();
    expect(seen.length).toBe(before);
  });
});

describe("mcp.inputs.logo_url", () => {
  it("is read from the target file (env substitution too) and reaches the target's inputs", () => {
    const file = mcpSection({ url: "https://gw.example/mcp", inputs: { logo_url: { env: "LOGO" } } }, { LOGO: "https://cdn.example/logo.png" });
    expect(file.inputs?.logo_url).toBe("https://cdn.example/logo.png");
    expect(resolveMcpTarget({ file, env: {} }).mcp?.inputs.logoUrl).toBe("https://cdn.example/logo.png");
    expect(resolveMcpTarget({ file: mcpSection({ url: "https://gw.example/mcp" }, {}), env: {} }).mcp?.inputs.logoUrl).toBeUndefined();
  });
});
