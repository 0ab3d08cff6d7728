// Cost awareness of the MCP suite (issue 16 item 6): what a run spends of a tenant's AI allowance is declared per
// check, sized by the target file (mcp.cost, triggers), shown by --list before anything runs, and a check whose
// spend the target file does not allow is skipped with the reason.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { listLines } from "../cli/conformance-list.js";
import { main } from "../cli/main.js";
import { mcpChecks, runConformance, spendInputFor } from "../conformance/index.js";
import { defaultMcpCost, runSpend, sharedSpend, spendOf } from "../conformance/suites/mcp/cost.js";
import { mcpCostOf } from "../conformance/suites/mcp/target.js";
import { referenceTargetPath } from "../conformance/core/paths.js";
import { TargetError } from "../conformance/suites/rest/target.js";
import { loadTargetFile, parseTargetFile, type TargetFile } from "../conformance/target-file.js";
import { hangGuardMs } from "./support/hang-guard.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "conformance-cost-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** A target file for a real gateway (nothing is started: only --list and the spend are looked at). */
const realTarget = path.join(dir, "real.yaml");
writeFileSync(realTarget, "mcp:\n  url: https://gateway.example.com/mcp\n");
const byId = (id: string) => mcpChecks.find((c) => c.id === id)!;
/** What a target file with this `mcp.cost` lets a run spend. */
const costIn = (cost: unknown) => mcpCostOf(parseTargetFile({ mcp: { cost } }, "t.yaml").mcp);

describe("mcp.cost in a target file", () => {
  it("reads renders, extra_batches and builds, refusing anything else; left out, a run spends only the shared batches", () => {
    expect(costIn({ renders: true, extra_batches: false })).toEqual({ ...defaultMcpCost, renders: true, extraBatches: false });
    expect(() => costIn({ pictures: 3 })).toThrow(TargetError);
    expect(() => costIn({ renders: "yes" })).toThrow(TargetError);
    expect(defaultMcpCost).toEqual({ renders: false, extraBatches: false, builds: false, mainBatchPosts: 20 });
    // The reference's own file allows everything: the embedded run keeps today's sizes.
    expect(spendInputFor({}).cost).toEqual({ renders: true, extraBatches: true, builds: true, mainBatchPosts: 20 });
    expect(spendInputFor({ config: realTarget }).cost).toEqual(defaultMcpCost);
  });
});

describe("the spend of a run", () => {
  const reference = spendInputFor({});
  const real = spendInputFor({ config: realTarget });

  it("sizes the shared main batch by mcp.cost.main_batch_posts (1 to 20, create_posts' count)", () => {
    expect(costIn({ main_batch_posts: 6 })).toEqual({ ...defaultMcpCost, mainBatchPosts: 6 });
    for (const bad of [0, 21, 2.5, "many"]) expect(() => costIn({ main_batch_posts: bad })).toThrow(TargetError);
    expect(sharedSpend({ ...real, cost: { ...real.cost, mainBatchPosts: 6 } })).toEqual({ posts: 6, pictures: 6, renders: 0, builds: 0 });
  });

  it("counts the shared batches from the requests the shared scenarios make, and each check's own spend", () => {
    // The main batch (pictures on) and, with the reference's triggers, the partial and failing ones (copy only).
    expect(sharedSpend(reference)).toMatchObject({ posts: 26, pictures: 20, builds: 2 });
    expect(sharedSpend(real)).toEqual({ posts: 20, pictures: 20, renders: 0, builds: 0 });
    expect(spendOf(byId("mcp-render-failures"), reference).renders).toBe(5);
    expect(spendOf(byId("mcp-image-in-progress"), reference).renders).toBe(1);
    expect(spendOf(byId("mcp-create-posts-repeat"), reference).posts).toBe(2);
    // Not allowed by the real target's file: those checks are skipped, so they spend nothing.
    for (const id of ["mcp-render-failures", "mcp-regenerate-job", "mcp-create-posts-repeat", "mcp-deletion-progress"]) expect(spendOf(byId(id), real)).toEqual({ posts: 0, pictures: 0, renders: 0, builds: 0 });
    expect(runSpend(mcpChecks, real)).toEqual(sharedSpend(real));
    expect(runSpend(mcpChecks, reference).renders).toBeGreaterThan(0);
  });

  it("is listed per check and in total by --list, before anything runs", async () => {
    const lines = listLines([byId("mcp-render-failures"), byId("mcp-batch-status-values")], reference);
    expect(lines).toContain("    spends: 5 renders");
    expect(lines.at(-1)).toMatch(/^ {2}at most, with the 2 MCP checks listed: 27 posts, 20 pictures, 5 renders, 2 profile builds$/);
    expect(listLines([byId("mcp-render-failures")], real)).toContain("    spends: nothing");
    // The target-file slots come from the rules' catalogue entries (a trigger a check's rules need is always listed)
    // and from the check's own requiredSlots (this one publishes for real).
    expect(listLines([byId("mcp-publish-in-progress")], reference)).toContain(
      "    target file: mcp.inputs.allow_publishing, mcp.triggers.caption_slow (required: the check is skipped without it)",
    );
    expect(listLines([byId("mcp-batch-items")], reference)).toContain(
      "    target file, optional: mcp.triggers.brief_partial (the main batch and its own item-failing batches are judged without the partial one)",
    );
    const out: string[] = [];
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((s) => (out.push(String(s)), true));
    try {
      expect(await main(["conformance", "--list", "--suite", "mcp", "--config", realTarget])).toBe(0);
    } finally {
      spy.mockRestore();
    }
    expect(out.join("")).toMatch(/mcp\.cost: renders off, extra_batches off, builds off, main_batch_posts 20/);
    expect(out.join("")).toMatch(/at most, with the \d+ MCP checks listed: 20 posts, 20 pictures\n/);
  });
});

describe("a run whose target file allows no renders", () => {
  it("skips the checks that render, saying how to allow them", async () => {
    // The reference's file without its URLs: the embedded reference, with renders off.
    const { rest: restSection, mcp: section } = loadTargetFile(referenceTargetPath, {});
    const { url: _rest, ...rest } = restSection!;
    const { url: _mcp, ...mcp } = section!;
    const targetFile: TargetFile = { rest, mcp: { ...mcp, cost: { renders: false } } };
    const result = await runConformance({ targetFile, suites: ["mcp"], only: ["mcp-regenerate-job", "mcp-image-in-progress", "mcp-render-failures"], env: {} });
    for (const c of result.checks) {
      expect(c.status, c.id).toBe("skip");
      expect(c.reason).toMatch(/mcp\.cost\.renders: true/);
    }
    expect(result.checks).toHaveLength(3);
  }, hangGuardMs);
});
