// The REST suite's rule catalogue (spec/rules/rest.yaml), its pointers and families resolved in the generated
// OpenAPI document (lib/contract/).
import { restRulesPath } from "../../../lib/contract/documents.js";
import { restContract } from "../../../lib/contract/index.js";
import { loadRules, type RuleCatalogue } from "../../core/rules.js";

export { restContract, restRulesPath };

/** The catalogue, loaded once per process (core/rules.ts). */
export const restCatalogue = (): RuleCatalogue => loadRules(restRulesPath, restContract);
