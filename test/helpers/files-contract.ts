import type { Test } from 'tap'
import { pickBefore, pickRows } from '../../src/core/forget/line-pick.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import type { VerdictRecord } from '../../src/core/review/verdicts.ts'
import type { Row, SourcedRow, Spec } from '../../src/core/types.ts'
import { NotFoundError } from '../../src/errors.ts'
import type { Files } from '../../src/ports/files.ts'

/** What a Files implementation under contract is set up to hold: data rows and answer-key rows of the spam judgment. */
export interface FilesContent {
  readonly rows: readonly Row[]
  readonly key: readonly Row[]
}

/** A Files implementation holding a FilesContent. */
export interface FilesFixture {
  readonly files: Files
  /** The spam judgment, its `key:` naming the key rows, its reviews file not made yet. */
  readonly spec: Spec
  /** The data file holding the rows, as `rows()` takes it. */
  readonly data: string
  /** A folder for `gitSha`. */
  readonly dir: string
}

/** A verdict on the is_spam answer for a message. */
export function verdict(message: string, more: Partial<VerdictRecord> = {}): VerdictRecord {
  return {
    reviewed_at: '2026-01-01T00:00:00.000',
    reviewer: 'ann',
    judgment: 'spam',
    question: 'is_spam',
    state_hash: stateHash({ message }),
    kind: 'spot_check',
    verdict: 'confirmed',
    labels: ['no'],
    model_label: 'no',
    key_label: null,
    state: { message },
    stratum: 'confident',
    rank: 1,
    ...more,
  }
}

const ROWS = [
  { id: '1', message: 'See you at lunch' },
  { id: '2', message: 'WIN a prize, call now' },
  { id: '3', message: 'See you at lunch' },
]
const KEY = [
  { message: 'See you at lunch', is_spam: 'no', topic: 'personal' },
  { message: 'WIN a prize, call now', is_spam: 'yes', topic: '' },
]

async function all(rows: AsyncIterable<SourcedRow>): Promise<SourcedRow[]> {
  const out: SourcedRow[] = []
  for await (const row of rows) out.push(row)
  return out
}

/** The Files contract: what every implementation of the files port does, run against each. */
export function filesContract(
  t: Test,
  name: string,
  make: (t: Test, content: FilesContent) => FilesFixture,
): Promise<void> {
  return t
    .test(name, async (t) => {
      t.test('rows stream in file order, each saying where it was read', async (t) => {
        const { files, data } = make(t, { rows: ROWS, key: [] })
        const rows = await all(files.rows(data, 'messages.csv'))
        t.same(
          rows.map((r) => r.row),
          ROWS,
        )
        t.ok(
          rows.every((r) => r.where.startsWith('messages.csv:')),
          'where starts with the label given',
        )
        t.equal(new Set(rows.map((r) => r.where)).size, 3, 'each row has its own place')
      })

      t.test('a data file that does not exist is a NotFoundError naming the label', async (t) => {
        const { files, data } = make(t, { rows: ROWS, key: [] })
        await t.rejects(all(files.rows(`${data}.gone`, 'gone.csv')), new NotFoundError('gone.csv: no such data file'))
      })

      t.test(
        'the answer key gives each state its labels, none for an empty cell; no key: is an empty key',
        async (t) => {
          const { files, spec } = make(t, { rows: [], key: KEY })
          const key = await files.key(spec)
          t.same(
            [...key.keys()],
            KEY.map((r) => stateHash({ message: r.message })),
          )
          t.match(
            [...key.values()],
            [
              { state: { message: 'See you at lunch' }, labels: { is_spam: 'no', topic: 'personal' } },
              { state: { message: 'WIN a prize, call now' }, labels: { is_spam: 'yes' } },
            ],
          )
          t.same([...key.values()][1].labels, { is_spam: 'yes' })
          t.same(await files.key({ ...spec, key: null }), new Map())
        },
      )

      t.test('verdicts are empty before the first; appended ones read back, the latest of a row winning', async (t) => {
        const { files, spec } = make(t, { rows: [], key: [] })
        t.same(await files.verdicts(spec), new Map())
        const first = verdict('See you at lunch')
        const other = verdict('WIN a prize, call now', {
          kind: 'disagreement',
          verdict: 'both_ok',
          labels: ['yes', 'no'],
          key_label: 'no',
          model_label: 'yes',
        })
        const second = verdict('See you at lunch', {
          verdict: 'labeled',
          labels: ['yes'],
          reviewed_at: '2026-01-01T00:01:00.000',
        })
        for (const v of [first, other, second]) await files.appendVerdict(spec, v)
        t.same(
          [...(await files.verdicts(spec)).values()].sort((a, b) => a.state_hash.localeCompare(b.state_hash)),
          [second, other].sort((a, b) => a.state_hash.localeCompare(b.state_hash)),
        )
      })

      t.test('comparison verdicts read back apart, the latest of a row winning, and never as verdicts', async (t) => {
        const { files, spec } = make(t, { rows: [], key: [] })
        t.same(await files.comparisons(spec), new Map())
        const live = verdict('See you at lunch')
        const compared = {
          ...verdict('WIN a prize, call now'),
          kind: 'compare' as const,
          verdict: 'labeled' as const,
          labels: ['yes'],
          stratum: null,
          rank: null,
        }
        const again = { ...compared, labels: ['no'], reviewed_at: '2026-01-01T00:05:00.000' }
        await files.appendVerdict(spec, live)
        await files.appendComparison(spec, compared)
        await files.appendComparison(spec, again)
        t.same([...(await files.comparisons(spec)).values()], [again])
        t.same([...(await files.verdicts(spec)).values()], [live], 'the live verdicts hold none of them')
        t.same([...(await files.reviews(spec)).keys()].length, 1)
      })

      t.test("a retraction withdraws its row's latest verdict, and the one before stands again", async (t) => {
        const { files, spec } = make(t, { rows: [], key: [] })
        const first = verdict('See you at lunch')
        const other = verdict('WIN a prize, call now', { verdict: 'labeled', labels: ['yes'] })
        const second = verdict('See you at lunch', {
          verdict: 'labeled',
          labels: ['yes'],
          reviewed_at: '2026-01-01T00:01:00.000',
        })
        const undo = (withdrawn: typeof first) =>
          files.appendRetraction(spec, { retracted_at: '2026-01-01T00:02:00.000', reviewer: 'bob', withdrawn })
        await files.appendVerdict(spec, first)
        await files.appendVerdict(spec, other)
        await undo(first)
        t.same([...(await files.verdicts(spec)).values()], [other], 'the only verdict of its row is withdrawn')
        await undo(first)
        t.same(
          [...(await files.verdicts(spec)).values()],
          [other],
          'a retraction with nothing to withdraw changes nothing',
        )
        await files.appendVerdict(spec, first)
        await files.appendVerdict(spec, second)
        await undo(second)
        t.same(
          [...(await files.verdicts(spec)).values()].find((v) => v.state_hash === first.state_hash),
          first,
          'the earlier verdict stands again',
        )
      })

      t.test(
        "every standing verdict of a row reads back in file order; the counting one is the first reviewer's",
        async (t) => {
          const { files, spec } = make(t, { rows: [], key: [] })
          t.same(await files.reviews(spec), new Map())
          const ann = verdict('See you at lunch')
          const bob = verdict('See you at lunch', {
            verdict: 'labeled',
            labels: ['yes'],
            reviewer: 'bob',
            reviewed_at: '2026-01-01T00:01:00.000',
          })
          const cy = verdict('See you at lunch', {
            verdict: 'labeled',
            labels: ['yes'],
            reviewer: 'cy',
            reviewed_at: '2026-01-01T00:02:00.000',
          })
          await files.appendVerdict(spec, ann)
          await files.appendVerdict(spec, bob)
          t.same([...(await files.reviews(spec)).values()], [[ann, bob]])
          t.same(
            [...(await files.verdicts(spec)).values()],
            [ann],
            'two reviewers differ: the first counts until a third settles it',
          )
          await files.appendVerdict(spec, cy)
          t.same([...(await files.verdicts(spec)).values()], [bob], 'the third sides with the second')
          await files.appendRetraction(spec, { retracted_at: '2026-01-01T00:03:00.000', reviewer: 'cy', withdrawn: cy })
          t.same([...(await files.reviews(spec)).values()], [[ann, bob]], 'a retraction withdraws the latest')
        },
      )

      t.test(
        "forgetting empties the state of a row's lines, retractions included; the verdicts still count, the other lines stay",
        async (t) => {
          const { files, spec } = make(t, { rows: [], key: [] })
          const lunch = stateHash({ message: 'See you at lunch' })
          t.same(
            await files.forgetReviewStates(spec, pickRows(new Set([lunch])), true),
            new Map(),
            'no reviews file yet: nothing to forget',
          )
          const first = verdict('See you at lunch')
          const other = verdict('WIN a prize, call now', { verdict: 'labeled', labels: ['yes'] })
          const again = verdict('See you at lunch', {
            verdict: 'labeled',
            labels: ['yes'],
            reviewed_at: '2026-01-01T00:03:00.000',
          })
          await files.appendVerdict(spec, first)
          await files.appendVerdict(spec, other)
          await files.appendRetraction(spec, {
            retracted_at: '2026-01-01T00:02:00.000',
            reviewer: 'bob',
            withdrawn: first,
          })
          await files.appendVerdict(spec, again)
          const before = await files.reviews(spec)
          t.same(
            await files.forgetReviewStates(spec, pickRows(new Set([lunch])), false),
            new Map([[lunch, 3]]),
            'a dry run counts the lines',
          )
          t.same(await files.reviews(spec), before, 'and changes nothing')
          t.same(await files.forgetReviewStates(spec, pickRows(new Set([lunch])), true), new Map([[lunch, 3]]))
          t.same(
            [...(await files.reviews(spec)).values()],
            [[{ ...again, state: {} }], [other]],
            'the retraction still withdraws; the verdict stands, its state empty',
          )
          t.same(
            await files.forgetReviewStates(spec, pickRows(new Set([lunch])), true),
            new Map(),
            'nothing is left to forget',
          )
          t.same(
            await files.forgetReviewStates(spec, pickBefore('spam', '2026-01-01T00:00:00.001'), true),
            new Map([[other.state_hash, 1]]),
            'retention picks by time',
          )
        },
      )

      t.test(
        "a data file's content hash is 16 hex digits, the same for the same content, empty when it cannot be read",
        async (t) => {
          const { files, data } = make(t, { rows: ROWS, key: [] })
          const hash = await files.contentHash(data)
          t.match(hash, /^[0-9a-f]{16}$/)
          t.equal(await files.contentHash(data), hash)
          t.equal(await files.contentHash(`${data}.gone`), '')
          const other = make(t, { rows: ROWS.slice(1), key: [] })
          t.not(await other.files.contentHash(other.data), hash, 'other content, another hash')
        },
      )

      t.test('the commit of a folder is a short hash, or empty outside a repository', async (t) => {
        const { files, dir } = make(t, { rows: [], key: [] })
        t.match(await files.gitSha(dir), /^([0-9a-f]{7,40})?$/)
      })
    })
    .then(() => undefined)
}
