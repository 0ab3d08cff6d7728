#!/usr/bin/env node
// The ideas-contract command. In the repository (the TypeScript sources are next to this file and tsx is
// installed) it runs the sources through tsx, so a change runs without a build; installed from the package it
// runs the build in dist/.
import { existsSync } from "node:fs";

const sources = new URL("../cli/main.ts", import.meta.url);
const tsx = existsSync(sources) ? await import("tsx/esm/api").catch(() => undefined) : undefined;
tsx?.register();
const { main } = await import(tsx ? sources.href : "../dist/cli/main.js");
process.exitCode = await main(process.argv.slice(2));
