// `ideas-contract mock`: starts the stateful REST reference server, Prism and the MCP gateway mock on 127.0.0.1
// until Ctrl-C.
import { startPrism, type PrismServer } from "../mock/prism.js";
import { startRestMock, type RestMock } from "../mock/rest/server.js";
import { restTestTokens } from "../mock/rest/tokens.js";
import { startMcpMock } from "../mock/mcp/server.js";
import { mcpTestTokens } from "../mock/mcp/tokens.js";
import { commandArgs } from "./args.js";
import { missingPeerHint } from "./peers.js";

export const defaultTimeScale = 0.1;

const help = `Usage: ideas-contract mock [options]

Starts, on 127.0.0.1:
  - the stateful REST reference server (brands read, batches think, on a virtual clock)
  - Prism serving generated/openapi/openapi.yaml (stateless answers from the contract's examples)
  - the MCP gateway mock at /mcp (every tool, stateless Streamable HTTP, on the same virtual clock)
and prints their URLs and the test tokens. Ctrl-C stops everything.

Options:
  --rest-port N     port of the REST reference server (default 4010; 0 = any free port)
  --prism-port N    port of Prism (default 4011; 0 = any free port)
  --mcp-port N      port of the MCP gateway mock (default 4012; 0 = any free port)
  --time-scale F    real seconds per virtual second: 1 = the real service's durations,
                    0.01 = a hundred times faster (default ${defaultTimeScale})
  --https           serve the REST reference over TLS with a self-signed certificate
  --no-prism        do not start Prism
  -h, --help        show this help
`;

export function port(value: string | undefined, fallback: number, flag: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${flag} must be a port number from 0 to 65535 (0: any free port), got "${value}"`);
  return n;
}

export async function mockCommand(argv: string[]): Promise<number> {
  const parsed = commandArgs(
    argv,
    {
      "rest-port": { type: "string" },
      "prism-port": { type: "string" },
      "mcp-port": { type: "string" },
      "time-scale": { type: "string" },
      https: { type: "boolean", default: false },
      "no-prism": { type: "boolean", default: false },
    },
    help,
  );
  if ("exit" in parsed) return parsed.exit;
  const { values } = parsed;
  let restPort: number, prismPort: number, mcpPort: number, timeScale: number;
  try {
    restPort = port(values["rest-port"], 4010, "--rest-port");
    prismPort = port(values["prism-port"], 4011, "--prism-port");
    mcpPort = port(values["mcp-port"], 4012, "--mcp-port");
    timeScale = values["time-scale"] === undefined ? defaultTimeScale : Number(values["time-scale"]);
    if (!(timeScale > 0) || !Number.isFinite(timeScale))
      throw new Error(`--time-scale must be a positive number of real seconds per virtual second (such as 0.01 or 1), got "${values["time-scale"]}"`);
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }

  const running: { stop(): Promise<void> }[] = [];
  const stopAll = () => Promise.allSettled(running.map((s) => s.stop()));
  try {
    const rest: RestMock = await startRestMock({ port: restPort, timeScale, https: values.https });
    running.push(rest);
    console.log(`REST reference server  ${rest.url.href}v1   (time scale ${timeScale})`);
    const mcp = await startMcpMock({ port: mcpPort, timeScale });
    running.push(mcp);
    console.log(`MCP gateway mock       ${mcp.url.href}`);
    if (!values["no-prism"]) {
      const prism: PrismServer = await startPrism({ port: prismPort });
      running.push(prism);
      console.log(`Prism (static mock)    ${prism.url.href}v1`);
    }
  } catch (err) {
    const hint = missingPeerHint(err, "ideas-contract mock (Prism)");
    console.error(hint ? `${hint}\nOr pass --no-prism.` : `Could not start the mocks: ${(err as Error).message}`);
    await stopAll();
    return 1;
  }
  console.log("\nREST test tokens (send as Authorization: Bearer <token>):");
  for (const t of restTestTokens) console.log(`  ${t.token.padEnd(28)} ${t.description}`);
  console.log("\nMCP test tokens:");
  for (const t of mcpTestTokens) console.log(`  ${t.token.padEnd(28)} ${t.description}`);
  console.log("\nPress Ctrl-C to stop.");

  await new Promise<void>((resolve) => {
    const onSignal = () => resolve();
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
  });
  console.log("\nStopping…");
  await stopAll();
  return 0;
}
