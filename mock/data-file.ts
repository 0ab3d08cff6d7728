// Checks for the mocks' data files (JSON tables read with `import … with { type: "json" }`). TypeScript types a
// JSON import from the file's contents, which widens unions to string and cannot see a misspelt key, so each
// reader checks its file when the module loads and throws naming the file, the place and the problem.

export type Where = string;

export interface DataFile {
  /** Throws `<file>: <where> <what>`. */
  fail(where: Where, what: string): never;
  /** A plain object with only the given keys (`$comment` is always allowed) and every key of `required`. */
  object(v: unknown, where: Where, keys: readonly string[], required?: readonly string[]): Record<string, unknown>;
  /** A plain object whose keys are data (a table by name), `$comment` left out, in the file's order. */
  record(v: unknown, where: Where): Record<string, unknown>;
  list(v: unknown, where: Where, nonEmpty?: boolean): unknown[];
  text(v: unknown, where: Where): string;
  textOrNull(v: unknown, where: Where): string | null;
  /** A string the pattern matches; `what` completes "must be …". */
  matching(v: unknown, where: Where, pattern: RegExp, what: string): string;
  texts(v: unknown, where: Where, nonEmpty?: boolean): string[];
  /** A whole number ≥ min. */
  count(v: unknown, where: Where, min?: number): number;
  number(v: unknown, where: Where): number;
  boolean(v: unknown, where: Where): boolean;
  /** One of the values, typed as their union. */
  oneOf<T extends string>(v: unknown, where: Where, values: readonly T[]): T;
}

export function dataFile(file: string): DataFile {
  const fail = (where: Where, what: string): never => {
    throw new Error(`${file}: ${where} ${what}`);
  };
  const text = (v: unknown, where: Where): string => (typeof v === "string" && v.trim() !== "" ? v : fail(where, "must be a non-blank string"));
  const list = (v: unknown, where: Where, nonEmpty = false): unknown[] => {
    if (!Array.isArray(v)) return fail(where, "must be a list");
    if (nonEmpty && v.length === 0) fail(where, "must not be empty");
    return v;
  };
  const plain = (v: unknown, where: Where): Record<string, unknown> =>
    typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : fail(where, "must be an object");
  return {
    fail,
    object(v, where, keys, required = []) {
      const o = plain(v, where);
      for (const key of Object.keys(o)) if (key !== "$comment" && !keys.includes(key)) fail(`${where}.${key}`, `is not a known key (${keys.join(", ")})`);
      for (const key of required) if (!(key in o)) fail(`${where}.${key}`, "is missing");
      return o;
    },
    record: (v, where) => Object.fromEntries(Object.entries(plain(v, where)).filter(([key]) => key !== "$comment")),
    list,
    text,
    textOrNull: (v, where) => (v === null ? null : text(v, where)),
    matching: (v, where, pattern, what) => (typeof v === "string" && pattern.test(v) ? v : fail(where, `must be ${what}`)),
    texts: (v, where, nonEmpty = false) => list(v, where, nonEmpty).map((t, i) => text(t, `${where}[${i}]`)),
    count: (v, where, min = 0) => (Number.isInteger(v) && (v as number) >= min ? (v as number) : fail(where, `must be a whole number ≥ ${min}`)),
    number: (v, where) => (typeof v === "number" && Number.isFinite(v) ? v : fail(where, "must be a number")),
    boolean: (v, where) => (typeof v === "boolean" ? v : fail(where, "must be true or false")),
    oneOf: <T extends string>(v: unknown, where: Where, values: readonly T[]): T =>
      (values as readonly unknown[]).includes(v) ? (v as T) : fail(where, `${JSON.stringify(v)} is not one of ${values.join(", ")}`),
  };
}
