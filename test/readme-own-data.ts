import t from 'tap'
import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from './helpers/cli.ts'

// The README's "Try it on your own data" section, followed line by line in a fresh folder holding
// sms.tsv (test/fixtures/sms: the SMS collection's own shape), with `judge` the CLI of this checkout.

/** The shell lines of the section's first sh block, continuation lines joined. */
function sectionLines(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const section = readme.slice(readme.indexOf('## Try it on your own data'))
  const block = /```sh\n([^]*?)```/.exec(section)![1]
  return block
    .replace(/\\\n\s*/g, '')
    .trim()
    .split('\n')
}

t.test(
  "the README's own-data section works as written: init, plan, run, then the server answers from the store",
  async (t) => {
    const dir = t.testdir({
      bin: { judge: `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'src/cli.ts')}" "$@"\n` },
    })
    chmodSync(join(dir, 'bin/judge'), 0o755)
    copyFileSync(join(import.meta.dirname, 'fixtures/sms/sms.tsv'), join(dir, 'sms.tsv'))
    const env = { PATH: `${join(dir, 'bin')}:${process.env.PATH}` }
    const lines = sectionLines()
    const sh = (line: string, more: Record<string, string> = {}) =>
      spawnSync('sh', ['-c', line], { cwd: dir, encoding: 'utf8', env: { ...env, ...more } })
    t.match(
      lines.map((l) => l.split('#')[0].trim().split(' ').slice(0, 3).join(' ')),
      [
        'judge init sms.tsv',
        'judge plan sms.judge.yaml',
        'ENGINE=simulated judge run',
        'ENGINE=simulated judge test',
        'ENGINE=simulated judge serve',
        'curl -s 127.0.0.1:8080/v1/judge',
      ],
    )
    const bare = sh('judge init sms.tsv')
    t.match(
      bare,
      { status: 2, stderr: /sms\.tsv has no header line[^]*--columns label,text/ },
      'init alone names the missing header and the flag',
    )
    for (const line of lines.slice(0, 4)) {
      const result = sh(line)
      t.equal(result.status, 0, `${line}\n${result.stderr}`)
      if (line.startsWith('judge init'))
        t.match(
          result.stdout,
          /^wrote sms\.judge\.yaml for sms\.tsv: state \[message\][^]*\nwrote sms\.key\.csv: the right label of 40 states/,
        )
      if (line.startsWith('judge plan')) t.match(result.stdout, /sms\s+40\s+40\s+0\s+0\s+160\s+40\s/)
      if (line.startsWith('ENGINE=simulated judge run'))
        t.match(result.stdout, /sms: 40 rows, 0 answers cached, 160 asked in 40 requests/)
      if (line.startsWith('ENGINE=simulated judge test'))
        t.match(result.stdout, /\n {2}label: [^]*\n {4}pooled: accuracy [\d.]+% \(\d+ of 40\)/)
    }
    t.ok(existsSync(join(dir, 'sms.judge.yaml')))

    // The server line runs in the background; the test gives it a free port and waits until it listens.
    const server = spawn('sh', ['-c', lines[4].replace(/\s*&\s*(#.*)?$/, '')], {
      cwd: dir,
      env: { ...env, PORT: '0' },
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    t.teardown(() => void process.kill(-server.pid!, 'SIGTERM'))
    const url = await listening(server.stderr!)
    const curl = sh(lines[5].replace('127.0.0.1:8080', new URL(url).host))
    t.equal(curl.status, 0, curl.stderr)
    const answers = JSON.parse(curl.stdout)
    t.same(Object.keys(answers), ['label', 'relevant', 'topic', 'priority'])
    for (const answer of Object.values(answers))
      t.match(answer, { cached: true, label: String, p: Number, margin: Number })
  },
)

function listening(stderr: NodeJS.ReadableStream): Promise<string> {
  let log = ''
  return new Promise((done, fail) => {
    stderr.on('data', (d) => {
      log += d
      const url = /listening on (http:\/\/\S+),/.exec(log)?.[1]
      if (url) done(url)
    })
    stderr.on('end', () => fail(new Error(`the server stopped: ${log}`)))
  })
}
