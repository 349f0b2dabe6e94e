import t, { type Test } from 'tap'
import { cpSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { cli } from './helpers/cli.ts'
import { startJudgeServer } from './helpers/judge-server.ts'

const SIMULATED = { ENGINE: 'simulated' }

/** The example project without its store, run over messages.csv then later.csv on the simulated engine. */
async function twoFiles(t: Test) {
  const root = t.testdir({})
  cpSync(resolve(import.meta.dirname, '../examples/sms'), join(root, 'sms'), {
    recursive: true,
    filter: (src) => !src.includes('/.judge'),
  })
  const first = await cli(['run', 'sms'], SIMULATED, root)
  t.equal(first.code, 0, first.stderr)
  const second = await cli(['run', 'sms', '--data', 'sms/later.csv'], SIMULATED, root)
  t.equal(second.code, 0, second.stderr)
  const runs = JSON.parse((await cli(['runs', 'sms', '--json'], {}, root)).stdout)
  const [later, messages] = runs.map((r: { run_id: string }) => r.run_id)
  return { root, first, second, later, messages }
}

t.test('a run of later.csv after messages.csv is compared with it as other data: the data moved', async (t) => {
  const { root, first, second, later, messages } = await twoFiles(t)
  t.match(
    first.stdout,
    /\n {2}same data: first complete `run` of messages\.csv, nothing to compare with\n {2}is_spam: /,
  )
  t.notMatch(first.stdout, /other data/, 'the first run has nothing on other data either')
  t.match(second.stdout, /\n {2}same data: first complete `run` of later\.csv, nothing to compare with\n/)
  t.match(
    second.stdout,
    `\n  other data: compared with run ${messages}, the previous complete \`run\` of messages.csv; ` +
      'a change here is the data moving\n',
  )
  t.match(
    second.stdout,
    /\n {2}is_spam: .*; other data: change 0\.\d+ \(drift alert, above 0\.10, p < 0\.001\)\n/,
    'later.csv has more spam: the data moved, and it is drift',
  )
  const again = await cli(['run', 'sms'], SIMULATED, root)
  t.match(
    again.stdout,
    /\n {2}same data: compared with run \S+, the previous complete `run` of messages\.csv; a change here is the model \(or a rewritten file\) moving\n/,
  )
  t.match(again.stdout, `\n  other data: compared with run ${later}, the previous complete \`run\` of later.csv;`)
  t.match(again.stdout, /\n {2}is_spam: .*; same data: change 0\.000; other data: change 0\.\d+ \(drift alert/)
})

t.test('judge drift shows both comparisons labelled, in its table and its JSON', async (t) => {
  const { root, later, messages } = await twoFiles(t)
  const text = (await cli(['drift', 'sms'], {}, root)).stdout
  t.match(
    text,
    /\n {4}run\s+status\s+rows\s+model\s+same data vs\s+change\s+model part\s+data part\s+other data vs\s+change\s+label mix\n/,
  )
  t.match(
    text,
    new RegExp(
      `\\n {4}${later}\\s+complete\\s+400\\s+simulated-1\\s+-\\s+-\\s+-\\s+-\\s+${messages} \\(messages\\.csv\\)\\s+0\\.\\d+\\s+ALERT\\s`,
    ),
  )
  const json = JSON.parse((await cli(['drift', 'sms', '--json'], {}, root)).stdout).is_spam
  t.match(json[0], { run_id: messages, change: null, same_data: null, other_data: null })
  t.match(json[1], {
    run_id: later,
    same_data: null,
    other_data: { baseline: messages, source: 'messages.csv', alert: true, significant: true },
  })
  t.equal(json[1].other_data.change, json[1].change, 'against the run just before it, as the interface measures')
  const like = JSON.parse((await cli(['drift', 'sms', '--json', '--source', 'later.csv'], {}, root)).stdout).is_spam
  t.match(like, [{ run_id: later, baseline: null, other_data: { baseline: messages, source: 'messages.csv' } }])
})

t.test('GET /v1/drift adds both comparisons to the interface fields, and /runs shows them labelled', async (t) => {
  const { root, later, messages } = await twoFiles(t)
  await cli(['run', 'sms'], SIMULATED, root)
  const server = await startJudgeServer(t, root, SIMULATED)
  const drift = (await server.get('/v1/drift?path=sms')).body.is_spam
  t.same(Object.keys(drift[2]), [
    'run_id',
    'rows',
    'shares',
    'change',
    'alert',
    'p_value',
    'significant',
    'same_data',
    'other_data',
  ])
  t.match(drift[1], { run_id: later, same_data: null, other_data: { baseline: messages, source: 'messages.csv' } })
  t.match(drift[2], {
    same_data: { baseline: messages, source: 'messages.csv', change: 0, alert: false },
    other_data: { baseline: later, source: 'later.csv', alert: true },
  })
  const page = (await server.get('/runs?path=sms')).text
  t.match(
    page,
    /<h4><code>is_spam<\/code> <span class="muted">same data: change 0\.000 since run <code>\S+<\/code>, the previous complete <code>run<\/code> of <code>messages\.csv<\/code><\/span> <span class="alert other-data">· drift: other data: change 0\.\d+ since run <code>\S+<\/code>, the previous complete <code>run<\/code> of <code>later\.csv<\/code>; the data moved, above 0\.10 \(p &lt; 0\.001\)<\/span><\/h4>/,
  )
  t.match(
    page,
    /<span class="other-data">other data <span class="alert">0\.\d+ drift<\/span><\/span><br><span class="muted">vs <code>messages\.csv<\/code>/,
  )
  t.notMatch(page, /unlike rows, not drift/, 'new data is not another command: it is drift')
})
