// TypeScript declarations from a bag of named JSON Schemas, through json-schema-to-typescript.
import { compile } from "json-schema-to-typescript";
import { slashBanner } from "./banner.js";
import { mapObjects, type Json, type JsonObject } from "../../lib/schema-walk.js";

/**
 * `defs` must reference each other as "#/$defs/Name". Options follow what we measured: maxItems -1 keeps
 * arrays as arrays, additionalProperties false avoids index signatures on every object.
 */
export async function typesFromDefs(defs: Record<string, Json>, extra = ""): Promise<string> {
  // json-schema-to-typescript mints a new named type (and a "Timestamp1" on a clash) for every nested title
  // and for every $ref with siblings; types are named by their definition, and a reference needs only $ref.
  const plain = (schema: Json): Json =>
    mapObjects(schema, (obj) => {
      if (typeof obj.$ref === "string") return { $ref: obj.$ref };
      if (typeof obj.title !== "string") return undefined;
      const { title: _title, ...rest } = obj;
      return plain(rest);
    });
  const named = Object.fromEntries(
    Object.entries(defs).map(([name, schema]) => {
      const body = plain(schema) as JsonObject;
      // A definition that only points at another would vanish into it; keep it as an alias.
      return [name, typeof body.$ref === "string" ? { allOf: [body], title: name } : { ...body, title: name }];
    }),
  );
  const root = { title: "__Root", type: "object", additionalProperties: false, $defs: named };
  const ts = await compile(root as never, "__Root", {
    bannerComment: "",
    unreachableDefinitions: true,
    additionalProperties: false,
    maxItems: -1,
    format: true,
    strictIndexSignatures: true,
    $refOptions: { resolve: { external: false } } as never,
  });
  // The wrapper only exists to carry $defs; drop its empty interface and the notes that name it.
  const body = ts
    .replace(/export interface __Root \{\}\n*/, "")
    .replace(/\n \*\n \* This interface was referenced by `__Root`'s JSON-Schema\n \* via the `definition` "[^"]+"\./g, "")
    .replace(/\n \* This interface was referenced by `__Root`'s JSON-Schema\n \* via the `definition` "[^"]+"\./g, "");
  if (body.includes("__Root")) throw new Error("json-schema-to-typescript output still mentions the wrapper type");
  return `${slashBanner}/* eslint-disable */\n\n${body.trim()}\n${extra}`;
}
