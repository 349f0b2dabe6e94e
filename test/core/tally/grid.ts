import t from 'tap'
import {
  gridFloor,
  gridKey,
  gridKeySql,
  keyValue,
  nanosOf,
  nanosSql,
  onGrid,
  STEP,
} from '../../../src/core/tally/grid.ts'
import { DatabaseSync } from 'node:sqlite'
import { tidy } from '../../../src/core/judge/answer.ts'

t.test('a hundredth has an even key of its own; the values between two share the odd key between them', async (t) => {
  t.equal(gridKey(0), 0)
  t.equal(gridKey(0.29), 58, '0.29 * 100 is 28.999… in floating point, but 0.29 is a hundredth')
  t.equal(gridKey(0.291), 59)
  t.equal(gridKey(0.2999), 59)
  t.equal(gridKey(0.3), 60)
  t.equal(gridKey(1), 200)
  t.equal(gridKey(tidy(0.7 - 0.3)), 80, 'a tidied difference lands on its hundredth')
  t.equal(keyValue(58), 0.29)
  t.equal(keyValue(59), 0.295)
  t.equal(keyValue(200), 1)
  for (const x of [0, 0.05, 0.29, 0.291, 0.5, 0.873, 0.999999999, 1])
    t.equal(gridKey(keyValue(gridKey(x))), gridKey(x), `${x}'s value stands in its own cell`)
})

t.test('a hundredth is on the grid; anything finer or not finite is not', async (t) => {
  t.ok(onGrid(0.2))
  t.ok(onGrid(0.95))
  t.ok(onGrid(tidy(0.1 + 0.2)))
  t.notOk(onGrid(0.125))
  t.notOk(onGrid(0.9501))
  t.notOk(onGrid(Infinity))
  t.notOk(onGrid(Number.NaN))
})

t.test('the floor is the greatest hundredth at or below', async (t) => {
  t.equal(gridFloor(0.29), 0.29)
  t.equal(gridFloor(0.2999), 0.29)
  t.equal(gridFloor(0.873), 0.87)
  t.equal(gridFloor(1), 1)
  t.equal(gridFloor(0), 0)
})

t.test('nanos round half away from zero, as SQLite does', async (t) => {
  t.equal(nanosOf(0.9), 900_000_000)
  t.equal(nanosOf(0.0000000005), 1)
  t.equal(nanosOf(0.0000000004), 0)
  t.equal(nanosOf(-0.0000000005), -1)
  t.equal(STEP, 10_000_000)
})

t.test('the SQL gives the same nanos and keys as the code, on tidied and untidied values', async (t) => {
  const db = new DatabaseSync(':memory:')
  t.teardown(() => db.close())
  const read = db.prepare(`SELECT ${nanosSql('x')} AS n, ${gridKeySql('x')} AS k FROM (SELECT ? AS x)`)
  let seed = 7
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647
  const values = [
    0,
    1,
    0.29,
    0.3,
    0.125,
    0.0000000005,
    0.9999999995,
    ...Array.from({ length: 2000 }, (_, i) => (i % 2 ? tidy(random()) : random())),
  ]
  const wrong = values.filter((x) => {
    const row = read.get(x) as { n: number; k: number }
    return row.n !== nanosOf(x) || row.k !== gridKey(x)
  })
  t.same(wrong, [])
})
