// The options of a command: parsed strictly, with -h/--help printing the command's help. Bad usage prints the
// message and the help and ends the command with exit 2.
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

/** The parsed options, or the exit status when the command ends here (help shown: 0; bad usage: 2). */
export function commandArgs<O extends Options>(argv: string[], options: O, help: string): { values: Values<O> } | { exit: 0 | 2 } {
  let values: Values<O>;
  try {
    const args = joinNegativeNumbers(argv, options);
    ({ values } = parseArgs<Config<O>>({ args, options: { ...options, ...helpOption }, strict: true, allowPositionals: false }));
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${help}`);
    return { exit: 2 };
  }
  if ((values as { help?: boolean }).help) {
    console.log(help);
    return { exit: 0 };
  }
  return { values };
}
