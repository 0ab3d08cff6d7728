// The target file is read through its JSON Schema (generated/conformance/target-file.schema.json): the reference's
// file is valid, each kind of mistake is refused with one line per problem naming the key, and editors can use the
// same schema (it compiles under ajv's strict mode).
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { referenceTargetPath, targetSchemaPath } from "../conformance/core/paths.js";
import { TargetError } from "../conformance/core/target-values.js";
import { parseTargetFile } from "../conformance/target-file.js";

const schema = JSON.parse(readFileSync(targetSchemaPath, "utf8"));

/** The problems the suite reports for `data` (none: it is read). */
const refusal = (data: unknown): string[] => {
  try {
    parseTargetFile(data, "t.yaml", { MY_TOKEN: "x" });
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(TargetError);
    return (err as Error).message.split("\n");
  }
};

describe("the target file's JSON Schema", () => {
  it("takes the reference's target file, and compiles for editors under ajv's strict mode", () => {
    const validate = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);
    const data = parse(readFileSync(referenceTargetPath, "utf8"));
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
    expect(refusal(data)).toEqual([]);
  });

  it("takes env references, empty values and numbers written as strings", () => {
    const data = { rest: { url: { env: "MY_URL" }, tokens: { team: { env: "MY_TOKEN" }, other_team: null }, timing: { time_scale: "0.5" }, concurrency: "2" }, mcp: { profile: "all", cost: { renders: true, main_batch_posts: 5 }, inputs: { allow_publishing: false } } };
    expect(refusal(data)).toEqual([]);
    // Read: the variable's value in place of { env }, unset variables and empty values left out.
    expect(parseTargetFile(data, "t.yaml", { MY_TOKEN: "x" }).rest).toEqual({ tokens: { team: "x" }, timing: { time_scale: "0.5" }, concurrency: "2" });
  });

  it("resolves ca_file against the target file's folder", () => {
    expect(parseTargetFile({ mcp: { tls: { ca_file: "certs/ca.pem" } } }, "/srv/targets/t.yaml").mcp?.tls?.ca_file).toBe("/srv/targets/certs/ca.pem");
  });

  it.each([
    ["an unknown top-level key", { other: {} }, ["t.yaml: other: unknown key (known: rest, mcp)"]],
    ["an unknown key in rest", { rest: { tokns: {} } }, ["t.yaml: rest.tokns: unknown key (known: url, tokens, triggers, inputs, timing, concurrency, tls)"]],
    ["an unknown REST trigger", { rest: { triggers: { website_fails: "x" } } }, [expect.stringMatching(/^t\.yaml: rest\.triggers\.website_fails: unknown key \(known: website_fails_read, /)]],
    ["an unknown MCP trigger", { mcp: { triggers: { caption_refused_always: "x" } } }, [expect.stringMatching(/^t\.yaml: mcp\.triggers\.caption_refused_always: unknown key \(known: .*caption_refused_once, /)]],
    ["an unknown cost switch", { mcp: { cost: { pictures: true } } }, ["t.yaml: mcp.cost.pictures: unknown key (known: renders, extra_batches, builds, main_batch_posts)"]],
    ["a key inside an env reference", { rest: { tokens: { team: { env: "X", default: "y" } } } }, ["t.yaml: rest.tokens.team: must be a string or { env: NAME }"]],
    ["a token that is a number", { rest: { tokens: { team: 5 } } }, ["t.yaml: rest.tokens.team: must be a string or { env: NAME }"]],
    ["a trigger that is a number", { mcp: { triggers: { caption_slow: 5 } } }, ["t.yaml: mcp.triggers.caption_slow: must be a string or { env: NAME }"]],
    ["a section that is a list", { mcp: { tokens: ["a"] } }, ["t.yaml: mcp.tokens: must be a mapping"]],
    ["a file that is not a mapping", "rest", ["t.yaml: the file: must be a mapping"]],
    ["a publishing switch that is a string", { mcp: { inputs: { allow_publishing: "yes" } } }, ["t.yaml: mcp.inputs.allow_publishing: must be true or false"]],
    ["a timing that is not positive", { rest: { timing: { time_scale: -1 } } }, ["t.yaml: rest.timing.time_scale: must be a positive number"]],
    ["a timing of zero, as a string", { mcp: { timing: { job_poll_seconds: "0" } } }, ["t.yaml: mcp.timing.job_poll_seconds: must be a positive number"]],
    ["a concurrency that is not whole", { rest: { concurrency: 2.5 } }, ["t.yaml: rest.concurrency: must be a whole number ≥ 1"]],
    ["too many main batch posts", { mcp: { cost: { main_batch_posts: 21 } } }, ["t.yaml: mcp.cost.main_batch_posts: must be <= 20"]],
    ["main batch posts that are not whole", { mcp: { cost: { main_batch_posts: 2.5 } } }, ["t.yaml: mcp.cost.main_batch_posts: must be a whole number"]],
    ["an unknown profile", { mcp: { profile: "beta" } }, ["t.yaml: mcp.profile: must be one of preview, all"]],
    ["a URL that is not one", { rest: { url: "api.example.com" } }, ["t.yaml: rest.url: must be an http(s) URL without credentials, or { env: NAME }"]],
    ["a URL of another scheme", { mcp: { url: "ftp://gw.example.com/mcp" } }, ["t.yaml: mcp.url: must be an http(s) URL without credentials, or { env: NAME }"]],
    ["a URL with credentials", { rest: { url: "https://user:secret@api.example.com" } }, ["t.yaml: rest.url: must be an http(s) URL without credentials, or { env: NAME }"]],
    [
      "several mistakes at once",
      { rest: { tokens: { team: 5 }, tls: { insecure: "no" } }, mcp: { profile: "beta" } },
      ["t.yaml: rest.tokens.team: must be a string or { env: NAME }", "t.yaml: rest.tls.insecure: must be true or false", "t.yaml: mcp.profile: must be one of preview, all"],
    ],
  ])("refuses %s, one line per problem", (_what, data, lines) => {
    expect(refusal(data)).toEqual(lines);
  });

  it("has no property named env but the env reference's own (the reader takes any { env } mapping for one)", () => {
    const owners: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (!node || typeof node !== "object") return;
      const properties = (node as { properties?: Record<string, unknown> }).properties;
      if (properties && "env" in properties) owners.push(at);
      for (const [k, v] of Object.entries(node)) walk(v, `${at}/${k}`);
    };
    walk(schema, "#");
    expect(owners).toEqual(["#/$defs/EnvRef"]);
  });

  it("never prints a refused value (it may be a secret)", () => {
    expect(refusal({ rest: { url: "https://user:s3cret@api.example.com", tokens: { team: ["s3cret"] } } }).join("\n")).not.toContain("s3cret");
  });
});
