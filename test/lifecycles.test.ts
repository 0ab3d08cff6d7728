// spec/lifecycles.yaml (the source of docs/lifecycles.md) agrees with the contract: its states are exactly the
// status values the schemas allow, and every transition joins declared states.
import { describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { loadLifecycles } from "../scripts/lib/docs.js";
import { generatedDir, mcpSpecDir } from "../lib/paths.js";

const lifecycles = loadLifecycles();
const openapi = JSON.parse(fs.readFileSync(path.join(generatedDir, "openapi/openapi.json"), "utf8"));
const json = (rel: string) => JSON.parse(fs.readFileSync(path.join(mcpSpecDir, rel), "utf8"));

/** Lifecycle id → the status values the contract allows for it. */
const contractStates: Record<string, string[]> = {
  brand: openapi.components.schemas.BrandStatus.enum,
  "idea-batch": openapi.components.schemas.BatchStatus.enum,
  "profile-build": json("defs/profile.json").$defs.BuildStatus.enum,
  "post-batch": json("defs/post.json").$defs.BatchStatus.enum,
  deactivation: json("tools/deactivate_profile.json").output.properties.status.enum,
  deletion: json("tools/delete_profile.json").output.properties.status.enum,
};

describe("spec/lifecycles.yaml", () => {
  it("covers every lifecycle the docs promise", () => {
    expect(lifecycles.map((l) => l.id).sort()).toEqual(
      ["approval", "brand", "deactivation", "deletion", "idea-batch", "image-job", "post-batch", "profile-build"].sort(),
    );
  });

  it.each(Object.entries(contractStates))("%s has exactly the contract's status values", (id, states) => {
    expect([...lifecycles.find((l) => l.id === id)!.states].sort()).toEqual([...states].sort());
  });

  it.each(lifecycles.map((l) => [l.id, l] as const))("%s: every transition joins declared states, and each state is reachable", (_id, l) => {
    for (const t of l.transitions) {
      if (t.from !== null) expect(l.states).toContain(t.from);
      expect(l.states).toContain(t.to);
    }
    const reached = new Set(l.transitions.map((t) => t.to));
    for (const state of l.states) expect(reached.has(state), state).toBe(true);
  });
});
