// The options of a command: parsed strictly, with -h/--help printing the command's help. Bad usage prints the
// message and the help and ends the command with exit 2.
import { parseArgs, type ParseArgsConfig } from "node:util";

type Options = NonNullable<ParseArgsConfig["options"]>;
const helpOption = { help: { type: "boolean", short: "h", default: false } } as const;
type Config<O extends Options> = { args: string[]; options: O & typeof helpOption; strict: true; allowPositionals: false };
export type Values<O extends Options> = ReturnType<typeof parseArgs<Config<O>>>["values"];

/** The parsed options, or the exit status when the command ends here (help shown: 0; bad usage: 2). */
export function commandArgs<O extends Options>(argv: string[], options: O, help: string): { values: Values<O> } | { exit: 0 | 2 } {
  let values: Values<O>;
  try {
    ({ values } = parseArgs<Config<O>>({ args: argv, options: { ...options, ...helpOption }, strict: true, allowPositionals: false }));
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
