import t from 'tap'
import { renderMetrics } from '../../../src/http/ops/metrics.ts'
import { createServerMetrics } from '../../../src/http/ops/server-metrics.ts'
import { valueOf } from '../../helpers/metrics.ts'

t.test(
  'an unknown method is counted as other, so a client cannot grow the series; families without labels start at 0',
  async (t) => {
    const metrics = createServerMetrics()
    t.teardown(() => metrics.stop())
    let text = renderMetrics(metrics.snapshot())
    for (const name of [
      'judge_engine_retries_total',
      'judge_engine_cost_usd_total',
      'judge_engine_simulated_cost_usd_total',
      'judge_verdict_conflicts_total',
    ])
      t.match(text, new RegExp(`\\n${name} 0\\n`))
    metrics.request('BREW', 'none', 501, 0.001)
    metrics.request('GET', '/', 200, 0.001)
    metrics.answers([
      ['spam', 'is_spam', 'store'],
      ['spam', 'is_spam', 'store'],
    ])
    metrics.verdict('spam', 'confirmed')
    metrics.conflict()
    metrics.shadow('failed')
    metrics.engine('error', 1, 0)
    text = renderMetrics(metrics.snapshot())
    t.equal(valueOf(text, 'judge_http_requests_total{method="other",route="none",status="501"}'), 1)
    t.notMatch(text, 'BREW')
    t.equal(valueOf(text, 'judge_http_requests_total{method="GET",route="/",status="200"}'), 1)
    t.equal(valueOf(text, 'judge_answers_total{judgment="spam",question="is_spam",source="store"}'), 2)
    t.equal(valueOf(text, 'judge_verdicts_total{judgment="spam",verdict="confirmed"}'), 1)
    t.equal(valueOf(text, 'judge_verdict_conflicts_total'), 1)
    t.equal(valueOf(text, 'judge_shadow_judgments_total{result="failed"}'), 1)
    t.equal(valueOf(text, 'judge_engine_cost_usd_total'), 0, 'a failed request costs nothing')
  },
)

t.test("a simulated answer's cost is counted apart from the spend", async (t) => {
  const metrics = createServerMetrics()
  t.teardown(() => metrics.stop())
  metrics.engine('200', 0.01, 0.25)
  metrics.engine('200', 0.01, 0.5, true)
  const text = renderMetrics(metrics.snapshot())
  t.equal(valueOf(text, 'judge_engine_cost_usd_total'), 0.25)
  t.equal(valueOf(text, 'judge_engine_simulated_cost_usd_total'), 0.5)
  t.equal(valueOf(text, 'judge_engine_requests_total{status="200"}'), 2)
})
