// The REST suite's target-file slots (the `slot:` of spec/rules/rest.yaml's rules): where each one's value is in the
// parsed target, and how a user gives it. A slot the catalogue gains and this table lacks is a compile error.
import type { RestTargetSlot } from "../../../generated/rules.js";
import { triggerSlots, type SlotTable } from "../../core/slots.js";
import { camelKey } from "../../core/target-values.js";
import { restTriggerSlots, type Target } from "./target.js";

export const restSlots = {
  "rest.url": { value: (t) => t.url.href, what: "the target's address" },
  "rest.tokens.expired": { value: (t) => t.tokens.expired, what: "an expired token", env: "IDEAS_EXPIRED_TOKEN" },
  "rest.tokens.other_team": { value: (t) => t.tokens.otherTeam, what: "a token of another team", env: "IDEAS_OTHER_TEAM_TOKEN" },
  ...triggerSlots("rest", restTriggerSlots, (t: Target, key) => t.triggers[camelKey(key)]),
} as const satisfies SlotTable<Target, RestTargetSlot>;
