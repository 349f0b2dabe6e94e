import t from 'tap'
import { designEffect, designSpread, effectiveCounts, type LabelMix } from '../../../src/core/stats/design-effect.ts'

/** A run's mix from its states, each a label and its rows. */
function mixOf(states: readonly [string, number][]): LabelMix {
  const counts: Record<string, number> = {}
  const squares: Record<string, number> = {}
  for (const [label, m] of states) {
    counts[label] = (counts[label] ?? 0) + m
    squares[label] = (squares[label] ?? 0) + m * m
  }
  return { counts, squares }
}

const states = (label: string, count: number, rows: number) =>
  Array.from({ length: count }, (): [string, number] => [label, rows])
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b))

/**
 * The design effect from its definition, with no shortcut: tr(P⁻¹ Σ m² (y − p)(y − p)ᵀ) over the
 * same with every row its own state, P⁻¹ the inverse of diag(p) − ppᵀ on the first K − 1 labels
 * (diag(1/p) plus 1/p_K everywhere).
 */
function direct(run: readonly [string, number][], pooled: Record<string, number>): number {
  const labels = Object.keys(pooled)
  const total = Object.values(pooled).reduce((a, b) => a + b, 0)
  const p = labels.map((l) => pooled[l] / total)
  const distance = (label: string) => {
    const u = labels.map((l, i) => (l === label ? 1 : 0) - p[i]).slice(0, -1)
    return u.reduce((a, x, i) => a + (x * x) / p[i], 0) + u.reduce((a, x) => a + x, 0) ** 2 / p[labels.length - 1]
  }
  return run.reduce((a, [l, m]) => a + m * m * distance(l), 0) / run.reduce((a, [l, m]) => a + m * distance(l), 0)
}

t.test('rows that repeat no state weigh 1 each: the effective counts are the counts', async (t) => {
  const a = mixOf([...states('yes', 3, 1), ...states('no', 7, 1)])
  const b = mixOf([...states('yes', 6, 1), ...states('no', 4, 1)])
  t.equal(designEffect(a, { yes: 9, no: 11 }), 1)
  t.same(effectiveCounts(a, b), [
    { yes: 3, no: 7 },
    { yes: 6, no: 4 },
  ])
})

t.test(
  'every state repeated ten times has a design effect of 10, and gives back the counts of the states',
  async (t) => {
    const [a, b] = effectiveCounts(
      mixOf([...states('spam', 1, 10), ...states('ham', 9, 10)]),
      mixOf([...states('spam', 4, 10), ...states('ham', 6, 10)]),
    )
    t.ok(close(a.spam, 1) && close(a.ham, 9) && close(b.spam, 4) && close(b.ham, 6), `${JSON.stringify([a, b])}`)
    const three = mixOf([...states('a', 5, 10), ...states('b', 3, 10), ...states('c', 2, 10)])
    t.ok(close(designEffect(three, { a: 70, b: 80, c: 50 }), 10), 'three labels too')
  },
)

t.test('the design effect is the trace ratio of its definition, when repetition goes with the label', async (t) => {
  // Spam comes in bursts, ham one row a state: the share of spam is far less certain than 100 rows say.
  const bursts = [...states('spam', 1, 10), ...states('spam', 1, 5), ...states('ham', 85, 1)]
  const pooled = { spam: 40, ham: 160 }
  t.ok(close(designEffect(mixOf(bursts), pooled), direct(bursts, pooled)))
  t.ok(
    designEffect(mixOf(bursts), pooled) > 5,
    `${designEffect(mixOf(bursts), pooled)}: far above Kish's Σ m² / n = ${210 / 100}`,
  )
  const three = [...states('a', 2, 6), ...states('a', 8, 1), ...states('b', 30, 1), ...states('c', 5, 2)]
  const pooled3 = { a: 35, b: 50, c: 25 }
  t.ok(close(designEffect(mixOf(three), pooled3), direct(three, pooled3)), 'with three labels')
  t.ok(
    close(designEffect(mixOf(three), { ...pooled3, d: 5 }), direct(three, { ...pooled3, d: 5 })),
    'and with a label only the other run has',
  )
})

t.test('a run without Σ m², a pair with one label, and a label with no rows weigh 1 or nothing', async (t) => {
  t.equal(
    designEffect({ counts: { yes: 40, no: 60 }, squares: null }, { yes: 80, no: 120 }),
    1,
    'recorded before multiplicities were',
  )
  t.same(
    effectiveCounts({ counts: { yes: 40, no: 60 }, squares: null }, { counts: { yes: 4 }, squares: { yes: 16 } }),
    [{ yes: 40, no: 60 }, { yes: 1 }],
  )
  t.equal(
    designEffect({ counts: { yes: 8 }, squares: { yes: 64 } }, { yes: 10 }),
    1,
    'one label: (1 − p) / p is 0, nothing to weigh',
  )
  t.equal(designEffect({ counts: {}, squares: {} }, { yes: 5, no: 5 }), 1, 'a run without rows')
  t.equal(
    designEffect({ counts: { yes: 4, no: 0 }, squares: { yes: 16, no: 0 } }, { yes: 8, no: 0, maybe: 2 }),
    4,
    'a label without rows is no label',
  )
})

t.test('a label missing from Σ m² counts its rows as single states, and the effect is never below 1', async (t) => {
  t.equal(designEffect({ counts: { yes: 4, no: 6 }, squares: { no: 6 } }, { yes: 8, no: 12 }), 1)
  t.equal(
    designEffect({ counts: { yes: 4, no: 6 }, squares: { yes: 1, no: 1 } }, { yes: 8, no: 12 }),
    1,
    'impossible sums (Σ m² below the rows) do not make rows weigh more',
  )
})

/** a² from the 2 × 2 matrices themselves, for three labels: D = R⁻¹ M on the first two labels, 2 tr(D²) / tr(D)² − 1. */
function spreadByMatrices(a: LabelMix, b: LabelMix): number {
  const labels = ['a', 'b', 'c']
  const [na, nb] = [a, b].map((m) => Object.values(m.counts).reduce((x, y) => x + y, 0))
  const total = na + nb
  const p = labels.map((l) => ((a.counts[l] ?? 0) + (b.counts[l] ?? 0)) / total)
  const matrix = (weight: (l: string) => number) => {
    const out = [
      [0, 0],
      [0, 0],
    ]
    labels.forEach((l, k) => {
      const u = [0, 1].map((i) => (i === k ? 1 : 0) - p[i])
      for (const i of [0, 1]) for (const j of [0, 1]) out[i][j] += weight(l) * u[i] * u[j]
    })
    return out
  }
  const R = matrix((l) => (a.counts[l] ?? 0) / na ** 2 + (b.counts[l] ?? 0) / nb ** 2)
  const M = matrix((l) => (a.squares?.[l] ?? 0) / na ** 2 + (b.squares?.[l] ?? 0) / nb ** 2)
  const det = R[0][0] * R[1][1] - R[0][1] * R[1][0]
  const inv = [
    [R[1][1] / det, -R[0][1] / det],
    [-R[1][0] / det, R[0][0] / det],
  ]
  const D = [0, 1].map((i) => [0, 1].map((j) => inv[i][0] * M[0][j] + inv[i][1] * M[1][j]))
  const tr = D[0][0] + D[1][1]
  const tr2 = D[0][0] ** 2 + 2 * D[0][1] * D[1][0] + D[1][1] ** 2
  return (2 * tr2) / tr ** 2 - 1
}

t.test("the spread of the labels' design effects is Rao and Scott's a², from the matrices' traces", async (t) => {
  const a = mixOf([...states('a', 4, 5), ...states('b', 30, 1), ...states('c', 20, 1)])
  const b = mixOf([...states('a', 6, 4), ...states('b', 25, 1), ...states('c', 15, 2)])
  const spread = designSpread(a, b)
  t.ok(spread > 0.05 && close(spread, spreadByMatrices(a, b)), `${spread} is ${spreadByMatrices(a, b)}`)
})

t.test('the spread is 0 with two labels, without repeats, or when every label repeats alike', async (t) => {
  t.equal(
    designSpread(
      mixOf([...states('yes', 2, 9), ['no', 1]]),
      mixOf([
        ['yes', 1],
        ['no', 4],
      ]),
    ),
    0,
  )
  t.equal(
    designSpread(
      mixOf(states('a', 3, 1).concat(states('b', 4, 1), states('c', 2, 1))),
      mixOf(states('a', 1, 1).concat(states('c', 5, 1))),
    ),
    0,
  )
  t.equal(
    designSpread(mixOf(states('a', 3, 3).concat(states('b', 4, 3), states('c', 2, 3))), {
      counts: { a: 3, b: 3, c: 3 },
      squares: { a: 9, b: 9, c: 9 },
    }),
    0,
  )
  t.equal(
    designSpread({ counts: {}, squares: {} }, mixOf(states('a', 3, 3).concat(states('b', 4, 3), states('c', 2, 3)))),
    0,
    'a run without rows',
  )
  t.equal(
    designSpread({ counts: { a: 3, b: 4, c: 5 }, squares: null }, { counts: { a: 3, b: 4, c: 5 }, squares: null }),
    0,
    'runs recorded without Σ m²',
  )
})
