// Starts the mocks from code the way a front-end's dev setup or a test suite would, sends each one request with
// the documented test tokens, and stops them. Used from ESM (servers.ts) and CommonJS (servers.cts), each
// passing the modules it loaded its own way.
type MockModule = typeof import("ideas-contract/mock");
type Validators = (typeof import("ideas-contract/rest"))["validators"];

export interface RunningMocks {
  rest: import("ideas-contract/mock").RestMock;
  mcp: import("ideas-contract/mock").McpMock;
  prism?: import("ideas-contract/mock").PrismServer;
  /** What each mock answered. */
  observed: Record<string, unknown>;
  /** Stops every mock and tells whether each port refuses connections afterwards. */
  stop(): Promise<boolean>;
}

const refuses = (url: URL) =>
  fetch(url, { signal: AbortSignal.timeout(2000) }).then(
    () => false,
    () => true,
  );

export async function startMocks(mock: MockModule, validators: Validators, options: { prism: boolean; timeScale: number }): Promise<RunningMocks> {
  const observed: Record<string, unknown> = {};
  const rest = await mock.startRestMock({ port: 0, timeScale: options.timeScale });
  const mcp = await mock.startMcpMock({ port: 0, timeScale: options.timeScale });
  const prism = options.prism ? await mock.startPrism({ port: 0 }) : undefined;

  const created = await fetch(new URL("/v1/brands", rest.url), {
    method: "POST",
    headers: { authorization: "Bearer test_team_a", "content-type": "application/json" },
    body: JSON.stringify({ website: "https://www.bluefjord-bakery.no" }),
  });
  const brand: unknown = await created.json();
  observed.rest = { status: created.status, brandValid: validators.Brand(brand) };

  const listed = await fetch(mcp.url, {
    method: "POST",
    headers: { authorization: "Bearer mcp_user", "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  observed.mcp = { status: listed.status, listsCreatePosts: (await listed.text()).includes('"create_posts"') };

  if (prism) {
    const read = await fetch(new URL("/v1/brands/brand_8f3k2m9x", prism.url), { headers: { authorization: "Bearer any" } });
    observed.prism = { status: read.status, brandValid: validators.Brand(await read.json()) };
  }

  return {
    rest,
    mcp,
    ...(prism ? { prism } : {}),
    observed,
    async stop() {
      const servers = [rest, mcp, ...(prism ? [prism] : [])];
      await Promise.all(servers.map((s) => s.stop()));
      return (await Promise.all(servers.map((s) => refuses(s.url)))).every(Boolean);
    },
  };
}
