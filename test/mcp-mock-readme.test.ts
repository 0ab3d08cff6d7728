// The MCP mock's README lists every magic input of the posts domain exactly as the code defines it.
import { describe, expect, it } from "vitest";
import fs from "node:fs";
import { postsMagicInputs } from "../mock/mcp/posts/magic.js";

const cell = (s: string) => s.replace(/\|/g, "\\|");

describe("the MCP mock README", () => {
  it("shows every magic input of posts/magic.ts", () => {
    const readme = fs.readFileSync(new URL("../mock/mcp/README.md", import.meta.url), "utf8");
    for (const m of postsMagicInputs) expect(readme).toContain(`| ${cell(m.input)} | ${cell(m.where)} | ${cell(m.effect)} |`);
  });
});
