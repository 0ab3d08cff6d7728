// The generated error catalogue as rules point into it: `error:<code>` (a code or one of its aliases), and the
// `errors` family filtered by kind, retryable and code.
import { contractDocument, mcpErrorsJsonPath } from "./documents.js";
import type { ContractSource } from "./source.js";

interface ErrorEntry {
  code: string;
  kind: string;
  retryable?: boolean | "varies";
  aliases?: string[];
}
interface ErrorFilter {
  kind?: string;
  retryable?: boolean | "varies";
  code?: string[];
}

const errors = () => (contractDocument(mcpErrorsJsonPath) as { entries: ErrorEntry[] }).entries;

export const errorSource: ContractSource = {
  kind: "error",
  resolve: (code) => errors().find((e) => e.code === code || e.aliases?.includes(code)),
  families: {
    errors: (filter) => {
      const where = filter as ErrorFilter;
      return errors()
        .filter(
          (e) =>
            (where.kind === undefined || e.kind === where.kind) &&
            (where.retryable === undefined || e.retryable === where.retryable) &&
            (where.code === undefined || where.code.includes(e.code)),
        )
        .map((e) => ({ name: e.code, contract: `error:${e.code}` }));
    },
  },
};
