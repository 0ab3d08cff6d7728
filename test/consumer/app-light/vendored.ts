// A team that vendors the generated code instead (`ideas-contract export --out vendor --what types,validators`):
// the same types and validators, imported from its own folder.
import type { CreateBrandRequest } from "./vendor/rest/types.js";
import { validators } from "./vendor/rest/validators.js";

const request: CreateBrandRequest = { name: "Bluefjord Bakery", description: "Sourdough bakery in Bergen." };
// @ts-expect-error the vendored types are the contract's too
export const wrong: CreateBrandRequest = { name: 7 };
console.log(JSON.stringify({ module: "vendored", valid: validators.CreateBrandRequest(request), invalidRefused: !validators.CreateBrandRequest({ name: 7 }) }));
