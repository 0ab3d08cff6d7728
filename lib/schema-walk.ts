// Small pure helpers over JSON Schema trees: deep mapping, $ref rewriting, keyword discovery.
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** Deep-copies `value`, letting `visit` replace any object (return undefined to keep walking into it). */
export function mapObjects(value: Json, visit: (obj: JsonObject) => Json | undefined): Json {
  if (Array.isArray(value)) return value.map((v) => mapObjects(v, visit));
  if (value === null || typeof value !== "object") return value;
  const replaced = visit(value);
  if (replaced !== undefined) return replaced;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapObjects(v, visit)]));
}

/** Rewrites every $ref string through `rewrite`. */
export function rewriteRefs(value: Json, rewrite: (ref: string) => string): Json {
  return mapObjects(value, (obj) => {
    if (typeof obj.$ref !== "string") return undefined;
    const rest = Object.entries(obj).filter(([key]) => key !== "$ref");
    return { $ref: rewrite(obj.$ref), ...Object.fromEntries(rest.map(([k, v]) => [k, rewriteRefs(v, rewrite)])) };
  });
}

/** Every $ref string in a tree. */
export function collectRefs(value: Json, into: Set<string> = new Set()): Set<string> {
  mapObjects(value, (obj) => {
    if (typeof obj.$ref === "string") into.add(obj.$ref);
    return undefined;
  });
  return into;
}

/** Every `x-…` key used anywhere (TypeSpec and our sources add some; ajv must know them as annotations). */
export function collectExtensionKeys(value: Json, into: Set<string> = new Set()): Set<string> {
  mapObjects(value, (obj) => {
    for (const key of Object.keys(obj)) if (key.startsWith("x-")) into.add(key);
    return undefined;
  });
  return into;
}

/** Names of the definitions `roots` reach through "#/$defs/Name" refs into `bag`, transitively. */
export function reachableDefs(roots: Json[], bag: Record<string, Json>): Set<string> {
  const seen = new Set<string>();
  const queue = roots.flatMap((r) => [...collectRefs(r)]);
  for (let ref = queue.pop(); ref !== undefined; ref = queue.pop()) {
    const name = ref.replace("#/$defs/", "");
    if (seen.has(name) || !(name in bag)) continue;
    seen.add(name);
    queue.push(...collectRefs(bag[name]!));
  }
  return seen;
}

export function pascalCase(name: string): string {
  return name.replace(/(^|[_\-\s]+)([a-z0-9])/g, (_m, _sep, ch: string) => ch.toUpperCase());
}
