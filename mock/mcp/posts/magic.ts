// The magic inputs of the gateway mock's posts half, like a payment sandbox's test cards: markers that steer the
// mock into states the real service reaches only by bad luck (spent allowance, failed renders, provider refusals).
// The table people read is data (magic.json, checked at load) so the README, the CLI and the tests share it; the
// predicates below are the only place the posts domain reads the markers. Markers are case-insensitive and may
// sit anywhere in the text.
import { catalogue } from "../../../generated/mcp/errors.js";
import manifest from "../../../generated/mcp/tools.json" with { type: "json" };
import { dataFile } from "../../data-file.js";
import magicJson from "./magic.json" with { type: "json" };

export interface MagicInput {
  /** What to send. */
  input: string;
  /** Where to send it. */
  where: string;
  /** What happens. */
  effect: string;
}

/** magic.json, checked; throws naming the first problem. */
export function readPostsMagicInputs(data: unknown): readonly MagicInput[] {
  const f = dataFile("mock/mcp/posts/magic.json");
  const root = f.object(data, "the file", ["magicInputs"], ["magicInputs"]);
  const keys = ["input", "where", "effect"] as const;
  return f.list(root.magicInputs, "magicInputs", true).map((v, i) => {
    const row = f.object(v, `magicInputs[${i}]`, keys, keys);
    return { input: f.text(row.input, `magicInputs[${i}].input`), where: f.text(row.where, `magicInputs[${i}].where`), effect: f.text(row.effect, `magicInputs[${i}].effect`) };
  });
}

export const postsMagicInputs: readonly MagicInput[] = readPostsMagicInputs(magicJson);

const has = (text: string | null | undefined, marker: string): boolean => (text ?? "").toLowerCase().includes(marker);

export const allowanceExhausted = (text?: string | null) => has(text, "[allowance-exhausted]");
export const aiFails = (text?: string | null) => has(text, "[ai-fails]");
export const allowanceRunsOut = (text?: string | null) => has(text, "[allowance-runs-out]");
export const partialBatch = (text?: string | null) => has(text, "[partial]");
export const batchFails = (text?: string | null) => has(text, "[batch-fails]");
export const imagesFail = (text?: string | null) => has(text, "[images-fail]");
export const longTitle = (text?: string | null) => has(text, "[long-title]");
export const renderStuck = (text?: string | null) => has(text, "[render-stuck]");
export const picturesHeld = (text?: string | null) => has(text, "[pictures-held]");
/** A time that never comes: held renders and pictures wait for an event, not the clock. */
export const never = Number.MAX_SAFE_INTEGER;
export const templateRendering = (text?: string | null) => has(text, "[templates]");
export const slowPublish = (text?: string | null) => has(text, "[slow]");
export const stuckPublish = (text?: string | null) => has(text, "[stuck]");
export const storyPartial = (text?: string | null) => has(text, "[story-partial]");
export const publisherError = (text?: string | null) => has(text, "[publisher-error]");
export const designChanged = (text?: string | null) => has(text, "[design-changed]");

const renderCodes = new Set(catalogue.filter((e) => e.kind === "image_render").map((e) => e.code));

/** The image render code a prompt asks a job to fail with, or null. Unknown codes become generation_failed. */
export function renderFailure(text?: string | null): string | null {
  const m = /\[render-fails(?::([a-z_]+))?\]/i.exec(text ?? "");
  if (!m) return null;
  const code = (m[1] ?? "generation_failed").toLowerCase();
  return renderCodes.has(code) ? code : "generation_failed";
}

export const stepwise = (text?: string | null) => has(text, "[stepwise]");

/** The item error codes a batch's item may end with: get_post_batch_status' $defs/ItemError code examples
 * (spec/mcp/defs/post.json), read from the manifest the mock serves. */
export const itemErrorCodes: readonly string[] = (() => {
  const tool = (manifest.tools as readonly { name: string; outputSchema: unknown }[]).find((t) => t.name === "get_post_batch_status");
  const codes = (tool?.outputSchema as { $defs?: { ItemError?: { properties?: { code?: { examples?: unknown } } } } } | undefined)?.$defs?.ItemError?.properties?.code?.examples;
  if (!Array.isArray(codes) || !codes.length || !codes.every((c) => typeof c === "string")) throw new Error("generated/mcp/tools.json: get_post_batch_status has no $defs/ItemError code examples");
  return codes;
})();

/** The item error codes a brief asks its first slots to fail with, one per [item-fails:<code>], in order. */
export function itemFailures(text?: string | null): string[] {
  return [...(text ?? "").matchAll(/\[item-fails:([a-z_]+)\]/gi)].map((m) => (itemErrorCodes.includes(m[1]!.toLowerCase()) ? m[1]!.toLowerCase() : "internal_error"));
}

/** The aspect ratio a prompt asks for with [aspect:W:H], or null. */
export function aspectMarker(text?: string | null): [number, number] | null {
  const m = /\[aspect:(\d{1,3})[:x](\d{1,3})\]/i.exec(text ?? "");
  if (!m) return null;
  const w = Number(m[1]);
  const h = Number(m[2]);
  return w > 0 && h > 0 ? [w, h] : null;
}

/** The per-destination code a caption asks the provider to refuse with, or null. */
export function providerRefusal(text?: string | null): string | null {
  const m = /\[refuse:([a-z_]+)\]/i.exec(text ?? "");
  return m ? m[1]!.toLowerCase() : null;
}

/** Markers that travel from a create_posts brief into every generated caption. */
export function captionMarkers(brief: string): string[] {
  return [...brief.matchAll(/\[(?:refuse:[a-z_]+|slow|stuck|story-partial|publisher-error)\]/gi)].map((m) => m[0]);
}

/** Removes every [marker] from a text meant for people (titles, topics). */
export const stripMarkers = (text: string): string => text.replace(/\[[a-z-]+(?::[a-z0-9_:]+)?\]/gi, "").replace(/\s{2,}/g, " ").trim();

export const subredditNotFound = (subreddit: string) => subreddit.toLowerCase().includes("notfound");
export const subredditNeedsFlair = (subreddit: string) => subreddit.toLowerCase().includes("flair");

/** The aspect ratio named in an upload address (`WxH`), or null. */
export function aspectInUrl(url: string): [number, number] | null {
  const m = /(?:^|[^0-9])(\d{1,4})x(\d{1,4})(?:[^0-9]|$)/i.exec(url);
  if (!m) return null;
  const w = Number(m[1]);
  const h = Number(m[2]);
  return w > 0 && h > 0 ? [w, h] : null;
}

export const isVideoUrl = (url: string): boolean => /\.(mp4|mov|webm)(?:[?#].*)?$/i.test(url);
