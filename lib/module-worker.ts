// Starts a module of this package in a worker thread, from its TypeScript source (the repository, tests: tsx is
// registered in the worker first, as `bin/ideas-contract.js` does in the main thread) or from the build in dist/.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";

/** The URL of tsx's register API, or undefined when tsx is not installed. */
function tsxApi(): string | undefined {
  try {
    const cjs = createRequire(import.meta.url).resolve("tsx/esm/api");
    const esm = cjs.replace(/\.cjs$/, ".mjs");
    return existsSync(esm) ? pathToFileURL(esm).href : undefined;
  } catch {
    return undefined;
  }
}

/** The worker's bootstrap (CommonJS, evaluated): tsx first when the module is TypeScript, then the module. */
const bootstrap = `const { workerData } = require("node:worker_threads");
(workerData.tsx ? import(workerData.tsx).then((m) => m.register()) : Promise.resolve()).then(() => import(workerData.entry));`;

/**
 * A worker running `entry` (a `.ts` URL is run through tsx, a `.js` one as it is); the module reads `data` as
 * `workerData`. Undefined when a TypeScript entry cannot run because tsx is not installed.
 */
export function startModuleWorker<D extends object>(entry: URL, data: D): Worker | undefined {
  const tsx = entry.pathname.endsWith(".ts") ? tsxApi() : undefined;
  if (entry.pathname.endsWith(".ts") && !tsx) return undefined;
  return new Worker(bootstrap, { eval: true, workerData: { ...data, entry: entry.href, ...(tsx ? { tsx } : {}) } });
}

/** The sibling module `name` (without extension) of the calling module, in the calling module's own form (.ts or .js). */
export function siblingModule(of: string, name: string): URL {
  return new URL(`./${name}.${of.endsWith(".ts") ? "ts" : "js"}`, of);
}
