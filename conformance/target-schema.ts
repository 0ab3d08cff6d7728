// The target file's JSON Schema (`npm run generate` writes it to generated/conformance/target-file.schema.json):
// made from the same tables the parser reads (section keys, trigger slots, timing defaults, token kinds, cost
// switches), so an editor that reads it completes and checks exactly what the suite accepts.
import { costSwitchKeys } from "./suites/mcp/cost.js";
import { defaultMcpTiming, mcpSectionKeys, tokenKeys } from "./suites/mcp/target.js";
import { mcpTriggerSlots } from "./suites/mcp/triggers.js";
import { restSectionKeys, restTriggerSlots } from "./suites/rest/target.js";
import { defaultTiming, type TriggerSlot } from "./core/target-values.js";

type Schema = Record<string, unknown>;

/** A string, or `{ env: NAME }` read from the environment. */
const text: Schema = { $ref: "#/$defs/text" };
const positive: Schema = { $ref: "#/$defs/positive" };
const flag: Schema = { type: ["boolean", "null"] };

/** A mapping of exactly `keys`, each as `value` says (by key, or one schema for all). */
const mapping = (keys: readonly string[], value: Schema | ((key: string) => Schema)): Schema => ({
  type: ["object", "null"],
  additionalProperties: false,
  properties: Object.fromEntries(keys.map((k) => [k, typeof value === "function" ? value(k) : value])),
});

const triggers = (slots: Readonly<Record<string, TriggerSlot>>): Schema => mapping(Object.keys(slots), (k) => ({ ...text, description: slots[k]!.what }));

const tls = mapping(restSectionKeys.tls, (k) => (k === "insecure" ? flag : text));

const restSection = (): Schema =>
  mapping(restSectionKeys.rest, (key) => {
    switch (key) {
      case "tokens":
        return mapping(restSectionKeys.tokens, text);
      case "triggers":
        return triggers(restTriggerSlots);
      case "inputs":
        return mapping(restSectionKeys.inputs, text);
      case "timing":
        return mapping(Object.keys(defaultTiming), positive);
      case "concurrency":
        return positive;
      case "tls":
        return tls;
      default:
        return text;
    }
  });

const mcpSection = (): Schema =>
  mapping(mcpSectionKeys.mcp, (key) => {
    switch (key) {
      case "profile":
        return { enum: ["preview", "all"] };
      case "tokens":
        return mapping(Object.keys(tokenKeys), text);
      case "triggers":
        return triggers(mcpTriggerSlots);
      case "inputs":
        return mapping(mcpSectionKeys.inputs, (k) => (k === "allow_publishing" ? flag : text));
      case "timing":
        return mapping(Object.keys(defaultMcpTiming), positive);
      case "concurrency":
        return positive;
      case "tls":
        return mapping(mcpSectionKeys.tls, (k) => (k === "insecure" ? flag : text));
      case "cost":
        return mapping([...Object.keys(costSwitchKeys), "main_batch_posts"], (k) => (k === "main_batch_posts" ? { type: "integer", minimum: 1, maximum: 20 } : flag));
      default:
        return text;
    }
  });

/** The JSON Schema (2020-12) of a conformance target file. */
export function targetFileSchema(comment: string): Schema {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $comment: comment,
    title: "ideas-contract conformance target file",
    description: "Where an implementation is, the tokens to use, the triggers for situations a caller cannot force, its timing and what a run may spend (conformance/README.md).",
    type: "object",
    additionalProperties: false,
    properties: { rest: restSection(), mcp: mcpSection() },
    $defs: {
      text: {
        description: "A string, or { env: NAME } to read it from the environment.",
        anyOf: [{ type: ["string", "null"] }, { type: "object", required: ["env"], additionalProperties: false, properties: { env: { type: "string", minLength: 1 } } }],
      },
      positive: { description: "A positive number.", anyOf: [{ type: "null" }, { type: "number", exclusiveMinimum: 0 }, { type: "string", pattern: "^\\s*\\d*\\.?\\d+([eE][-+]?\\d+)?\\s*$" }] },
    },
  };
}
