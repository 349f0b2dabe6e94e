import type { Test } from 'tap'
import { RetryLaterError } from '../../../src/errors.ts'
import type { FileLock } from '../../../src/ports/file-lock.ts'

/** Two holders standing for two processes that share files, and the path of a file by name. */
export interface LockPlace {
  readonly processes: readonly [FileLock, FileLock]
  file(name: string): string
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * The FileLock contract: one holder at a time per file, across the holders `open` makes (which
 * stand for processes), a bound on the wait, and release however the work ends. `open` makes a
 * fresh place per test whose holders wait at most `waitMs`.
 */
export function fileLockContract(t: Test, title: string, open: (t: Test, waitMs: number) => LockPlace): Promise<void> {
  return t
    .test(title, async (t) => {
      t.test("work under a file's lock runs alone: another process waits until it settles", async (t) => {
        const {
          processes: [a, b],
          file,
        } = open(t, 5000)
        const events: string[] = []
        const first = a.hold(file('r.csv'), async () => {
          events.push('a starts')
          await pause(40)
          events.push('a ends')
          return 'a'
        })
        await pause(5)
        const second = b.hold(file('r.csv'), async () => {
          events.push('b runs')
          return 'b'
        })
        t.same(await Promise.all([first, second]), ['a', 'b'], "each resolves with its work's value")
        t.same(events, ['a starts', 'a ends', 'b runs'])
      })
      t.test('many holders in two processes at once run one at a time, each once', async (t) => {
        const { processes, file } = open(t, 5000)
        let inside = 0
        let most = 0
        const ran: number[] = []
        await Promise.all(
          Array.from({ length: 16 }, (_, i) =>
            processes[i % 2].hold(file('r.csv'), async () => {
              most = Math.max(most, ++inside)
              await pause(1)
              ran.push(i)
              inside--
            }),
          ),
        )
        t.equal(most, 1)
        t.same(
          ran.toSorted((x, y) => x - y),
          Array.from({ length: 16 }, (_, i) => i),
        )
      })
      t.test('the locks of two files do not wait for each other', async (t) => {
        const {
          processes: [a, b],
          file,
        } = open(t, 5000)
        let release!: () => void
        const held = a.hold(file('one.csv'), () => new Promise<void>((resolve) => (release = resolve)))
        await pause(5)
        t.equal(await b.hold(file('two.csv'), async () => 'free'), 'free')
        release()
        await held
      })
      t.test('work that fails rejects with its own error and releases the lock', async (t) => {
        const {
          processes: [a, b],
          file,
        } = open(t, 5000)
        const broken = new Error('the work failed')
        await t.rejects(
          a.hold(file('r.csv'), async () => {
            throw broken
          }),
          broken,
        )
        t.equal(await b.hold(file('r.csv'), async () => 'next'), 'next')
        t.equal(await a.hold(file('r.csv'), async () => 'again'), 'again')
      })
      t.test('a lock not had within the bound is a 503 to retry, and the work never runs', async (t) => {
        const {
          processes: [a, b],
          file,
        } = open(t, 60)
        let release!: () => void
        const held = a.hold(file('r.csv'), () => new Promise<void>((resolve) => (release = resolve)))
        await pause(5)
        let ran = false
        const started = Date.now()
        const error = await b
          .hold(file('r.csv'), async () => {
            ran = true
          })
          .catch((e: unknown) => e)
        t.ok(error instanceof RetryLaterError, 'a RetryLaterError')
        t.match(error, { status: 503, retryAfterS: 1, message: /locked/ })
        t.ok(Date.now() - started >= 50, 'after waiting out the bound')
        t.notOk(ran)
        release()
        await held
        t.equal(await b.hold(file('r.csv'), async () => 'then'), 'then', 'once released it is had')
      })
    })
    .then(() => undefined)
}
