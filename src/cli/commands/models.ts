import { engineModels, type ModelsReport } from '../../app/models.ts'
import { readConfig } from '../../config.ts'
import { selectJudgments, withDependencies } from '../../core/judge/select.ts'
import { UsageError } from '../../errors.ts'
import { createRuntime, type RuntimeOptions } from '../../runtime.ts'
import { COMMON_DOCS, COMMON_OPTIONS, helpText } from '../args.ts'
import { defineCommand } from '../command.ts'
import type { CliIo } from '../io.ts'
import { openSession } from '../shared.ts'
import { table } from '../text.ts'
import { plural } from '../../format.ts'

/** The options `judge models` parses; its help and docs/cli.md describe each. */
export const OPTIONS = { ...COMMON_OPTIONS } as const

/** `judge models`: the engine's models, and the one each judgment uses. */
export const HELP = helpText(
  'judge models [spec-or-folder] [--node NAME] [--json]',
  "Lists the models the engine offers (System One's list, or an OpenAI-compatible server's\nGET /v1/models), " +
    'marking aliases (names such as jev-latest that move to newer builds) and,\nwith a spec or folder, ' +
    'the judgments asked with each. Models in use that the engine does not\nlist are named last. ' +
    'Asks no model anything; the exit status is 1 when one is unlisted from a\nlist that names builds (a list of ' +
    'aliases alone cannot rule a build out).',
  COMMON_DOCS,
)

/** Runs `judge models`; returns the exit status: 0, or 1 when a judgment's model is not listed. */
export const modelsCommand = defineCommand('models', OPTIONS, HELP, async ({ values, positionals }, io, options) => {
  if (positionals.length > 1)
    throw new UsageError(
      `expected at most one spec file or folder, got ${positionals.join(' ')}; see judge models --help`,
    )
  const report = await listFor(io, positionals[0] ?? null, values.node, options)
  io.stdout.write(values.json ? JSON.stringify(report, null, 2) + '\n' : modelsText(report))
  return report.unlisted.length > 0 && report.lists_builds ? 1 : 0
})

async function listFor(
  io: CliIo,
  path: string | null,
  judgment: string | undefined,
  options: RuntimeOptions,
): Promise<ModelsReport> {
  const session = path === null ? null : openSession(io, path, options)
  const config = session?.config ?? readConfig(io.env, io.cwd)
  const runtime = session?.runtime ?? createRuntime(config, options)
  try {
    if (!runtime.engine)
      throw new UsageError('ENGINE_API_KEY (or TYPESAFE_API_KEY) is not set: the engine lists its models only to a key')
    const specs =
      session === null ? null : withDependencies(session.project, selectJudgments(session.project, judgment, 'all'))
    return await engineModels({
      engine: runtime.engine,
      defaultModel: runtime.defaultModel,
      answersAny: options.engine === undefined && config.engine.kind === 'simulated',
      specs,
      kind: config.engine.kind,
      signal: io.signal,
    })
  } finally {
    runtime.close()
  }
}

/** The report for people: one line per model, then what is in use but not listed. */
export function modelsText(report: ModelsReport): string {
  const rows = report.models.map((m) => [
    m.name,
    m.alias ? 'alias' : '',
    m.release_date?.slice(0, 10) ?? '',
    usedBy(m.used_by, m.name === report.default_model),
    m.description ?? '',
  ])
  const lines = [
    `${plural(report.models.length, 'model')} listed by the engine:\n`,
    table(['model', 'alias', 'released', 'used by', 'description'], rows),
  ]
  for (const u of report.unlisted) {
    const fix =
      u.pinned_by.length > 0
        ? `pin a listed model with model: in the spec of ${u.pinned_by.join(', ')}`
        : 'set ENGINE_MODEL to a listed model'
    const by = u.used_by.length > 0 ? `asked by ${u.used_by.join(', ')}` : 'the default model'
    const why = report.lists_builds ? '' : ' (the engine lists only aliases, so it may still answer)'
    lines.push(`not listed: ${u.model}, ${by}${why}; ${fix}\n`)
  }
  return lines.join('')
}

function usedBy(judgments: readonly string[], isDefault: boolean): string {
  return [...judgments, ...(isDefault ? ['(default)'] : [])].join(', ')
}
