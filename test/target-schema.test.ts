// The target file's JSON Schema (generated/conformance/target-file.schema.json, for editors) says what the suite's
// parser says: the reference's file is valid by both, and each kind of mistake is refused by both.
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { referenceTargetPath } from "../conformance/core/paths.js";
import { parseTargetFile } from "../conformance/target-file.js";

const schema = JSON.parse(readFileSync(new URL("../generated/conformance/target-file.schema.json", import.meta.url), "utf8"));
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
const parserTakes = (data: unknown) => {
  try {
    parseTargetFile(data, "t.yaml", { MY_TOKEN: "x" });
    return true;
  } catch {
    return false;
  }
};

describe("the target file's JSON Schema", () => {
  it("takes the reference's target file, as the parser does", () => {
    const data = parse(readFileSync(referenceTargetPath, "utf8"));
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
    expect(parserTakes(data)).toBe(true);
  });

  it.each([
    ["an env reference and empty values", { rest: { url: { env: "MY_URL" }, tokens: { team: { env: "MY_TOKEN" }, other_team: null }, timing: { time_scale: "0.5" } }, mcp: { profile: "all", cost: { renders: true, main_batch_posts: 5 }, inputs: { allow_publishing: false } } }, true],
    ["an unknown top-level key", { other: {} }, false],
    ["an unknown key in rest", { rest: { tokns: {} } }, false],
    ["an unknown REST trigger", { rest: { triggers: { website_fails: "x" } } }, false],
    ["an unknown MCP trigger", { mcp: { triggers: { caption_refused_always: "x" } } }, false],
    ["a token that is a number", { rest: { tokens: { team: 5 } } }, false],
    ["a timing that is not positive", { rest: { timing: { time_scale: -1 } } }, false],
    ["a publishing switch that is a string", { mcp: { inputs: { allow_publishing: "yes" } } }, false],
    ["an unknown profile", { mcp: { profile: "beta" } }, false],
    ["an unknown cost switch", { mcp: { cost: { pictures: true } } }, false],
    ["too many main batch posts", { mcp: { cost: { main_batch_posts: 21 } } }, false],
  ])("%s: schema and parser agree", (_what, data, valid) => {
    expect(validate(data), JSON.stringify(validate.errors)).toBe(valid);
    expect(parserTakes(data)).toBe(valid);
  });
});
