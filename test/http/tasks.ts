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

t.test('work entered without a promise is waited for until it ends, once however often it is ended', async (t) => {
  const tasks = createTasks()
  const leave = tasks.enter()
  const other = tasks.enter()
  t.equal(tasks.size, 2)
  let idled = false
  const idle = tasks.idle().then((v) => (idled = v))
  leave()
  leave()
  t.equal(tasks.size, 1, 'ending twice counts once')
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(idled, false, 'still waiting for the other')
  let release!: () => void
  tasks.track(new Promise<void>((resolve) => (release = resolve)))
  other()
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(idled, false, 'and then for the promise tracked meanwhile')
  release()
  t.equal(await idle, true)
  t.equal(tasks.size, 0)
  const late = tasks.enter()
  t.equal(await tasks.idle(20), false, 'a timeout gives up on entered work too')
  late()
})
