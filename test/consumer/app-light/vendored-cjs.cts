// The same vendored validators as CommonJS (`ideas-contract export --out vendor-cjs --what validators --module cjs`
// in this ESM project writes .cjs files with .d.cts declarations): required, and still type guards.
import rest = require("./vendor-cjs/rest/validators.cjs");
import type { CreateBrandRequest } from "./vendor-cjs/rest/types.js";

function requestOf(body: unknown): CreateBrandRequest | undefined {
  return rest.validators.CreateBrandRequest(body) ? body : undefined;
}
const request: unknown = { name: "Bluefjord Bakery", description: "Sourdough bakery in Bergen." };
console.log(JSON.stringify({ module: "vendored-cjs", valid: requestOf(request) !== undefined, invalidRefused: requestOf({ name: 7 }) === undefined }));
