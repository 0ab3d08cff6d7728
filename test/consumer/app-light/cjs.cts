// CommonJS: require() the entry points (Node's require(esm)) and run the same checks.
import rest = require("ideas-contract/rest");
import mcp = require("ideas-contract/mcp");
import errors = require("ideas-contract/errors");
import openapi = require("ideas-contract/openapi");
import tools = require("ideas-contract/tools");
import checks = require("./checks.js");

console.log(JSON.stringify({ module: "cjs", passed: checks.contractChecks({ rest, mcp, errors, openapi, tools }) }));
