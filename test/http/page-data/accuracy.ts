import t from 'tap'
import { targetParam } from '../../../src/http/page-data/accuracy.ts'
import { startJudgeServer } from '../../helpers/judge-server.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'

t.test('target is a number between 0 and 1, default 0.95', async (t) => {
  t.equal(targetParam(null), 0.95)
  t.equal(targetParam('0.9'), 0.9)
  for (const bad of ['1', '0', '1.5', 'x', '.9.9', '0.1234567'])
    t.throws(() => targetParam(bad), { name: 'UsageError', message: /target must be a number between 0 and 1/ })
})

t.test("GET /v1/accuracy answers one judgment's report; a folder of several needs node", async (t) => {
  const dir = t.testdir({
    'spam.judge.yaml': SPAM_YAML,
    two: {
      'a.judge.yaml': SPAM_YAML.replace('name: spam', 'name: a'),
      'b.judge.yaml': SPAM_YAML.replace('name: spam', 'name: b'),
    },
  })
  const server = await startJudgeServer(t, dir)
  const one = await server.get('/v1/accuracy?path=spam.judge.yaml&target=0.9')
  t.equal(one.status, 200)
  t.match(one.body, {
    judgment: 'spam',
    target: 0.9,
    key_sample: 'chosen',
    questions: { is_spam: { estimate: { estimable: false } } },
  })
  t.match(await server.get('/v1/accuracy?path=two'), { status: 400, body: { error: /node/ } })
  t.match(await server.get('/v1/accuracy?path=two&node=b'), { status: 200, body: { judgment: 'b' } })
  const page = await server.get('/accuracy?path=two&node=a')
  t.equal(page.status, 200)
  t.match(page.text, /accuracy of b<\/a>/)
})
