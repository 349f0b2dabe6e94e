import { basename } from 'node:path'
import { accuracySummary, type AccuracySummary } from '../../app/accuracy-summary.ts'
import { lastRunOf, type PublicRun } from '../../app/runs.ts'
import type { Project } from '../../core/types.ts'
import { serverSpend, type ServerSpend } from '../../app/spend.ts'
import { loadRequested, type ServerContext } from '../context.ts'
import { specFolders } from '../folders.ts'

/** One judgment of a folder on the home page, with its accuracy per question in brief. */
export interface HomeJudgment {
  readonly name: string
  /** Per question, in spec order; null when it cannot be read (the error says why). */
  readonly questions: Readonly<Record<string, AccuracySummary>> | null
  /** Why its answer key or reviews file does not read, or null. */
  readonly error: string | null
}

/** One folder of specs on the home page. */
export interface HomeFolder {
  readonly path: string
  /** What the page heads the folder with: its path, or the served folder's own name for its root ('.'). */
  readonly name: string
  readonly judgments: readonly HomeJudgment[]
  readonly last_run: PublicRun | null
  /** The server's engine spend in the folder's store, or null when the specs do not load. */
  readonly spend: ServerSpend | null
  /** Why the folder's specs do not load, or null. */
  readonly error: string | null
}

/** What GET / shows and its JSON twin answers: every folder of specs under the served folder. */
export interface HomeData {
  readonly folders: readonly HomeFolder[]
}

/** The home page's data: every folder of specs under the served folder, each loaded on its own. */
export async function homeData(ctx: ServerContext): Promise<HomeData> {
  const folders: HomeFolder[] = []
  for (const path of specFolders(ctx.config.projects)) {
    const name = path === '.' ? basename(ctx.config.projects) : path
    try {
      const project = loadRequested(ctx, path)
      const spend = serverSpend(ctx.runtime, project, ctx.config.serverMaxDailyCost)
      folders.push({
        path,
        name,
        judgments: await judgmentsOf(ctx, project),
        last_run: lastRunOf(ctx.runtime, project),
        spend,
        error: null,
      })
    } catch (error) {
      // One broken folder must not take the page down; it shows its error instead.
      folders.push({
        path,
        name,
        judgments: [],
        last_run: null,
        spend: null,
        error: ctx.clean((error as Error).message),
      })
    }
  }
  return { folders }
}

async function judgmentsOf(ctx: ServerContext, project: Project): Promise<HomeJudgment[]> {
  return Promise.all(
    project.specs.map(async (spec): Promise<HomeJudgment> => {
      try {
        return { name: spec.name, questions: await accuracySummary(ctx.runtime, project, spec), error: null }
      } catch (error) {
        // A broken answer key or reviews file shows on its judgment; the links to fix it stay.
        return { name: spec.name, questions: null, error: ctx.clean((error as Error).message) }
      }
    }),
  )
}
