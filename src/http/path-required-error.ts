import { JudgeError } from '../errors.ts'

/**
 * A request without the `path` it needs (400, exit 2). It can list the spec files served, read
 * only when asked, so that a page can link them; its JSON answer is the message alone.
 */
export class PathRequiredError extends JudgeError {
  override readonly name = 'PathRequiredError' as const
  override readonly status = 400
  override readonly exitCode = 2
  readonly field: string
  private readonly list: () => readonly string[]
  constructor(field: string, list: () => readonly string[] = () => []) {
    super(`${field} is required: a spec file or folder, relative to the served folder`, { context: { field } })
    this.field = field
    this.list = list
  }
  /** The spec files served, as paths relative to the served folder. */
  choices(): readonly string[] {
    return this.list()
  }
}
