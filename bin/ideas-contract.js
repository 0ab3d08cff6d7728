#!/usr/bin/env node
// The ideas-contract command. The sources are TypeScript; tsx runs them without a build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
