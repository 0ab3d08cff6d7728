// What a target answers, typed by the contract but untrusted: the contract's type says what it should be, the
// target may leave anything out (the schema rules judge that separately, and a check reads on after that failure).
// So what a check reads is the contract's shape with every part possibly missing, never a claim that the whole
// answer is there. Used for REST bodies (generated/rest/types) and MCP outputs (mcp/answers.ts) alike.
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

/** The member `key` of a parsed JSON value, read as `value?.[key]` reads it (for a name known only at run time). */
export const memberOf = (value: unknown, key: string | number): unknown =>
  value === null || value === undefined ? undefined : (value as Readonly<Record<string | number, unknown>>)[key];

/** The value at `path` in a parsed JSON value, read as `value?.[a]?.[b]…` reads it. */
export const valueAt = (value: unknown, path: readonly (string | number)[]): unknown => path.reduce<unknown>((v, k) => memberOf(v, k), value);

/**
 * A parsed JSON value read as the contract's object type T, or undefined when it is no object (an array, a string,
 * null: `value?.member` finds nothing in those either). Untrusted like every Answered: only its being an object is known.
 */
export const answeredObject = <T>(value: unknown): Answered<T> | undefined => (isObject(value) ? (value as Answered<T>) : undefined);

/** Whether a parsed JSON value is an object (not null, not a list): its members can be read by name. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value at a JSON pointer (`/a/b~1c`, ajv's instancePath) or a local reference (`#/$defs/X`) in a parsed JSON value. */
export const valueAtPointer = (value: unknown, pointer: string): unknown =>
  valueAt(
    value,
    pointer
      .replace(/^#/, "")
      .split("/")
      .slice(1)
      .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~")),
  );

/** A list a target answered, or none when it answered something else (absent, null, not a list). */
export const listOf = <T>(value: readonly T[] | null | undefined): T[] => (Array.isArray(value) ? [...value] : []);
