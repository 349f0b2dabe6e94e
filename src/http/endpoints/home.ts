import { publicRun, type PublicRun } from '../../app/runs.ts'
import { serverSpend, type ServerSpend } from '../../app/spend.ts'
import { loadRequested, type ServerContext } from '../context.ts'
import { specFolders } from '../folders.ts'

/** One folder of specs on the home page. */
export interface HomeFolder {
  readonly path: string
  readonly judgments: readonly string[]
  readonly lastRun: PublicRun | null
  /** The server's engine spend in the folder's store, or null when the specs do not load. */
  readonly spend: ServerSpend | null
  /** Why the folder's specs do not load, or null. */
  readonly error: string | null
}

/** The home page's data: every folder of specs under the served folder, each loaded on its own. */
export function homeData(ctx: ServerContext): HomeFolder[] {
  return specFolders(ctx.config.projects).map((path) => {
    try {
      const project = loadRequested(ctx, path)
      const judgments = project.specs.map((s) => s.name)
      const [lastRun] = ctx.runtime.existingStore(project)?.listRuns(judgments, 1) ?? []
      const spend = serverSpend(ctx.runtime, project, ctx.config.serverMaxDailyCost)
      return { path, judgments, lastRun: lastRun ? publicRun(lastRun) : null, spend, error: null }
    } catch (error) {
      // One broken folder must not take the page down; it shows its error instead.
      return { path, judgments: [], lastRun: null, spend: null, error: ctx.clean((error as Error).message) }
    }
  })
}
