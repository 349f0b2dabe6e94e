import t from 'tap'
import {
  spotChecksOf,
  backParams,
  filterOf,
  MAX_PAGE,
  pageOf,
  reviewerOf,
  rowRefOf,
  signer,
  type ReviewTarget,
} from '../../../src/http/page-data/review-params.ts'
import { project, spec } from '../../helpers/specs.ts'

const judgment = spec()

t.test('a filter names a kind, a question of the judgment and a state hash, each checked', async (t) => {
  t.same(filterOf(judgment, 'unsure', 'topic', '0123456789abcdef'), {
    kind: 'unsure',
    question: 'topic',
    row: '0123456789abcdef',
  })
  t.same(filterOf(judgment, null, null, null), { kind: null, question: null, row: null })
  t.throws(() => filterOf(judgment, 'sure', null, null), {
    status: 400,
    message: 'kind must be disagreement, spot_check or unsure, not "sure"',
  })
  t.throws(() => filterOf(judgment, null, 'tone', null), {
    status: 400,
    message: 'question "tone" is not a question of spam (is_spam, topic, urgency)',
  })
  t.throws(() => filterOf(judgment, null, null, '0123456789ABCDEF'), {
    status: 400,
    message: /row must be a state hash of 16 hex digits/,
  })
})

t.test('the page is a whole number from 1 to the furthest page', async (t) => {
  t.equal(pageOf(null), 1)
  t.equal(pageOf('3'), 3)
  t.equal(pageOf(String(MAX_PAGE)), MAX_PAGE)
  for (const bad of ['0', '-1', '1.5', 'two', String(MAX_PAGE + 1)])
    t.throws(() => pageOf(bad), { status: 400, message: /page must be/ }, bad)
})

t.test('saved and undone name a row of a question', async (t) => {
  t.same(rowRefOf('is_spam:0123456789abcdef', 'saved'), { question: 'is_spam', stateHash: '0123456789abcdef' })
  t.equal(rowRefOf(null, 'saved'), null)
  t.throws(() => rowRefOf('is_spam:xyz', 'undone'), {
    status: 400,
    message: 'undone must name a row as question:state_hash, not "is_spam:xyz"',
  })
})

t.test(
  'audit and reviewer parameters are read strictly, and the signer is the header, the field, or server',
  async (t) => {
    t.equal(spotChecksOf(null), 30)
    t.equal(spotChecksOf('1000'), 1000)
    t.throws(() => spotChecksOf('1001'), { status: 400, message: /audit must be/ })
    t.equal(reviewerOf('ann', 'reviewer'), 'ann')
    t.throws(() => reviewerOf('=x', 'reviewer'), { status: 400, message: /not a reviewer name/ })
    t.equal(signer({ 'x-reviewer': 'Zoë' }, 'ann'), 'Zoë')
    t.equal(signer({}, 'ann'), 'ann')
    t.equal(signer({}, null), 'server')
    t.throws(() => signer({ 'x-reviewer': '<b>' }, null), { status: 400, message: /X-Reviewer/ })
  },
)

t.test('the way back keeps the queue, its filter and page, leaving out what is absent and page 1', async (t) => {
  const target = {
    ...{ project: project(judgment), spec: judgment, spotChecks: 5 },
    path: 'p',
    judgmentParam: null,
    reviewer: null,
    filter: { kind: 'unsure', question: null, row: null },
    page: 1,
  } as ReviewTarget
  t.same(backParams(target), {
    path: 'p',
    node: undefined,
    reviewer: undefined,
    audit: 5,
    kind: 'unsure',
    question: undefined,
    row: undefined,
    page: undefined,
  })
  t.match(backParams({ ...target, page: 3, reviewer: 'ann', judgmentParam: 'spam' }), {
    page: 3,
    reviewer: 'ann',
    node: 'spam',
  })
})
