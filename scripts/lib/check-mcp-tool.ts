// Checks one hand-written tool file: shape, schemas compile, examples behave as they claim.
import type { ErrorObject, ValidateFunction } from "ajv";
import type { Ajv } from "./ajv.js";
import { compileToolSchema, type ToolSource } from "./mcp-source.js";

export interface ToolProblem {
  tool: string;
  problem: string;
}

const fmt = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map((e) => `${e.instancePath || "(root)"} ${e.keyword}: ${e.message}`).join("; ");

/** ajv must already hold the defs (addDefs) and the tool-file meta-schema under id "tool-file". */
export function checkToolSource(ajv: Ajv, tool: ToolSource, fileName: string): ToolProblem[] {
  const problems: string[] = [];
  const meta = ajv.getSchema("tool-file")!;
  if (!meta(tool)) problems.push(`file shape: ${fmt(meta.errors)}`);
  if (fileName !== `${tool.name}.json`) problems.push(`file name ${fileName} does not match name ${tool.name}`);
  if (tool.inputSchema?.type !== "object" || tool.inputSchema?.additionalProperties !== false) {
    problems.push("inputSchema must be type object with additionalProperties false");
  }
  const writes = tool.scopes?.includes("mcp:write");
  if (writes === tool.readOnlyHint) problems.push("readOnlyHint must be the opposite of needing mcp:write");

  let validateInput: ValidateFunction | undefined;
  let validateOutput: ValidateFunction | undefined;
  try {
    validateInput = compileToolSchema(ajv, tool, "inputSchema");
  } catch (err) {
    problems.push(`inputSchema does not compile: ${(err as Error).message}`);
  }
  try {
    validateOutput = compileToolSchema(ajv, tool, "output");
  } catch (err) {
    problems.push(`output does not compile: ${(err as Error).message}`);
  }
  tool.examples?.validInputs?.forEach((input, i) => {
    if (validateInput && !validateInput(input)) problems.push(`validInputs[${i}] refused: ${fmt(validateInput.errors)}`);
  });
  tool.examples?.validOutputs?.forEach((output, i) => {
    if (validateOutput && !validateOutput(output)) problems.push(`validOutputs[${i}] refused: ${fmt(validateOutput.errors)}`);
  });
  tool.examples?.invalidInputs?.forEach((example, i) => {
    if (!validateInput) return;
    if (validateInput(example.input)) {
      problems.push(`invalidInputs[${i}] (${example.reason}) is accepted`);
      return;
    }
    const hit = validateInput.errors?.some(
      (e) => e.keyword === example.keyword && e.instancePath === example.instancePath,
    );
    if (!hit) {
      problems.push(
        `invalidInputs[${i}] (${example.reason}) refused, but not by ${example.keyword} at "${example.instancePath}": ${fmt(validateInput.errors)}`,
      );
    }
  });
  return problems.map((problem) => ({ tool: tool.name ?? fileName, problem }));
}
