import t from 'tap'
import { reviewsTargets, runForgetJob, totalsOf } from '../../src/app/forget-job.ts'
import { pickRows } from '../../src/core/forget/line-pick.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import type { VerdictRecord } from '../../src/core/review/verdicts.ts'
import { JudgeError, RetryLaterError } from '../../src/errors.ts'
import type { FileLock } from '../../src/ports/file-lock.ts'
import { app, deps } from '../helpers/deps.ts'
import { createMemoryFileLock } from '../helpers/memory-file-lock.ts'
import { createMemoryFiles } from '../helpers/memory-files.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { project, spec, SPAM_YAML } from '../helpers/specs.ts'

const spam = spec()
const hash = stateHash({ message: 'secret' })
const v: VerdictRecord = {
  reviewed_at: '2026-01-01T00:00:00.000',
  reviewer: 'ann',
  judgment: 'spam',
  question: 'is_spam',
  state_hash: hash,
  kind: 'unsure',
  verdict: 'labeled',
  labels: ['yes'],
  model_label: 'no',
  key_label: null,
  state: { message: 'secret' },
  stratum: 'unsure',
  rank: 1,
}
const job = {
  project: project(spam),
  plan: { values: [hash], records: [hash] },
  reviews: reviewsTargets([spam], pickRows(new Set([hash]))),
  apply: true,
  command: 'test',
}

t.test('the reviews file is rewritten under its lock, after every verdict queued before it', async (t) => {
  const files = createMemoryFiles({ verdicts: { [spam.reviews]: [v] } })
  const held = new Map<string, Promise<void>>()
  const a = { ...app(deps(null), files), fileLocks: createMemoryFileLock({ held }) }
  let release!: () => void
  const other = createMemoryFileLock({ held }).hold(spam.reviews, () => new Promise<void>((done) => (release = done)))
  const forgetting = runForgetJob(a, a.existingStore(project(spam)), job)
  await new Promise((done) => setTimeout(done, 20))
  t.same(
    (await files.reviews(spam)).get(`spam\0is_spam\0${hash}`)?.[0].state,
    { message: 'secret' },
    'waits while another process holds the lock',
  )
  release()
  await other
  t.same((await forgetting).reviews_files, [{ file: 'spam.reviews.csv', lines: 1 }])
  t.same((await files.reviews(spam)).get(`spam\0is_spam\0${hash}`)?.[0].state, {})
})

t.test('a reviews file holding nothing to forget is not locked', async (t) => {
  let locked = 0
  const counting: FileLock = { hold: (_file, work) => ((locked += 1), work()) }
  const a = {
    ...app(deps(null), createMemoryFiles({ verdicts: { [spam.reviews]: [{ ...v, state_hash: 'f'.repeat(16) }] } })),
    fileLocks: counting,
  }
  t.same((await runForgetJob(a, null, job)).reviews_files, [])
  t.equal(locked, 0)
})

t.test(
  'a lock held too long is the 503 it is; a file that cannot be rewritten says so, and that the lines stay',
  async (t) => {
    const files = createMemoryFiles({ verdicts: { [spam.reviews]: [v] } })
    const busy: FileLock = {
      hold: async () => {
        throw new RetryLaterError('locked', 1)
      },
    }
    await t.rejects(runForgetJob({ ...app(deps(null), files), fileLocks: busy }, null, job), RetryLaterError)
    const failing: FileLock = {
      hold: async () => {
        throw Object.assign(new Error('no'), { code: 'EACCES' })
      },
    }
    const error = (await runForgetJob(
      { ...app(deps(null), files), fileLocks: failing },
      createMemoryStore(),
      job,
    ).catch((e: unknown) => e)) as JudgeError
    t.ok(error instanceof JudgeError)
    t.equal(
      error.message,
      `cannot rewrite the reviews file ${spam.reviews} of spam: EACCES; its lines were not forgotten, run the same forget again`,
    )
    const odd: FileLock = {
      hold: async () => {
        throw 'odd'
      },
    }
    await t.rejects(runForgetJob({ ...app(deps(null), files), fileLocks: odd }, null, job), {
      message: /: odd; its lines/,
    })
  },
)

t.test('judgments sharing a reviews file make one target; totals add up each place', async (t) => {
  const twin = spec(
    SPAM_YAML.replace('name: spam', 'name: twin').concat('reviews: spam.reviews.csv\n'),
    '/specs/twin.judge.yaml',
  )
  t.same(
    reviewsTargets([spam, twin], pickRows(new Set())).map((r) => r.spec.name),
    ['spam'],
  )
  t.same(
    totalsOf([
      { state_hash: 'a', values: true, kept_rows: 2, review_lines: 1 },
      { state_hash: 'b', values: false, kept_rows: 1, review_lines: 0 },
    ]),
    { values: 1, kept_rows: 3, review_lines: 1 },
  )
})
