import t from 'tap'
import { testJudgments } from '../../src/app/test-judgments.ts'
import { scoresJson, testReport } from '../../src/cli/test-text.ts'
import { app } from '../helpers/deps.ts'
import { JURY, JURY_VERDICTS, juryDeps, juryProject, juryStore } from '../helpers/jury-project.ts'
import { createMemoryFiles } from '../helpers/memory-files.ts'

const files = createMemoryFiles({ verdicts: { '/specs/spam.reviews.csv': JURY_VERDICTS } })

t.test('judge test gives a jury spec, per question, what each juror buys; text and JSON', async (t) => {
  const store = juryStore()
  const { specs, runs, scores } = await testJudgments(app(juryDeps(store), files), {
    project: juryProject,
    cap: 1,
    concurrency: 2,
  })
  const isSpam = scores.get('spam')!.is_spam
  t.match(isSpam.jury, { model: JURY, rows: 10, correct: 8, accuracy: 0.8 })
  t.same(
    isSpam.jurors!.map((j) => [j.model, j.accuracy, j.versus_jury!.difference.toFixed(3)]),
    [
      ['a', 0.9, '0.100'],
      ['oa-b', 0.7, '-0.100'],
      ['c', 0.5, '-0.300'],
    ],
  )
  const json = scoresJson(scores).spam
  t.match(json.is_spam, { jury: { model: JURY, rows: 10 }, jurors: [{ model: 'a', engine: null, accuracy: 0.9 }] })
  const b = (json.is_spam.jurors as { model: string; engine: string; cost_usd: number }[])[1]
  t.match(b, { model: 'oa-b', engine: 'openai' })
  t.equal(b.cost_usd.toFixed(6), '0.030000')
  const text = testReport(runs, specs, scores)
  t.match(text, 'what each juror buys, on the 10 reviewed rows the jury and every juror answered:')
  t.match(text, /jury:a\+oa-b\+c\s+80\.0% \(49\.0% to 94\.3%\)\s+\$0\.030251\n/)
  t.match(
    text,
    /oa-b\s+openai\s+70\.0% \(39\.7% to 89\.2%\)\s+-10\.0 \(95% -43\.5 to \+26\.5\), p = 1\.000\s+\$0\.03\n/,
  )
  t.match(
    text,
    /\n\s+c\s+ENGINE\s+50\.0% \(23\.7% to 76\.3%\)\s+-30\.0 \(95% -56\.7 to \+5\.3\), p = 0\.250\s+\$0\.000126\n/,
  )
  t.match(text, 'jurors: no reviewed row that the jury and every juror answered yet', 'topic: no verdicts')
})
