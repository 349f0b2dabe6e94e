import { cpSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { cli } from './cli.ts'

/** The example project's folder in the repository. */
const EXAMPLE = resolve(import.meta.dirname, '../../examples/sms')

/** A message of messages.csv: its answers are in the store once `judge run` has run. */
export const STORED_MESSAGE =
  'Go until jurong point, crazy.. Available only in bugis n great world la e buffet... Cine there got amore wat...'

/** The environment of the example's answers: the simulated engine, no key needed. */
export const SIMULATED = { ENGINE: 'simulated', JUDGE_MAX_COST: '1' } as const

/** The example project copied into `root` as `sms/`, its store filled by `judge run`. */
export interface StoreProject {
  /** The served folder: `root`. */
  readonly root: string
  /** The project folder, `<root>/sms`. */
  readonly dir: string
  /** The store file, `<root>/sms/.judge/store.sqlite`. */
  readonly store: string
  /** The store file as a server's messages name it: relative to the served folder. */
  readonly shown: string
}

/**
 * Copies the example project (1,200 real messages, a key, verdicts, a candidate spec) into `root`
 * and runs `judge run` over `rows` of it with the simulated engine: a store of some 3,500 answers
 * on many pages, a run, and a reviews file, as a project has after a day's work.
 */
export async function storeProject(root: string, data = 'messages.csv'): Promise<StoreProject> {
  const project = copyProject(root)
  const run = await cli(['run', 'spam.judge.yaml', '--data', data], SIMULATED, project.dir)
  if (run.code !== 0) throw new Error(`judge run failed: ${run.stderr}`)
  return project
}

/** The example project copied into `root` as `sms/`, with no store yet. */
export function copyProject(root: string): StoreProject {
  const dir = join(root, 'sms')
  cpSync(EXAMPLE, dir, { recursive: true, filter: (from) => basename(from) !== '.judge' })
  return { root, dir, store: join(dir, '.judge', 'store.sqlite'), shown: 'sms/.judge/store.sqlite' }
}

/** A request of every route of the server, for the example project with `runId` its run. */
export interface RouteCall {
  readonly method: 'GET' | 'POST'
  readonly path: string
  readonly body?: string
  readonly form?: boolean
}

/** One request per route of the server (src/http/routes.ts), each naming the example project. */
export function everyRoute(runId: string, verdict: Record<string, string>): RouteCall[] {
  const spec = 'path=sms/spam.judge.yaml'
  const compare = `${spec}&candidate=sms/candidates/spam-v2.judge.yaml`
  const gets = [
    '/',
    '/v1/projects',
    `/v1/runs?${spec}`,
    `/v1/drift?${spec}`,
    `/v1/accuracy?${spec}`,
    `/v1/spend?${spec}`,
    `/v1/compare?${compare}`,
    `/runs?${spec}`,
    `/v1/runs-page?${spec}`,
    `/runs/${runId}?${spec}`,
    `/v1/runs/${runId}?${spec}`,
    `/accuracy?${spec}`,
    `/v1/pages/accuracy?${spec}`,
    `/compare?${compare}`,
    `/v1/pages/compare?${compare}`,
    `/review?${spec}&reviewer=ann`,
    `/v1/review?${spec}&reviewer=ann`,
  ]
  const row = (message: string) => JSON.stringify({ path: 'sms/spam.judge.yaml', row: { message } })
  return [
    ...gets.map((path) => ({ method: 'GET' as const, path })),
    { method: 'POST', path: '/v1/judge', body: row(STORED_MESSAGE) },
    { method: 'POST', path: '/v1/judge', body: row('a row the store has never seen') },
    { method: 'POST', path: '/v1/forget', body: row('a row to forget') },
    { method: 'POST', path: '/review', body: new URLSearchParams(verdict).toString(), form: true },
    { method: 'POST', path: '/review/undo', body: new URLSearchParams(verdict).toString(), form: true },
  ]
}
