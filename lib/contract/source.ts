// One kind of contract document as the rule catalogues point into it (spec/rules/README.md): its pointer kind
// (`openapi:`, `tool:`, `error:`) and the family sources it lists (`operations`, `tools`, `errors`). A resolver
// joins the kinds a catalogue uses; what it gives the rule loader has the shape of the conformance core's
// ContractResolver, which knows no kind.
import { pointerStep } from "../json-pointer.js";

/** A family member: its name and, when the source implies one, its contract pointer. */
export interface Member {
  name: string;
  contract?: string;
}

/** A family's `where`: every given key must match (the rules schema says which keys a source takes). */
export type Where = Readonly<Record<string, unknown>>;

export interface ContractSource {
  /** The pointer kind, without its colon: `openapi` for `openapi:#/…`. */
  kind: string;
  /** What the part after `<kind>:` points at; undefined when it dangles. */
  resolve(rest: string): unknown;
  /** The family sources this document lists, by name. */
  families?: Readonly<Record<string, (where: Where) => Member[]>>;
}

export interface Resolver {
  resolve(pointer: string): unknown;
  members(from: string, where?: Where): Member[];
}

/** A resolver for the pointers and family sources of `sources`; a pointer of any other kind dangles. */
export function contractResolver(...sources: ContractSource[]): Resolver {
  const resolve = (pointer: string): unknown => {
    const colon = pointer.indexOf(":");
    const source = colon > 0 ? sources.find((s) => s.kind === pointer.slice(0, colon)) : undefined;
    return source?.resolve(pointer.slice(colon + 1));
  };
  return {
    resolve,
    /** A named source's members, or a plain pointer's: the values of a list, the keys of an object. Throws when it dangles. */
    members(from, where = {}) {
      const named = sources.find((s) => s.families?.[from])?.families?.[from];
      if (named) return named(where);
      const at = resolve(from);
      if (Array.isArray(at)) return at.map((v, i) => ({ name: String(v), contract: `${from}/${i}` }));
      if (at && typeof at === "object") return Object.keys(at).map((k) => ({ name: k, contract: `${from}/${pointerStep(k)}` }));
      throw new Error(`family source ${from} ${at === undefined ? "points at nothing in the contract" : "is neither a list nor an object"}`);
    },
  };
}
