/**
 * A small metrics registry in the Prometheus text format (version 0.0.4): counters, gauges and
 * histograms with fixed label names. A registry's state is a plain snapshot, so that the
 * snapshots of several processes (workers) can be summed and rendered as one.
 */

/** What a family of series is: its name, help, type and label names; a histogram's bucket bounds. */
export interface FamilyShape {
  readonly name: string
  readonly help: string
  readonly type: 'counter' | 'gauge' | 'histogram'
  readonly labels: readonly string[]
  /** Upper bounds of a histogram's buckets, ascending (+Inf is implied). */
  readonly buckets?: readonly number[]
  /** How a gauge of several processes is combined: summed (default), or the largest or smallest. */
  readonly merge?: 'sum' | 'max' | 'min'
}

/** One series: its label values, and its value (a histogram's count), with a histogram's per-bucket counts and sum. */
export interface Series {
  readonly values: readonly string[]
  value: number
  counts?: number[]
  sum?: number
}

/** A family's state: its shape and series. */
export interface FamilySnapshot {
  readonly shape: FamilyShape
  readonly series: readonly Series[]
}

/** A family of series, written to by label values given in the order of its label names. */
export interface Family {
  readonly shape: FamilyShape
  /** Adds `by` (default 1) to a counter or gauge. */
  add(values: readonly string[], by?: number): void
  /** Sets a gauge. */
  set(values: readonly string[], value: number): void
  /** Counts one observation of a histogram. */
  observe(values: readonly string[], x: number): void
  snapshot(): FamilySnapshot
}

/** A family of series with no series yet. */
export function family(shape: FamilyShape): Family {
  // Every series, in the order first written, and a tree of maps by label value, one level a label, to find one without
  // making a key of its values at each count.
  const series: Series[] = []
  const tree = new Map<string, unknown>()
  const at = (values: readonly string[]): Series => {
    let level = tree
    for (let i = 0; i < values.length - 1; i++) {
      let next = level.get(values[i]) as Map<string, unknown> | undefined
      if (next === undefined) level.set(values[i], (next = new Map()))
      level = next
    }
    const last = values.length === 0 ? '' : values[values.length - 1]
    let s = level.get(last) as Series | undefined
    if (s === undefined) {
      s =
        shape.type === 'histogram'
          ? { values: [...values], value: 0, counts: new Array<number>(shape.buckets!.length).fill(0), sum: 0 }
          : { values: [...values], value: 0 }
      level.set(last, s)
      series.push(s)
    }
    return s
  }
  return {
    shape,
    add: (values, by = 1) => void (at(values).value += by),
    set: (values, value) => void (at(values).value = value),
    observe(values, x) {
      const s = at(values)
      s.value++
      s.sum! += x
      const bounds = shape.buckets!
      for (let i = 0; i < bounds.length; i++) {
        if (x <= bounds[i]) {
          s.counts![i]++
          break
        }
      }
    },
    snapshot: () => ({
      shape,
      series: series.map((s) => ({ ...s, values: s.values, counts: s.counts && [...s.counts] })),
    }),
  }
}

/** The snapshots of several processes as one: counters and histograms summed, gauges as their shape says. */
export function mergeSnapshots(all: readonly (readonly FamilySnapshot[])[]): FamilySnapshot[] {
  const families = new Map<string, { shape: FamilyShape; series: Map<string, Series> }>()
  for (const snapshot of all) {
    for (const { shape, series } of snapshot) {
      const into = families.get(shape.name) ?? { shape, series: new Map<string, Series>() }
      families.set(shape.name, into)
      for (const s of series) {
        const key = s.values.join('\u001f')
        const had = into.series.get(key)
        if (had === undefined) into.series.set(key, { ...s, counts: s.counts && [...s.counts] })
        else combine(shape, had, s)
      }
    }
  }
  return [...families.values()].map(({ shape, series }) => ({ shape, series: [...series.values()] }))
}

function combine(shape: FamilyShape, into: Series, s: Series): void {
  const how = shape.type === 'gauge' ? (shape.merge ?? 'sum') : 'sum'
  if (how === 'max') into.value = Math.max(into.value, s.value)
  else if (how === 'min') into.value = Math.min(into.value, s.value)
  else into.value += s.value
  if (into.counts && s.counts) {
    for (let i = 0; i < into.counts.length; i++) into.counts[i] += s.counts[i] ?? 0
    into.sum! += s.sum ?? 0
  }
}

/** Renders families in the Prometheus text exposition format. */
export function renderMetrics(families: readonly FamilySnapshot[]): string {
  const lines: string[] = []
  for (const { shape, series } of families) {
    lines.push(
      `# HELP ${shape.name} ${shape.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`,
      `# TYPE ${shape.name} ${shape.type}`,
    )
    for (const s of series) {
      if (shape.type !== 'histogram') {
        lines.push(`${shape.name}${labelText(shape.labels, s.values)} ${number(s.value)}`)
        continue
      }
      let cumulative = 0
      shape.buckets!.forEach((bound, i) => {
        cumulative += s.counts![i]
        lines.push(
          `${shape.name}_bucket${labelText([...shape.labels, 'le'], [...s.values, number(bound)])} ${cumulative}`,
        )
      })
      lines.push(`${shape.name}_bucket${labelText([...shape.labels, 'le'], [...s.values, '+Inf'])} ${s.value}`)
      lines.push(`${shape.name}_sum${labelText(shape.labels, s.values)} ${number(s.sum!)}`)
      lines.push(`${shape.name}_count${labelText(shape.labels, s.values)} ${s.value}`)
    }
  }
  return `${lines.join('\n')}\n`
}

/** The media type of the text format. */
export const METRICS_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

function labelText(names: readonly string[], values: readonly string[]): string {
  if (names.length === 0) return ''
  const escaped = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
  return `{${names.map((n, i) => `${n}="${escaped(values[i])}"`).join(',')}}`
}

function number(n: number): string {
  if (Number.isNaN(n)) return 'NaN'
  if (n === Infinity) return '+Inf'
  if (n === -Infinity) return '-Inf'
  return String(n)
}
