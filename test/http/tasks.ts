import t from 'tap'
import { createTasks } from '../../src/http/tasks.ts'

t.test('idle waits for every tracked task, including tasks started while waiting', async (t) => {
  const tasks = createTasks()
  t.equal(await tasks.idle(), true, 'nothing in flight')
  let releaseA!: () => void
  let releaseB!: () => void
  const a = tasks.track(new Promise<string>((resolve) => (releaseA = () => resolve('a'))))
  t.equal(tasks.size, 1)
  const idle = tasks.idle()
  let idled = false
  void idle.then(() => (idled = true))
  tasks.track(new Promise<void>((resolve) => (releaseB = resolve)))
  releaseA()
  t.equal(await a, 'a', 'track hands the promise back')
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(idled, false, 'still waiting for the task started meanwhile')
  releaseB()
  t.equal(await idle, true)
  t.equal(tasks.size, 0)
})

t.test('a rejected task counts as done and its rejection stays with its owner', async (t) => {
  const tasks = createTasks()
  const failing = tasks.track(Promise.reject(new Error('boom')))
  await t.rejects(failing, /boom/)
  t.equal(await tasks.idle(100), true)
})

t.test('idle with a timeout gives up and says so', async (t) => {
  const tasks = createTasks()
  tasks.track(new Promise(() => {}))
  t.equal(await tasks.idle(20), false)
  t.equal(tasks.size, 1)
})
