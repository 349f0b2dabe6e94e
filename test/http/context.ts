import { createCompareMemo } from '../../src/app/compare-memo.ts'
import t from 'tap'
import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { readConfig } from '../../src/config.ts'
import { createSpecCache } from '../../src/adapters/files/spec-files.ts'
import { createReplyCache } from '../../src/http/reply-cache.ts'
import { createResolvedPaths } from '../../src/http/resolved-paths.ts'
import { createRuntime } from '../../src/runtime.ts'
import { loadRequested, messageCleaner, type ServerContext } from '../../src/http/context.ts'
import { createTasks } from '../../src/http/tasks.ts'
import { createGuard } from '../../src/http/guard.ts'
import { SPAM_YAML } from '../helpers/specs.ts'

t.test('messages lose the served folder, by either of its names, and any secret', async (t) => {
  const base = t.testdir({ real: { sms: {} } })
  symlinkSync(join(base, 'real'), join(base, 'link'))
  const config = readConfig(
    { JUDGE_PROJECTS: 'link', JUDGE_SERVER_TOKEN: 'tok-99999', ENGINE_API_KEY: 'key-7777' },
    base,
  )
  const clean = messageCleaner(config)
  t.equal(clean(`${join(base, 'link')}/sms/a.judge.yaml: bad`), 'sms/a.judge.yaml: bad')
  t.equal(clean(`${join(base, 'real')}/sms/a.judge.yaml: bad`), 'sms/a.judge.yaml: bad')
  t.equal(clean(`${join(base, 'real')} holds no spec files`), '. holds no spec files')
  t.equal(clean('sent tok-99999 with key-7777'), 'sent [redacted] with [redacted]')
  t.equal(clean('Bearer tok-99999, "key-7777".'), 'Bearer [redacted], "[redacted]".')
})

t.test("every juror engine's key is scrubbed, from its ENGINE_<KIND>_API_KEY or its SDK's own variable", async (t) => {
  const clean = messageCleaner(
    readConfig({ ENGINE_ANTHROPIC_API_KEY: 'sk-ant-juror-1', OPENAI_API_KEY: 'sk-oa-juror-22' }, '/srv'),
  )
  t.equal(clean('bad keys sk-ant-juror-1 and sk-oa-juror-22'), 'bad keys [redacted] and [redacted]')
})

t.test(
  'secrets are scrubbed only whole, and short ones not at all, so a replacement never hints at them',
  async (t) => {
    const short = messageCleaner(readConfig({ ENGINE_API_KEY: 'k', JUDGE_SERVER_TOKEN: 'io' }, '/srv'))
    t.equal(short('path kiosk does not exist'), 'path kiosk does not exist')
    const long = messageCleaner(readConfig({ ENGINE_API_KEY: 'abcdefgh' }, '/srv'))
    t.equal(long('xabcdefghx and abcdefgh1 stay; abcdefgh goes'), 'xabcdefghx and abcdefgh1 stay; [redacted] goes')
  },
)

t.test('serving the file system root leaves paths alone rather than garbling them', async (t) => {
  const clean = messageCleaner(readConfig({ JUDGE_PROJECTS: '/' }, '/'))
  t.equal(clean('/etc/x.judge.yaml: bad'), '/etc/x.judge.yaml: bad')
})

t.test(
  'a store is only opened when its file exists, even one another process made; requested paths load under the root',
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
    const config = readConfig({ JUDGE_PROJECTS: dir }, dir)
    const runtime = createRuntime(config)
    t.teardown(() => runtime.close())
    const paths = createResolvedPaths({ root: dir, specs: createSpecCache(), storeFileFor: runtime.storeFileFor })
    const ctx: ServerContext = {
      config,
      runtime,
      token: null,
      guard: createGuard({ token: null, allowedHosts: [], listenHost: '127.0.0.1' }),
      paths,
      replies: createReplyCache(),
      comparisons: createCompareMemo(),
      tasks: createTasks(),
      log: () => {},
      clean: (m) => m,
      now: () => new Date(),
      shutdown: new AbortController().signal,
    }
    const project = loadRequested(ctx, 'spam.judge.yaml')
    t.equal(runtime.existingStore(project), null)
    mkdirSync(join(dir, '.judge'))
    createRuntime(config).depsFor(project).store.close()
    t.ok(runtime.existingStore(project), 'once the file exists it is used')
    t.equal(project.selected[0].name, 'spam')
    t.throws(() => loadRequested(ctx, '../x'), { status: 403, message: /\.\. segment/ })
  },
)
