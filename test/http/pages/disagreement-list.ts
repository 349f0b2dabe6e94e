import t from 'tap'
import { disagreementList } from '../../../src/http/pages/disagreement-list.ts'
import { agreementOf } from '../../helpers/agreement.ts'

const row = (note: string | null, labels: string[] = ['no'], verdict = 'labeled' as const) => ({
  state_hash: '00000000000000a1',
  reviewed_at: '2026-01-01T00:00:00.000',
  reviewer: 'ann',
  verdict,
  model_label: 'yes',
  labels,
  note,
})

t.test('no disagreement, no list', async (t) => {
  t.equal(disagreementList(agreementOf(0.7)).text, '')
})

t.test(
  'each verdict against the model is a row with its note, escaped; a long list says it shows the newest',
  async (t) => {
    const text = disagreementList(
      agreementOf(0.7, {
        disagreements: [row('<b>a friend</b>'), row(null, [], 'needs_context' as never)],
        disagreements_total: 60,
      }),
    ).text
    t.match(text, /<caption>60 verdicts against the model's label \(the newest 2\)<\/caption>/)
    t.match(text, /<td>yes<\/td><td>no<\/td><td>ann<\/td><td>&lt;b&gt;a friend&lt;\/b&gt;<\/td>/)
    t.match(
      text,
      /<td><span class="muted">needs_context<\/span><\/td><td>ann<\/td><td><span class="muted">–<\/span><\/td>/,
    )
    const one = disagreementList(agreementOf(0.7, { disagreements: [row('x')], disagreements_total: 1 })).text
    t.match(one, /<caption>1 verdict against the model's label<\/caption>/)
  },
)
