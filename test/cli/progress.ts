import t from 'tap'
import { createProgress, progressLine } from '../../src/cli/progress.ts'

t.test('a progress bar draws on a terminal, throttled, and clears at the end', async (t) => {
  let out = ''
  let now = 0
  const bar = createProgress({ isTTY: true, write: (s: string) => (out += s) }, 10, 'judging', {
    now: () => now,
    everyMs: 100,
    refreshMs: 0,
  })
  const ticks = (n: number) => {
    for (let i = 0; i < n; i++) bar.tick()
  }
  now = 200
  ticks(5)
  now = 250
  ticks(1)
  now = 1000
  ticks(4)
  bar.end()
  // The first row draws; the next four at the same moment and one 50 ms later do not; the first
  // row after 100 ms does, and the last always does.
  const line = (done: number, now: number) => `\r\x1b[K${progressLine('judging', done, 10, now, now)}`
  t.equal(out, `${line(1, 200)}${line(7, 1000)}${line(10, 1000)}\r\x1b[K`)
  t.match(out, /1\/10 · 5\.0 rows\/s .*7\/10 .*10\/10 · 10\.0 rows\/s/s)
})

t.test('the line shows rows done, rate, time left, answers asked and spend against the cap', async (t) => {
  const status = { asked: 360, spent: 0.0012, cap: 1, rateLimitedUntil: null, failing: 0 }
  t.equal(
    progressLine('judging', 120, 300, 3000, 0, status),
    'judging [########............] 120/300 · 40.0 rows/s · 0:05 left · 360 asked · $0.0012 of $1.00',
  )
  t.equal(
    progressLine('judging', 1, 7201, 1000, 0),
    'judging [....................] 1/7201 · 1.0 rows/s · 2:00:00 left',
  )
})

t.test("the line says when it waits for the engine's rate limit, or rides out its errors", async (t) => {
  const base = { asked: 1, spent: 0, cap: 1, rateLimitedUntil: null, failing: 0 }
  t.match(
    progressLine('judging', 1, 2, 1000, 10_000, { ...base, rateLimitedUntil: 16_500 }),
    / · waiting 7 s for the engine's rate limit$/,
  )
  t.match(
    progressLine('judging', 1, 2, 1000, 10_000, { ...base, rateLimitedUntil: 9_000, failing: 1 }),
    / · 1 engine error in a row, retrying$/,
  )
  t.match(
    progressLine('judging', 1, 2, 1000, 10_000, { ...base, failing: 3 }),
    / · 3 engine errors in a row, retrying$/,
  )
})

t.test('a wait shows without a tick: the bar redraws on its own', async (t) => {
  let out = ''
  const bar = createProgress({ isTTY: true, write: (s: string) => (out += s) }, 10, 'judging', {
    refreshMs: 5,
    status: () => ({ asked: 0, spent: 0, cap: 1, rateLimitedUntil: Date.now() + 9000, failing: 0 }),
  })
  // However busy the machine, the bar redraws within a second or so; how many seconds it then shows depends on when.
  for (let i = 0; i < 100 && !/waiting/.test(out); i++) await new Promise((resolve) => setTimeout(resolve, 20))
  bar.end()
  t.match(out, /waiting (9|10) s for the engine's rate limit/)
})

t.test('nothing is drawn when the stream is not a terminal', async (t) => {
  let out = ''
  const bar = createProgress({ write: (s: string) => (out += s) }, 10, 'judging')
  for (let i = 0; i < 10; i++) bar.tick()
  bar.end()
  t.equal(out, '')
})

t.test(
  'a bar moved to a count of rows draws it as that many ticks would, and a move to the same count draws nothing',
  async (t) => {
    let out = ''
    const bar = createProgress({ isTTY: true, write: (s: string) => (out += s) }, 10, 'judging', {
      now: () => 500,
      everyMs: 100,
      refreshMs: 0,
    })
    bar.moveTo(10)
    const drawn = out
    bar.moveTo(10)
    t.equal(out, drawn, 'nothing new to draw')
    t.equal(out, `\r\x1b[K${progressLine('judging', 10, 10, 0, 500)}`)
  },
)
