import { count, percent } from '../format.ts'
import type { RouteCounts } from '../core/types.ts'

/**
 * A run's rows per route, a line per question with `act` rules, as `judge run` closes with them:
 * `  routes of is_spam: deliver 3,401 (96.5%), review 100 (2.8%), block 24 (0.7%)`. Rows no rule
 * routed are `no route`. None for a spec without `act`.
 */
export function routeLines(routes: RouteCounts | undefined, rows: number): string[] {
  return Object.entries(routes ?? {}).map(([question, counts]) => {
    const parts = Object.entries(counts).map(
      ([route, n]) => `${route === '' ? 'no route' : route} ${count(n)}${rows > 0 ? ` (${percent(n / rows)})` : ''}`,
    )
    return `  routes of ${question}: ${parts.join(', ')}`
  })
}
