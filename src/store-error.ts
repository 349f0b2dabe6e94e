import { JudgeError, type ErrorOptions } from './errors.ts'

/** What is wrong with a store file; docs/store.md says what each looks like and what to do. */
export type StoreTrouble = 'damaged' | 'full' | 'read-only' | 'locked' | 'not a store' | 'newer' | 'cannot open'

/**
 * A store file that cannot serve what was asked: damaged, on a full disk, read-only, locked by
 * another writer past the busy timeout, not a store; or a reviews file that cannot be written
 * (full, read-only). The message names the file and what to do; the server answers 503 and stays
 * up, the CLI exits 2.
 */
export class StoreError extends JudgeError {
  override readonly name = 'StoreError' as const
  override readonly status = 503
  override readonly exitCode = 2
  readonly file: string
  readonly trouble: StoreTrouble
  constructor(file: string, trouble: StoreTrouble, message: string, options: ErrorOptions = {}) {
    super(message, { ...options, context: { file, trouble, ...options.context } })
    this.file = file
    this.trouble = trouble
  }
}
