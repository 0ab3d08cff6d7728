// The magic inputs of the REST mock, like a payment sandbox's test cards: values that steer the mock into a
// state the real service reaches only by bad luck. Exported as data so the README, the CLI and the tests share
// one table; the predicates below are the only place the mock checks them.
import { tinyRateLimitPerMinute } from "./tokens.js";

export interface MagicInput {
  /** What to send. */
  input: string;
  /** Where to send it. */
  where: string;
  /** What happens. */
  effect: string;
}

export const magicInputs: readonly MagicInput[] = [
  {
    input: "a website whose host ends in `.invalid` (e.g. `https://closed.invalid`)",
    where: "`website` of `POST /v1/brands` or `PATCH /v1/brands/{brand_id}`",
    effect: "the read fails: the brand goes from `reading` to `failed` (the site is unreachable)",
  },
  {
    input: "a website on a private, loopback or link-local host (`localhost`, `127.0.0.1`, `10.0.0.5`, `169.254.169.254`, `[::1]`, `0x7f000001`, `[::ffff:127.0.0.1]`, …; judged as the MCP mock judges create_profile's websiteUrl)",
    where: "`website` of `POST /v1/brands` or `PATCH /v1/brands/{brand_id}`",
    effect: "`400` `invalid_request` with `param` `website`, nothing created or changed (inferred: the seed does not say which sites the service refuses to read)",
  },
  {
    input: "`no-backing` anywhere in the website (e.g. `https://www.no-backing-bakery.no`)",
    where: "`website` of the brand",
    effect:
      "the read finds no offerings, so ideas about offerings cannot be backed: they are listed in the batch's `left_out` instead of `data` (any `count` of 2 or more leaves at least one out)",
  },
  {
    input: "`[fail]` in the focus",
    where: "`focus` of `POST /v1/ideas`",
    effect: "the batch goes from `thinking` to `failed` with an `error`",
  },
  {
    input: "`[server-error]` in the focus",
    where: "`focus` of `POST /v1/ideas`",
    effect: "the call answers `500` `server_error` and creates nothing (the server keeps serving)",
  },
  {
    input: "token `test_rate_limited`",
    where: "`Authorization: Bearer test_rate_limited`",
    effect: `after ${tinyRateLimitPerMinute} requests in one (time-scaled) minute, \`429\` \`rate_limit\` with \`Retry-After\` (whole seconds)`,
  },
  {
    input: "token `test_expired`",
    where: "`Authorization`",
    effect: "`401` `authentication_error` (code `token_expired`)",
  },
  {
    input: "token `test_unknown` (or any unlisted token)",
    where: "`Authorization`",
    effect: "`401` `authentication_error` (code `invalid_token`)",
  },
];

/** The read of this website fails. */
export const websiteFailsToRead = (host: string): boolean => host === "invalid" || host.endsWith(".invalid");

/** The read of this website finds nothing that backs offering ideas. */
export const websiteHasNoBacking = (website: string): boolean => website.toLowerCase().includes("no-backing");

/** The batch fails. */
export const focusFailsBatch = (focus: string | undefined): boolean => focus?.toLowerCase().includes("[fail]") ?? false;

/** The create call answers 500. */
export const focusServerError = (focus: string | undefined): boolean => focus?.toLowerCase().includes("[server-error]") ?? false;
