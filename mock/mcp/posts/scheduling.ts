// Booking: schedule_post, reschedule_posts, unschedule_platform and the withdrawal the profiles domain asks for
// when a client is deactivated. Order of checks per post: the approval gate, a connected channel, live and held
// destinations, pre-flight (every problem at once), then the provider destination by destination.
import type {
  DryRunBlocked,
  Move,
  ReschedulePostsInput,
  ReschedulePostsOutput,
  SchedulePostInput,
  SchedulePostOutput,
  UnschedulePlatformInput,
  UnschedulePlatformOutput,
} from "../../../generated/mcp/types.js";
import { ToolError, type BrandRecord, type ToolContext } from "../context.js";
import { approvalGate } from "./approval.js";
import { blocked, preflight } from "./preflight.js";
import { watch } from "./posts.js";
import { attempt, checkPublisher, healthRefusal } from "./provider.js";
import { destinationOf, isHeld, iso, loadPost, parseTime, requireActive, selectDestinations, type PostsState } from "./state.js";
import { newPlatformPostId, type DestinationState, type Post } from "./store.js";

/** Scheduling and publishing need at least one connected channel. */
export function requireSomeChannel(brand: BrandRecord, selection: readonly DestinationState[]): void {
  if (brand.connectedDestinations().length === 0) {
    throw new ToolError("platform_not_connected", "The profile has no connected channel; send the client a connect link from create_connect_link.", {
      unavailablePlatforms: selection.map((d) => d.platform),
      connectedPlatforms: [],
    });
  }
}

/** What a dry run reports: pre-flight problems and refusals the channels' health makes certain. */
export function dryRunBlocked(state: PostsState, brand: BrandRecord, post: Post, destinations: readonly DestinationState[]): DryRunBlocked[] {
  const found: DryRunBlocked[] = preflight(state, post, destinations).map((p) => ({ platform: p.platform, code: p.code, message: p.message }));
  for (const d of destinations) {
    const health = healthRefusal(brand, d.platform);
    if (health) found.push({ platform: d.platform, code: health.code, message: health.message });
  }
  return found;
}

function refuseLive(selection: readonly DestinationState[]): void {
  const live = selection.filter((d) => d.status === "published").map((d) => d.platform);
  if (live.length) {
    throw new ToolError("already_published", `${live.join(", ")} ${live.length === 1 ? "is" : "are"} already live; unpublish with unpublish_post or make a new post.`, {
      publishedPlatforms: live,
    });
  }
}

// rule: already-scheduled-locked
function locked(destinations: readonly DestinationState[]): ToolError {
  return new ToolError("already_scheduled", "A provider holds these destinations; withdraw each with unschedule_platform (one call per lockedDestinations entry).", {
    lockedDestinations: destinations.map((d) => ({ platform: d.platform, platformPostId: d.platformPostId! })),
  });
}

type Mode = "schedule" | "move";

/**
 * Books the selected destinations for `when`. schedule: a destination already booked answers already_scheduled,
 * except in a retry after schedule_failed (same time, some destinations outstanding), which books only those.
 * move (reschedule_posts): booked destinations move to the new time.
 */
function book(
  state: PostsState,
  ctx: ToolContext,
  args: { id: string; scheduledAt: string; platforms?: string[]; dryRun?: boolean },
  mode: Mode,
): SchedulePostOutput {
  const { post, brand } = loadPost(state, ctx, args.id);
  requireActive(brand);
  approvalGate(state, post, brand);
  const when = parseTime(args.scheduledAt, "scheduledAt");
  const now = state.clock.now();
  if (when <= now) {
    throw new ToolError("bad_request", "scheduledAt must be in the future.", {
      invalidFields: ["scheduledAt"],
      fieldErrors: [{ field: "scheduledAt", message: `Must be after ${iso(now)}.` }],
    });
  }
  const selection = selectDestinations(post, args.platforms);
  requireSomeChannel(brand, selection);
  refuseLive(selection);
  const inFlight = selection.filter((d) => d.status === "publishing");
  if (inFlight.length) throw locked(inFlight);
  const held = selection.filter(isHeld);
  let outstanding = selection.filter((d) => !isHeld(d));
  if (mode === "move") {
    outstanding = selection;
  } else if (held.length) {
    const retry = outstanding.length > 0 && held.every((d) => d.bookedAt === when);
    if (!retry) throw locked(held);
  }
  if (args.dryRun) return { id: post.id, dryRun: true, blocked: dryRunBlocked(state, brand, post, outstanding) };
  const problems = preflight(state, post, outstanding);
  if (problems.length) {
    throw new ToolError("schedule_preflight_failed", `Nothing was booked: ${problems.map((p) => p.message).join(" ")}`, { blockedDestinations: blocked(problems) });
  }
  checkPublisher(post);
  const refused: { platform: string; code: string }[] = [];
  for (const d of outstanding) {
    const refusal = attempt(brand, post, d);
    if (refusal) {
      d.error = refusal;
      refused.push({ platform: d.platform, code: refusal.code });
      continue;
    }
    d.status = "scheduled";
    d.bookedAt = when;
    d.platformPostId ??= newPlatformPostId();
    d.error = null;
  }
  post.intendedAt = when;
  post.updatedAt = now;
  watch(state, post);
  const scheduledDestinations = post.destinations.filter(isHeld).map((d) => d.platform);
  if (refused.length) {
    throw new ToolError("schedule_failed", `The provider refused ${refused.map((r) => `${r.platform} (${r.code})`).join(", ")}${scheduledDestinations.length ? `; ${scheduledDestinations.join(", ")} hold a booking` : ""}.`, {
      refusedDestinations: refused,
      scheduledDestinations,
    });
  }
  return { id: post.id, scheduledAt: iso(when), scheduledDestinations };
}

// rule: platforms-subset schedule-failed-rule schedule-failed-retry dry-run-blocked schedule-failed-retryable
export function schedulePost(state: PostsState, ctx: ToolContext, args: SchedulePostInput): SchedulePostOutput {
  return book(state, ctx, args, "schedule");
}

// rule: reschedule-per-entry
export function reschedulePosts(state: PostsState, ctx: ToolContext, args: ReschedulePostsInput): ReschedulePostsOutput {
  const seen = new Set<string>();
  const moves: Move[] = args.moves.map((entry, i) => {
    try {
      if (seen.has(entry.postId)) {
        throw new ToolError("bad_request", "This post is named earlier in the list; name each post once.", {
          invalidFields: [`moves.${i}.postId`],
          fieldErrors: [{ field: `moves.${i}.postId`, message: "Duplicate entry." }],
        });
      }
      seen.add(entry.postId);
      const out = book(state, ctx, { id: entry.postId, scheduledAt: entry.scheduledAt, platforms: entry.platforms }, "move");
      return { postId: entry.postId, ok: true, scheduledAt: out.scheduledAt!, scheduledDestinations: out.scheduledDestinations!, error: null };
    } catch (err) {
      if (!(err instanceof ToolError)) throw err;
      return { postId: entry.postId, ok: false, error: err.envelope().error };
    }
  });
  return { moves };
}

// rule: already-scheduled-locked
export function unschedulePlatform(state: PostsState, ctx: ToolContext, args: UnschedulePlatformInput): UnschedulePlatformOutput {
  const { post } = loadPost(state, ctx, args.id);
  const d = destinationOf(post, args.platform, "platform");
  const answer = () => ({ id: post.id, platform: d.platform, unscheduled: true, scheduledDestinations: post.destinations.filter(isHeld).map((x) => x.platform) });
  if (d.lastWithdrawnId === args.platformPostId && !isHeld(d)) return answer();
  if (d.platformPostId !== args.platformPostId) {
    throw new ToolError("not_found", `No booking ${args.platformPostId} on the post's ${d.platform} destination; read get_post_status for the current platformPostId.`);
  }
  if (!isHeld(d)) {
    throw new ToolError("bad_request", `${d.platform} is ${d.status === "published" ? "live" : "being published"}, not booked; take it down with unpublish_post.`, {
      invalidFields: ["platformPostId"],
      fieldErrors: [{ field: "platformPostId", message: "Not a booking." }],
    });
  }
  checkPublisher(post);
  withdraw(d);
  post.updatedAt = state.clock.now();
  return answer();
}

/** Takes one destination out of its booking; it keeps its date. */
function withdraw(d: DestinationState): void {
  d.lastWithdrawnId = d.platformPostId;
  d.status = "unscheduled";
  d.platformPostId = null;
}

/** PostsApi.withdrawScheduled: every booked destination of the brand → unscheduled; the number of posts touched. */
export function withdrawScheduled(state: PostsState, brandId: string): number {
  let posts = 0;
  for (const post of state.posts.ofOwner(brandId)) {
    const held = post.destinations.filter(isHeld);
    if (!held.length) continue;
    held.forEach(withdraw);
    post.updatedAt = state.clock.now();
    posts++;
  }
  return posts;
}
