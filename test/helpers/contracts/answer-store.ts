import type { Test } from 'tap'
import { sampleRank } from '../../../src/core/stats/sample-rank.ts'
import type { AnswerStore, StoredAnswer } from '../../../src/ports/answer-store.ts'
import { answerSourcesContract } from './answer-sources.ts'
import { freshOf, type Closable } from './fresh.ts'

/** An answer of the `spam` judgment's `is_spam` question, with any field overridden. */
export function answer(over: Partial<StoredAnswer> = {}): StoredAnswer {
  return {
    model: 'jev-1',
    fingerprint: 'fp-spam',
    stateHash: 'state-0',
    judgment: 'spam',
    question: 'is_spam',
    distribution: { yes: 0.8, no: 0.2 },
    label: 'yes',
    p: 0.8,
    margin: 0.6,
    askedAt: '2025-01-01T00:00:00',
    reportedModel: 'jev-1.0.3',
    optionMass: 0.93,
    source: 'distribution',
    samples: null,
    dissent: null,
    ...over,
  }
}

/** Puts one answer per state hash given, each with `over`'s fields. */
export function putMany(store: AnswerStore, hashes: readonly string[], over: Partial<StoredAnswer> = {}): void {
  for (const hash of hashes) store.putAnswers([answer({ stateHash: hash, ...over })], hash, { message: hash })
}

/**
 * The AnswerStore contract: answers keyed by model, question and state, their sample order, counts and groups. Run on stores made by `open`, one fresh store per test, closed after it.
 */
export function answerStoreContract(t: Test, title: string, open: () => Closable<AnswerStore>): Promise<void> {
  return t
    .test(title, async (t) => {
      const fresh = freshOf(open)
      const hashes = Array.from({ length: 20 }, (_, i) => `state-${i}`)
      const ranked = (list: readonly string[], judgment = 'spam') =>
        [...list].sort((a, b) => sampleRank(judgment, 'is_spam', a) - sampleRank(judgment, 'is_spam', b))
      t.test('stored answers come back keyed by fingerprint, in the order asked', async (t) => {
        const store = fresh(t)
        const a = answer()
        const b = answer({ fingerprint: 'fp-topic', question: 'topic', label: 'promotion' })
        store.putAnswers([a, b], 'state-0', { message: 'win a prize' })
        const found = store.getAnswers('jev-1', 'state-0', ['fp-topic', 'fp-missing', 'fp-spam'])
        t.same([...found.keys()], ['fp-topic', 'fp-spam'])
        t.same(found.get('fp-spam'), a)
        t.same(found.get('fp-topic'), b)
      })
      t.test('an answer keeps its option mass; one without reads as unknown (null)', async (t) => {
        const store = fresh(t)
        const { optionMass: _, ...without } = answer({ fingerprint: 'fp-topic', question: 'topic' })
        store.putAnswers([answer({ optionMass: 0.12 }), without], 'state-0', { message: 'hi' })
        const found = store.getAnswers('jev-1', 'state-0', ['fp-spam', 'fp-topic'])
        t.equal(found.get('fp-spam')?.optionMass, 0.12)
        t.equal(found.get('fp-topic')?.optionMass, null)
        t.equal(store.answersForStates('jev-1', 'fp-topic', ['state-0'])[0].optionMass, null, 'every read gives it')
      })
      t.test('a lookup of many questions at once finds every one of them', async (t) => {
        const store = fresh(t)
        const fingerprints = Array.from({ length: 150 }, (_, i) => `fp-${i}`)
        store.putAnswers(
          fingerprints.map((fingerprint) => answer({ fingerprint })),
          'state-0',
          {},
        )
        const asked = [...fingerprints].reverse()
        t.same([...store.getAnswers('jev-1', 'state-0', asked).keys()], asked)
      })
      t.test('the fingerprints answered for a state are those getAnswers finds', async (t) => {
        const store = fresh(t)
        store.putAnswers([answer(), answer({ fingerprint: 'fp-topic', question: 'topic' })], 'state-0', {
          message: 'hi',
        })
        store.putAnswers([answer({ fingerprint: 'fp-other', stateHash: 'state-1' })], 'state-1', { message: 'ho' })
        t.same([...store.answeredFingerprints('jev-1', 'state-0', ['fp-spam', 'fp-missing', 'fp-topic'])].sort(), [
          'fp-spam',
          'fp-topic',
        ])
        t.same([...store.answeredFingerprints('jev-1', 'state-0', ['fp-spam'])], ['fp-spam'], 'only those asked')
        t.equal(store.answeredFingerprints('jev-2', 'state-0', ['fp-spam']).size, 0)
        t.equal(store.answeredFingerprints('jev-1', 'state-0', []).size, 0)
      })
      t.test('answers of another model or state are absent', async (t) => {
        const store = fresh(t)
        store.putAnswers([answer()], 'state-0', { message: 'hi' })
        t.equal(store.getAnswers('jev-2', 'state-0', ['fp-spam']).size, 0)
        t.equal(store.getAnswers('jev-1', 'state-9', ['fp-spam']).size, 0)
        t.equal(store.getAnswers('jev-1', 'state-0', []).size, 0)
      })
      t.test(
        'the first answer put for a key stands: a later put changes nothing and gets the first back',
        async (t) => {
          const store = fresh(t)
          t.same(
            store.putAnswers([answer()], 'state-0', { message: 'hi' }),
            [answer()],
            'a new key comes back as written',
          )
          const again = answer({
            judgment: 'other',
            question: 'junk',
            label: 'no',
            p: 0.7,
            margin: 0.4,
            distribution: { yes: 0.3, no: 0.7 },
            askedAt: '2025-02-01T00:00:00',
          })
          const topic = answer({ fingerprint: 'fp-topic', question: 'topic', label: 'promotion' })
          t.same(
            store.putAnswers([again, topic], 'state-0', { message: 'hi' }),
            [answer(), topic],
            'each key given, in order: the stored answer',
          )
          t.same(store.getAnswers('jev-1', 'state-0', ['fp-spam']).get('fp-spam'), answer())
          t.equal(store.countAnswers('jev-1', 'fp-spam'), 1)
        },
      )
      t.test('answers read back are copies that a caller cannot change in the store', async (t) => {
        const store = fresh(t)
        const written = answer({ distribution: { yes: 0.8, no: 0.2 } })
        store.putAnswers([written], 'state-0', { message: 'hi' })
        ;(written.distribution as Record<string, number>).yes = 0
        const read = store.getAnswers('jev-1', 'state-0', ['fp-spam']).get('fp-spam') as StoredAnswer
        // An answer kept in memory is frozen: changing it throws, and changes nothing either way.
        t.doesNotThrow(() => {
          try {
            ;(read.distribution as Record<string, number>).no = 0
          } catch (error) {
            if (!(error instanceof TypeError)) throw error
          }
        })
        t.same(store.getAnswers('jev-1', 'state-0', ['fp-spam']).get('fp-spam')?.distribution, { yes: 0.8, no: 0.2 })
      })
      t.test('the values of a state are saved with its answers, even when there are none', async (t) => {
        const store = fresh(t)
        store.putAnswers([answer()], 'state-0', { message: 'hi', sender: 'ann' })
        store.putAnswers([], 'state-1', { message: 'bye', sender: '' })
        const states = store.getStates(['state-1', 'state-9', 'state-0', 'state-1'])
        t.same([...states.keys()], ['state-1', 'state-0'])
        t.same(states.get('state-0'), { message: 'hi', sender: 'ann' })
        t.same(states.get('state-1'), { message: 'bye', sender: '' })
        t.equal(store.getStates([]).size, 0)
      })
      t.test('answers for states come in the order asked, once each, skipping unknown states', async (t) => {
        const store = fresh(t)
        for (const hash of ['state-0', 'state-1', 'state-2']) {
          store.putAnswers([answer({ stateHash: hash }), answer({ stateHash: hash, fingerprint: 'fp-x' })], hash, {
            message: hash,
          })
        }
        const found = store.answersForStates('jev-1', 'fp-spam', ['state-2', 'state-9', 'state-0', 'state-2'])
        t.same(found, [answer({ stateHash: 'state-2' }), answer({ stateHash: 'state-0' })])
        t.same(store.answersForStates('jev-2', 'fp-spam', ['state-0']), [])
        t.same(store.answersForStates('jev-1', 'fp-spam', []), [])
      })
      t.test('answers are counted per model and question', async (t) => {
        const store = fresh(t)
        t.equal(store.countAnswers('jev-1', 'fp-spam'), 0)
        for (let i = 0; i < 3; i++) store.putAnswers([answer({ stateHash: `state-${i}` })], `state-${i}`, {})
        store.putAnswers([answer({ model: 'jev-2' }), answer({ fingerprint: 'fp-x' })], 'state-0', {})
        t.equal(store.countAnswers('jev-1', 'fp-spam'), 3)
        t.equal(store.countAnswers('jev-2', 'fp-spam'), 1)
        t.equal(store.countAnswers('jev-1', 'fp-x'), 1)
      })
      t.test('the sample follows the seeded rank of judgment, question and state', async (t) => {
        const store = fresh(t)
        putMany(store, hashes)
        putMany(store, ['state-0'], { fingerprint: 'fp-x' })
        const sample = store.sampleAnswers('jev-1', 'fp-spam', 'spam', 'is_spam', 100)
        t.same(
          sample.map((a) => a.stateHash),
          ranked(hashes),
        )
        t.notSame(
          sample.map((a) => a.stateHash),
          hashes,
          'the order is not the order written',
        )
        t.same(store.sampleAnswers('jev-1', 'fp-spam', 'spam', 'is_spam', 5), sample.slice(0, 5))
        t.same(store.sampleAnswers('jev-1', 'fp-spam', 'spam', 'is_spam', Infinity), sample)
        t.same(store.sampleAnswers('jev-1', 'fp-spam', 'spam', 'is_spam', 0), [])
        t.same(store.sampleAnswers('jev-1', 'fp-spam', 'spam', 'is_spam', -1), [])
      })
      t.test('new answers never reorder the answers already sampled', async (t) => {
        const store = fresh(t)
        putMany(store, hashes.slice(0, 10))
        const before = store.sampleAnswers('jev-1', 'fp-spam', 'spam', 'is_spam', 10).map((a) => a.stateHash)
        putMany(store, hashes.slice(10))
        const after = store.sampleAnswers('jev-1', 'fp-spam', 'spam', 'is_spam', 20).map((a) => a.stateHash)
        t.same(
          after.filter((hash) => before.includes(hash)),
          before,
        )
      })
      t.test('an answer shared by two judgments keeps the rank of the judgment that asked first', async (t) => {
        const store = fresh(t)
        putMany(store, hashes, { judgment: 'first' })
        putMany(store, hashes, { judgment: 'second' })
        const sample = store.sampleAnswers('jev-1', 'fp-spam', 'second', 'is_spam', 100)
        t.same(
          sample.map((a) => a.stateHash),
          ranked(hashes, 'first'),
        )
        t.ok(sample.every((a) => a.judgment === 'first'))
      })
      t.test('a band of margins keeps the rank order and counts its answers', async (t) => {
        const store = fresh(t)
        hashes.forEach((hash, i) => putMany(store, [hash], { margin: i / 20 }))
        putMany(store, ['state-0'], { margin: 0, fingerprint: 'fp-x' })
        const low = { from: 0, below: 0.25 }
        const high = { from: 0.25, below: Infinity }
        const inLow = (h: string) => Number(h.slice(6)) < 5
        t.same(
          store.sampleAnswers('jev-1', 'fp-spam', 'spam', 'is_spam', 100, low).map((a) => a.stateHash),
          ranked(hashes).filter(inLow),
        )
        t.same(
          store.sampleAnswers('jev-1', 'fp-spam', 'spam', 'is_spam', 3, high).map((a) => a.stateHash),
          ranked(hashes)
            .filter((h) => !inLow(h))
            .slice(0, 3),
        )
        t.equal(store.countAnswers('jev-1', 'fp-spam', low), 5)
        t.equal(store.countAnswers('jev-1', 'fp-spam', high), 15)
        t.equal(store.countAnswers('jev-1', 'fp-x', high), 0)
        t.equal(
          store.countAnswers('jev-1', 'fp-spam', { from: 0.025, below: 0.125 }),
          2,
          'ends between hundredths: 0.05 and 0.1',
        )
        t.equal(store.countAnswers('jev-1', 'fp-spam', { from: 0.05, below: 0.1 }), 1, 'ends on hundredths: 0.05 only')
        t.equal(store.countAnswers('jev-1', 'fp-spam', { from: 0.1, below: 0.1 }), 0)
      })
      t.test('answer labels are read for many states at once, by fingerprint and state, for one model', async (t) => {
        const store = fresh(t)
        putMany(store, ['state-0', 'state-1'], { label: 'yes' })
        putMany(store, ['state-1'], { label: 'no', fingerprint: 'fp-x' })
        putMany(store, ['state-2'], { label: 'no', model: 'jev-2' })
        const labels = store.answerLabels(
          'jev-1',
          ['fp-spam', 'fp-x', 'fp-none'],
          ['state-1', 'state-0', 'state-2', 'state-1', 'nowhere'],
        )
        t.same([...labels.keys()], ['fp-spam', 'fp-x', 'fp-none'])
        t.same(Object.fromEntries(labels.get('fp-spam')!), { 'state-0': 'yes', 'state-1': 'yes' })
        t.same(Object.fromEntries(labels.get('fp-x')!), { 'state-1': 'no' })
        t.equal(labels.get('fp-none')!.size, 0)
        t.same([...store.answerLabels('jev-1', ['fp-x'], ['state-1']).keys()], ['fp-x'], 'only the fingerprints asked')
        t.equal(store.answerLabels('jev-1', ['fp-spam'], []).get('fp-spam')!.size, 0)
      })
      t.test('answer cells count the answers of a question by label, p and margin', async (t) => {
        const store = fresh(t)
        putMany(store, ['state-0', 'state-1'], { label: 'yes', p: 0.9, margin: 0.8 })
        putMany(store, ['state-2'], { label: 'no', p: 0.55, margin: 0.1 })
        putMany(store, ['state-3'], { label: 'yes', p: 0.9, margin: 0.8, fingerprint: 'fp-x' })
        putMany(store, ['state-4'], { label: 'yes', p: 0.873, margin: 0.746 })
        putMany(store, ['state-5'], { label: 'yes', p: 0.871, margin: 0.742 })
        t.same(store.answerCells('jev-1', 'fp-spam', 'exact'), [
          { label: 'no', p: 0.55, margin: 0.1, count: 1 },
          { label: 'yes', p: 0.871, margin: 0.742, count: 1 },
          { label: 'yes', p: 0.873, margin: 0.746, count: 1 },
          { label: 'yes', p: 0.9, margin: 0.8, count: 2 },
        ])
        t.same(
          store.answerCells('jev-1', 'fp-spam', 'grid'),
          [
            { label: 'no', p: 0.55, margin: 0.1, count: 1, pNanos: 550_000_000 },
            { label: 'yes', p: 0.875, margin: 0.745, count: 2, pNanos: 1_744_000_000 },
            { label: 'yes', p: 0.9, margin: 0.8, count: 2, pNanos: 1_800_000_000 },
          ],
          'values between two hundredths share a cell, which keeps their p summed',
        )
        t.same(store.answerCells('jev-2', 'fp-spam', 'exact'), [])
        t.same(store.answerCells('jev-2', 'fp-spam', 'grid'), [])
      })
      t.test('a replace puts new answers in place of the keys given; the counts and cells follow it', async (t) => {
        const store = fresh(t)
        const vote = { model: 'jury:a+b', source: 'vote' as const, dissent: 1, label: 'yes', p: 0.67, margin: 0.33 }
        putMany(store, ['state-0', 'state-1'], vote)
        putMany(store, ['state-0'], { label: 'no', p: 0.8, margin: 0.6 })
        t.equal(store.getAnswers('jury:a+b', 'state-0', ['fp-spam']).get('fp-spam')?.label, 'yes', 'read before')
        const weighed = answer({ ...vote, source: 'jury', dissent: 1, label: 'no', p: 0.9, margin: 0.8 })
        const added = answer({ ...weighed, stateHash: 'state-2' })
        const held = store.replaceAnswers([weighed, added], 'state-0', { message: 'state-0' })
        t.same(held, [weighed, added], 'the new answers are held, a key the store lacked among them')
        t.same(store.getAnswers('jury:a+b', 'state-0', ['fp-spam']).get('fp-spam'), weighed, 'not the old one')
        t.match(store.getAnswers('jury:a+b', 'state-1', ['fp-spam']).get('fp-spam'), { label: 'yes', source: 'vote' })
        t.match(store.getAnswers('jev-1', 'state-0', ['fp-spam']).get('fp-spam'), { label: 'no' }, 'other models stay')
        t.equal(store.countAnswers('jury:a+b', 'fp-spam'), 3, 'the replaced answer is counted once')
        t.equal(store.countAnswers('jury:a+b', 'fp-spam', { from: 0, below: 1, split: true }), 3)
        const cells = [
          { label: 'no', p: 0.9, margin: 0.8, count: 2, split: true },
          { label: 'yes', p: 0.67, margin: 0.33, count: 1, split: true },
        ]
        t.same(store.answerCells('jury:a+b', 'fp-spam', 'exact'), cells)
        t.match(store.answerCells('jury:a+b', 'fp-spam', 'grid'), cells, 'the running tally agrees')
        t.same(Object.fromEntries(store.modelAnswerCounts(['fp-spam'])), { 'jev-1': 1, 'jury:a+b': 3 })
        t.same(store.putAnswers([answer({ ...vote })], 'state-0', {}), [weighed], 'the replacement stands after')
      })
      t.test(
        'answers are grouped by first asker, model and fingerprint with their count and age, and counted by model; a group can be deleted',
        async (t) => {
          const store = fresh(t)
          for (const [i, at] of ['2025-01-03T00:00:00', '2025-01-01T00:00:00', '2025-01-02T00:00:00'].entries()) {
            store.putAnswers([answer({ stateHash: `s${i}`, askedAt: at })], `s${i}`, {})
          }
          store.putAnswers(
            [answer({ stateHash: 's0', fingerprint: 'fp-old', askedAt: '2024-12-01T00:00:00' })],
            's0',
            {},
          )
          store.putAnswers(
            [
              answer({ stateHash: 's0', model: 'jev-2' }),
              answer({ stateHash: 's0', judgment: 'ham', fingerprint: 'fp-ham' }),
            ],
            's0',
            {},
          )
          const group = { judgment: 'spam', question: 'is_spam' }
          t.same(store.answerGroups(), [
            {
              judgment: 'ham',
              question: 'is_spam',
              model: 'jev-1',
              fingerprint: 'fp-ham',
              answers: 1,
              oldest: '2025-01-01T00:00:00',
              newest: '2025-01-01T00:00:00',
            },
            {
              ...group,
              model: 'jev-1',
              fingerprint: 'fp-spam',
              answers: 3,
              oldest: '2025-01-01T00:00:00',
              newest: '2025-01-03T00:00:00',
            },
            {
              ...group,
              model: 'jev-1',
              fingerprint: 'fp-old',
              answers: 1,
              oldest: '2024-12-01T00:00:00',
              newest: '2024-12-01T00:00:00',
            },
            {
              ...group,
              model: 'jev-2',
              fingerprint: 'fp-spam',
              answers: 1,
              oldest: '2025-01-01T00:00:00',
              newest: '2025-01-01T00:00:00',
            },
          ])
          const counts = (fingerprints: string[]) => Object.fromEntries(store.modelAnswerCounts(fingerprints))
          t.same(
            counts(['fp-spam', 'fp-old']),
            { 'jev-1': 4, 'jev-2': 1 },
            'answers to any of the fingerprints, by model',
          )
          t.same(counts(['fp-ham']), { 'jev-1': 1 })
          t.same(counts(['fp-none']), {}, 'no model without an answer to them')
          t.same([...store.modelAnswerCounts(['fp-spam']).keys()], ['jev-1', 'jev-2'], 'models in order')
          t.equal(store.deleteAnswers({ ...group, model: 'jev-1', fingerprint: 'fp-old' }), 1)
          t.same(counts(['fp-spam', 'fp-old']), { 'jev-1': 3, 'jev-2': 1 }, 'a deletion is counted out')
          t.equal(store.deleteAnswers({ ...group, model: 'jev-1', fingerprint: 'fp-old' }), 0)
          t.equal(
            store.deleteAnswers({ judgment: 'other', question: 'is_spam', model: 'jev-1', fingerprint: 'fp-spam' }),
            0,
            'only the group named',
          )
          t.equal(store.countAnswers('jev-1', 'fp-spam'), 3)
          t.equal(store.answerGroups().length, 3)
          t.same(store.getStates(['s0']).get('s0'), {}, 'states stay')
        },
      )
      answerSourcesContract(t, fresh)
    })
    .then(() => undefined)
}
