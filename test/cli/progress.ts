import t from 'tap'
import { createProgress } from '../../src/cli/progress.ts'

t.test('a progress bar draws on a terminal, throttled, and clears at the end', async (t) => {
  let out = ''
  let now = 0
  const bar = createProgress({ isTTY: true, write: (s: string) => (out += s) }, 10, 'judging', () => now, 100)
  now = 200
  bar.tick(5)
  now = 250
  bar.tick(6)
  bar.tick(10)
  bar.end()
  t.equal(out, '\rjudging [###############...............] 5/10\rjudging [##############################] 10/10\r\x1b[K')
})

t.test('nothing is drawn when the stream is not a terminal', async (t) => {
  let out = ''
  const bar = createProgress({ write: (s: string) => (out += s) }, 10, 'judging')
  bar.tick(10)
  bar.end()
  t.equal(out, '')
})
