// Where the conformance suite finds what every suite shares (the rules schema, the target file's schema, the
// reference target file), resolved from this file so the suite works from any working directory. The contract
// documents and rule catalogues are the suites' (lib/contract/).
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const targetSchemaPath = path.join(repoRoot, "generated/conformance/target-file.schema.json");
export const rulesSchemaPath = path.join(repoRoot, "spec/rules/rules.schema.json");
export const referenceTargetPath = path.join(repoRoot, "conformance/targets/reference.yaml");
