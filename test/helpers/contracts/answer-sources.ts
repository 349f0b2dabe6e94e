import type { Test } from 'tap'
import type { AnswerStore } from '../../../src/ports/answer-store.ts'
import { answer, putMany } from './answer-store.ts'
import type { Closable } from './fresh.ts'

/**
 * The part of the AnswerStore contract that keeps how each answer's p was obtained: its source, samples and a jury's
 * dissent on every read, the `split` band (dissent above 0) in counts and samples, the `split` cells, and the answers
 * counted by source.
 */
export function answerSourcesContract(t: Test, fresh: (t: Test) => Closable<AnswerStore>): void {
  const hashes = Array.from({ length: 8 }, (_, i) => `state-${i}`)
  t.test("every read gives an answer's source, samples and dissent as written", async (t) => {
    const store = fresh(t)
    const sampled = answer({ source: 'samples', samples: 5, p: 0.6, margin: 0.2 })
    const jury = answer({ fingerprint: 'fp-topic', question: 'topic', source: 'vote', dissent: 1 })
    t.same(store.putAnswers([sampled, jury], 'state-0', { message: 'hi' }), [sampled, jury], 'as written')
    const found = store.getAnswers('jev-1', 'state-0', ['fp-spam', 'fp-topic'])
    t.same(found.get('fp-spam'), sampled)
    t.same(found.get('fp-topic'), jury)
    t.same(store.answersForStates('jev-1', 'fp-spam', ['state-0']), [sampled])
    t.same(store.sampleAnswers('jev-1', 'fp-topic', 'spam', 'topic', 10), [jury])
    t.same(store.sampleAnswers('jev-1', 'fp-spam', 'spam', 'is_spam', 10, { from: 0, below: 1 }), [sampled])
    t.same(store.sampleAnswers('jev-1', 'fp-topic', 'spam', 'topic', 10, { from: 0, below: 1, split: true }), [jury])
  })
  t.test(
    'an answer written without a source reads as the engine distribution; one written null stays null',
    async (t) => {
      const store = fresh(t)
      const { source: _, samples: __, dissent: ___, ...bare } = answer()
      const old = answer({ fingerprint: 'fp-old', source: null })
      store.putAnswers([bare, old], 'state-0', {})
      const found = store.getAnswers('jev-1', 'state-0', ['fp-spam', 'fp-old'])
      t.match(found.get('fp-spam'), { source: 'distribution', samples: null, dissent: null })
      t.equal(found.get('fp-old')?.source, null)
    },
  )
  t.test("a band's split keeps a jury's answers some juror dissented from, or the others", async (t) => {
    const store = fresh(t)
    // state-0 and state-1 split, state-2 unanimous, state-3 one model's; margins 0.1 and 0.65 apart.
    putMany(store, ['state-0'], { source: 'vote', dissent: 2, margin: 0.1 })
    putMany(store, ['state-1'], { source: 'jury', dissent: 1, margin: 0.65 })
    putMany(store, ['state-2'], { source: 'vote', dissent: 0, margin: 0.1 })
    putMany(store, ['state-3'], { margin: 0.65 })
    const hashesOf = (split: boolean | undefined, from = 0, below = Infinity) =>
      store
        .sampleAnswers('jev-1', 'fp-spam', 'spam', 'is_spam', 10, {
          from,
          below,
          ...(split === undefined ? {} : { split }),
        })
        .map((a) => a.stateHash)
        .sort()
    t.same(hashesOf(true), ['state-0', 'state-1'])
    t.same(hashesOf(false), ['state-2', 'state-3'], 'unanimous and single-model answers are not split')
    t.same(hashesOf(undefined), ['state-0', 'state-1', 'state-2', 'state-3'])
    t.same(hashesOf(true, 0.5), ['state-1'], 'within the margins too')
    const count = (split: boolean | undefined, from: number, below: number) =>
      store.countAnswers('jev-1', 'fp-spam', { from, below, ...(split === undefined ? {} : { split }) })
    t.equal(count(true, 0, Infinity), 2, 'a band on the grid')
    t.equal(count(false, 0, Infinity), 2)
    t.equal(count(undefined, 0, Infinity), 4)
    t.equal(count(true, 0.05, 0.5), 1)
    t.equal(count(true, 0.055, 0.655), 2, 'a band between hundredths')
    t.equal(count(false, 0.055, 0.655), 2)
    t.equal(count(false, 0.055, 0.5), 1)
  })
  t.test("answer cells keep a jury's split answers apart, exact and on the grid", async (t) => {
    const store = fresh(t)
    putMany(store, hashes.slice(0, 2), { p: 0.6, margin: 0.2, source: 'vote', dissent: 1 })
    putMany(store, hashes.slice(2, 3), { p: 0.6, margin: 0.2, source: 'vote', dissent: 0 })
    putMany(store, hashes.slice(3, 4), { p: 0.601, margin: 0.202, source: 'vote', dissent: 1 })
    t.same(store.answerCells('jev-1', 'fp-spam', 'exact'), [
      { label: 'yes', p: 0.6, margin: 0.2, count: 1 },
      { label: 'yes', p: 0.6, margin: 0.2, count: 2, split: true },
      { label: 'yes', p: 0.601, margin: 0.202, count: 1, split: true },
    ])
    t.same(store.answerCells('jev-1', 'fp-spam', 'grid'), [
      { label: 'yes', p: 0.6, margin: 0.2, count: 1, pNanos: 600_000_000 },
      { label: 'yes', p: 0.6, margin: 0.2, count: 2, pNanos: 1_200_000_000, split: true },
      { label: 'yes', p: 0.605, margin: 0.205, count: 1, pNanos: 601_000_000, split: true },
    ])
    t.notOk('split' in store.answerCells('jev-1', 'fp-spam', 'grid')[0], 'absent when not split')
  })
  t.test('answers are counted by source per question, those stored before sources were kept left out', async (t) => {
    const store = fresh(t)
    putMany(store, hashes.slice(0, 3), { source: 'text', samples: 1 })
    putMany(store, hashes.slice(3, 5), { source: 'samples', samples: 5 })
    putMany(store, hashes.slice(5, 6), { source: null })
    putMany(store, hashes.slice(6, 7))
    putMany(store, hashes.slice(0, 2), { fingerprint: 'fp-x', source: 'logprobs' })
    const counts = store.countSources('jev-1', 'fp-spam')
    t.same(counts, { distribution: 1, samples: 2, text: 3 })
    t.same(Object.keys(counts), ['distribution', 'samples', 'text'], 'in the order of the sources')
    t.same(store.countSources('jev-1', 'fp-x'), { logprobs: 2 })
    t.same(store.countSources('jev-2', 'fp-spam'), {}, 'none for another model')
  })
}
