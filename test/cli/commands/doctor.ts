import t, { type Test } from 'tap'
import { doctorText, settingsOf } from '../../../src/cli/commands/doctor.ts'
import { readConfig } from '../../../src/config.ts'
import { cli } from '../../helpers/cli.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'
import { startSystemOneServer, type SystemOneServer } from '../../helpers/system-one-server.ts'

const KEY = 'sk-doctor-Secret-0042'

async function setup(t: Test): Promise<{ dir: string; server: SystemOneServer }> {
  const server = await startSystemOneServer({ expectKey: KEY })
  t.teardown(() => server.close())
  return {
    dir: t.testdir({
      'spam.judge.yaml': SPAM_YAML,
      'old.judge.yaml': SPAM_YAML.replace('name: spam', 'name: old\nmodel: jev-1.12.0'),
    }),
    server,
  }
}

/** Runs `judge doctor` and checks the key appears nowhere in what it printed. */
async function doctor(t: Test, args: string[], env: Record<string, string>, dir: string) {
  const result = await cli(['doctor', ...args], env, dir)
  t.notMatch(result.stdout + result.stderr, KEY, 'the key is never printed')
  return result
}

t.test('a healthy setup exits 0 and says it is ready, naming the variable that gave the key', async (t) => {
  const { dir, server } = await setup(t)
  const result = await doctor(t, ['spam.judge.yaml'], { ENGINE_URL: server.url, TYPESAFE_API_KEY: KEY }, dir)
  t.equal(result.code, 0, result.stdout)
  t.match(result.stdout, /^judge doctor: ready for a first real run\n/)
  t.match(result.stdout, /\n  ok       a key is set in TYPESAFE_API_KEY \(not shown\)\n/)
  t.match(result.stdout, /\n  ok       model jev-1.13.0, asked by spam, is listed\n/)
  t.match(result.stdout, /\n  info     1200 requests a minute/)
  t.equal(server.requests.filter((r) => r.path === '/v1/systemone').length, 0, 'nothing was asked of the model')
})

t.test('a missing key exits 1 with a line saying which variables to set', async (t) => {
  const { dir, server } = await setup(t)
  const result = await doctor(t, ['spam.judge.yaml'], { ENGINE_URL: server.url }, dir)
  t.equal(result.code, 1)
  t.match(result.stdout, /^judge doctor: 1 problem to fix\n/)
  t.match(
    result.stdout,
    /\n  PROBLEM  no key: ENGINE_API_KEY and TYPESAFE_API_KEY are unset.*\n           fix: set ENGINE_API_KEY/,
  )
  t.equal(server.requests.length, 0, 'the host is not asked without a key')
})

t.test('an unreachable host exits 1, naming where it looked', async (t) => {
  const { dir, server } = await setup(t)
  const url = server.url
  await server.close()
  const result = await doctor(t, ['spam.judge.yaml'], { ENGINE_URL: url, ENGINE_API_KEY: KEY }, dir)
  t.equal(result.code, 1)
  t.match(
    result.stdout,
    new RegExp(`\\n  PROBLEM  ${url} cannot be reached: could not reach the engine at ${url}/v1/models`),
  )
})

t.test('a wrong key exits 1, and the key given is not shown', async (t) => {
  const { dir, server } = await setup(t)
  const result = await cli(
    ['doctor', 'spam.judge.yaml'],
    { ENGINE_URL: server.url, ENGINE_API_KEY: 'sk-wrong-Key-9999' },
    dir,
  )
  t.equal(result.code, 1)
  t.match(result.stdout, /PROBLEM  .* refused the key/)
  t.notMatch(result.stdout, 'sk-wrong-Key-9999')
})

t.test('a model the engine no longer lists exits 1, naming the judgment that pins it', async (t) => {
  const { dir, server } = await setup(t)
  const result = await doctor(t, ['.', '--json'], { ENGINE_URL: server.url, ENGINE_API_KEY: KEY }, dir)
  t.equal(result.code, 1)
  const report = JSON.parse(result.stdout)
  t.equal(report.healthy, false)
  t.match(
    report.checks.filter((c: { check: string }) => c.check === 'model'),
    [
      {
        status: 'problem',
        message: /^model jev-1.12.0, asked by old, is not listed by the engine/,
        fix: /model: in the spec of old/,
      },
      { status: 'ok', message: 'model jev-1.13.0, asked by spam, is listed' },
    ],
  )
})

t.test('a spec that does not load is a problem (1); bad arguments are a usage error (2)', async (t) => {
  const { dir, server } = await setup(t)
  const broken = await doctor(t, ['nowhere.judge.yaml'], { ENGINE_URL: server.url, ENGINE_API_KEY: KEY }, dir)
  t.equal(broken.code, 1)
  t.match(broken.stdout, /PROBLEM  the spec does not load: /)
  t.equal((await cli(['doctor', 'a', 'b'], {}, dir)).code, 2)
  t.equal((await cli(['doctor', '--verbose'], {}, dir)).code, 2)
  t.match((await cli(['doctor', '--help'], {}, dir)).stdout, /^usage: judge doctor/)
})

t.test('the simulated engine needs no key and no host', async (t) => {
  const result = await cli(['doctor'], { ENGINE: 'simulated' }, t.testdir({}))
  t.equal(result.code, 0, result.stdout)
  t.match(result.stdout, /ok       the simulated engine answers in-process/)
})

t.test("the settings shown are the configuration's, the key only by the name that gave it", async (t) => {
  const s = settingsOf(readConfig({ ENGINE_API_KEY: KEY, ENGINE_RPM: '60' }, '/'))
  t.same(s, {
    kind: 'systemone',
    url: 'https://api.typesafe.ai',
    from: { url: null, apiKey: 'ENGINE_API_KEY', model: null },
    needsKey: true,
    hasKey: true,
    rpm: 60,
    rpmSet: true,
    pricePerMtok: 0.042,
    maxCost: 1,
  })
  t.equal(
    doctorText({ healthy: false, checks: [{ check: 'key', status: 'warn', message: 'm', fix: 'f' }] }),
    'judge doctor: 0 problems to fix\n  WARN     m\n           fix: f\n',
  )
})
