import { mkdirSync, rmSync } from 'node:fs'
import { resolve } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { performance } from 'node:perf_hooks'
import { SQL } from '../src/adapters/sqlite/sqlite-statements.ts'
import { openSqliteStore } from '../src/adapters/sqlite/sqlite-store.ts'
import { fitJury, juryAnswer } from '../src/core/jury/dawid-skene.ts'
import { saidOf } from '../src/core/jury/jury-fits.ts'
import { shortHash } from '../src/core/hash.ts'
import { seededRandom } from '../src/core/stats/seeded-random.ts'
import { count, DATA, note, report } from './common.ts'

/**
 * What a jury's fit costs as the store grows: three jurors of different skill over N rows of a three-label question,
 * 60 reviewed rows. Timed apart: the store's count of label patterns (`labelPatterns`, one SQL statement over the
 * jurors' answers), Dawid and Skene's EM over those patterns, and one row's jury answer. The fit is made again only
 * when verdicts change or the rows grow by a tenth (src/core/jury/jury-fits.ts), so this is the cost of one refit.
 * A figure, no bar; `--rows N` (default 100,000 and 1,000,000).
 */
const LABELS = ['low', 'medium', 'high'] as const
const JURORS = ['juror-a', 'juror-b', 'juror-c'] as const
/** Each juror's chance of naming the true label; otherwise a label at random among the others. */
const SKILL = [0.9, 0.75, 0.55] as const
const FINGERPRINT = 'fp-jury-bench'
const REVIEWED = 60

function build(file: string, rows: number): { truth: Map<string, number>; said: Map<string, number[]> } {
  rmSync(file, { force: true })
  openSqliteStore(file).close()
  const db = new DatabaseSync(file)
  const random = seededRandom(48)
  const truth = new Map<string, number>()
  const said = new Map<string, number[]>()
  try {
    db.exec('PRAGMA journal_mode = WAL')
    db.exec('PRAGMA cache_size = -262144')
    const put = db.prepare(SQL.putAnswer)
    db.exec('BEGIN IMMEDIATE')
    for (let i = 0; i < rows; i++) {
      const hash = shortHash(`row ${i}`)
      const t = Math.floor(random() * LABELS.length)
      const labels = SKILL.map((skill) => (random() < skill ? t : (t + 1 + Math.floor(random() * 2)) % 3))
      if (i < REVIEWED) {
        truth.set(hash, t)
        said.set(hash, labels)
      }
      JURORS.forEach((model, j) => {
        const distribution = Object.fromEntries(LABELS.map((l, k) => [l, k === labels[j] ? 1 : 0]))
        put.run(
          model,
          FINGERPRINT,
          hash,
          'bench',
          'level',
          LABELS[labels[j]],
          1,
          1,
          JSON.stringify(distribution),
          '2026-01-01T00:00:00.000',
          0,
          model,
          null,
          'samples',
          5,
          null,
        )
      })
      if (i % 50_000 === 49_999) {
        db.exec('COMMIT')
        db.exec('BEGIN IMMEDIATE')
      }
    }
    db.exec('COMMIT')
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  } finally {
    db.close()
  }
  return { truth, said }
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

function measure(rows: number): string[] {
  mkdirSync(resolve(DATA, 'stores'), { recursive: true })
  const file = resolve(DATA, 'stores', `jury-fit-${rows}.sqlite`)
  note(`building ${count(rows)} rows x ${JURORS.length} jurors`)
  const { truth, said } = build(file, rows)
  const store = openSqliteStore(file)
  try {
    const question = { labels: LABELS as readonly string[] }
    const patternsMs: number[] = []
    const fitMs: number[] = []
    let patterns = 0
    let fit = null as ReturnType<typeof fitJury> | null
    for (let round = 0; round < 5; round++) {
      const a = performance.now()
      const counted = store.labelPatterns([...JURORS], FINGERPRINT)
      const b = performance.now()
      fit = fitJury({
        labels: LABELS,
        jurors: JURORS.length,
        patterns: counted.map((p) => ({ said: saidOf(question, p.labels), count: p.count })),
        anchors: [...truth].map(([hash, t]) => ({ said: said.get(hash)!, truth: t })),
      })
      const c = performance.now()
      patterns = counted.length
      patternsMs.push(b - a)
      fitMs.push(c - b)
    }
    const a = performance.now()
    for (let i = 0; i < 10_000; i++) juryAnswer(fit!, [i % 3, (i >> 1) % 3, (i >> 2) % 3])
    const answerUs = ((performance.now() - a) / 10_000) * 1000
    return [
      `${count(rows)} rows: labelPatterns ${median(patternsMs).toFixed(0)} ms (median of 5), ` +
        `${patterns} patterns; EM ${median(fitMs).toFixed(1)} ms, ${fit!.iterations} iterations, ` +
        `kind ${fit!.kind}; one row's jury answer ${answerUs.toFixed(2)} µs`,
    ]
  } finally {
    store.close()
    rmSync(file, { force: true })
    rmSync(`${file}-wal`, { force: true })
    rmSync(`${file}-shm`, { force: true })
  }
}

const flag = process.argv.indexOf('--rows')
const sizes = flag > 0 ? [Number(process.argv[flag + 1])] : [100_000, 1_000_000]
const details = sizes.flatMap(measure)
report({
  bench: 'jury-fit',
  bar: 'none (a figure): the cost of one refit of a jury',
  figure: details[details.length - 1],
  reference: 'the EM walks patterns (at most (L+1)^J), not rows',
  ratio: '-',
  pass: true,
  details,
})
