// Dispatches `ideas-contract <command>`. Each command is loaded when it runs and reads its options before it
// checks (cli/peers.ts) and loads the optional peer dependencies it needs: help and bad usage need none.
import { ownManifest } from "./manifest.js";
import { missingPeerHint } from "./peers.js";

const commands: Record<string, { summary: string; run: (args: string[]) => Promise<number> }> = {
  mock: { summary: "start the mock servers (stateful REST reference, Prism, MCP gateway mock)", run: async (args) => (await import("./mock.js")).mockCommand(args) },
  export: { summary: "write the OpenAPI, tools manifest, types, validators or error catalogue into a folder (--out DIR)", run: async (args) => (await import("./export.js")).exportCommand(args) },
  proxy: { summary: "forward REST and MCP traffic to a service and judge every exchange against the contract (--rest-upstream / --mcp-upstream)", run: async (args) => (await import("./proxy.js")).proxyCommand(args) },
  conformance: { summary: "run the conformance suites, REST and MCP (embedded reference, or --rest-url / --mcp-url / --config)", run: async (args) => (await import("./conformance.js")).conformanceCommand(args) },
};

const usage = `Usage: ideas-contract <command> [options]
       ideas-contract --version

Commands:
${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`)
  .join("\n")}

Run \`ideas-contract <command> --help\` for a command's options.`;

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h") {
    console.log(usage);
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "-v") {
    console.log(ownManifest().version);
    return 0;
  }
  const command = commands[name];
  if (!command) {
    console.error(`Unknown command "${name}".\n\n${usage}`);
    return 2;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    const hint = missingPeerHint(err, `ideas-contract ${name}`);
    if (!hint) throw err;
    console.error(hint);
    return 1;
  }
}
