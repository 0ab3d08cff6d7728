// The types of what a target answers. A tool's output is untrusted: the contract's type says what it should be, the
// target may leave anything out (the contract-output-shape rule judges that separately, and a check reads on after
// that failure). So what a check reads is the contract's shape with every part possibly missing, never a claim that
// the whole output is there.
import type { ToolName, ToolOutputs } from "../../generated/mcp/types.js";

type Primitive = string | number | boolean | bigint | symbol | null | undefined;
type Objects<T> = Exclude<T, Primitive | readonly unknown[]>;
type Element<T> = T extends readonly (infer E)[] ? E : never;
/** The named keys of an object type (an index signature, e.g. of a schema's if/then part, names none). */
type NamedKey<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: 0 };
/** Every named key of any member of a union of objects. */
type AnyKey<T> = T extends unknown ? NamedKey<T> : never;
/** What any member of a union of objects holds at a key. */
type AnyValue<T, K extends PropertyKey> = T extends unknown ? (K extends keyof T ? T[K] : never) : never;

/**
 * The contract's type T as a target may answer it: every property, at any depth, possibly absent or null; the
 * members of a union of objects read as one object whose keys are any member's (which one came is not known yet).
 */
export type Answered<T> =
  | Extract<T, Primitive>
  | ([Element<T>] extends [never] ? never : Answered<Element<T>>[])
  | ([Objects<T>] extends [never] ? never : { [K in AnyKey<Objects<T>>]?: Answered<AnyValue<Objects<T>, K>> | null });

/** structuredContent.data of a tool's success as a check reads it: the contract's output, untrusted. */
export type AnsweredOutput<N extends string> = N extends ToolName ? Answered<ToolOutputs[N]> : unknown;

/** `.filter(truthy)`: the answers that came (`.filter(Boolean)`, typed). */
export const truthy = <T>(x: T): x is Exclude<T, undefined | null | false | 0 | ""> => !!x;
