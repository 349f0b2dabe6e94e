import t from 'tap'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { oldNodeMessage, refuseOldNode } from '../src/supported-node.ts'
import { ROOT } from './helpers/cli.ts'

t.test('the library refuses a Node older than 24 with the sentence of the judge command', async (t) => {
  t.throws(() => refuseOldNode('20.20.2', '/usr/bin/node'), {
    message:
      'judge needs Node 24 or newer (it uses node:sqlite); this is Node 20.20.2 (/usr/bin/node).\n' +
      'Install Node 24 from https://nodejs.org/ (or with nvm: nvm install 24), or pin it in your project\n' +
      'with npm install --save-dev node@24: npx judge and npm scripts then run with it.',
  })
  t.throws(() => refuseOldNode('23.11.0', '/opt/node'), { message: /this is Node 23\.11\.0 \(\/opt\/node\)/ })
  t.doesNotThrow(() => refuseOldNode('24.0.0', '/usr/bin/node'))
  t.doesNotThrow(() => refuseOldNode('25.2.1', '/usr/bin/node'))
})

t.test("the judge command's refusal is the library's, word for word", async (t) => {
  // bin/judge.js is plain JavaScript that an old Node parses: its sentence, with this Node's version.
  const bin = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `Object.defineProperty(process.versions, 'node', { value: '20.20.2' }); await import(${JSON.stringify(join(ROOT, 'bin/judge.js'))})`,
    ],
    { encoding: 'utf8' },
  )
  t.equal(bin.status, 2)
  t.equal(bin.stderr, `${oldNodeMessage('20.20.2', process.execPath)}\n`)
})
