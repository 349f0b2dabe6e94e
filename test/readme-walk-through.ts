import t, { type Test } from 'tap'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chmodSync, cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from './helpers/cli.ts'

// The README's walk-throughs, "Try it on your own data" and "Five minutes with judge", run line by
// line as written, in a fresh folder holding a copy of examples/ (no store), with `judge` the
// command of this checkout and nothing of this machine's environment but PATH.

/** One shell line of a walk-through's sh blocks, continuation lines joined. */
interface Line {
  readonly section: string
  readonly text: string
}

/** The lines of every sh block under the README heading `heading`, up to the next heading of its level. */
function walkThrough(heading: string): Line[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const from = readme.indexOf(`\n${heading}\n`)
  const section = readme.slice(from + 1, readme.indexOf('\n## ', from + 1))
  return [...section.matchAll(/```sh\n([^]*?)```/g)].flatMap((block) =>
    block[1]
      .replace(/\\\n\s*/g, '')
      .trim()
      .split('\n')
      .map((text) => ({ section: heading, text })),
  )
}

/** Lines that need an engine key or a local model's server: shown in the README, not run here. */
const NEEDS_AN_ENGINE = /ENGINE_API_KEY=…|TYPESAFE_API_KEY=…|ENGINE=openai/

/** A fresh folder: a copy of examples/ without its store, and `judge` on PATH. */
function folder(t: Test): { dir: string; env: Record<string, string> } {
  const dir = t.testdir({
    bin: { judge: `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin/judge.js')}" "$@"\n` },
  })
  chmodSync(join(dir, 'bin/judge'), 0o755)
  cpSync(join(ROOT, 'examples'), join(dir, 'examples'), { recursive: true, filter: (f) => !/\/\.judge(\/|$)/.test(f) })
  return { dir, env: { PATH: `${join(dir, 'bin')}:${process.env.PATH}`, TZ: 'UTC' } }
}

/** A server started in the background, its URL once it listens. */
interface Served {
  readonly url: string
  readonly stop: () => void
}

/** Starts `command` (a README line without its `&`, or npm start's) on a free port; stops with the test. */
function serve(t: Test, command: string, dir: string, env: Record<string, string>): Promise<Served> {
  const child: ChildProcess = spawn('sh', ['-c', command], {
    cwd: dir,
    env: { ...env, PORT: '0' },
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stopped = false
  const stop = () => {
    if (!stopped) process.kill(-child.pid!, 'SIGTERM')
    stopped = true
  }
  t.teardown(stop)
  let log = ''
  return new Promise((done, fail) => {
    child.stderr!.on('data', (d) => {
      log += d
      const url = /listening on (http:\/\/\S+),/.exec(log)?.[1]
      if (url) done({ url, stop })
    })
    child.on('exit', (code) => fail(new Error(`${command} exited ${code}: ${log}`)))
  })
}

/** What each kind of line promises beyond exit status 0: its output, by the line's start. */
const PROMISES: readonly [RegExp, RegExp][] = [
  [
    /^judge init try\/sms\.tsv/,
    /^wrote try\/sms\.judge\.yaml for try\/sms\.tsv[^]*\n {2}\S.* plan try\/sms\.judge\.yaml\n/,
  ],
  [/^judge plan try\//, /sms\s+200\s+198\s+2\s+0\s+792\s+198\s/],
  [
    /^ENGINE=simulated judge run try\//,
    /sms: 200 rows \(2 duplicates of an earlier row\), 0 answers cached, 792 asked/,
  ],
  [/^ENGINE=simulated judge test try\//, /\n {2}label: /],
  [/^judge plan examples\/sms/, /spam\s+1200\s/],
  [/^ENGINE=simulated judge run examples\/sms --out/, /spam: 1200 rows[^]*, 0 answers cached/],
  [/^ENGINE=simulated judge run examples\/sms +#/, /spam: 1200 rows[^]*, 3525 answers cached, 0 asked/],
  [/^judge runs examples\/sms +#/, /simulated-1/],
  [/^ENGINE=simulated judge test examples\/sms/, /\n {2}is_spam: /],
  [
    /^ENGINE=simulated judge calibrate/,
    /^spam: answers of model simulated-1\n[^]*no threshold reaches 95\.0%[^]*review more rows[^]*\n {4}0\.5 +\S+ +\d+ +\d+\.\d%/,
  ],
]

/** Runs one README line in `dir`; a line with `localhost:8080` or `127.0.0.1:8080` goes to `server`. */
function runLine(t: Test, line: Line, dir: string, env: Record<string, string>, server: Served | null) {
  const text =
    server === null ? line.text : line.text.replace(/(localhost|127\.0\.0\.1):8080/g, new URL(server.url).host)
  const result = spawnSync('sh', ['-c', text], { cwd: dir, encoding: 'utf8', env })
  t.equal(result.status, 0, `${line.text}\n${result.stderr}`)
  for (const [line_, output] of PROMISES) if (line_.test(line.text)) t.match(result.stdout, output, line.text)
  if (text.startsWith('curl ')) {
    const answers = Object.values(JSON.parse(result.stdout))
    t.ok(answers.length > 0, `${line.text}: answers`)
    for (const answer of answers) t.match(answer, { cached: true, label: String, p: Number }, 'from the store')
  }
}

/** GET `/` of a server: its folders' headings, and every link of the page with its path. */
async function home(url: string): Promise<{ headings: string[]; links: string[] }> {
  const text = await (await fetch(`${url}/`)).text()
  return {
    headings: [...text.matchAll(/<h2><code>([^<]*)<\/code><\/h2>/g)].map((m) => m[1]),
    links: [...text.matchAll(/href="(\/[^"]*)"/g)].map((m) => m[1].replaceAll('&amp;', '&')),
  }
}

t.test("the README's own-data walk-through runs as written on the file the repository ships", async (t) => {
  const { dir, env } = folder(t)
  const lines = walkThrough('## Try it on your own data')
  t.match(
    lines.map((l) => l.text.split('#')[0].trim()),
    [
      /^mkdir -p try && cp examples\/sms\.tsv try\/$/,
      /^judge init try\/sms\.tsv --columns label,message$/,
      /^judge plan /,
      /^ENGINE=simulated judge run /,
      /^ENGINE=simulated judge test /,
      /^JUDGE_PROJECTS=try ENGINE=simulated judge serve &$/,
      /^curl -s 127\.0\.0\.1:8080\/v1\/judge /,
      /^kill %1$/,
    ],
    'the lines this test knows how to run',
  )
  let server: Served | null = null
  for (const line of lines) {
    if (line.text.startsWith('judge init')) {
      // The text says that init alone stops on a file without a header line, and suggests --columns.
      const bare = spawnSync('sh', ['-c', 'judge init try/sms.tsv'], { cwd: dir, encoding: 'utf8', env })
      t.match(bare, { status: 2, stderr: /try\/sms\.tsv has no header line[^]*--columns label,text/ })
    }
    if (/&\s*(#.*)?$/.test(line.text)) server = await serve(t, line.text.replace(/\s*&\s*(#.*)?$/, ''), dir, env)
    else if (line.text.startsWith('kill %1')) server!.stop()
    else runLine(t, line, dir, env, server)
    if (server !== null && line.text.startsWith('curl ')) {
      const { headings, links } = await home(server.url)
      t.same(headings, ['try'], '/ heads the project by its folder')
      for (const page of ['/runs?path=.', '/review?path=.&node=sms', '/accuracy?path=.&node=sms'])
        t.ok(
          links.some((l) => l.startsWith(page)),
          `/ links ${page}`,
        )
    }
  }
})

t.test("the README's five minutes with judge run as written on the example, each with its engine", async (t) => {
  const { dir, env } = folder(t)
  const lines = walkThrough('## Five minutes with judge')
  const skipped = lines.filter((l) => NEEDS_AN_ENGINE.test(l.text)).map((l) => /judge (\w+)/.exec(l.text)![1])
  t.same(skipped, ['run', 'run', 'doctor', 'models'], 'only the lines that need a key or a local model are left out')
  let server: Served | null = null
  for (const line of lines.filter((l) => !NEEDS_AN_ENGINE.test(l.text))) {
    // Step 5's curl asks the server `npm start` starts: the examples, with the simulated engine.
    if (/(localhost|127\.0\.0\.1):8080/.test(line.text) && server === null) {
      server = await serve(t, `"${process.execPath}" "${join(ROOT, 'src/main.ts')}"`, dir, {
        ...env,
        JUDGE_PROJECTS: 'examples',
        ENGINE: 'simulated',
      })
      const { links } = await home(server.url)
      for (const page of ['/runs?path=sms', '/review?path=sms&node=spam', '/accuracy?path=sms&node=spam']) {
        t.ok(
          links.some((l) => l.startsWith(page)),
          `/ links ${page}, as the README says`,
        )
        t.equal((await fetch(`${server.url}${page}`)).status, 200, `${page} answers`)
      }
      t.equal((await fetch(`${server.url}/runs`)).status, 400, '/runs without its path answers 400, as the README says')
    }
    runLine(t, line, dir, env, server)
  }
})

t.test("the README's library example runs as shown, on the simulated engine with no key", async (t) => {
  const { dir, env } = folder(t)
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const section = readme.slice(readme.indexOf('\n## As a library\n'))
  const code = /```ts\n([^]*?)```/.exec(section)![1]
  t.match(code, /readConfig\(\{ \.\.\.process\.env, ENGINE: 'simulated' \}/, 'it chooses the simulated engine')
  // The package's name is this checkout's source; the server listens on a free port and says what judge() gave.
  const script = code
    .replace(`from 'judge-rows'`, `from ${JSON.stringify(join(ROOT, 'src/index.ts'))}`)
    .replace('.listen(8080)', '.listen(0, () => { console.log(JSON.stringify(answers)); process.exit(0) })')
  writeFileSync(join(dir, 'app.ts'), script)
  const result = spawnSync(process.execPath, ['app.ts'], { cwd: dir, encoding: 'utf8', env })
  t.equal(result.status, 0, result.stderr)
  t.match(JSON.parse(result.stdout), {
    is_spam: { label: String, p: Number, margin: Number, route: String, cached: false },
    topic: { label: String },
    urgency: { label: String },
  })
})
