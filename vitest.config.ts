import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "conformance/**/*.test.ts"],
    // Tests that start servers bind ephemeral ports on 127.0.0.1; keep two workers for two cores.
    pool: "forks",
    maxWorkers: 2,
    // A test's timeout only catches a hang; it is no verdict on speed. On a CI runner whose 2 cores are busy with
    // other jobs, setting up a mock and its fixtures took over 30 s (hook timeouts in fuzz-mcp, mcp-mock-bounds),
    // and a test 4–6 times slower than idle is usual there. Tests that run a whole conformance run use
    // test/support/hang-guard.ts (15 min); no other sets a shorter limit of its own (but test/consumer*.test.ts).
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
