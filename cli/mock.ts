// `ideas-contract mock`: starts the stateful REST reference server, Prism and the MCP gateway mock until Ctrl-C,
// logging each request; or, given `-- COMMAND`, runs that command against them and stops them when it ends; or,
// with --reset/--advance/--freeze/--unfreeze, steers mocks already running. Options are read before anything
// else: the servers (and the optional peers they need) are loaded only once the command knows it will start them.
import type { BrowserAccessOptions } from "../mock/browser-access.js";
import { printable } from "../conformance/core/printable.js";
import { controlPrefix, parseDuration } from "../mock/control.js";
import { commandArgs } from "./args.js";
import { runWrapped, stopRequested } from "./lifetime.js";
import { missingPeerHint, refuseWithoutPeers } from "./peers.js";

export const defaultTimeScale = 0.1;

/** The environment variables a wrapped command finds the mocks' URLs in. */
export const mockUrlEnv = { rest: "IDEAS_MOCK_REST_URL", prism: "IDEAS_MOCK_PRISM_URL", mcp: "IDEAS_MOCK_MCP_URL" } as const;

const help = `Usage: ideas-contract mock [options]
       ideas-contract mock [options] -- COMMAND [ARGS…]

Starts, on 127.0.0.1 (or --host):
  - the stateful REST reference server (brands read, batches think in the background)
  - Prism serving the contract's OpenAPI (ideas-contract/openapi.yaml; stateless answers from its examples)
  - the MCP gateway mock at /mcp (every tool, stateless Streamable HTTP, on the same clock)
and prints their URLs, the test tokens and one line per request (time, mock, method, path or
JSON-RPC method and tool, status or error code, milliseconds; never a token). Ctrl-C stops everything.

With -- COMMAND (for CI): starts the mocks, runs COMMAND with their URLs in the environment, stops the
mocks when it ends and exits with its status. SIGINT and SIGTERM are passed on to COMMAND.
  ${mockUrlEnv.rest.padEnd(21)} the REST reference server, e.g. http://127.0.0.1:4010 (paths start with /v1)
  ${mockUrlEnv.prism.padEnd(21)} Prism, e.g. http://127.0.0.1:4011 (unset with --no-prism)
  ${mockUrlEnv.mcp.padEnd(21)} the MCP gateway mock's endpoint, e.g. http://127.0.0.1:4012/mcp
  e.g. ideas-contract mock --no-prism --quiet -- npm test

Both mocks answer a control path that no API uses: GET /__control/clock, POST /__control/reset
(all state of both mocks, clock back to the wall clock), POST /__control/advance?by=1h30m,
POST /__control/freeze, POST /__control/unfreeze. The flags below send them to mocks already
running (at --mcp-port) and exit:
  --reset           drop all state of both mocks
  --advance D       move the clock D forward (90s, 10m, 1h30m, 2d): now moves and due work finishes
  --freeze          hold the clock (nothing progresses) until --unfreeze
  --unfreeze        let it run again from where it was held

Options:
  --host H          the address to listen on (default 127.0.0.1; 0.0.0.0 = every interface: the mocks
                    have no real authentication, so only on a network you trust)
  --rest-port N     port of the REST reference server (default 4010; 0 = any free port)
  --prism-port N    port of Prism (default 4011; 0 = any free port)
  --mcp-port N      port of the MCP gateway mock (default 4012; 0 = any free port)
  --time-scale F    how long background work takes (reads, batches, builds, renders, provider
                    delays, deactivation), as a fraction of the real service's durations:
                    1 = real, 0.01 = a hundred times faster (default ${defaultTimeScale}). "Now" always
                    follows the wall clock; validity windows (connect links, tokens,
                    scheduling and date horizons) stay in real time
  --scale-windows   shrink connect-link, connect-session and channel-token lifetimes by the
                    time scale too
  --allow-origin O  another origin web pages may call the mocks from, besides every loopback origin
                    (http://localhost:5173, http://127.0.0.1:3000, ..., always allowed); repeatable;
                    * = any. Allowed origins get CORS headers; the MCP endpoint answers others 403,
                    and a refused preflight says which --allow-origin would allow it
  --allow-host H    a Host name the MCP endpoint answers (repeatable; default loopback names).
                    Any other Host gets 403 (DNS-rebinding protection)
  --ip-limit N      MCP requests per client address per minute before 429 (default 100000;
                    the seed gives no number)
  --https           serve the REST reference over TLS with a self-signed certificate
  --no-prism        do not start Prism
  --quiet           do not log each request
  -h, --help        show this help
`;

export function port(value: string | undefined, fallback: number, flag: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${flag} must be a port number from 0 to 65535 (0 = any free port), got "${value}"`);
  return n;
}

/** A URL without the trailing slash, so `$VAR/v1/brands` is a path of it. */
const bare = (url: URL) => url.href.replace(/\/$/, "");

export async function mockCommand(argv: string[]): Promise<number> {
  const parsed = commandArgs(
    argv,
    {
      host: { type: "string" },
      "rest-port": { type: "string" },
      "prism-port": { type: "string" },
      "mcp-port": { type: "string" },
      "time-scale": { type: "string" },
      "ip-limit": { type: "string" },
      https: { type: "boolean", default: false },
      "scale-windows": { type: "boolean", default: false },
      "allow-origin": { type: "string", multiple: true },
      "allow-host": { type: "string", multiple: true },
      "no-prism": { type: "boolean", default: false },
      quiet: { type: "boolean", default: false },
      reset: { type: "boolean", default: false },
      advance: { type: "string" },
      freeze: { type: "boolean", default: false },
      unfreeze: { type: "boolean", default: false },
    },
    help,
    true,
  );
  if ("exit" in parsed) return parsed.exit;
  const { values, command } = parsed;
  const host = values.host ?? "127.0.0.1";
  let restPort: number, prismPort: number, mcpPort: number, timeScale: number, ipLimit: number | undefined;
  try {
    restPort = port(values["rest-port"], 4010, "--rest-port");
    prismPort = port(values["prism-port"], 4011, "--prism-port");
    mcpPort = port(values["mcp-port"], 4012, "--mcp-port");
    timeScale = values["time-scale"] === undefined ? defaultTimeScale : Number(values["time-scale"]);
    if (!(timeScale > 0) || !Number.isFinite(timeScale))
      throw new Error(`--time-scale must be a positive number of real seconds per virtual second (such as 0.01 or 1), got "${values["time-scale"]}"`);
    ipLimit = values["ip-limit"] === undefined ? undefined : Number(values["ip-limit"]);
    if (ipLimit !== undefined && !(Number.isSafeInteger(ipLimit) && ipLimit >= 1))
      throw new Error(`--ip-limit must be a whole number of requests per minute, at least 1, got "${values["ip-limit"]}"`);
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  const steps = controlSteps(values);
  if ("error" in steps) {
    console.error(steps.error);
    return 2;
  }
  if (steps.length) {
    if (command.length) {
      console.error("--reset, --advance, --freeze and --unfreeze steer mocks already running: they take no -- COMMAND");
      return 2;
    }
    return steer(host, mcpPort, steps);
  }
  const refused = refuseWithoutPeers("mock", argv);
  if (refused) return refused;

  const [{ createClock }, { createControl }, { startPrism }, { startRestMock }, { restTestTokens }, { startMcpMock }, { mcpTestTokens }] = await Promise.all([
    import("../mock/clock.js"),
    import("../mock/control.js"),
    import("../mock/prism.js"),
    import("../mock/rest/server.js"),
    import("../mock/rest/tokens.js"),
    import("../mock/mcp/server.js"),
    import("../mock/mcp/tokens.js"),
  ]);
  const running: { stop(): Promise<void> }[] = [];
  const stopAll = () => Promise.allSettled(running.map((s) => s.stop()));
  const urls: Record<string, string> = {};
  try {
    // One clock for both mocks, so they agree on now and on what is due.
    const control = createControl(createClock({ timeScale, scaleWindows: values["scale-windows"] }));
    const log = values.quiet ? undefined : (line: string) => console.log(line);
    const browser: BrowserAccessOptions = {
      ...(values["allow-origin"] ? { allowedOrigins: values["allow-origin"] } : {}),
      ...(values["allow-host"] ? { allowedHosts: values["allow-host"] } : {}),
    };
    const rest = await startRestMock({ host, port: restPort, control, https: values.https, browser, log });
    running.push(rest);
    urls[mockUrlEnv.rest] = bare(rest.url);
    console.log(`REST reference server  ${rest.url.href}v1   (time scale ${timeScale})`);
    const mcp = await startMcpMock({ host, port: mcpPort, control, browser, log, ipRequestsPerMinute: ipLimit });
    running.push(mcp);
    urls[mockUrlEnv.mcp] = mcp.url.href;
    console.log(`MCP gateway mock       ${mcp.url.href}`);
    console.log(`Control token          ${control.token}   (X-Control-Token, for /__control/ from another host or name)`);
    if (!values["no-prism"]) {
      const prism = await startPrism({ host, port: prismPort });
      running.push(prism);
      urls[mockUrlEnv.prism] = bare(prism.url);
      console.log(`Prism (static mock)    ${prism.url.href}v1`);
    }
  } catch (err) {
    const hint = missingPeerHint(err, "ideas-contract mock (Prism)");
    // One line: the first of the error's (Prism's adds its output after it).
    console.error(hint ? `${hint}\nOr pass --no-prism.` : `Could not start the mocks: ${(err as Error).message.split("\n")[0]}`);
    await stopAll();
    return 1;
  }
  if (command.length) {
    try {
      return await runWrapped(command, urls);
    } finally {
      await stopAll();
    }
  }
  console.log("\nREST test tokens (send as Authorization: Bearer <token>):");
  for (const t of restTestTokens) console.log(`  ${t.token.padEnd(28)} ${t.description}`);
  console.log("\nMCP test tokens:");
  for (const t of mcpTestTokens) console.log(`  ${t.token.padEnd(28)} ${t.description}`);
  console.log("\nPress Ctrl-C to stop.");

  await stopRequested().reason;
  console.log("\nStopping…");
  await stopAll();
  return 0;
}

/** The control requests the flags ask for, in a sensible order (reset first, unfreeze last). */
function controlSteps(values: { reset?: boolean; advance?: string; freeze?: boolean; unfreeze?: boolean }): string[] | { error: string } {
  if (values.freeze && values.unfreeze) return { error: "--freeze and --unfreeze contradict each other" };
  const steps: string[] = [];
  if (values.reset) steps.push("reset");
  if (values.freeze) steps.push("freeze");
  if (values.advance !== undefined) {
    if (parseDuration(values.advance) === null) return { error: `--advance takes a duration such as 90s, 10m, 1h30m or 2d, got "${values.advance}"` };
    steps.push(`advance?by=${encodeURIComponent(values.advance)}`);
  }
  if (values.unfreeze) steps.push("unfreeze");
  return steps;
}

/** Sends the control requests to the mocks running at `port` (they share one control) and prints the clock. */
async function steer(host: string, port: number, steps: string[]): Promise<number> {
  for (const step of steps) {
    const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}${controlPrefix}${step}`;
    let res: Response;
    try {
      res = await fetch(url, { method: "POST", signal: AbortSignal.timeout(10_000) });
    } catch {
      console.error(`No mock answers at ${host}:${port}; start one with ideas-contract mock (or give its --mcp-port).`);
      return 1;
    }
    const body = (await res.json().catch(() => null)) as { now?: string; frozen?: boolean; error_description?: string } | null;
    if (!res.ok) {
      // What the server at that port answered, escaped: it need not be one of our mocks.
      console.error(`${step}: ${res.status} ${printable(String(body?.error_description ?? ""))}`.trim());
      return 1;
    }
    console.log(`${step.split("?")[0]}: now ${printable(String(body?.now))}${body?.frozen ? " (frozen)" : ""}`);
  }
  return 0;
}
