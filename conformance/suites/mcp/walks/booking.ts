// The MCP model of bookings: what seed 001 fixes about scheduling a post a walk made, and nothing the reference
// chooses. The approval gate runs before schedule_post and each reschedule_posts entry (a rejection answers
// approval_rejected until a new approve_post, an edit after an approval approval_stale); a booked post is locked
// (schedule_post again answers already_scheduled naming each held destination with its platformPostId, reject_post
// is refused the same way); get_post_status shows the bookings (with the platformPostId unschedule_platform takes)
// and, once each was withdrawn, none. Whether a booking is taken at all (approval required, pre-flight, connected
// channels) is the target's: the walk learns it from the answer. Every prediction names its rule of
// spec/rules/mcp.yaml.
import type { Judge } from "../../../core/judge.js";

/** What judging needs: the assertion (every check's context has it). */
export type Expect = Pick<Judge, "expect">;

/** What the model knows of a post's decisions and bookings (a PostModel of model.ts is one). */
export interface PostBooking {
  label: string;
  /** The contentDigest of the walk's last read of the post. */
  digest?: string | null;
  /** An edit went through since that read. */
  edited?: boolean;
  approval?: { decision: "approved" | "rejected" };
  /** The latest decision recorded is a rejection (an edit does not clear it; only approve_post does). */
  rejected?: boolean;
  /** An edit went through after the latest approval: the gate refuses the post as approval_stale. */
  staleApproval?: boolean;
  /** A booking was answered (schedule_post, reschedule_posts), or every booked destination was withdrawn since. */
  booking?: "booked" | "withdrawn";
  /** The destinations the booking named with `platforms` (undefined: all of the post's). */
  bookedWith?: [string, ...string[]];
  /** The destinations the walk last read for the post. */
  platforms?: string[];
}

type Data = Record<string, unknown>;

/** The codes of a post a provider holds (already-scheduled-locked, reject-booked-locked). */
export const lockedCodes = ["already_scheduled", "post_already_scheduled"] as const;

const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s === undefined ? "undefined" : s.length > 200 ? `${s.slice(0, 200)}…` : s;
};
const list = (v: unknown): Data[] => (Array.isArray(v) ? v.filter((x): x is Data => typeof x === "object" && x !== null) : []);

/** What the approval gate must refuse the post with, when the walk's own decisions fix it. */
export function gateOf(p: PostBooking, tool: "schedule_post" | "reschedule_posts"): { code: string; rule: string } | undefined {
  if (p.rejected) return { code: "approval_rejected", rule: `approval-rejected/${tool}` };
  if (p.staleApproval) return { code: "approval_stale", rule: `approval-stale/${tool}` };
  return undefined;
}

/** The destinations get_post_status shows booked, with the provider's id of each booking. */
export function heldIn(s: Data): { platform: string; platformPostId: string }[] {
  return list(s.platformResults)
    .filter((r) => r.status === "scheduled" && typeof r.platformPostId === "string" && typeof r.platform === "string")
    .map((r) => ({ platform: r.platform as string, platformPostId: r.platformPostId as string }));
}

/** Judges get_post_status of a post the walk knows, and returns what it shows booked. */
export function judgePostStatus(j: Expect, p: PostBooking, s: Data, where: string): { platform: string; platformPostId: string }[] {
  const held = heldIn(s);
  if (typeof s.contentDigest === "string" && typeof p.digest === "string" && !p.edited)
    j.expect(s.contentDigest === p.digest, "digest-agrees-across-views/get_post_status", `${where}: the walk last read contentDigest ${show(p.digest)} for ${p.label} and nothing changed it; get_post_status shows ${show(s.contentDigest)}`);
  if (p.booking === "booked")
    j.expect(held.length > 0, "already-scheduled-locked/locked-destinations", `${where}: ${p.label} was booked and nothing withdrew it; get_post_status shows no destination booked with a platformPostId: ${show(s.platformResults)}`);
  if (p.booking === "withdrawn")
    j.expect(held.length === 0, "already-scheduled-locked/unschedule-withdraws", `${where}: every booked destination of ${p.label} was withdrawn; get_post_status still shows ${show(held)} booked`);
  return held;
}

/** Judges the refusal of schedule_post for a booked post: each held destination named with its platformPostId. */
export function judgeLocked(j: Expect, p: PostBooking, e: Data, where: string): void {
  const locked = list(e.lockedDestinations);
  j.expect(
    locked.length > 0 && locked.every((l) => typeof l.platform === "string" && typeof l.platformPostId === "string"),
    "already-scheduled-locked/locked-destinations",
    `${where}: ${p.label} is booked; ${show(e.code)} names lockedDestinations ${show(locked)} (each held platform with its platformPostId)`,
  );
}

/** The destinations a schedule_preflight_failed refusal blocks (to book the others, as the seed advises). */
export const blockedIn = (e: Data | undefined): string[] =>
  e?.code === "schedule_preflight_failed" ? list(e.blockedDestinations).flatMap((b) => (typeof b.platform === "string" ? [b.platform] : [])) : [];

/** The destinations a view of the post names (view_post's destinations, or a batch item's platforms). */
export const platformsIn = (v: Data): string[] | undefined => {
  const named = Array.isArray(v.platforms) ? v.platforms : list(v.destinations).map((d) => d.platform);
  const out = named.filter((x): x is string => typeof x === "string");
  return out.length ? out : undefined;
};

/** Learns a decision the post's record now holds: only a new approval clears a rejection or an outdated approval. */
export function learnDecision(p: PostBooking, decision: "approved" | "rejected"): void {
  p.rejected = decision === "rejected";
  p.staleApproval = false;
}

/** Learns an edit that went through: an approval of the content before it is outdated (a rejection stays). */
export function learnEdit(p: PostBooking): void {
  if (p.approval?.decision === "approved") p.staleApproval = true;
}
