// The options of a command: parsed strictly, with -h/--help printing the command's help. Bad usage prints the
// message and the help and ends the command with exit 2. Commands that wrap another (`mock … -- npm test`) take
// everything after the first `--` as that command, untouched.
import { parseArgs, type ParseArgsConfig } from "node:util";

type Options = NonNullable<ParseArgsConfig["options"]>;
const helpOption = { help: { type: "boolean", short: "h", default: false } } as const;
type Config<O extends Options> = { args: string[]; options: O & typeof helpOption; strict: true; allowPositionals: false };
export type Values<O extends Options> = ReturnType<typeof parseArgs<Config<O>>>["values"];

/**
 * `--flag -1` as `--flag=-1` for options that take a value: parseArgs calls a value starting with a dash
 * "ambiguous"; a negative number is a value, and the command says what range it accepts.
 */
function joinNegativeNumbers(argv: string[], options: Options): string[] {
  const takesValue = new Set(
    Object.entries(options).flatMap(([name, o]) => (o.type === "string" ? [`--${name}`, ...(o.short ? [`-${o.short}`] : [])] : [])),
  );
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const next = argv[i + 1];
    if (takesValue.has(argv[i]!) && next !== undefined && /^-(\d|\.\d|Infinity$)/.test(next)) {
      out.push(`${argv[i]}=${next}`);
      i++;
    } else out.push(argv[i]!);
  }
  return out;
}

/** Levenshtein distance, for "did you mean". */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** The parser's complaint in the command's words: an unknown option named as typed, with the likeliest meant one. */
function usageMessage(err: Error & { code?: string }, options: Options): string {
  if (err.code !== "ERR_PARSE_ARGS_UNKNOWN_OPTION") return err.message;
  const typed = /'([^']+)'/.exec(err.message)?.[1] ?? "";
  const name = typed.replace(/^--?/, "").split("=")[0]!;
  const known = Object.keys({ ...options, ...helpOption });
  const [best] = known.map((k) => ({ k, d: distance(name, k) })).sort((a, b) => a.d - b.d);
  const close = typed.startsWith("--") && best && best.d <= Math.max(1, Math.floor(name.length / 3)) ? ` (did you mean --${best.k}?)` : "";
  return `unknown option ${typed}${close}`;
}

export interface Parsed<O extends Options> {
  values: Values<O>;
  /** With `wraps`: what follows the first `--` (empty when there is none). */
  command: string[];
}

/**
 * The parsed options, or the exit status when the command ends here (help shown: 0; bad usage: 2). With `wraps`,
 * everything after the first `--` is the wrapped command, returned as it is.
 */
export function commandArgs<O extends Options>(argv: string[], options: O, help: string, wraps = false): Parsed<O> | { exit: 0 | 2 } {
  const split = wraps ? argv.indexOf("--") : -1;
  const own = split < 0 ? argv : argv.slice(0, split);
  const command = split < 0 ? [] : argv.slice(split + 1);
  let values: Values<O>;
  try {
    const args = joinNegativeNumbers(own, options);
    ({ values } = parseArgs<Config<O>>({ args, options: { ...options, ...helpOption }, strict: true, allowPositionals: false }));
  } catch (err) {
    console.error(`${usageMessage(err as Error, options)}\n\n${help}`);
    return { exit: 2 };
  }
  if ((values as { help?: boolean }).help) {
    console.log(help);
    return { exit: 0 };
  }
  if (split >= 0 && !command.length) {
    console.error(`nothing to run after --\n\n${help}`);
    return { exit: 2 };
  }
  return { values, command };
}
