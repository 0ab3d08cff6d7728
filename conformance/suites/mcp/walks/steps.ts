// The steps of an MCP walk and the plan of one walk: a pure function of (run seed, walk number, length, what the
// target allows), so the same seed gives the same walk on the same target file (test/walks-mcp.test.ts). Steps
// name clients (c1, c2: profiles the walk makes with the partner token), batches (x1, x2: create_posts on the
// brand under test) and posts (x1#1: slot 1 of batch x1) by labels, never ids, so a walk replays against fresh
// resources and any part of it can be cut out while shrinking (a step naming what was cut is left out).
import { focused, focusOf, lateness, pickFresh, type Focus } from "../../../core/walks/focus.js";
import { prng } from "../../../core/walks/prng.js";

/** The format a replay file of this suite's walks names (conformance/replay.ts). */
export const mcpReplayFormat = "ideas-contract/mcp-walk@1";

/** What the target lets a walk do (mcp.cost, the tokens and the tool profile of the target file). */
export interface McpAbilities {
  /** Clients of its own (create_profile, deactivate_profile, delete_profile): a partner token, --mcp-profile all, mcp.cost.builds. */
  clients: boolean;
  /** Batches of its own on the brand under test (create_posts, without pictures): mcp.cost.extra_batches. */
  batches: boolean;
  /** Another tenant's token, for the deliberate wrong calls that use one. */
  otherTenant: boolean;
}

/** The brand under test (not a client the walk made). */
export const mainBrand = "main";

export type McpStep =
  | { op: "create-client"; client: string }
  /** create_profile again with the client's externalId; `renamed`: with another name and website. */
  | { op: "repeat-client"; client: string; renamed: boolean }
  | { op: "get-profile"; brand: string; includeScopes?: boolean }
  | { op: "list-brands"; brand: string }
  | { op: "get-workspaces" }
  | { op: "deactivate"; client: string }
  | { op: "delete-client"; client: string }
  | { op: "create-batch"; batch: string; count: number }
  | { op: "get-batch"; batch: string }
  | { op: "view-post"; post: string }
  | { op: "edit-post"; post: string; caption: string }
  /** approve_post with the digest of the walk's last view_post of the post (an outdated one after an edit). */
  | { op: "approve"; post: string }
  | { op: "reject"; post: string }
  | { op: "delete-post"; post: string }
  /** schedule_post for `days` from now (only the destinations pre-flight lets through, when it blocks some). */
  | { op: "schedule"; post: string; days: number }
  /** reschedule_posts with one entry: the post booked, or moved, to `days` from now. */
  | { op: "reschedule"; post: string; days: number }
  /** unschedule_platform for every destination get_post_status shows booked. */
  | { op: "unschedule"; post: string }
  | { op: "post-status"; post: string }
  /** Follows every build, deactivation, deletion and batch under way at the seed's pace until each ends. */
  | { op: "wait" }
  /** A deliberate wrong call: an id that names nothing. */
  | { op: "unknown-id"; tool: "get_profile" | "view_post" | "get_post_batch_status" | "delete_profile" }
  /** A deliberate wrong call: another tenant's token on the walk's brand or post (left out without that token). */
  | { op: "other-tenant"; tool: "get_profile" | "view_post" | "update_post"; brand?: string; post?: string };

export type McpOp = McpStep["op"];

/** Every op of an MCP walk (replay files are checked against it). */
export const mcpOps: ReadonlySet<string> = new Set<McpOp>([
  "create-client",
  "repeat-client",
  "get-profile",
  "list-brands",
  "get-workspaces",
  "deactivate",
  "delete-client",
  "create-batch",
  "get-batch",
  "view-post",
  "edit-post",
  "approve",
  "reject",
  "delete-post",
  "schedule",
  "reschedule",
  "unschedule",
  "post-status",
  "wait",
  "unknown-id",
  "other-tenant",
]);

const captions = ["Fresh bread, baked this morning.", "Our winter hours start on Monday.", "Three things to know before you order a cake.", "Meet the people behind the counter."];

/** What an MCP walk may dwell on: a focus (focus.ts), and what it makes first (clients or batches). */
export interface McpFocus extends Focus<McpOp> {
  needs: "clients" | "batches";
}

/**
 * The MCP walks' families, in the order the walks of a run take them (walk 1 the first, …): those whose scenario
 * takes the longest chain of steps first, so a run of 8 walks dwells on them twice. A target that lets walks make
 * no clients (or no batches) leaves out the families that need them.
 */
export const mcpFamilies: readonly McpFocus[] = [
  // Booked, read back, refused while booked, withdrawn, booked again, moved: already-scheduled-locked.
  {
    name: "bookings",
    needs: "batches",
    weights: { schedule: 2, unschedule: 1.5, "post-status": 1.5, reschedule: 1.5, approve: 0.6, reject: 0.6, "edit-post": 0.4, "delete-post": 0.8 },
    early: ["schedule"],
  },
  // Erased, then read through every view and erased again: deletion-progress, deleted-sticky, erased-client-gone.
  { name: "erasure", needs: "clients", weights: { "delete-client": 5, wait: 2, deactivate: 0.5, "repeat-client": 0.6, "create-batch": 0.3 }, early: ["delete-client"] },
  // Viewed, edited, approved, rejected, then booked: approve-records-digest, approve-outdated-digest, the approval gate.
  {
    name: "reviews",
    needs: "batches",
    weights: { approve: 2, reject: 2, "edit-post": 1.5, "view-post": 1.3, schedule: 0.6, reschedule: 1.2, unschedule: 0.5, "delete-post": 0.5, "create-client": 0.3 },
    after: { reject: { schedule: 3, reschedule: 2 }, "edit-post": { schedule: 3, reschedule: 1.5, approve: 2 } },
  },
  // Deactivated, followed to its end, asked again and read: deactivation-progress, deactivation-effects.
  { name: "deactivation", needs: "clients", weights: { deactivate: 2, wait: 2, "delete-client": 0.3 }, early: ["deactivate"] },
  // Made, made again (another name and website), read through every view, wrong calls: create-profile-*, client-ids-agree.
  {
    name: "client views",
    needs: "clients",
    weights: { "repeat-client": 2, "get-workspaces": 1.5, deactivate: 0.4, "delete-client": 0.4, "unknown-id": 2, "other-tenant": 2 },
  },
];

/** The focus of walk `walk` on a target that allows `can`. */
export const mcpFocusOf = (walk: number, can: McpAbilities): McpFocus | undefined => focusOf(mcpFamilies.filter((f) => (f.needs === "clients" ? can.clients : can.batches)), walk);

interface PlanClient {
  label: string;
  /** A wait came after its creation: its build has ended. */
  built: boolean;
  ending?: "deactivating" | "deleting";
  /** A wait came after the ending started: it has finished. */
  ended: boolean;
  /** get_profile or list_brands of it came before (its name was shown). */
  read?: boolean;
}
interface PlanBatch {
  label: string;
  count: number;
  settled: boolean;
}
interface PlanPost {
  label: string;
  deleted: boolean;
  /** A schedule or reschedule came after its last withdrawal: it may be booked. */
  booked: boolean;
}

/**
 * The reads a change owes: after it, each op named is likelier (`owedBoost`) until the walk has made it of each
 * label named (a client, a post; "" for get_workspaces) as many times as owed. Every effect is then read back
 * through the views that show it, whatever the walk's focus: an ending seen through, read through every view and the
 * ending call repeated, a repeat through get_workspaces (a renamed one through get_profile and list_brands too), an approval through two views, a
 * booking through get_post_status and a withdrawal by booking again. (An edit owes no view: a decision taken with
 * the digest read before it is what approve-outdated-digest judges.)
 */
class Owed {
  readonly owed = new Map<McpOp, Map<string, number>>();
  owe(op: McpOp, label: string, times = 1): void {
    const m = this.owed.get(op) ?? new Map<string, number>();
    m.set(label, Math.max(m.get(label) ?? 0, times));
    this.owed.set(op, m);
  }
  /** The labels `op` still owes a read of. */
  labels(op: McpOp): string[] {
    return [...(this.owed.get(op)?.keys() ?? [])];
  }
  paid(op: McpOp, label: string): void {
    const m = this.owed.get(op);
    const n = (m?.get(label) ?? 0) - 1;
    if (n > 0) m!.set(label, n);
    else m?.delete(label);
  }
  /** A label cut from the walk's state (a deleted post) owes nothing more. */
  forget(label: string): void {
    for (const m of this.owed.values()) m.delete(label);
  }
}
const owedBoost = 4;

/**
 * The steps of walk `walk` of a run with seed `seed`, at most `length` of them. A walk dwells on its focus (a
 * family of scenarios, mcpFamilies), and most steps stay with what it last touched, so that effects pile up where
 * they can be seen: repeats of ending calls, reads after each change.
 */
export function planMcpWalk(seed: string, walk: number, length: number, can: McpAbilities): McpStep[] {
  const r = prng(`mcp:${seed}:${walk}`);
  const focus = mcpFocusOf(walk, can);
  const theme: "clients" | "posts" | "reads" = focus ? (focus.needs === "clients" ? "clients" : "posts") : "reads";
  const clients: PlanClient[] = [];
  const batches: PlanBatch[] = [];
  const posts: PlanPost[] = [];
  const steps: McpStep[] = [];
  const owed = new Owed();
  const drawn = { unknown: new Set<"get_profile" | "view_post" | "get_post_batch_status" | "delete_profile">(), otherTenant: new Set<"get_profile" | "view_post" | "update_post">() };
  let focusClient: PlanClient | undefined;
  let focusPost: PlanPost | undefined;
  const stay = <T extends { label: string }>(touched: T | undefined, among: readonly T[], op: McpOp): T => {
    // What a change owes a read of comes first, mostly; then what the walk last touched.
    const due = among.filter((x) => owed.labels(op).includes(x.label));
    if (due.length && r.chance(0.85)) return r.pick(due);
    return touched && among.includes(touched) && r.chance(0.8) ? touched : r.pick(among);
  };
  const pickClient = (op: McpOp, among: readonly PlanClient[] = clients) => (focusClient = stay(focusClient, among, op));
  const pickPost = (op: McpOp, among: readonly PlanPost[]) => (focusPost = stay(focusPost, among, op));
  const pending = () => clients.some((c) => !c.built || (c.ending && !c.ended)) || batches.some((b) => !b.settled);
  const w = (on: boolean, weight: number) => (on ? weight : 0);
  const late = (op: McpOp, i: number) => lateness(focus, op, i);

  for (let i = 0; i < length; i++) {
    const last = steps.at(-1);
    const alive = clients.filter((c) => c.ending !== "deleting");
    const live = posts.filter((p) => !p.deleted);
    const booked = live.filter((p) => p.booked);
    const mine = theme === "clients";
    const ended = { deactivated: clients.some((c) => c.ending === "deactivating" && c.ended), deleted: clients.some((c) => c.ending === "deleting" && c.ended) };
    // Read what just changed, repeat what just ended: the next step favours what shows the last one's effects.
    const boost = followUps(last, pending(), ended);
    const base = [
      // A clients walk whose only client is being erased makes its second one (at most two builds a walk).
      ["create-client", w(can.clients, clients.length === 0 ? (mine ? 1000 : 0.1) : clients.length < 2 ? (mine ? (alive.length ? 0.15 : 2) : 0) : 0)],
      ["repeat-client", w(clients.length > 0, 1.5)],
      ["get-profile", clients.length ? 2 : 0.6],
      ["list-brands", clients.length ? 1.5 : 0.4],
      ["get-workspaces", w(clients.length > 0, 1) || 0.2],
      ["deactivate", w(alive.length > 0, 0.6 + 1.6 * late("deactivate", i))],
      // Erasing ends what a client can show: mostly once a deactivation has been seen through (and again, as owed).
      ["delete-client", w(alive.length > 0, ended.deactivated ? 2.5 : 0.1 + 0.6 * late("delete-client", i)) + w(alive.length < clients.length, 0.2)],
      ["create-batch", w(can.batches, batches.length === 0 ? (theme === "posts" ? 1000 : 0.1) : batches.length < 2 ? 0.3 : 0)],
      ["get-batch", w(batches.length > 0, 0.6)],
      ["view-post", w(live.length > 0, 3)],
      ["edit-post", w(live.length > 0, 1.2)],
      ["approve", w(live.length > 0, 2)],
      ["reject", w(live.length > 0, 0.5)],
      ["delete-post", w(live.length > 0, 0.3)],
      // Booking mostly once the posts were reviewed: reads of approvals come first.
      ["schedule", w(live.length > 0, 0.4 + 3 * late("schedule", i))],
      ["reschedule", w(live.length > 0, 0.4)],
      ["unschedule", w(booked.length > 0, 2)],
      ["post-status", w(live.length > 0, 0.6)],
      ["wait", pending() ? 2.5 : 0.2],
      ["unknown-id", 0.3],
      ["other-tenant", w(can.otherTenant, 0.3)],
    ] as const;
    // A post that owes views of a decision is read before it is changed again.
    const hold = (o: McpOp) => (owed.labels("view-post").length && (o === "edit-post" || o === "reject" || o === "approve") ? 0.3 : 1);
    const op = r.weighted<McpOp>(focused(base, focus, last?.op).map(([o, weight]) => [o, weight * (boost[o] ?? 1) * (owed.labels(o).length ? owedBoost : 1) * hold(o)] as const))!;
    switch (op) {
      case "create-client": {
        const c: PlanClient = { label: `c${clients.length + 1}`, built: false, ended: false };
        clients.push(c);
        focusClient = c;
        steps.push({ op, client: c.label });
        break;
      }
      case "repeat-client": {
        const c = pickClient(op);
        // What another name must not change is the name a view showed before: mostly once one was read.
        const renamed = r.chance(c.read ? 0.85 : 0.15);
        // Another name and website must change nothing any view shows.
        if (renamed) for (const view of ["get-profile", "list-brands"] as const) owed.owe(view, c.label);
        // Nor may any repeat make a second workspace: the partner's list shows it.
        owed.owe("get-workspaces", "");
        steps.push({ op, client: c.label, renamed });
        break;
      }
      case "get-profile": {
        const c = clients.length && (owed.labels(op).length || r.chance(0.9)) ? pickClient(op) : undefined;
        if (c) c.read = true;
        const brand = c?.label ?? mainBrand;
        steps.push({ op, brand, ...(r.chance(0.35) ? { includeScopes: r.chance(0.5) } : {}) });
        owed.paid(op, brand);
        break;
      }
      case "list-brands": {
        const c = clients.length && (owed.labels(op).length || r.chance(0.9)) ? pickClient(op) : undefined;
        if (c) c.read = true;
        const brand = c?.label ?? mainBrand;
        steps.push({ op, brand });
        owed.paid(op, brand);
        break;
      }
      case "get-workspaces":
        steps.push({ op });
        owed.paid(op, "");
        break;
      case "deactivate": {
        const c = pickClient(op, alive);
        if (!c.ending) [c.ending, c.ended] = ["deactivating", false];
        steps.push({ op, client: c.label });
        owed.paid(op, c.label);
        break;
      }
      case "delete-client": {
        const c = pickClient(op, alive.length && !owed.labels(op).length ? alive : clients);
        if (c.ending !== "deleting") [c.ending, c.ended] = ["deleting", false];
        steps.push({ op, client: c.label });
        owed.paid(op, c.label);
        break;
      }
      case "create-batch": {
        const b: PlanBatch = { label: `x${batches.length + 1}`, count: 1 + r.int(2), settled: false };
        batches.push(b);
        steps.push({ op, batch: b.label, count: b.count });
        break;
      }
      case "get-batch":
        steps.push({ op, batch: r.pick(batches).label });
        break;
      case "view-post": {
        const p = pickPost(op, live);
        steps.push({ op, post: p.label });
        owed.paid(op, p.label);
        break;
      }
      case "edit-post": {
        const p = pickPost(op, live);
        steps.push({ op, post: p.label, caption: `${r.pick(captions)} (walk edit ${i + 1})` });
        break;
      }
      case "approve":
      case "reject": {
        const p = pickPost(op, live);
        // An approval is read back by every later view of the unchanged post: two of them.
        if (op === "approve") owed.owe("view-post", p.label, 2);
        steps.push({ op, post: p.label });
        break;
      }
      case "delete-post": {
        const p = pickPost(op, live);
        p.deleted = true;
        owed.forget(p.label);
        steps.push({ op, post: p.label });
        break;
      }
      case "schedule":
      case "reschedule": {
        const p = pickPost(op, live);
        p.booked = true;
        owed.owe("post-status", p.label);
        owed.paid(op, p.label);
        steps.push({ op, post: p.label, days: 30 + r.int(30) });
        break;
      }
      case "unschedule": {
        const p = pickPost(op, booked);
        p.booked = false;
        // Withdrawn, the post is no longer refused as booked: booked again.
        owed.owe("schedule", p.label);
        steps.push({ op, post: p.label });
        break;
      }
      case "post-status": {
        const p = pickPost(op, live);
        steps.push({ op, post: p.label });
        owed.paid(op, p.label);
        break;
      }
      case "wait":
        for (const c of clients) {
          // An ending seen through owes its views, and the ending call again (it must stick).
          if (c.ending && !c.ended) {
            for (const view of ["get-profile", "list-brands"] as const) owed.owe(view, c.label);
            owed.owe(c.ending === "deleting" ? "delete-client" : "deactivate", c.label);
            if (c.ending === "deleting") owed.owe("get-workspaces", "");
          }
          [c.built, c.ended] = [true, true];
        }
        for (const b of batches)
          if (!b.settled) {
            b.settled = true;
            for (let s = 1; s <= b.count; s++) posts.push({ label: `${b.label}#${s}`, deleted: false, booked: false });
          }
        steps.push({ op });
        break;
      case "unknown-id":
        steps.push({ op, tool: pickFresh(r, can.clients ? (["get_profile", "view_post", "get_post_batch_status", "delete_profile"] as const) : (["get_profile", "view_post", "get_post_batch_status"] as const), drawn.unknown) });
        break;
      case "other-tenant": {
        const tool = pickFresh(r, live.length ? (["get_profile", "view_post", "update_post"] as const) : (["get_profile"] as const), drawn.otherTenant);
        if (tool === "get_profile") steps.push({ op, tool, brand: clients.length && r.chance(0.7) ? pickClient(op).label : mainBrand });
        else steps.push({ op, tool, post: pickPost(op, live).label });
        break;
      }
    }
  }
  return steps;
}

/** How much more likely each op is after `last`: reads after a change, the ending call again after a wait. */
function followUps(last: McpStep | undefined, pending: boolean, ended: { deactivated: boolean; deleted: boolean }): Partial<Record<McpOp, number>> {
  switch (last?.op) {
    case "create-client":
      return { "get-profile": 3, "list-brands": 2 };
    case "repeat-client":
      return { "get-profile": 5, "list-brands": 5 };
    case "get-profile":
    case "list-brands":
      return { "repeat-client": 3, deactivate: 1.5 };
    case "deactivate":
      return pending ? { wait: 10 } : { "delete-client": 4, deactivate: 1.5 };
    case "delete-client":
      return pending ? { wait: 10 } : { "get-workspaces": 4, "delete-client": 1.5 };
    case "wait":
      if (ended.deactivated || ended.deleted) return { ...(ended.deactivated ? { deactivate: 12 } : {}), ...(ended.deleted ? { "get-workspaces": 12, "list-brands": 3 } : {}), "repeat-client": 0.5 };
      return { approve: 3, "view-post": 2 };
    case "approve":
      return { "view-post": 6 };
    case "reject":
      return { schedule: 3, "edit-post": 1.5 };
    case "view-post":
      return { "view-post": 2.5, approve: 1.5 };
    case "edit-post":
      return { "view-post": 3, schedule: 1.5 };
    // A booking read back, repeated, withdrawn; a withdrawal read back and booked again.
    case "schedule":
    case "reschedule":
      return { unschedule: 5, "post-status": 3, schedule: 1.5, reject: 1.5 };
    case "unschedule":
      return { schedule: 8, "post-status": 2 };
    default:
      return {};
  }
}

/** One line for people: what the step does. */
export function describeMcpStep(step: McpStep): string {
  switch (step.op) {
    case "create-client":
      return `create_profile: new client ${step.client}`;
    case "repeat-client":
      return `create_profile again for client ${step.client}${step.renamed ? " with another name and website" : ""}`;
    case "get-profile":
      return `get_profile ${step.brand}${step.includeScopes === undefined ? "" : ` includeScopes ${step.includeScopes}`}`;
    case "list-brands":
      return `list_brands of ${step.brand}'s workspace`;
    case "get-workspaces":
      return "get_workspaces";
    case "deactivate":
      return `deactivate_profile ${step.client}`;
    case "delete-client":
      return `delete_profile ${step.client}`;
    case "create-batch":
      return `create_posts ${step.batch} (${step.count} post${step.count === 1 ? "" : "s"}, no pictures)`;
    case "get-batch":
      return `get_post_batch_status ${step.batch}`;
    case "view-post":
      return `view_post ${step.post}`;
    case "edit-post":
      return `update_post ${step.post} caption ${JSON.stringify(step.caption)}`;
    case "approve":
      return `approve_post ${step.post} with the digest last seen`;
    case "reject":
      return `reject_post ${step.post} with the digest last seen`;
    case "delete-post":
      return `delete_post ${step.post}`;
    case "schedule":
      return `schedule_post ${step.post} in ${step.days} days`;
    case "reschedule":
      return `reschedule_posts ${step.post} to ${step.days} days from now`;
    case "unschedule":
      return `unschedule_platform of every booked destination of ${step.post}`;
    case "post-status":
      return `get_post_status ${step.post}`;
    case "wait":
      return "wait until every build, ending and batch under way ends";
    case "unknown-id":
      return `${step.tool} of an id that names nothing`;
    case "other-tenant":
      return `another tenant's token: ${step.tool} ${step.brand ?? step.post}`;
  }
}
