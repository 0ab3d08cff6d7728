// ESM: import the entry points and run the checks.
import * as rest from "ideas-contract/rest";
import * as mcp from "ideas-contract/mcp";
import * as errors from "ideas-contract/errors";
import * as openapi from "ideas-contract/openapi";
import * as tools from "ideas-contract/tools";
import { contractChecks } from "./checks.js";

console.log(JSON.stringify({ module: "esm", passed: contractChecks({ rest, mcp, errors, openapi, tools }) }));
