// Shared background work of the MCP suite: the brand the post lifecycles run on, the batches several checks look
// at (followed at the seed's pace: every 5 s for the first minute, then 15 s backing off to 30 s, giving up after
// about 15 minutes, all scaled), and the profile builds. Each is made once per run and shared by every check
// that awaits it; all run at once. Like the REST fixtures, a job never fails a check itself: it records what
// happened and the checks judge it (or skip, with the reason, when what they need is not there).
import { randomBytes } from "node:crypto";
import type { CheckContext } from "../check.js";
import { sleep } from "../http.js";
import type { Redactor } from "../redact.js";
import type { Target } from "../target.js";
import { describeCall, McpSession, type CallOutcome } from "./client.js";
import { isEnvelope } from "./expect.js";
import type { McpHttp } from "./http.js";
import type { McpTarget, McpTokenKind } from "./target.js";

export interface JobEnv {
  target: Target;
  http: McpHttp;
  redactor: Redactor;
  signal: AbortSignal;
  onWaiting(key: string, text: string | null): void;
}

/** The data of a successful outcome, or undefined. */
export const okData = (o: CallOutcome | undefined): any => (o && !o.error && o.result && !o.result.isError && !isEnvelope(o.data) ? o.data : undefined);

export interface BrandInfo {
  brandId?: string;
  companyId?: string;
  /** get_profile's payload. */
  profile?: any;
  problem?: string;
}

export interface BatchTrack {
  key: string;
  request: Record<string, unknown>;
  created?: CallOutcome;
  batchId?: string;
  /** Every get_post_batch_status while following, in order. */
  polls: CallOutcome[];
  /** Real ms from the create call to each poll. */
  pollTimes: number[];
  /** The last payload seen. */
  last?: any;
  /** settled: copy settled (pictures may be pending); done: settled and no picture pending. */
  outcome: "done" | "settled" | "timeout" | "error";
  /** Index in polls of the first settled answer. */
  settledIndex?: number;
  /** Posts seen with their picture still rendering (before or after the batch settled), with their digest then. */
  picturesSeenRendering: Map<string, string | null>;
  /** The same posts' digest once every picture landed (view_post). */
  digestAfter: Map<string, string | null>;
  /** One more look an interval after it was done. */
  again?: CallOutcome;
  problem?: string;
}

export interface BuildTrack {
  key: string;
  request: Record<string, unknown>;
  created?: CallOutcome;
  brandId?: string;
  companyId?: string;
  /** get_profile and create_posts right after create_profile, while the build runs. */
  /** get_profile, create_posts and get_profile again right after create_profile, while the build runs. */
  during?: { profile?: CallOutcome; createPosts?: CallOutcome; profileAfter?: CallOutcome };
  /** create_profile repeated at once with the same externalId but another name and website. */
  repeat?: CallOutcome;
  /** get_workspaces with the repeat's name (it must match nothing). */
  repeatQuery?: CallOutcome;
  polls: CallOutcome[];
  /** First settled onboarding (ready or failed). */
  settled?: any;
  outcome: "ready" | "failed" | "timeout" | "error";
  /** For a failed build: the repeat that restarts it, and its polls to the end. */
  restart?: CallOutcome;
  restartPolls: CallOutcome[];
  restartOutcome?: "ready" | "failed" | "timeout" | "error";
  /** create_profile once more after the end. */
  after?: CallOutcome;
  problem?: string;
}

export class McpJobs {
  /** A few letters unique to the run, for names and external ids. */
  readonly run = randomBytes(3).toString("hex");
  readonly session: McpSession;
  readonly mcp: McpTarget;
  readonly #env: JobEnv;
  #brand?: Promise<BrandInfo>;
  readonly #batches = new Map<string, Promise<BatchTrack>>();
  readonly #builds = new Map<string, Promise<BuildTrack>>();
  #claimed = new Set<string>();
  /** The latest target time seen (epoch ms) and the real time it was seen at. */
  #seen?: { target: number; real: number };

  constructor(env: JobEnv) {
    this.#env = env;
    this.mcp = env.target.mcp!;
    this.session = new McpSession(env.http, env.target);
  }

  get requests(): number {
    return this.session.requests;
  }

  close(): Promise<void> {
    return this.session.close();
  }

  // ---- Time ----------------------------------------------------------------------------------------------------

  /** Notes a time the target wrote (ISO 8601), to estimate the target's clock. */
  sawTime(iso: unknown): void {
    if (typeof iso !== "string") return;
    const t = Date.parse(iso);
    if (Number.isNaN(t)) return;
    if (!this.#seen || t > this.#seen.target + (performance.now() - this.#seen.real))
      this.#seen = { target: t, real: performance.now() };
  }

  /**
   * The target's now, estimated from the latest time it wrote (its clock may be ahead of ours, e.g. a mock advanced
   * through its control path), or ours. A target's clock runs at the wall clock's pace whatever the time scale: the
   * scale shortens its background work, not its time.
   */
  targetNow(): number {
    const s = this.#seen;
    const estimate = s ? s.target + (performance.now() - s.real) : 0;
    return Math.max(Date.now(), estimate);
  }

  /** An ISO time `days` ahead of the target's now, in whole seconds with Z. */
  future(days: number): string {
    return new Date(this.targetNow() + days * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  }

  // ---- Polling -------------------------------------------------------------------------------------------------

  /** The seed's batch pace: first interval for the first minute (target time), then backing off to the maximum. */
  batchInterval(elapsedRealMs: number, pollsAfterFirstMinute: number): number {
    const t = this.mcp.timing;
    if (elapsedRealMs < 60_000 * t.timeScale) return t.batchPollFirstMs;
    return Math.min(t.batchPollMaxMs, t.batchPollMs + pollsAfterFirstMinute * 5_000 * t.timeScale);
  }

  /**
   * Calls `read` every `interval(polls)` until `done` says so or the deadline passes. Shows what it waits on.
   * Returns every outcome and whether it finished.
   */
  async poll(
    key: string,
    label: string,
    read: () => Promise<CallOutcome>,
    done: (o: CallOutcome) => boolean,
    interval: (elapsedMs: number, polls: number) => number,
    deadlineMs: number,
    onWaiting: (text: string | null) => void = (text) => this.#env.onWaiting(key, text),
  ): Promise<{ outcomes: CallOutcome[]; times: number[]; finished: boolean; elapsedMs: number }> {
    const started = performance.now();
    const outcomes: CallOutcome[] = [];
    const times: number[] = [];
    try {
      for (let polls = 0; ; polls++) {
        const elapsed = performance.now() - started;
        const wait = interval(elapsed, polls);
        if (elapsed + wait > deadlineMs) return { outcomes, times, finished: false, elapsedMs: elapsed };
        onWaiting(`${label}, poll ${polls + 1}, ${(elapsed / 1000).toFixed(1)} s of ${(deadlineMs / 1000).toFixed(1)} s`);
        await sleep(wait, this.#env.signal);
        const o = await read();
        outcomes.push(o);
        times.push(performance.now() - started);
        if (done(o)) return { outcomes, times, finished: true, elapsedMs: performance.now() - started };
      }
    } finally {
      onWaiting(null);
    }
  }

  // ---- The brand under test ------------------------------------------------------------------------------------

  /** The brand the post lifecycles run on: the target file's, or the readiest one the normal token reaches. */
  brand(): Promise<BrandInfo> {
    this.#brand ??= (async (): Promise<BrandInfo> => {
      const s = this.session;
      try {
        const profileOf = async (brandId: string) => okData(await s.call("get_profile", { brandId }));
        if (this.mcp.inputs.brandId) {
          const profile = await profileOf(this.mcp.inputs.brandId);
          if (!profile) return { problem: `get_profile of the target file's brand ${this.mcp.inputs.brandId} failed` };
          return { brandId: this.mcp.inputs.brandId, companyId: profile.companyId, profile };
        }
        const ws = okData(await s.call("get_workspaces", {}));
        if (!Array.isArray(ws?.workspaces)) return { problem: "get_workspaces did not list workspaces" };
        let best: BrandInfo | undefined;
        for (const w of ws.workspaces.slice(0, 10)) {
          const list = okData(await s.call("list_brands", { workspaceId: w.id }));
          for (const b of (list?.brands ?? []).filter((b: any) => b?.isActive && b?.publishReadiness === "ready").slice(0, 5)) {
            const profile = await profileOf(b.id);
            if (!profile?.readiness?.canGenerate || !profile?.readiness?.canPublish) continue;
            const score = (profile.generationPlatforms ?? []).length;
            if (!best || score > (best.profile.generationPlatforms ?? []).length) best = { brandId: b.id, companyId: profile.companyId, profile };
          }
          if (best && (best.profile.generationPlatforms ?? []).length >= 2) break;
        }
        return best ?? { problem: "no brand the normal token reaches can generate and publish (give mcp.inputs.brand_id in the target file)" };
      } catch (err) {
        return { problem: this.#env.redactor.text((err as Error).message) };
      }
    })();
    return this.#brand;
  }

  /** The brand's id; skips the check when there is none. */
  async brandId(ctx: CheckContext): Promise<string> {
    const b = await this.brand();
    if (!b.brandId) ctx.skip(`needs a brand that can generate and publish: ${b.problem}`);
    return b.brandId;
  }

  // ---- Batches -------------------------------------------------------------------------------------------------

  batchRequests(brandId: string): Record<string, Record<string, unknown>> {
    const t = this.mcp.triggers;
    return {
      /** The posts the lifecycles use: one per check that changes a post. */
      main: { brandId, brief: "Conformance run: the first cold mornings of autumn and warm bread from the oven.", count: 20 },
      /** Some slots fail. */
      partial: { brandId, brief: `Conformance run: weekend specials ${t.briefPartial ?? ""}`.trim(), count: 4, includeImage: false },
      /** Every slot fails. */
      fails: { brandId, brief: `Conformance run: anything ${t.briefFails ?? ""}`.trim(), count: 2, includeImage: false },
    };
  }

  /** A batch of the brand, created once per key and followed until its pictures landed (or the give-up time). */
  batch(key: "main" | "partial" | "fails"): Promise<BatchTrack> {
    let p = this.#batches.get(key);
    if (!p) {
      p = (async () => {
        const brand = await this.brand();
        const request = brand.brandId ? this.batchRequests(brand.brandId)[key]! : {};
        if (!brand.brandId) return emptyBatch(key, request, `no brand to make posts for: ${brand.problem}`);
        return this.followNewBatch(key, request, this.session);
      })();
      this.#batches.set(key, p);
    }
    return p;
  }

  /** Creates a batch and follows it: copy settled, pictures landed (digests read before and after), one more look. */
  async followNewBatch(key: string, request: Record<string, unknown>, s: McpSession, waitingKey = `batch:${key}`, pictures = true): Promise<BatchTrack> {
    const track = emptyBatch(key, request);
    try {
      track.created = await s.call("create_posts", request);
      const created = okData(track.created);
      if (!created || typeof created.batchId !== "string") {
        track.problem = `create_posts did not answer a batch: ${describeCall(track.created)}`;
        return track;
      }
      track.batchId = created.batchId;
      track.last = created;
      let afterFirstMinute = 0;
      const read = async () => {
        const o = await s.call("get_post_batch_status", { batchId: created.batchId });
        const d = okData(o);
        if (d) {
          track.last = d;
          this.sawTime(d.updatedAt ?? d.createdAt);
          await this.#notePicturesRendering(track, d, s);
        }
        return o;
      };
      const interval = (elapsed: number) => {
        const i = this.batchInterval(elapsed, afterFirstMinute);
        if (elapsed >= 60_000 * this.mcp.timing.timeScale) afterFirstMinute++;
        return i;
      };
      const deadline = this.mcp.timing.batchGiveUpMs;
      const started = performance.now();
      // Copy.
      const copy = await this.poll(waitingKey, `batch ${created.batchId} (${key}): waiting to settle`, read, (o) => !okData(o) || okData(o).settled === true, interval, deadline);
      track.polls.push(...copy.outcomes);
      track.pollTimes.push(...copy.times);
      const last = copy.outcomes.at(-1);
      if (last && !okData(last)) {
        track.problem = `get_post_batch_status failed while waiting: ${describeCall(last)}`;
        return track;
      }
      if (!copy.finished) {
        track.outcome = "timeout";
        track.problem = `batch ${created.batchId} had not settled after ${(copy.elapsedMs / 1000).toFixed(1)} s (${copy.outcomes.length} polls; give-up time ${(deadline / 1000).toFixed(1)} s)`;
        return track;
      }
      track.outcome = "settled";
      track.settledIndex = track.polls.length - 1;
      if (!pictures) return track;
      // Pictures.
      const landed = (o: CallOutcome) => !okData(o) || (okData(o).imagesPendingCount ?? 0) === 0;
      if (!landed(last!)) {
        const rest = await this.poll(waitingKey, `batch ${created.batchId} (${key}): pictures rendering`, read, landed, interval, Math.max(0, deadline - (performance.now() - started)));
        track.polls.push(...rest.outcomes);
        track.pollTimes.push(...rest.times.map((t) => t + copy.elapsedMs));
        const end = rest.outcomes.at(-1);
        if (end && !okData(end)) {
          track.problem = `get_post_batch_status failed while pictures rendered: ${describeCall(end)}`;
          return track;
        }
        if (!rest.finished) {
          track.problem = `batch ${created.batchId}: pictures still rendering after the give-up time`;
          return track;
        }
      }
      track.outcome = "done";
      for (const id of track.picturesSeenRendering.keys()) track.digestAfter.set(id, okData(await s.call("view_post", { id }))?.contentDigest ?? null);
      this.#env.onWaiting(waitingKey, `batch ${created.batchId} (${key}): one more look to see it stays`);
      await sleep(this.mcp.timing.batchPollMs, this.#env.signal);
      track.again = await s.call("get_post_batch_status", { batchId: created.batchId });
      return track;
    } catch (err) {
      track.outcome = "error";
      track.problem = this.#env.redactor.text((err as Error).message);
      return track;
    } finally {
      this.#env.onWaiting(waitingKey, null);
    }
  }

  /**
   * Records the posts of a batch answer whose picture still renders, with their digest then: the item's own
   * contentDigest (in development) from the same answer, or else view_post's, kept only while it still shows no
   * picture (one that landed between the two reads says nothing).
   */
  async #notePicturesRendering(track: BatchTrack, batch: any, s: McpSession): Promise<void> {
    const items: any[] = Array.isArray(batch.items) ? batch.items : [];
    for (const i of items) {
      if (i?.imagePending !== true || typeof i.postId !== "string" || track.picturesSeenRendering.has(i.postId)) continue;
      if ("contentDigest" in i) track.picturesSeenRendering.set(i.postId, i.contentDigest ?? null);
      else {
        const view = okData(await s.call("view_post", { id: i.postId }));
        if (Array.isArray(view?.imageUrls) && view.imageUrls.length === 0) track.picturesSeenRendering.set(i.postId, view.contentDigest ?? null);
      }
    }
  }

  /** The main batch once its pictures landed; skips the check otherwise. */
  async doneBatch(ctx: CheckContext): Promise<BatchTrack> {
    const t = await this.batch("main");
    if (t.outcome !== "done") ctx.skip(`needs the main batch with its pictures landed: ${t.problem ?? t.outcome}`);
    return t;
  }

  /** A created post of the main batch with its picture, for one check alone (each post is handed out once). */
  async claimPost(ctx: CheckContext, purpose: string): Promise<string> {
    const t = await this.doneBatch(ctx);
    const items: any[] = Array.isArray(t.last?.items) ? t.last.items : [];
    const free = items.find((i) => i?.status === "created" && typeof i.postId === "string" && i.hasMedia !== false && !this.#claimed.has(i.postId));
    if (!free) ctx.skip(`no post of the main batch is left for ${purpose}`);
    this.#claimed.add(free.postId);
    return free.postId as string;
  }

  // ---- Profile builds (partner) --------------------------------------------------------------------------------

  /** create_profile made once per key with the partner token, and followed to ready or failed. */
  build(key: "main" | "fails"): Promise<BuildTrack> {
    let p = this.#builds.get(key);
    if (!p) {
      p = this.#followBuild(key);
      this.#builds.set(key, p);
    }
    return p;
  }

  async #followBuild(key: "main" | "fails"): Promise<BuildTrack> {
    const s = this.session;
    const website = key === "fails" ? (this.mcp.triggers.websiteFailsBuild ?? "") : this.mcp.inputs.website;
    const name = `Conformance ${key} ${this.run}`;
    const request = { websiteUrl: website, name, externalId: `conformance-${this.run}-${key}` };
    const track: BuildTrack = { key, request, polls: [], restartPolls: [], outcome: "error" };
    const waitKey = `build:${key}`;
    const as: McpTokenKind = "partner";
    try {
      track.created = await s.call("create_profile", request, as);
      const created = okData(track.created);
      if (!created || typeof created.brandId !== "string") {
        track.problem = `create_profile did not answer a profile: ${describeCall(track.created)}`;
        return track;
      }
      track.brandId = created.brandId;
      track.companyId = created.companyId;
      const brandId = created.brandId as string;
      if (key === "main") {
        track.during = {
          profile: await s.call("get_profile", { brandId }, as),
          createPosts: await s.call("create_posts", { brandId, brief: "Conformance run: opening week.", count: 1 }, as),
        };
        // Read once more: create_posts is judged only when the build was running before and after it.
        track.during.profileAfter = await s.call("get_profile", { brandId }, as);
        const otherName = `Conformance repeat ${this.run}`;
        track.repeat = await s.call("create_profile", { websiteUrl: this.mcp.inputs.website.replace(/^(https?:\/\/)?/, "https://repeat."), name: otherName, externalId: request.externalId, allowTeamPhotos: true }, as);
        track.repeatQuery = await s.call("get_workspaces", { query: otherName }, as);
      }
      const t = this.mcp.timing;
      const onboarding = (o: CallOutcome) => okData(o)?.onboarding?.status;
      const follow = async (label: string) =>
        this.poll(waitKey, `profile ${brandId} (${key}): ${label}`, () => s.call("get_profile", { brandId }, as), (o) => !okData(o) || onboarding(o) !== "building", () => t.buildPollMs, t.buildDeadlineMs);
      const settle = (r: Awaited<ReturnType<typeof follow>>): BuildTrack["outcome"] => {
        const last = r.outcomes.at(-1);
        if (!r.finished) return "timeout";
        if (!last || !okData(last)) return "error";
        return onboarding(last) === "ready" ? "ready" : onboarding(last) === "failed" ? "failed" : "error";
      };
      if (created.status === "failed") {
        track.outcome = "failed";
        track.settled = { status: "failed", error: created.error };
      } else {
        const r = await follow("building → ready or failed");
        track.polls.push(...r.outcomes);
        track.outcome = settle(r);
        track.settled = okData(r.outcomes.at(-1))?.onboarding;
        if (track.outcome === "timeout") track.problem = `profile ${brandId} was still building after ${(r.elapsedMs / 1000).toFixed(1)} s`;
        if (track.outcome === "error") track.problem = `get_profile while building: ${describeCall(r.outcomes.at(-1) ?? track.created)}`;
      }
      if (key === "fails" && track.outcome === "failed") {
        track.restart = await s.call("create_profile", request, as);
        if (okData(track.restart)?.status === "building") {
          const r = await follow("restarted: building → ready");
          track.restartPolls.push(...r.outcomes);
          track.restartOutcome = settle(r);
        }
      }
      if (track.outcome === "ready" || track.restartOutcome === "ready") track.after = await s.call("create_profile", request, as);
      return track;
    } catch (err) {
      track.problem = this.#env.redactor.text((err as Error).message);
      return track;
    } finally {
      this.#env.onWaiting(waitKey, null);
    }
  }

  /** The main build once ready; skips the check otherwise. */
  async readyBuild(ctx: CheckContext): Promise<BuildTrack> {
    const t = await this.build("main");
    if (t.outcome !== "ready") ctx.skip(`needs a profile built by create_profile: ${t.problem ?? t.outcome}`);
    return t;
  }
}

function emptyBatch(key: string, request: Record<string, unknown>, problem?: string): BatchTrack {
  return { key, request, polls: [], pollTimes: [], outcome: "error", picturesSeenRendering: new Map(), digestAfter: new Map(), ...(problem ? { problem } : {}) };
}
