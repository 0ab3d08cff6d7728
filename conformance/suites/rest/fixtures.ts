// Shared background work: the brands and batches several checks look at, each made once per run and followed
// through its transitions (polled at the seed's pace, scaled), then looked at once more after it settled so
// the checks can see whether a terminal state stays. Every check awaiting the same fixture shares one job, and
// all jobs run at once, so a run takes about as long as its slowest background job.
//
// A fixture never fails a check itself: it records what happened (a "track") and the checks judge it. A check
// that only needs a ready brand or a done batch is skipped, with the reason, when there is none.
import type { RuleId } from "../../../generated/rules.js";
import { randomBytes } from "node:crypto";
import type { RunContext } from "../../core/judge.js";
import { currentExchangeLog } from "../../core/evidence.js";
import { currentReplyJudge } from "./replies.js";
import { pathOf } from "./contract.js";
import { apiClient, BudgetExceeded, sleep, type ApiClient, type ApiResponse, type Transport } from "../../core/http.js";
import type { Redactor } from "../../core/redact.js";
import type { Answered } from "../../core/answered.js";
import type { Brand, IdeaBatch } from "../../../generated/rest/types.js";
import type { Target } from "./target.js";

export type Outcome = "settled" | "timeout" | "error" | "stateless";

/** A brand or batch as the target answered it (untrusted: any part may be missing). */
export type Settling = Answered<Brand | IdeaBatch>;

export interface Track {
  kind: "brand" | "batch";
  key: string;
  /** What was sent to create it. */
  request: Record<string, any>;
  /** The create answer (undefined when the request itself failed). */
  created?: ApiResponse;
  id?: string;
  /** Every GET while waiting, in order. */
  history: ApiResponse[];
  /** The last body seen (create answer or GET). */
  last?: Settling;
  /** settled: reached a status other than reading/thinking. */
  outcome: Outcome;
  /** One more GET an interval after it settled. */
  again?: ApiResponse;
  /** What went wrong, for skip reasons and failure messages. */
  problem?: string;
  /** Real milliseconds from the create request to settling. */
  elapsedMs: number;
  /** For a batch: the brand it was made for. */
  brandId?: string;
}

export interface Statefulness {
  stateful: boolean;
  reason: string;
  /** The probe brand's id, when one was made. */
  brandId?: string;
  /** The seed rule the target broke when it left the suite without a probe brand (its create refused). */
  rule?: RuleId;
}

export interface FixtureEnv {
  target: Target;
  transport: Transport;
  redactor: Redactor;
  signal: AbortSignal;
  /** Shows (or, with null, clears) what a background job waits on. */
  onWaiting(key: string, text: string | null): void;
}

/**
 * The track, once settled, with its latest exchanges (the create, the last look, the look after it settled) in the
 * evidence of the check that asked for it: a failure judged on a shared brand or batch shows the exchanges it was
 * judged on, and their reproduction, though another check made the requests.
 */
function shown(p: Promise<Track>): Promise<Track> {
  const log = currentExchangeLog();
  const judge = currentReplyJudge();
  if (!log && !judge) return p;
  return p.then((track) => {
    // Every reply of the track is judged for the check (replies.ts), each right after its exchange joined the
    // check's evidence, so that a failure shows the reply it is about.
    for (const res of [track.created, ...track.history, track.again]) {
      if (res?.exchange) log?.add(res.exchange);
      if (res) judge?.(res);
    }
    return track;
  });
}

/**
 * The seed rule a fixture's target broke on its way to a ready brand or a done batch, if any: a create refused, a
 * read that failed while waiting, a brand or batch that never settled within the target file's deadline, or (with
 * `readable`: the target file gives the website as one the target can read) a brand whose read failed. A batch
 * that ends failed breaks nothing: the seed lets work fail ("any failure").
 */
function brokenBy(track: Track, readable: boolean): { rule: RuleId; why: string } | undefined {
  const brand = track.kind === "brand";
  const why = track.problem ?? `${track.kind} ${track.id ?? "?"} is ${track.last?.status ?? "unknown"}`;
  if (track.created && !(track.created.status >= 200 && track.created.status < 300))
    return { rule: brand ? `brand-create-website-or-name-description/${track.request.website ? "website" : "name_and_description"}` : "ideas-accepted-202/status-202", why };
  if (track.history.some((res) => res.status !== 200)) return { rule: brand ? "brand-readable-after-create" : "batch-readable-after-create", why };
  if (track.outcome === "timeout") return { rule: brand ? "brand-reading-to-ready/status" : "batch-thinking-to-done/status", why };
  if (brand && readable && track.outcome === "settled" && track.last?.status !== "ready")
    return { rule: "brand-reading-to-ready/status", why: `${why}, though the target file gives its website as one the target can read` };
  return undefined;
}

/**
 * Brand requests the fixtures make; checks compare what they get against them. The website is the target file's
 * (rest.inputs.website, a slot every check may read); the failing brand's comes from the check that asks for it.
 */
export function brandRequests(target: Target, run: string) {
  const never = ["Talk about prices or discounts.", "Use emojis."];
  return {
    /** From a website the target can read. */
    main: { website: target.inputs.website },
    /** A website and every field supplied: all must be kept through the read. */
    supplied: {
      website: target.inputs.website,
      name: `Conformance Bakery ${run}`,
      description: "A small bakery that bakes sourdough bread and cinnamon buns every morning.",
      // Unlike what the website says (en, IE for the reference's), so that a value kept is told from one read.
      language: "de",
      country: "AT",
      archetype: "sage",
      rules: { always: ["Mention that everything is baked the same morning."], never },
    },
    /** The stateful probe: name and description only. */
    probe: {
      name: `Conformance Probe ${run}`,
      description: "A brand made by the conformance suite to see whether the target keeps what it is sent.",
    },
    /** For PATCH of one field. */
    patchPartial: {
      name: `Conformance Florist ${run}`,
      description: "A florist that arranges seasonal bouquets for weddings and birthdays.",
      language: "en",
      country: "IE",
      archetype: "lover",
      rules: { always: ["Name the flowers."], never },
    },
    /** For PATCH of a list. */
    patchLists: {
      name: `Conformance Cafe ${run}`,
      description: "A cafe that roasts its own coffee and serves breakfast all day.",
      rules: { always: ["Mention the roastery."], never },
    },
    /** For PATCH of the website to another readable one. */
    patchWebsite: { website: target.inputs.website },
    /** For PATCH of the website to the one the target fails to read. */
    rereadFails: { website: target.inputs.website },
  };
}
export type BrandKey = keyof ReturnType<typeof brandRequests>;

/** Batch requests (the brand is filled in when the main brand is ready); the failing batch's focus comes from the check. */
export function batchRequests() {
  return {
    /** count, formats and a focus. */
    main: { count: 4, formats: ["carousel", "text"], focus: "Lean toward the first cold mornings of the season and warm drinks." },
    /** Nothing but the brand: default count, all formats, no focus. */
    plain: {},
  } as Record<string, Record<string, unknown>>;
}
export type BatchKey = "main" | "plain";

export class Fixtures {
  /** A few letters unique to the run, for names. */
  readonly run = randomBytes(3).toString("hex");
  readonly brandRequests: ReturnType<typeof brandRequests>;
  readonly batchRequests: ReturnType<typeof batchRequests>;
  readonly #env: FixtureEnv;
  readonly #api: ApiClient;
  readonly #brands = new Map<string, Promise<Track>>();
  readonly #batches = new Map<string, Promise<Track>>();
  #statefulness?: Promise<Statefulness>;
  /** The stateful probe's create answer, judged for each check that asks for the probe. */
  #probeReply?: ApiResponse;

  constructor(env: FixtureEnv) {
    this.#env = env;
    this.#api = apiClient(env.transport, () => {});
    this.brandRequests = brandRequests(env.target, this.run);
    this.batchRequests = batchRequests();
  }

  /** Whether the target keeps what it is sent: a brand made with a name unique to the run must echo it. */
  statefulness(): Promise<Statefulness> {
    const judge = currentReplyJudge();
    return this.#probe().then((s) => (this.#probeReply && judge?.(this.#probeReply), s));
  }

  #probe(): Promise<Statefulness> {
    this.#statefulness ??= (async () => {
      const body = this.brandRequests.probe;
      let res: ApiResponse;
      try {
        res = this.#probeReply = await this.#api.post(pathOf("createBrand"), body);
      } catch (err) {
        return { stateful: false, reason: `the stateful probe (POST /v1/brands) failed: ${(err as Error).message}` };
      }
      if (res.status < 200 || res.status > 299)
        return { stateful: false, reason: `the stateful probe (POST /v1/brands) answered ${res.status}, so nothing can be followed`, rule: "brand-create-website-or-name-description/name_and_description" };
      const id = typeof res.body?.id === "string" ? res.body.id : undefined;
      if (res.body?.name !== body.name)
        return {
          stateful: false,
          reason: "the target does not keep what it is sent (a brand created with a unique name came back with another): a stateless mock answering from fixed examples has no state to check",
          ...(id ? { brandId: id } : {}),
        };
      return { stateful: true, reason: "the target keeps what it is sent", ...(id ? { brandId: id } : {}) };
    })();
    return this.#statefulness;
  }

  /** A brand, created once per key and followed until it settles. */
  brand(key: BrandKey): Promise<Track> {
    return this.#brand(key, this.brandRequests[key]);
  }

  /**
   * The brand made from the website the target fails to read (rest.triggers.website_fails_read, which the check
   * read through ctx.slot): made once per run, like the others.
   */
  failingBrand(website: string): Promise<Track> {
    return this.#brand("fails", { website });
  }

  #brand(key: string, request: Record<string, unknown>): Promise<Track> {
    let p = this.#brands.get(key);
    if (!p) {
      p = this.#follow("brand", key, pathOf("createBrand"), request);
      // It rejects (a budget cut short) for every check awaiting it, never as an unhandled rejection.
      p.catch(() => {});
      this.#brands.set(key, p);
    }
    return shown(p);
  }

  /** A batch for the main brand, created once per key (once the brand is ready) and followed until it settles. */
  batch(key: BatchKey): Promise<Track> {
    return this.#batch(key, this.batchRequests[key]!);
  }

  /** The batch asked with the focus that makes it fail (rest.triggers.focus_fails_batch, read by the check). */
  failingBatch(focus: string): Promise<Track> {
    return this.#batch("fails", { focus });
  }

  #batch(key: string, asked: Record<string, unknown>): Promise<Track> {
    let p = this.#batches.get(key);
    if (!p) {
      p = (async (): Promise<Track> => {
        const brand = await this.brand("main");
        const usable = await this.#usable(brand);
        const request = { brand: brand.id ?? "", ...asked };
        if (!usable.ok)
          return { kind: "batch", key, request, history: [], outcome: "error", problem: `no ready brand to ask for ideas: ${usable.why}`, elapsedMs: 0 };
        const track = await this.#follow("batch", key, pathOf("createIdeas"), request);
        track.brandId = brand.id;
        return track;
      })();
      p.catch(() => {});
      this.#batches.set(key, p);
    }
    return shown(p);
  }

  /** Starts batches now (each is made once), so a check that looks at several waits for them side by side. */
  startBatches(...keys: BatchKey[]): void {
    for (const key of keys) this.batch(key).catch(() => {});
  }

  /**
   * The id of a brand of the key that is ready (or, on a stateless target, of any brand); ends the check as
   * `missing` does otherwise.
   */
  async readyBrandId(ctx: RunContext, key: BrandKey = "main"): Promise<string> {
    const track = await this.brand(key);
    if (!(await this.#usable(track)).ok) await this.missing(ctx, track, "a ready brand");
    return track.id!;
  }

  /** The main done batch (or, on a stateless target, any batch); ends the check as `missing` does otherwise. */
  async doneBatch(ctx: RunContext, key: BatchKey = "main"): Promise<Track> {
    const track = await this.batch(key);
    if (track.outcome === "stateless" && track.id) return track;
    if (track.outcome !== "settled" || track.last?.status !== "done") await this.missing(ctx, track, "a done batch");
    return track;
  }

  /**
   * Ends a check that needs `what` and did not get it from `track`. When the target's own answers are why, the check
   * fails naming the rule they broke (a skip would hide it); otherwise (the seed lets it happen: a batch may fail) it
   * is skipped, saying so.
   */
  async missing(ctx: RunContext, track: Track, what: string): Promise<never> {
    // A batch never asked for because its brand was not ready: the brand's story is the one to tell.
    const cause = track.kind === "batch" && !track.created ? await this.brand("main") : track;
    const broken = brokenBy(cause, cause.kind === "brand" && cause.request.website === this.#env.target.inputs.website);
    if (broken) ctx.fail(broken.rule, `needs ${what}, and the target broke ${broken.rule}: ${broken.why}`);
    ctx.skip(`needs ${what}: ${track.problem ?? `${track.kind} ${track.id ?? "?"} is ${track.last?.status ?? "unknown"}`}${track.kind === "batch" ? " (the seed lets a batch fail)" : ""}`);
  }

  /**
   * The stateful probe's brand, for a check that changes a brand. Without one, the check fails the rule the target
   * broke (its create refused) or is skipped (a stateless target, as Prism is, keeps nothing to change).
   */
  async probeBrand(ctx: RunContext, what: string): Promise<string> {
    const probe = await this.statefulness();
    if (probe.brandId) return probe.brandId;
    if (probe.rule) ctx.fail(probe.rule, `needs ${what}, and the target broke ${probe.rule}: ${probe.reason}`);
    return ctx.skip(`needs ${what}: ${probe.reason}`);
  }

  async #usable(track: Track): Promise<{ ok: true } | { ok: false; why: string }> {
    if (!track.id) return { ok: false, why: track.problem ?? "the brand was not created" };
    if (track.outcome === "stateless") return { ok: true };
    if (track.outcome === "settled" && track.last?.status === "ready") return { ok: true };
    return { ok: false, why: track.problem ?? `brand ${track.id} is ${track.last?.status ?? "unknown"}` };
  }

  async #follow(kind: "brand" | "batch", key: string, createPath: string, request: Record<string, any>): Promise<Track> {
    const { target, signal } = this.#env;
    const track: Track = { kind, key, request, history: [], outcome: "error", elapsedMs: 0 };
    const clock = target.clock;
    const started = clock.now();
    const waitKey = `${kind}:${key}`;
    const pending = kind === "brand" ? "reading" : "thinking";
    const interval = kind === "brand" ? target.timing.brandPollMs : target.timing.batchPollMs;
    const deadline = kind === "brand" ? target.timing.brandReadyDeadlineMs : target.timing.batchDoneDeadlineMs;
    const elapsed = () => clock.now() - started;
    try {
      const { stateful } = await this.statefulness();
      const created = await this.#api.post(createPath, request);
      track.created = created;
      track.last = created.body;
      // Any success: the exact status is the checks' to judge (only 202 for POST /v1/ideas is the seed's).
      if (created.status < 200 || created.status > 299 || typeof created.body?.id !== "string") {
        track.problem = `POST ${createPath} answered ${created.status}: ${created.text.slice(0, 200)}`;
        return track;
      }
      track.id = created.body.id as string;
      const getPath = kind === "brand" ? pathOf("getBrand", { brand_id: track.id }) : pathOf("getIdeaBatch", { batch_id: track.id });
      if (!stateful) {
        const res = await this.#api.get(getPath);
        track.history.push(res);
        track.last = res.body;
        track.outcome = "stateless";
        return track;
      }
      for (let polls = 1; ; polls++) {
        this.#env.onWaiting(waitKey, `${kind} ${track.id} (${key}): ${pending} → ${kind === "brand" ? "ready or failed" : "done or failed"}, poll ${polls}, ${(elapsed() / 1000).toFixed(1)} s of ${(deadline / 1000).toFixed(1)} s`);
        await sleep(interval, signal, clock);
        const res = await this.#api.get(getPath);
        track.history.push(res);
        if (res.status < 200 || res.status > 299) {
          track.problem = `GET ${getPath} answered ${res.status} while waiting: ${res.text.slice(0, 200)}`;
          return track;
        }
        track.last = res.body;
        if (res.body?.status !== pending) break;
        if (elapsed() + interval > deadline) {
          track.outcome = "timeout";
          track.problem = `${kind} ${track.id} was still ${pending} after ${(elapsed() / 1000).toFixed(1)} s (${polls} polls; deadline ${(deadline / 1000).toFixed(1)} s)`;
          return track;
        }
      }
      track.outcome = "settled";
      track.elapsedMs = elapsed();
      this.#env.onWaiting(waitKey, `${kind} ${track.id} (${key}): ${track.last?.status}; one more look to see it stays`);
      await sleep(interval, signal, clock);
      track.again = await this.#api.get(getPath);
      return track;
    } catch (err) {
      // A run cut short by its budget says nothing of the target: every check waiting on this ends in error.
      if (err instanceof BudgetExceeded) throw err;
      track.problem = this.#env.redactor.text((err as Error).message);
      return track;
    } finally {
      if (!track.elapsedMs) track.elapsedMs = elapsed();
      this.#env.onWaiting(waitKey, null);
    }
  }
}
