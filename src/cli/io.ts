/** A writable text stream: process.stdout or a test's collector. */
export interface Out {
  write(text: string): unknown
  readonly isTTY?: boolean
}

/** What a command may touch of the outside world, passed in so tests can drive the CLI in-process. */
export interface CliIo {
  readonly stdout: Out
  readonly stderr: Out
  readonly env: Readonly<Record<string, string | undefined>>
  readonly cwd: string
  /** Aborted on SIGINT or SIGTERM: a run stops taking rows, records itself and exits. */
  readonly signal?: AbortSignal
  /**
   * How the user runs judge (`npx judge`, `node_modules/.bin/judge`), for commands printed to them; default `judge`.
   */
  readonly program?: string
}
