import t from 'tap'
import { createFitTally } from '../../../src/core/fit/fit-tally.ts'

t.test('a tally counts every answer and the masses it knows', async (t) => {
  const tally = createFitTally()
  tally.add('a', 0.9)
  tally.add('b', null)
  tally.add('c', undefined)
  tally.add('d', 0.3)
  t.match(tally.fit(0.5), { answers: 4, known: 2, median: 0.6, fits: true })
})

t.test('it names the three rows of lowest mass, lowest first, whatever order they came in', async (t) => {
  const masses: [string, number][] = [
    ['e', 0.5],
    ['a', 0.04],
    ['d', 0.9],
    ['c', 0.2],
    ['b', 0.04],
    ['f', 0.1],
  ]
  const forward = createFitTally()
  const backward = createFitTally()
  for (const [hash, mass] of masses) forward.add(hash, mass)
  for (const [hash, mass] of [...masses].reverse()) backward.add(hash, mass)
  const lowest = [
    { state_hash: 'a', option_mass: 0.04 },
    { state_hash: 'b', option_mass: 0.04 },
    { state_hash: 'f', option_mass: 0.1 },
  ]
  t.same(forward.fit(0.5).lowest, lowest)
  t.same(backward.fit(0.5).lowest, lowest, 'ties broken by the state hash')
})

t.test('an empty tally knows nothing', async (t) => {
  t.same(createFitTally().fit(0.7), {
    answers: 0,
    known: 0,
    median: null,
    p10: null,
    min_fit: 0.7,
    fits: null,
    lowest: [],
  })
})
