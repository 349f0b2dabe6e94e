import t from 'tap'
import type { App } from '../../src/app/app.ts'
import { judgeRequest } from '../../src/app/judge-request.ts'
import { queueTarget, recordVerdict, reviewQueue, undoVerdict } from '../../src/app/review.ts'
import type { VerdictRequest } from '../../src/core/review/verdict-check.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import type { Question, State } from '../../src/core/types.ts'
import { createKeyedLock } from '../../src/app/keyed-lock.ts'
import { ConflictError, JudgeError, NodeNeededError, RetryLaterError } from '../../src/errors.ts'
import { StoreError } from '../../src/store-error.ts'
import { app, deps } from '../helpers/deps.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { createMemoryFileLock, type HeldLocks } from '../helpers/memory-file-lock.ts'
import { createMemoryFiles, type MemoryFiles } from '../helpers/memory-files.ts'
import { project, spec } from '../helpers/specs.ts'

const spam = spec(
  'name: spam\nstate: [message]\nquestions:\n  is_spam:\n    ask: Spam?\n    type: yes_no\nkey: spam.key.csv\n',
)
const tone = spec(
  'name: tone\nstate: [message]\nquestions:\n  friendly:\n    ask: Friendly?\n    type: yes_no\n',
  '/specs/tone.judge.yaml',
)
const KEY = [
  { message: 'WIN now', is_spam: 'yes' },
  { message: 'hello', is_spam: 'yes' },
  { message: 'lunch', is_spam: 'no' },
]
const answer = (_q: Question, s: State) => (/WIN/.test(s.message) ? { yes: 0.9, no: 0.1 } : { yes: 0.2, no: 0.8 })

/** An app whose store holds the model's answers to the key rows; the model and the key disagree on "hello". */
async function answered(): Promise<{ app: App; files: MemoryFiles }> {
  const files = createMemoryFiles({ keys: { '/specs/spam.key.csv': KEY } })
  const a = app(deps(createFakeEngine({ answer })), files)
  for (const row of KEY) await judgeRequest(a, { project: project(spam), row: { message: row.message }, cap: 1 })
  return { app: a, files }
}

const target = queueTarget(project(spam), null, 0)
const verdict = (message: string, more: Partial<VerdictRequest> = {}): VerdictRequest => ({
  question: 'is_spam',
  stateHash: stateHash({ message }),
  kind: 'disagreement',
  verdict: 'model_right',
  reviewer: 'ann',
  reviewedAt: '2026-11-22T10:00:00.000',
  ...more,
})

t.test('the queue target is the node, or the only judgment, with its spot-check size', async (t) => {
  t.same(queueTarget(project(spam, tone), 'tone', 5), { project: project(spam, tone), spec: tone, spotChecks: 5 })
  t.equal(queueTarget(project(spam), undefined, 0).spec, spam)
  t.throws(() => queueTarget(project(spam, tone), null, 0), NodeNeededError)
})

t.test('the queue of a folder without a store is empty, and reading it opens none', async (t) => {
  const bare: App = {
    ...app(deps(null)),
    existingStore: () => null,
    depsFor: () => t.fail('no store is opened') as never,
  }
  t.same(await reviewQueue(bare, target), {
    spec: spam,
    offered: [],
    cards: [],
    left: { is_spam: { disagreement: 0, spot_check: 0, split: 0, unsure: 0 } },
    targets: { is_spam: { accuracy_target: null, reviews_needed: null } },
    verdicts: new Map(),
    reviews: new Map(),
  })
})

t.test('the queue offers the rows whose stored answer disagrees with the key', async (t) => {
  const { app: a } = await answered()
  const queue = await reviewQueue(a, target)
  t.match(queue.offered, [
    { kind: 'disagreement', question: 'is_spam', state: { message: 'hello' }, modelLabel: 'no', keyLabel: 'yes' },
  ])
  t.equal(queue.offered.length, 1)
})

t.test("a verdict on an offered row is appended to the judgment's reviews file and leaves the queue", async (t) => {
  const { app: a, files } = await answered()
  const record = await recordVerdict(a, target, verdict('hello'))
  t.match(record, {
    judgment: 'spam',
    question: 'is_spam',
    kind: 'disagreement',
    verdict: 'model_right',
    labels: ['no'],
    model_label: 'no',
    key_label: 'yes',
    state: { message: 'hello' },
    reviewer: 'ann',
  })
  t.same(files.appended.get(spam.reviews), [record])
  t.same((await reviewQueue(a, target)).offered, [])
})

t.test('a row the queue does not offer is a 409, and nothing is written', async (t) => {
  const { app: a, files } = await answered()
  await t.rejects(recordVerdict(a, target, verdict('WIN now')), ConflictError)
  await t.rejects(
    recordVerdict(a, target, verdict('hello', { kind: 'unsure', verdict: 'confirmed' })),
    /offers row [0-9a-f]{16} as disagreement, not unsure/,
  )
  t.same(files.appended.get(spam.reviews) ?? [], [])
})

t.test('two verdicts on one row at once: the first is recorded, the second is a 409', async (t) => {
  const { app: a, files } = await answered()
  const [first, second] = await Promise.allSettled([
    recordVerdict(a, target, verdict('hello')),
    recordVerdict(a, target, verdict('hello', { verdict: 'key_right' })),
  ])
  t.equal(first.status, 'fulfilled')
  t.ok(second.status === 'rejected' && second.reason instanceof ConflictError, 'the second is refused')
  t.same(
    files.appended.get(spam.reviews)?.map((v) => v.verdict),
    ['model_right'],
  )
})

/** Two apps on one store and one reviews file, each with its own in-process lock, as two processes are. */
function twoProcesses(a: App, held: HeldLocks = new Map()): [App, App] {
  return [
    { ...a, locks: createKeyedLock(), fileLocks: createMemoryFileLock({ held }) },
    { ...a, locks: createKeyedLock(), fileLocks: createMemoryFileLock({ held }) },
  ]
}

t.test('two processes recording verdicts on one row at once: one is recorded, the other is a 409', async (t) => {
  const { app: a, files } = await answered()
  const [one, two] = twoProcesses(a)
  const settled = await Promise.allSettled([
    recordVerdict(one, target, verdict('hello')),
    recordVerdict(two, target, verdict('hello', { verdict: 'key_right' })),
    recordVerdict(one, target, verdict('hello', { verdict: 'both_ok' })),
  ])
  t.same(
    settled.map((s) => s.status),
    ['fulfilled', 'rejected', 'rejected'],
  )
  t.ok(
    settled.every((s) => s.status === 'fulfilled' || s.reason instanceof ConflictError),
    'the others are conflicts',
  )
  t.same(
    files.appended.get(spam.reviews)?.map((v) => v.verdict),
    ['model_right'],
  )
})

t.test('two processes undoing one verdict at once: one retraction is written, the other is a 409', async (t) => {
  const { app: a, files } = await answered()
  const record = await recordVerdict(a, target, verdict('hello'))
  const [one, two] = twoProcesses(a)
  const undo = {
    question: 'is_spam',
    stateHash: record.state_hash,
    reviewedAt: record.reviewed_at,
    reviewer: 'bob',
    at: '2026-11-22T10:05:00.000',
  }
  const settled = await Promise.allSettled([
    undoVerdict(one, spam, undo),
    undoVerdict(two, spam, undo),
    undoVerdict(two, spam, undo),
  ])
  t.same(
    settled.map((s) => s.status),
    ['fulfilled', 'rejected', 'rejected'],
  )
  t.ok(
    settled.every((s) => s.status === 'fulfilled' || s.reason instanceof ConflictError),
    'the others are conflicts',
  )
  t.equal(files.retracted.get(spam.reviews)?.length, 1)
})

t.test(
  'a reviews file locked elsewhere past the bound is a 503 to retry, and nothing is checked or written',
  async (t) => {
    const { app: a, files } = await answered()
    const held: HeldLocks = new Map([[spam.reviews, new Promise<void>(() => {})]])
    const waiting: App = { ...a, fileLocks: createMemoryFileLock({ held, waitMs: 20 }) }
    await t.rejects(recordVerdict(waiting, target, verdict('hello')), RetryLaterError)
    await t.rejects(
      undoVerdict(waiting, spam, {
        question: 'is_spam',
        stateHash: 'x',
        reviewedAt: 'then',
        reviewer: 'bob',
        at: 'now',
      }),
      RetryLaterError,
      'not a 409: nothing was checked',
    )
    t.same(files.appended.get(spam.reviews) ?? [], [])
  },
)

t.test('a reviews file whose lock cannot be taken is an error naming the file, as a write that fails is', async (t) => {
  const { app: a, files } = await answered()
  const refusing: App = {
    ...a,
    fileLocks: {
      hold: async () => {
        throw Object.assign(new Error('no folder'), { code: 'ENOENT' })
      },
    },
  }
  await t.rejects(recordVerdict(refusing, target, verdict('hello')), {
    message: 'cannot write the reviews file /specs/spam.reviews.csv of spam: ENOENT; nothing was saved',
    cause: { code: 'ENOENT' },
  })
  t.same(files.appended.get(spam.reviews) ?? [], [])
})

t.test('a reviews file that cannot be written is an error naming it, and nothing is saved', async (t) => {
  const { app: a } = await answered()
  const refusing: App = {
    ...a,
    files: {
      ...a.files,
      appendVerdict: async () => {
        throw Object.assign(new Error('denied'), { code: 'EACCES' })
      },
    },
  }
  const error = await recordVerdict(refusing, target, verdict('hello')).catch((e: JudgeError) => e)
  t.ok(error instanceof JudgeError)
  t.match(error, {
    message: 'cannot write the reviews file /specs/spam.reviews.csv of spam: EACCES; nothing was saved',
    context: { judgment: 'spam', file: '/specs/spam.reviews.csv' },
    cause: { code: 'EACCES' },
  })
})

t.test(
  'a reviews file the adapter has named already (a full disk: a 503) is passed on as the adapter said',
  async (t) => {
    const { app: a } = await answered()
    const full = new StoreError(
      '/specs/spam.reviews.csv',
      'full',
      '/specs/spam.reviews.csv: the disk is full, nothing was saved in it: free space and send it again',
    )
    const refusing: App = {
      ...a,
      files: {
        ...a.files,
        appendVerdict: async () => {
          throw full
        },
      },
    }
    t.equal(await recordVerdict(refusing, target, verdict('hello')).catch((e: unknown) => e), full)
  },
)

t.test('an undo appends a retraction of the verdict it names, and the row is offered again', async (t) => {
  const { app: a, files } = await answered()
  const record = await recordVerdict(a, target, verdict('hello'))
  t.same((await reviewQueue(a, target)).offered, [])
  const undo = {
    question: 'is_spam',
    stateHash: record.state_hash,
    reviewedAt: record.reviewed_at,
    reviewer: 'bob',
    at: '2026-11-22T10:05:00.000',
  }
  t.same(await undoVerdict(a, spam, undo), record, 'it answers the verdict withdrawn')
  t.same(files.retracted.get(spam.reviews), [
    { retracted_at: '2026-11-22T10:05:00.000', reviewer: 'bob', withdrawn: record },
  ])
  t.same(files.appended.get(spam.reviews), [record], 'the verdict line stays')
  t.match(
    (await reviewQueue(a, target)).offered,
    [{ kind: 'disagreement', state: { message: 'hello' } }],
    'the row is back',
  )
  t.equal((await reviewQueue(a, target)).verdicts.size, 0)
})

t.test('an undo of a verdict that no longer stands, or of another time, is a 409 and writes nothing', async (t) => {
  const { app: a, files } = await answered()
  const record = await recordVerdict(a, target, verdict('hello'))
  const undo = {
    question: 'is_spam',
    stateHash: record.state_hash,
    reviewedAt: record.reviewed_at,
    reviewer: 'bob',
    at: 'later',
  }
  await t.rejects(
    undoVerdict(a, spam, { ...undo, reviewedAt: '2026-01-01T00:00:00.000' }),
    /row [0-9a-f]{16} has no standing verdict given at "2026-01-01T00:00:00.000" to undo/,
  )
  await undoVerdict(a, spam, undo)
  await t.rejects(undoVerdict(a, spam, undo), ConflictError, 'undone already')
  await t.rejects(undoVerdict(a, spam, { ...undo, stateHash: 'x' }), /that row has no standing verdict/)
  t.equal(files.retracted.get(spam.reviews)?.length, 1)
})

t.test('an undo that cannot be written is an error naming the reviews file', async (t) => {
  const { app: a } = await answered()
  const record = await recordVerdict(a, target, verdict('hello'))
  const refusing: App = {
    ...a,
    files: {
      ...a.files,
      appendRetraction: async () => {
        throw Object.assign(new Error('denied'), { code: 'EROFS' })
      },
    },
  }
  const undo = {
    question: 'is_spam',
    stateHash: record.state_hash,
    reviewedAt: record.reviewed_at,
    reviewer: 'bob',
    at: 'later',
  }
  await t.rejects(undoVerdict(refusing, spam, undo), {
    message: 'cannot write the reviews file /specs/spam.reviews.csv of spam: EROFS; nothing was saved',
  })
})

/** A judgment whose every row is reviewed twice, its answer for "lunch" stored, and its spot-check queue. */
async function lunchReviewedTwice() {
  const twice = spec(
    'name: spam\nstate: [message]\nquestions:\n  is_spam:\n    ask: Spam?\n    type: yes_no\ndouble_review: 1\n',
  )
  const files = createMemoryFiles({})
  const a = app(deps(createFakeEngine({ answer })), files)
  await judgeRequest(a, { project: project(twice), row: { message: 'lunch' }, cap: 1 })
  return { twice, files, a, spot: queueTarget(project(twice), null, 5) }
}

t.test(
  'a spot-checked row chosen for a second review is offered to the next reviewer, blind, then to a third when they differ',
  async (t) => {
    const { twice, files, a, spot } = await lunchReviewedTwice()
    const hash = stateHash({ message: 'lunch' })
    const by = (reviewer: string) => reviewQueue(a, { ...spot, reviewedBy: reviewer })
    const check = (reviewer: string, call: Partial<VerdictRequest>) =>
      recordVerdict(a, spot, verdict('lunch', { kind: 'spot_check', verdict: 'confirmed', reviewer, ...call }))
    await check('ann', {})
    t.same((await by('ann')).offered, [], 'not again to its reviewer')
    t.same((await reviewQueue(a, spot)).offered, [], 'nor to a queue built for no one')
    const second = await by('bob')
    t.match(second.offered, [{ kind: 'spot_check', stateHash: hash }], 'offered to another reviewer as the same kind')
    t.notMatch(JSON.stringify(second.offered), /ann/, 'without the first verdict or its reviewer')
    t.equal(second.left.is_spam.spot_check, 1)
    await t.rejects(check('ann', {}), ConflictError, 'the first reviewer cannot review it twice')
    await check('bob', { verdict: 'labeled', label: 'yes' })
    t.equal(
      (await by('bob')).verdicts.get(`spam\0is_spam\0${hash}`)?.reviewer,
      'ann',
      'unsettled: the first verdict counts',
    )
    t.match((await by('cy')).offered, [{ stateHash: hash }], 'two that differ: a third reviewer settles them')
    t.same((await by('bob')).offered, [])
    await check('cy', { verdict: 'labeled', label: 'yes' })
    t.same((await by('dan')).offered, [], 'settled')
    t.equal(
      (await by('dan')).verdicts.get(`spam\0is_spam\0${hash}`)?.reviewer,
      'bob',
      'the verdict the third agrees with counts',
    )
    t.equal(files.appended.get(twice.reviews)?.length, 3, 'every verdict is kept in the one reviews file')
  },
)

t.test(
  "an undo withdraws the row's latest verdict only: the second reviewer's, after which the first cannot undo theirs",
  async (t) => {
    const { twice, a, spot } = await lunchReviewedTwice()
    const first = await recordVerdict(
      a,
      spot,
      verdict('lunch', { kind: 'spot_check', verdict: 'confirmed', reviewer: 'ann' }),
    )
    const second = await recordVerdict(
      a,
      spot,
      verdict('lunch', {
        kind: 'spot_check',
        verdict: 'confirmed',
        reviewer: 'bob',
        reviewedAt: '2026-11-22T10:01:00.000',
      }),
    )
    const undo = (v: typeof first) => ({
      question: 'is_spam',
      stateHash: v.state_hash,
      reviewedAt: v.reviewed_at,
      reviewer: v.reviewer,
      at: 'later',
    })
    await t.rejects(undoVerdict(a, twice, undo(first)), ConflictError, 'a later verdict stands')
    t.same(await undoVerdict(a, twice, undo(second)), second)
    t.match(
      (await reviewQueue(a, { ...spot, reviewedBy: 'bob' })).offered,
      [{ kind: 'spot_check' }],
      'offered to bob again',
    )
    t.same(await undoVerdict(a, twice, undo(first)), first)
  },
)
