import { resolve } from 'node:path'
import { loadProject } from '../../adapters/files/spec-files.ts'
import { storeWriteProblem } from '../../adapters/sqlite/store-location.ts'
import { doctor, type DoctorReport, type EngineSettings } from '../../app/doctor.ts'
import { readConfig, type Config } from '../../config.ts'
import { ENGINE_DEFAULTS } from '../../core/engine-kinds.ts'
import type { Project } from '../../core/types.ts'
import { JudgeError, UsageError } from '../../errors.ts'
import { createRuntime } from '../../runtime.ts'
import { helpText } from '../args.ts'
import { defineCommand } from '../command.ts'
import { plural } from '../../format.ts'

/** The options `judge doctor` parses; its help and docs/cli.md describe each. */
export const OPTIONS = {
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const

/** `judge doctor`: what a first real run needs, checked without spending. */
export const HELP = helpText(
  'judge doctor [spec-or-folder] [--json]',
  "Checks, spending nothing, what a first real run needs: Node 24, the spec and its store, the\nengine's key (never shown) and which variable gave it, that the host answers (its list of\nmodels), that every model in use is listed, and the pace and price in force; then says what to\nfix. Exit status 0 when nothing is a problem, 1 when something is, 2 for a usage error.",
  [
    { flag: '--json', text: 'the checks as JSON on stdout: {healthy, checks: [{check, status, message, fix}]}' },
    { flag: '--help, -h', text: 'show this help' },
  ],
)

/** Runs `judge doctor`; returns the exit status: 0 healthy, 1 a problem found, 2 a usage error. */
export const doctorCommand = defineCommand('doctor', OPTIONS, HELP, async ({ values, positionals }, io, options) => {
  if (positionals.length > 1)
    throw new UsageError(
      `expected at most one spec file or folder, got ${positionals.join(' ')}; see judge doctor --help`,
    )
  const config = readConfig(io.env, io.cwd)
  const runtime = createRuntime(config, options)
  try {
    const project = positionals[0] === undefined ? null : loaded(resolve(io.cwd, positionals[0]))
    const file = project === null || project instanceof Error ? null : runtime.storeFileFor(project.dir)
    const report = await doctor({
      nodeVersion: process.versions.node,
      settings: settingsOf(config),
      engine: runtime.engine,
      defaultModel: runtime.defaultModel,
      project,
      store: file === null ? null : { file, problem: storeWriteProblem(file) },
      signal: io.signal,
    })
    io.stdout.write(values.json ? JSON.stringify(report, null, 2) + '\n' : doctorText(report))
    return report.healthy ? 0 : 1
  } finally {
    runtime.close()
  }
})

function loaded(path: string): Project | Error {
  try {
    return loadProject(path)
  } catch (error) {
    if (error instanceof JudgeError) return error
    throw error
  }
}

/** The configuration as the doctor reports it: which variables gave what, never the key. */
export function settingsOf(config: Config): EngineSettings {
  const { engine } = config
  const defaults = ENGINE_DEFAULTS[engine.kind]
  return {
    kind: engine.kind,
    url: engine.url,
    from: engine.from,
    needsKey: defaults.needsKey,
    hasKey: engine.apiKey !== null,
    rpm: engine.rpm ?? defaults.defaultRpm,
    rpmSet: engine.rpm !== null,
    pricePerMtok: engine.pricePerMtok,
    maxCost: config.maxCost,
  }
}

const LABELS = { ok: 'ok', info: 'info', warn: 'WARN', problem: 'PROBLEM', skip: 'skip' } as const

/** The report for people: a verdict line, then one line per check, each fix under its check. */
export function doctorText(report: DoctorReport): string {
  const problems = report.checks.filter((c) => c.status === 'problem').length
  const head = report.healthy
    ? 'judge doctor: ready for a first real run'
    : `judge doctor: ${plural(problems, 'problem')} to fix`
  const lines = report.checks.flatMap((c) => [
    `  ${LABELS[c.status].padEnd(7)}  ${c.message}`,
    ...(c.fix === null ? [] : [`           fix: ${c.fix}`]),
  ])
  return [head, ...lines].join('\n') + '\n'
}
