import { spawnSync } from 'node:child_process'

/** Why promtool cannot check here, or false: the Debian package `prometheus` has it (.ci/run installs it). */
export const NO_PROMTOOL = spawnSync('promtool', ['--version']).error
  ? 'promtool is not installed (Debian package prometheus)'
  : false

/** The value of one series of a scrape, 0 when absent. */
export function valueOf(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? 0 : Number(line.slice(series.length + 1))
}

/** promtool's verdict on a scrape: '' when it passes. */
export function promtoolCheck(text: string): string {
  const run = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' })
  return run.status === 0 ? '' : `${run.stdout}${run.stderr}`
}
