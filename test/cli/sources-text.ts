import t from 'tap'
import type { PublicRun } from '../../src/app/runs.ts'
import { sourcesLines } from '../../src/cli/sources-text.ts'

const run = (judgment: string, sources: PublicRun['sources']) => ({ judgment, sources }) as PublicRun

t.test('the newest run of each judgment says per question where p came from, text answers warned of', async (t) => {
  const text = sourcesLines([
    run('spam', { is_spam: { samples: 372 }, topic: { text: 372 }, urgency: {} }),
    run('lang', { lang: { logprobs: 12 } }),
    run('spam', { is_spam: { distribution: 9 } }),
  ])
  t.equal(
    text,
    '\nwhere p comes from, in the newest run of each judgment:\n' +
      '  spam is_spam: p from samples (372 answers)\n' +
      '  spam topic: text only: p is 1 for every answer (372 answers)\n' +
      '    answered from text alone: p is 1 for every answer, so routes and thresholds on p or margin mean nothing; ' +
      'set ENGINE_SAMPLES above 1\n' +
      '  lang lang: p from log probabilities (12 answers)\n',
  )
})

t.test('runs recorded before sources were counted print nothing', async (t) => {
  t.equal(sourcesLines([run('spam', {}), run('lang', undefined), run('x', { q: {} })]), '')
  t.equal(sourcesLines([]), '')
})
