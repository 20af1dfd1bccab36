/** What the `shiplog` command shares between its parts: exit codes, its error, its terminal. */

/** This release, as package.json has it: `--version` and the User-Agent. */
export const VERSION = '0.1.0';

/** Exit codes, as the README documents them. */
export const EXIT = { ok: 0, refused: 1, usage: 2, unauthorized: 3, unreachable: 4 } as const;

export interface Io {
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** All of standard input, for `shiplog login` when the token is piped in. */
  readStdin: () => Promise<string>;
  /** One line typed at the terminal, not shown as it is typed; undefined when input is not a terminal. */
  readHidden?: () => Promise<string>;
}

/** A failure the user can act on: printed as `shiplog: <message>`, the process exits with `exitCode`. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(exitCode: number, message: string) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** A command's parsed options. */
export type Values = Record<string, string | boolean | string[] | undefined>;

/** A string option's value, if it was given as one. */
export const text = (values: Values, key: string) =>
  typeof values[key] === 'string' ? (values[key] as string) : undefined;
