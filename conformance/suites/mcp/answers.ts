// The types of what an MCP target answers: a tool's output as the contract types it, untrusted (../answered.ts).
import type { ToolName, ToolOutputs } from "../../../generated/mcp/types.js";
import type { Answered } from "../../core/answered.js";

export type { Answered };

/** structuredContent.data of a tool's success as a check reads it: the contract's output, untrusted. */
export type AnsweredOutput<N extends string> = N extends ToolName ? Answered<ToolOutputs[N]> : unknown;

/** `.filter(truthy)`: the answers that came (`.filter(Boolean)`, typed). */
export const truthy = <T>(x: T): x is Exclude<T, undefined | null | false | 0 | ""> => !!x;
