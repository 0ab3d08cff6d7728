// scripts/lint-openapi.ts leaves Redocly's Node end-of-life box out of its output, and nothing else.
import { describe, expect, it } from "vitest";
import { withoutNodeNotice } from "../scripts/lib/node-notice.js";

const box = (line: string) => ["    ╔══════════╗", "    ║          ║", `    ║  ${line}  ║`, "    ╚══════════╝", ""];

describe("withoutNodeNotice", () => {
  it("drops the Node end-of-life box and the blank line after it", () => {
    const text = [...box("Deprecation warning: Node.js 20 support is ending"), "validating x.yaml...", "❌ Validation failed with 3 errors."].join("\n");
    expect(withoutNodeNotice(text)).toBe("validating x.yaml...\n❌ Validation failed with 3 errors.");
  });

  it("keeps any other box, and every line of text without one", () => {
    const other = [...box("Something else entirely"), "error  struct  The field `title` must be present"].join("\n");
    expect(withoutNodeNotice(other)).toBe(other);
    expect(withoutNodeNotice("a\n\nb\n")).toBe("a\n\nb\n");
  });
});
