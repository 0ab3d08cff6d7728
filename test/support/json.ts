// JSON whose shape is not known in advance (schemas being rewritten, payloads of any tool, raw answers of hostile
// tests): one type for it and small guards that narrow it where it is read.

import { isObject } from "../../conformance/core/answered.js";

/** A JSON object whose fields are not known yet; each is narrowed where it is read. */
export type Fields = { [key: string]: unknown };

/** Whether a value is a JSON object (the suite's own guard, conformance/core/answered.ts). */
export const isFields: (value: unknown) => value is Fields = isObject;

/** The value at `path` inside `value`: undefined where a step is not an object's field or an array's item. */
export function at(value: unknown, ...path: (string | number)[]): unknown {
  let node = value;
  for (const step of path) {
    if (typeof step === "number" ? !Array.isArray(node) : !isFields(node)) return undefined;
    node = (node as Record<string | number, unknown>)[step];
  }
  return node;
}

/** The object at `path` inside `value`, if there is one. */
export const fieldsAt = (value: unknown, ...path: (string | number)[]): Fields | undefined => {
  const node = at(value, ...path);
  return isFields(node) ? node : undefined;
};

/** The array at `path` inside `value`, or an empty one. */
export const listAt = (value: unknown, ...path: (string | number)[]): unknown[] => {
  const node = at(value, ...path);
  return Array.isArray(node) ? node : [];
};

/** The object at `path` inside `value`, to read or edit in place; throws when there is none (the document changed shape). */
export function fieldsOf(value: unknown, ...path: (string | number)[]): Fields {
  const node = at(value, ...path);
  if (!isFields(node)) throw new Error(`no object at ${path.join(".") || "the top"}`);
  return node;
}

/** The array at `path` inside `value`, to edit in place; throws when there is none. */
export function itemsOf(value: unknown, ...path: (string | number)[]): unknown[] {
  const node = at(value, ...path);
  if (!Array.isArray(node)) throw new Error(`no array at ${path.join(".")}`);
  return node;
}

/** A path as steps: a dotted string ("frames.de.tasks", "kinds.2") or the steps themselves. */
type Path = string | (string | number)[];

const stepsOf = (path: Path): (string | number)[] => (typeof path === "string" ? path.split(".").map((s) => (/^\d+$/.test(s) ? Number(s) : s)) : [...path]);

/** The container a path leads to inside `value`, and the last step; throws when there is none. */
function parentAt(value: unknown, path: Path): { node: Record<string | number, unknown>; key: string | number } {
  const steps = stepsOf(path);
  const key = steps.pop()!;
  const node = at(value, ...steps);
  if (typeof node !== "object" || node === null) throw new Error(`nothing at ${steps.join(".")}`);
  return { node: node as Record<string | number, unknown>, key };
}

/** Sets the field (or array item) at a dotted path, in place: spoils a data file's copy in one named spot. */
export function setAt(value: unknown, path: Path, to: unknown): void {
  const { node, key } = parentAt(value, path);
  node[key] = to;
}

/** Keeps the items of the array at `path` that `keep` takes (a new array in its place, as `x = x.filter(…)`). */
export function filterAt(value: unknown, path: Path, keep: (item: unknown) => boolean): void {
  setAt(value, path, itemsOf(value, ...stepsOf(path)).filter(keep));
}

/** Deletes the field at a dotted path, in place. */
export function deleteAt(value: unknown, path: Path): void {
  const { node, key } = parentAt(value, path);
  delete node[key];
}

/** The objects of the array at `path` inside `value` (none when there is no array). */
export const objectsAt = (value: unknown, ...path: (string | number)[]): Fields[] => listAt(value, ...path).filter(isFields);
