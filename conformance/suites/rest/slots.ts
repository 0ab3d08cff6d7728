// The REST suite's target-file slots (the `slot:` of spec/rules/rest.yaml's rules, the section's inputs and triggers):
// where each one's value is in the parsed target, and how a user gives it. A slot the catalogue or the section gains
// and this table lacks is a compile error. Checks read them only through ctx.slot (core/slots.ts).
import type { RestFileSlot } from "../../../generated/rules.js";
import { triggerSlots, type SlotTable } from "../../core/slots.js";
import { camelKey } from "../../core/target-values.js";
import { restTriggerSlots, type Target } from "./target.js";

export const restSlots = {
  "rest.url": { value: (t) => t.url.href, what: "the target's address" },
  "rest.tokens.expired": { value: (t) => t.tokens.expired, what: "an expired token", env: "IDEAS_EXPIRED_TOKEN" },
  "rest.tokens.other_team": { value: (t) => t.tokens.otherTeam, what: "a token of another team", env: "IDEAS_OTHER_TEAM_TOKEN" },
  "rest.inputs.website": {
    value: (t) => t.inputs.website,
    what: "a website the target can read",
    shared: "an input with a default; the shared brands (fixtures.ts) are made from it, and any check may await one",
  },
  "rest.inputs.other_website": {
    value: (t) => t.inputs.otherWebsite,
    what: "a second website the target can read",
    shared: "an input with a default: a check sends it where it changes a brand's website",
  },
  ...triggerSlots("rest", restTriggerSlots, (t: Target, key) => t.triggers[camelKey(key)]),
} as const satisfies SlotTable<Target, RestFileSlot>;
