import t from 'tap'
import {
  answeredFromText,
  countSource,
  SOURCE_PHRASES,
  sourceCounts,
  sourcesText,
  TEXT_ONLY_WARNING,
} from '../../../src/core/tally/sources.ts'
import { PROBABILITY_SOURCES, type ProbabilitySource } from '../../../src/core/probability-sources.ts'

t.test('counts by source add up pairs, in the order of the sources, leaving out unknown and empty ones', async (t) => {
  const counts = sourceCounts([
    ['text', 2],
    [null, 5],
    ['logprobs', 1],
    ['text', 1],
    ['vote', 0],
  ])
  t.same(counts, { logprobs: 1, text: 3 })
  t.same(Object.keys(counts), ['logprobs', 'text'])
  t.same(sourceCounts([]), {})
})

t.test('a running count takes each answer with a source and skips one without', async (t) => {
  const counts = new Map<ProbabilitySource, number>()
  for (const source of ['samples', 'samples', null, undefined, 'text'] as const) countSource(counts, source)
  t.same(Object.fromEntries(counts), { samples: 2, text: 1 })
})

t.test('a question is answered from text when any of its answers took p from one text answer', async (t) => {
  t.equal(answeredFromText({ text: 1, samples: 40 }), true)
  t.equal(answeredFromText({ samples: 40 }), false)
  t.equal(answeredFromText({}), false)
  t.equal(answeredFromText(undefined), false)
  t.match(TEXT_ONLY_WARNING, /^answered from text alone: p is 1 for every answer, .* set ENGINE_SAMPLES above 1$/)
})

t.test('sources read in words with their answers, every source phrased', async (t) => {
  t.equal(sourcesText({ samples: 40 }), 'p from samples (40 answers)')
  t.equal(
    sourcesText({ text: 1, logprobs: 3 }),
    'p from log probabilities (3 answers); text only: p is 1 for every answer (1 answer)',
  )
  t.equal(sourcesText({}), '')
  t.equal(sourcesText(undefined), '')
  t.same(Object.keys(SOURCE_PHRASES), [...PROBABILITY_SOURCES])
})
