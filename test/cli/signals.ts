import t from 'tap'
import { EventEmitter } from 'node:events'
import { stopOnSignals } from '../../src/cli/signals.ts'

t.test('the first SIGINT or SIGTERM aborts the signal and says so; a second exits at once', async (t) => {
  for (const first of ['SIGINT', 'SIGTERM'] as const) {
    const source = new EventEmitter()
    const exits: number[] = []
    const said: string[] = []
    const stopper = stopOnSignals(
      source,
      (code) => exits.push(code),
      (line) => said.push(line),
    )
    t.equal(stopper.signal.aborted, false)
    source.emit(first)
    t.equal(stopper.signal.aborted, true, `${first} aborts`)
    t.match(stopper.signal.reason, { message: 'interrupted' })
    t.match(said.join(''), /stopping; the answers received are kept \(press Ctrl-C again to quit at once\)/)
    t.same(exits, [], 'the first signal does not exit')
    source.emit('SIGINT')
    t.same(exits, [130], 'the second exits at once')
  }
})

t.test('once disposed, signals are no longer handled', async (t) => {
  const source = new EventEmitter()
  const stopper = stopOnSignals(
    source,
    () => t.fail('no exit'),
    () => {},
  )
  stopper.dispose()
  t.equal(source.listenerCount('SIGINT') + source.listenerCount('SIGTERM'), 0)
})
