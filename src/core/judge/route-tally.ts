import type { Answers, RouteCounts, Spec } from '../types.ts'

export type { RouteCounts }

/**
 * Counts the routes of `rows` rows with the same answers: that many rows more for the route of each answer whose
 * question has `act` rules.
 */
export function tallyRoutes(
  byQuestion: Map<string, Map<string, number>>,
  spec: Spec,
  answers: Answers,
  rows = 1,
): void {
  for (const [question, answer] of Object.entries(answers)) {
    if (!spec.act[question]) continue
    const byRoute = byQuestion.get(question) ?? new Map<string, number>()
    byQuestion.set(question, byRoute)
    byRoute.set(answer.route, (byRoute.get(answer.route) ?? 0) + rows)
  }
}

/**
 * The route counts of one judgment: each question with `act` rules, its routes in the order of its
 * rules (0 for a route no row took), then `""` when some rows took no route, then any route the
 * spec no longer names.
 */
export function routeCountsOf(
  spec: Spec,
  byQuestion: ReadonlyMap<string, ReadonlyMap<string, number>> | undefined,
): RouteCounts {
  return Object.fromEntries(
    Object.entries(spec.act).map(([question, rules]) => {
      const counted = byQuestion?.get(question) ?? new Map<string, number>()
      const routes = [...new Set(rules.map((r) => r.route))]
      const rest = [...counted.keys()].filter((route) => !routes.includes(route)).sort()
      return [question, Object.fromEntries([...routes, ...rest].map((route) => [route, counted.get(route) ?? 0]))]
    }),
  )
}
