// `npm run lint:spec`'s OpenAPI half: `redocly lint` on the generated document, its output passed through as it
// is but for one thing. Redocly CLI 2.x prints a boxed "Node.js 20 support is ending" notice on every run under
// Node 20 (which this package supports), unconditionally: none of its settings (REDOCLY_SUPPRESS_UPDATE_NOTICE,
// REDOCLY_SUPPRESS_NOTIFICATIONS, CI) turns it off. That box alone is left out; every other line, warnings and
// errors included, and the exit status are redocly's own.
import { spawn } from "node:child_process";
import { withoutNodeNotice } from "./lib/node-notice.js";
import { binPath } from "../lib/run.js";

const args = process.argv.slice(2);
const child = spawn(process.execPath, [binPath("@redocly/cli", "redocly"), "lint", "--format=stylish", ...args], {
  env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
  stdio: ["ignore", "inherit", "pipe"],
});
// A Ctrl-C or a CI cancel ends redocly too.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
let stderr = "";
child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
child.on("close", (code, signal) => {
  process.stderr.write(withoutNodeNotice(stderr));
  process.exitCode = code ?? (signal ? 1 : 0);
});
