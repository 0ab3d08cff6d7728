// The REST suite's target-file slots (the `slot:` of spec/rules/rest.yaml's rules): where each one's value is in the
// parsed target, and how a user gives it. A slot the catalogue gains and this table lacks is a compile error.
import type { RestTargetSlot } from "../../../generated/rules.js";
import type { SlotTable } from "../../core/slots.js";
import type { Target } from "./target.js";

export const restSlots = {
  "rest.url": { value: (t) => t.url.href, what: "the target's address" },
  "rest.tokens.expired": { value: (t) => t.tokens.expired, what: "an expired token", env: "IDEAS_EXPIRED_TOKEN" },
  "rest.tokens.other_team": { value: (t) => t.tokens.otherTeam, what: "a token of another team", env: "IDEAS_OTHER_TEAM_TOKEN" },
  "rest.triggers.website_fails_read": { value: (t) => t.triggers.websiteFailsRead, what: "a website the target fails to read" },
  "rest.triggers.focus_fails_batch": { value: (t) => t.triggers.focusFailsBatch, what: "a focus that fails a batch" },
  "rest.triggers.focus_server_error": { value: (t) => t.triggers.focusServerError, what: "a focus that makes the target fail on its side" },
  "rest.triggers.rate_limited_token": { value: (t) => t.triggers.rateLimitedToken, what: "a token that hits the rate limit" },
} as const satisfies SlotTable<Target, RestTargetSlot>;
