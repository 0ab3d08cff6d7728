// The bearer tokens the REST mock knows. Fixed, readable values so tests, docs and people can type them.
// Teams isolate data: a token reaches only the brands, batches and ideas its team created (others answer 403).

export interface RestTestToken {
  token: string;
  /** The team the token belongs to; `null` when the token reaches nothing. */
  team: string | null;
  description: string;
  kind: "valid" | "expired" | "unknown" | "rate_limited";
}

/** Requests per (time-scaled) minute a `rate_limited` token may send before it gets 429. */
export const tinyRateLimitPerMinute = 3;
/** Requests per (time-scaled) minute any other valid token may send before it gets 429. */
export const defaultRateLimitPerMinute = 6_000;

export const restTestTokens: RestTestToken[] = [
  { token: "test_team_a", team: "team_a", kind: "valid", description: "team A: valid token" },
  { token: "test_team_b", team: "team_b", kind: "valid", description: "team B: valid token (cannot reach team A's data)" },
  { token: "test_expired", team: "team_a", kind: "expired", description: "expired token: every request answers 401" },
  {
    token: "test_unknown",
    team: null,
    kind: "unknown",
    description: "not issued for this API: every request answers 401 (so does any other unlisted token)",
  },
  {
    token: "test_rate_limited",
    team: "team_a",
    kind: "rate_limited",
    description: `team A, tiny rate limit: 429 with Retry-After after ${tinyRateLimitPerMinute} requests per (time-scaled) minute`,
  },
];
