// RFC 6901 JSON pointers (`#/a/b~1c`): following one into a document, and escaping a key into a step of one.

/** Follows a JSON pointer (`#/a/b~1c`, or `/a/b~1c`); undefined when a step is missing. */
export function followPointer(doc: unknown, pointer: string): unknown {
  const path = pointer.replace(/^#/, "");
  if (path === "") return doc;
  let at: unknown = doc;
  for (const raw of path.slice(1).split("/")) {
    const step = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (at === null || typeof at !== "object" || !Object.prototype.hasOwnProperty.call(at, step)) return undefined;
    at = (at as Record<string, unknown>)[step];
  }
  return at;
}

/** A key as one step of a pointer: `~` becomes `~0`, `/` becomes `~1`. */
export const pointerStep = (key: string): string => key.replace(/~/g, "~0").replace(/\//g, "~1");
