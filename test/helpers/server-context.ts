import { createCompareMemo } from '../../src/app/compare-memo.ts'
import type { Test } from 'tap'
import { createSpecCache } from '../../src/adapters/files/spec-files.ts'
import { readConfig } from '../../src/config.ts'
import { messageCleaner, type ServerContext } from '../../src/http/context.ts'
import { createGuard } from '../../src/http/guard.ts'
import { createReplyCache } from '../../src/http/reply-cache.ts'
import { createResolvedPaths } from '../../src/http/resolved-paths.ts'
import { createTasks } from '../../src/http/tasks.ts'
import { createRuntime } from '../../src/runtime.ts'

/** The context of a server over `dir`, closed at teardown. */
export function serverContext(t: Test, dir: string): ServerContext {
  const config = readConfig({ JUDGE_PROJECTS: dir }, dir)
  const runtime = createRuntime(config)
  t.teardown(() => runtime.close())
  const paths = createResolvedPaths({ root: dir, specs: createSpecCache(), storeFileFor: runtime.storeFileFor })
  return {
    config,
    runtime,
    token: null,
    guard: createGuard({ token: null, allowedHosts: [], listenHost: '127.0.0.1' }),
    paths,
    replies: createReplyCache(),
    comparisons: createCompareMemo(),
    tasks: createTasks(),
    log: () => {},
    clean: messageCleaner(config),
    now: () => new Date(),
    shutdown: new AbortController().signal,
  }
}
