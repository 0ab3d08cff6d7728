// `node --import ./test/support/hide-peers.mjs …` with HIDE_PEERS=yaml,ajv: those packages cannot be resolved,
// by import, import.meta.resolve or require, as if the project had not installed them (the optional peers).
import Module, { register } from "node:module";

const hidden = new Set((process.env.HIDE_PEERS ?? "").split(",").filter(Boolean));
register("./hide-peers-hooks.mjs", import.meta.url);
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const pkg = request.split("/").slice(0, request.startsWith("@") ? 2 : 1).join("/");
  if (hidden.has(pkg)) throw Object.assign(new Error(`Cannot find module '${request}'`), { code: "MODULE_NOT_FOUND" });
  return resolveFilename.call(this, request, ...rest);
};
