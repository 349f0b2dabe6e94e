import t from 'tap'
import { compareReviewData, reviewModeData, COMPARE_PAGE_SIZE } from '../../../src/http/page-data/compare-review.ts'
import { setup } from '../../helpers/replay-project.ts'
import { serverContext } from '../../helpers/server-context.ts'

const request = (query: string) => ({ query: new URLSearchParams(query), headers: {}, token: null }) as never

t.test("the review page's data is the comparison review with compare, the seed's queue without", async (t) => {
  const { dir } = await setup(t, { keep: 10, shadowed: 6 })
  const ctx = serverContext(t, dir)
  const compared = await reviewModeData(
    ctx,
    request('path=spam.judge.yaml&compare=candidates/spam-v2.judge.yaml&reviewer=ann'),
  )
  t.match(compared, {
    compare: 'candidates/spam-v2.judge.yaml',
    judgment: 'spam',
    reviewer: 'ann',
    signer: 'ann',
    left: { is_spam: 3 },
    saved: null,
  })
  t.notOk('compare' in (await reviewModeData(ctx, request('path=spam.judge.yaml'))), "the seed's queue")
  t.ok(COMPARE_PAGE_SIZE >= 10)
  await t.rejects(
    compareReviewData(ctx, request('path=spam.judge.yaml&compare=candidates/spam-v2.judge.yaml&reviewer=%3Dx')),
    { message: /not a reviewer name/ },
  )
  await t.rejects(
    compareReviewData(ctx, request('path=spam.judge.yaml&compare=candidates/spam-v2.judge.yaml&saved=bad')),
    { message: /saved must name a row/ },
  )
})
