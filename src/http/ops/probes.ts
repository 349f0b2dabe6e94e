import { existsSync } from 'node:fs'
import { basename, isAbsolute, join } from 'node:path'
import { storeHealth, type StoreHealth } from '../../adapters/sqlite/store-health.ts'
import type { Endpoint, ServerContext } from '../context.ts'
import { specFolders } from '../folders.ts'
import { jsonReply } from '../reply.ts'

/** GET /healthz: the process answers. A liveness probe: it reads nothing. */
export const healthzEndpoint: Endpoint = () => jsonReply({ status: 'ok' })

/** One store as GET /readyz reports it: its file (named as in messages), state, message and what works. */
export type ReadyStore = StoreHealth

/** What GET /readyz answers: ready or not, each reason it is not, and every served store's state. */
export interface Readiness {
  readonly status: 'ok' | 'unavailable'
  readonly reasons: readonly string[]
  readonly stores: readonly ReadyStore[]
}

/**
 * GET /readyz: 200 when the served folder exists and every served project's store can be read
 * (one not made yet counts: the first write makes it), else 503 with each reason. A store that is
 * full or read-only still serves what it holds, so it is reported but keeps the server ready.
 * Only the header and schema are read (storeHealth without `pages`): a probe runs often.
 */
export const readyzEndpoint: Endpoint = (ctx) => {
  const ready = readiness(ctx)
  return jsonReply(ready, ready.status === 'ok' ? 200 : 503)
}

/** The served folder and the state of every store its projects use, each file once. */
export function readiness(ctx: Pick<ServerContext, 'config' | 'runtime' | 'clean'>): Readiness {
  const root = ctx.config.projects
  if (!existsSync(root))
    return { status: 'unavailable', reasons: ['the served folder (JUDGE_PROJECTS) does not exist'], stores: [] }
  const files = new Set(specFolders(root).map((folder) => ctx.runtime.storeFileFor(join(root, folder))))
  const stores = [...files].map((file) => named(storeHealth(file, { pages: false }), ctx.clean))
  const reasons = stores.filter((s) => !s.reads && s.state !== 'missing').map((s) => `${s.file}: ${s.message}`)
  return { status: reasons.length === 0 ? 'ok' : 'unavailable', reasons, stores }
}

/** An absolute path left in a message once the served folder's are made relative: one outside it. */
const OUTSIDE_PATH = /(^|[\s(`'"])\/[^\s:,()`'"]*/g

/**
 * A store's health as a probe may show it: a file inside the served folder by its path relative to it (the
 * cleaner makes it so), one outside by its file name alone, after `…/`, and any other folder outside as `…`,
 * so that the probe tells no one where those lie.
 */
function named(health: StoreHealth, clean: (text: string) => string): StoreHealth {
  const relative = clean(health.file)
  const file = isAbsolute(relative) ? `…/${basename(health.file)}` : relative
  const message = clean(health.message.split(health.file).join(file)).replace(OUTSIDE_PATH, '$1…')
  return { ...health, file, message }
}
