import t from 'tap'
import { join } from 'node:path'
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts'
import { appendVerdict } from '../../src/adapters/files/reviews-file.ts'
import { fitJury, patternsOf } from '../../src/core/jury/dawid-skene.ts'
import { juryWeights } from '../../src/core/jury/jury-weights.ts'
import { parseSpec } from '../../src/core/spec/spec-parse.ts'
import { juryVerdict, putLabel } from '../helpers/jury-project.ts'
import { startJudgeServer } from '../helpers/judge-server.ts'
import { openapiAjv, pointer, problems, validatorAt } from '../helpers/openapi.ts'
import { SPAM_YAML } from '../helpers/specs.ts'

// Two jurors on the configured engine (no key: their answers are kept under the names the spec gives).
const JURY_YAML = SPAM_YAML.replace('state: [message]', 'models: [a, <b>]\nstate: [message]')

// 32 reviewed rows, spam for the first 16: a wrong on r0 alone, <b> on every third row.
const TRUTH = Array.from({ length: 32 }, (_, i) => (i < 16 ? 'yes' : 'no'))
const flip = (label: string) => (label === 'yes' ? 'no' : 'yes')
const SAYS: Record<string, (i: number) => string> = {
  a: (i) => (i === 0 ? flip(TRUTH[i]) : TRUTH[i]),
  '<b>': (i) => (i % 3 === 0 ? flip(TRUTH[i]) : TRUTH[i]),
}

t.test("GET /v1/accuracy gives a jury's weights as docs/openapi.yaml says, and the page their tables", async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': JURY_YAML })
  const spec = parseSpec(JURY_YAML, join(dir, 'spam.judge.yaml'))
  const question = spec.questions[0]
  const store = openSqliteStore(join(dir, '.judge/store.sqlite'))
  for (const [model, says] of Object.entries(SAYS))
    TRUTH.forEach((_, i) => putLabel(store, model, question, `r${i}`, says(i)))
  store.close()
  for (const [i, label] of TRUTH.entries()) await appendVerdict(spec.reviews, juryVerdict(`r${i}`, [label]))
  const server = await startJudgeServer(t, dir)
  const reply = await server.get('/v1/accuracy?path=spam.judge.yaml')
  t.equal(reply.status, 200)
  const questions = (reply.body as { questions: Record<string, { jury: { weights: unknown } }> }).questions
  // The same rows, every one reviewed, fitted directly.
  const rows = TRUTH.map((_, i) => ['a', '<b>'].map((m) => question.labels.indexOf(SAYS[m](i))))
  const fit = fitJury({
    labels: question.labels,
    jurors: 2,
    patterns: patternsOf(rows),
    anchors: rows.map((said, i) => ({ said, truth: question.labels.indexOf(TRUTH[i]) })),
  })
  t.same(questions.is_spam.jury.weights, juryWeights(fit, ['a', '<b>']))
  t.match(questions.is_spam.jury.weights, { kind: 'jury', reviewed: 32, needed: 0 })
  t.match(questions.topic.jury.weights, { kind: 'vote', reviewed: 0, needed: 30, jurors: [{ confusion: null }, {}] })
  const schema = validatorAt(openapiAjv(), pointer('components', 'schemas', 'JuryFigures'))
  for (const q of Object.values(questions)) t.same(problems(schema, q.jury), [], 'the jury is as the document says')
  const page = (await server.get('/accuracy?path=spam.judge.yaml')).text
  t.match(page, /<h4>The jury's weights<\/h4><p>The jury weighs its jurors by 32 reviewed rows/)
  t.match(page, '<p><code>&lt;b&gt;</code>: fitted accuracy <strong>')
  t.match(
    page,
    /<tr><th>yes<\/th><td class="num">88\.9% \(71\.7% to 98\.9%\)<\/td>/,
    "a: (15 + 1) / (16 + 2) of the yes rows say yes, with Wilson's interval of 15 out of 16",
  )
  t.notMatch(page, '<b>', 'the juror named <b> is escaped')
})
