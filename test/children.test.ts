// test/support/children.ts ends every child a test started, with what the child started in its process group,
// when the test fails or times out. Proved in a vitest of its own running a fixture whose spawning helpers fail
// mid-way; afterwards no process it started may still run (not even one its shell left in the background).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../lib/paths.js";
import { execFileTracked } from "./support/children.js";

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8")); // a zombie has ended
  } catch {
    return false;
  }
};

describe("children a failing test started", () => {
  it("are all ended, with their process groups, when the test throws or times out", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "children-"));
    const pidsFile = path.join(dir, "pids");
    const leftover: number[] = [];
    try {
      const config = path.join(repoRoot, "test/fixtures/children/vitest.config.ts");
      const run = await execFileTracked(process.execPath, [path.join(repoRoot, "node_modules/vitest/vitest.mjs"), "run", "--config", config], {
        cwd: repoRoot,
        env: { ...process.env, CHILDREN_PIDS: pidsFile, NO_COLOR: "1" },
      }).then(
        () => ({ failed: false, out: "" }),
        (err: { stdout: string; stderr: string }) => ({ failed: true, out: `${err.stdout}${err.stderr}` }),
      );
      // The fixture did fail both ways, after starting what it meant to start.
      expect(run.failed, run.out).toBe(true);
      expect(run.out).toMatch(/the helper failed mid-way/);
      expect(run.out).toMatch(/timed out/i);
      const pids = readFileSync(pidsFile, "utf8").trim().split(/\s+/).map(Number);
      expect(pids.length).toBe(8);
      leftover.push(...pids.filter(running));
      expect(leftover, "processes the failed tests left running").toEqual([]);
    } finally {
      for (const pid of leftover) if (running(pid)) process.kill(pid, "SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
