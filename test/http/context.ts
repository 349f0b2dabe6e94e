import t from 'tap'
import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { readConfig } from '../../src/config.ts'
import { createSpecCache } from '../../src/adapters/files/spec-files.ts'
import { createRuntime } from '../../src/runtime.ts'
import { existingStore, loadRequested, messageCleaner, type ServerContext } from '../../src/http/context.ts'
import { createKeyedLock } from '../../src/http/keyed-lock.ts'
import { createTasks } from '../../src/http/tasks.ts'
import { createConfinedPaths } from '../../src/http/paths.ts'
import { SPAM_YAML } from '../helpers/specs.ts'

t.test('messages lose the served folder, by either of its names, and any secret', async (t) => {
  const base = t.testdir({ real: { sms: {} } })
  symlinkSync(join(base, 'real'), join(base, 'link'))
  const config = readConfig({ JUDGE_PROJECTS: 'link', JUDGE_SERVER_TOKEN: 'tok-9', ENGINE_API_KEY: 'key-7' }, base)
  const clean = messageCleaner(config)
  t.equal(clean(`${join(base, 'link')}/sms/a.judge.yaml: bad`), 'sms/a.judge.yaml: bad')
  t.equal(clean(`${join(base, 'real')}/sms/a.judge.yaml: bad`), 'sms/a.judge.yaml: bad')
  t.equal(clean(`${join(base, 'real')} holds no spec files`), '. holds no spec files')
  t.equal(clean('sent tok-9 with key-7'), 'sent [redacted] with [redacted]')
})

t.test('serving the file system root leaves paths alone rather than garbling them', async (t) => {
  const clean = messageCleaner(readConfig({ JUDGE_PROJECTS: '/' }, '/'))
  t.equal(clean('/etc/x.judge.yaml: bad'), '/etc/x.judge.yaml: bad')
})

t.test('a store is only opened when its file exists; requested paths load under the root', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const config = readConfig({ JUDGE_PROJECTS: dir }, dir)
  const runtime = createRuntime(config)
  t.teardown(() => runtime.close())
  const ctx: ServerContext = { config, runtime, specs: createSpecCache(), tasks: createTasks(), confined: createConfinedPaths(), locks: createKeyedLock(), log: () => {}, clean: (m) => m, now: () => new Date() }
  t.equal(existingStore(ctx, dir), null)
  mkdirSync(join(dir, '.judge'))
  runtime.depsFor(dir).store.listRuns(['spam'], 1)
  t.ok(existingStore(ctx, dir), 'once the file exists it is used')
  t.equal(loadRequested(ctx, 'spam.judge.yaml').selected[0].name, 'spam')
  t.throws(() => loadRequested(ctx, '../x'), { status: 403, message: /\.\. segment/ })
})
