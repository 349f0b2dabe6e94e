import t from 'tap'
import { join } from 'node:path'
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts'
import { appendVerdict } from '../../src/adapters/files/reviews-file.ts'
import { parseSpec } from '../../src/core/spec/spec-parse.ts'
import { juryVerdict, putLabel } from '../helpers/jury-project.ts'
import { startJudgeServer } from '../helpers/judge-server.ts'
import { openapi, openapiAjv, pointer, problems, validatorAt } from '../helpers/openapi.ts'
import { SPAM_YAML } from '../helpers/specs.ts'

// Two jurors on the configured engine (no key: their answers are kept under the names the spec gives).
const JURY_YAML = SPAM_YAML.replace('state: [message]', 'models: [a, b]\nstate: [message]')

t.test('GET /v1/accuracy gives a jury spec its jury and jurors per question, and the page their table', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': JURY_YAML })
  const spec = parseSpec(JURY_YAML, join(dir, 'spam.judge.yaml'))
  const question = spec.questions[0]
  const store = openSqliteStore(join(dir, '.judge/store.sqlite'))
  // Four reviewed rows, all spam: the jury right on r0…r2, a on every one, b on r0 alone.
  const right: Record<string, number[]> = { 'jury:a+b': [0, 1, 2], a: [0, 1, 2, 3], b: [0] }
  for (const [model, rows] of Object.entries(right))
    for (let i = 0; i < 4; i++) putLabel(store, model, question, `r${i}`, rows.includes(i) ? 'yes' : 'no')
  store.close()
  for (let i = 0; i < 4; i++) await appendVerdict(spec.reviews, juryVerdict(`r${i}`, ['yes']))
  const server = await startJudgeServer(t, dir)
  const reply = await server.get('/v1/accuracy?path=spam.judge.yaml')
  t.equal(reply.status, 200)
  t.match(reply.body, {
    questions: {
      is_spam: {
        jury: { model: 'jury:a+b', rows: 4, correct: 3, accuracy: 0.75 },
        jurors: [
          { model: 'a', engine: 'systemone', rows: 4, correct: 4, accuracy: 1, versus_jury: { difference: 0.25 } },
          { model: 'b', engine: 'systemone', rows: 4, correct: 1, accuracy: 0.25, versus_jury: { difference: -0.5 } },
        ],
      },
      topic: { jury: { rows: 0 }, jurors: [{ rows: 0, versus_jury: null }, {}] },
    },
  })
  const ajv = openapiAjv()
  const schema = (name: string) => validatorAt(ajv, pointer('components', 'schemas', name))
  const isSpam = (reply.body as { questions: { is_spam: { jury: unknown; jurors: unknown[] } } }).questions.is_spam
  t.same(problems(schema('JuryFigures'), isSpam.jury), [], 'the jury is as docs/openapi.yaml says')
  for (const juror of isSpam.jurors) t.same(problems(schema('JurorFigures'), juror), [], 'a juror is too')
  t.match(openapi.components.schemas.QuestionAccuracy.properties, { jury: {}, jurors: { type: 'array' } })
  const page = await server.get('/accuracy?path=spam.judge.yaml')
  t.match(page.text, /What each juror buys[^]*<td><code>b<\/code><\/td><td>systemone<\/td><td class="num">25\.0% /)
  const plain = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const one = await (await startJudgeServer(t, plain)).get('/v1/accuracy?path=spam.judge.yaml')
  t.notOk('jurors' in (one.body as { questions: { is_spam: object } }).questions.is_spam, 'one model: no jurors')
})
