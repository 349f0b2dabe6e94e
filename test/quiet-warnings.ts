import t from 'tap'
import { EventEmitter } from 'node:events'
import { quietSqliteWarning } from '../src/quiet-warnings.ts'

t.test("node:sqlite's experimental notice is dropped and other warnings still print", async (t) => {
  const printed: string[] = []
  const proc = Object.assign(new EventEmitter(), {
    stderr: { write: (s: string) => printed.push(s) },
  }) as unknown as NodeJS.Process
  proc.on('warning', (w: Error) => printed.push(`default: ${w.message}`))
  quietSqliteWarning(proc)
  proc.emit('warning', Object.assign(new Error('SQLite is an experimental feature'), { name: 'ExperimentalWarning' }))
  proc.emit('warning', Object.assign(new Error('something else'), { name: 'DeprecationWarning' }))
  t.same(printed, ['default: something else'])
})

t.test('with no printer installed, other warnings go to stderr', async (t) => {
  const printed: string[] = []
  const proc = Object.assign(new EventEmitter(), {
    stderr: { write: (s: string) => printed.push(s) },
  }) as unknown as NodeJS.Process
  quietSqliteWarning(proc)
  proc.emit('warning', Object.assign(new Error('x'), { name: 'Warning' }))
  t.same(printed, ['Warning: x\n'])
})
