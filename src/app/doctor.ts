import { withDependencies } from '../core/judge/select.ts'
import { hasJury } from '../core/jury/jurors.ts'
import type { Project } from '../core/types.ts'
import { EngineError } from '../errors.ts'
import type { Engine } from '../ports/engine.ts'
import { engineModels, type ModelsReport } from './models.ts'

/** How a check came out: `problem` is what stops a first real run; `warn` deserves a look; `info` states a setting. */
export type CheckStatus = 'ok' | 'info' | 'warn' | 'problem' | 'skip'

/** One line of `judge doctor`: what was checked, how it came out, and what to do about it. */
export interface Check {
  readonly check: string
  readonly status: CheckStatus
  readonly message: string
  /** What to do, for a problem or a warning; null otherwise. */
  readonly fix: string | null
}

/** Everything `judge doctor` found: healthy when no check is a problem. */
export interface DoctorReport {
  readonly healthy: boolean
  readonly checks: readonly Check[]
}

/** The engine's settings as the doctor reports them: never the key, only which variable gave it. */
export interface EngineSettings {
  readonly kind: string
  readonly url: string
  /** The variables that gave the URL, the key and the default model (null: the default stands, or none). */
  readonly from: { readonly url: string | null; readonly apiKey: string | null; readonly model: string | null }
  readonly needsKey: boolean
  readonly hasKey: boolean
  /** Requests a minute in force (0: no pace), and whether ENGINE_RPM set it. */
  readonly rpm: number
  readonly rpmSet: boolean
  readonly pricePerMtok: number
  /** JUDGE_MAX_COST: the CLI's cap per judgment per command. */
  readonly maxCost: number
}

/** What the doctor looks at, gathered by its caller; it asks the engine only for its list of models. */
export interface DoctorInput {
  readonly nodeVersion: string
  readonly settings: EngineSettings
  /** The engine, or null when it needs a key that is unset. */
  readonly engine: Engine | null
  /** The model asked when a spec names none; null when there is none (ENGINE=openai without ENGINE_MODEL). */
  readonly defaultModel: string | null
  /** The project named, the error loading it, or null when none was named. */
  readonly project: Project | Error | null
  /** The store file of the project and why it cannot be written (null: it can). */
  readonly store: { readonly file: string; readonly problem: string | null } | null
  readonly signal?: AbortSignal
}

const check = (name: string, status: CheckStatus, message: string, fix: string | null = null): Check => ({
  check: name,
  status,
  message,
  fix,
})

/**
 * Checks, spending nothing, what a first real run needs: Node, the spec, its store, the key, that
 * the host answers (its list of models), that every model in use is listed, and the pace and price
 * in force. The key is never part of a message.
 */
export async function doctor(input: DoctorInput): Promise<DoctorReport> {
  const project = input.project instanceof Error ? null : input.project
  const checks = [
    nodeCheck(input.nodeVersion),
    ...projectChecks(input),
    engineCheck(input.settings, input.defaultModel),
    ...noDefaultModelChecks(input, project),
    keyCheck(input.settings),
  ]
  const listing = await listModels(input, project)
  checks.push(listing.check, ...(listing.report ? modelChecks(listing.report) : []), ...paceChecks(input.settings))
  return { healthy: !checks.some((c) => c.status === 'problem'), checks }
}

function nodeCheck(version: string): Check {
  const major = Number(version.split('.')[0])
  if (major >= 24) return check('node', 'ok', `Node ${version} (24 or newer needed)`)
  return check(
    'node',
    'problem',
    `Node ${version}: judge needs Node 24 or newer`,
    'run judge with Node 24 or newer (npm ci installs it in node_modules/.bin)',
  )
}

function projectChecks(input: DoctorInput): Check[] {
  if (input.project === null)
    return [check('spec', 'skip', 'no spec named: judge doctor <spec-or-folder> checks it and its store too')]
  if (input.project instanceof Error)
    return [
      check(
        'spec',
        'problem',
        `the spec does not load: ${input.project.message}`,
        'fix the spec (docs/spec-format.md)',
      ),
    ]
  const names = withDependencies(input.project, input.project.selected).map((s) => s.name)
  const spec = check(
    'spec',
    'ok',
    `${names.length === 1 ? 'the judgment loads' : `${names.length} judgments load`}: ${names.join(', ')}`,
  )
  if (input.store === null) return [spec]
  const { file, problem } = input.store
  if (problem === null) return [spec, check('store', 'ok', `the store ${file} can be written`)]
  return [
    spec,
    check(
      'store',
      'problem',
      `the store ${file} cannot be written: ${problem}`,
      'make its folder writable, or set JUDGE_STORE to a file that can be',
    ),
  ]
}

function engineCheck(s: EngineSettings, model: string | null): Check {
  const from = (name: string | null, otherwise: string) => (name === null ? otherwise : `from ${name}`)
  const asked =
    model === null
      ? 'no default model (ENGINE_MODEL is unset)'
      : `default model ${model} (${from(s.from.model, "the engine's default")})`
  return check('engine', 'info', `engine ${s.kind} at ${s.url} (${from(s.from.url, 'the default URL')}); ${asked}`)
}

/**
 * Without a default model, what that means: only specs naming their model can be judged. A problem when a spec checked
 * names none (judging it is refused), a warning when no spec was named, nothing to say with a default model.
 */
function noDefaultModelChecks(input: DoctorInput, project: Project | null): Check[] {
  if (input.defaultModel !== null) return []
  const fix = 'set ENGINE_MODEL to the model the server serves (judge models lists them), or model: in the spec'
  const means = `ENGINE_MODEL is unset and ENGINE=${input.settings.kind} has no default model`
  if (project === null)
    return [
      check(
        'model',
        'warn',
        `${means}: only specs that name their model (model:, or a jury's models:) can be judged`,
        fix,
      ),
    ]
  const unnamed = withDependencies(project, project.selected).filter((s) => s.model === null && !hasJury(s))
  if (unnamed.length === 0)
    return [check('model', 'ok', `${means}; every spec checked names its model, so none is needed`)]
  const names = unnamed.map((s) => s.name).join(', ')
  return [check('model', 'problem', `${means}, and no model is named by ${names}: judging there is refused`, fix)]
}

function keyCheck(s: EngineSettings): Check {
  if (s.hasKey) return check('key', 'ok', `a key is set in ${s.from.apiKey} (not shown)`)
  if (!s.needsKey) return check('key', 'info', `no key set; ${s.kind} needs none`)
  return check(
    'key',
    'problem',
    'no key: ENGINE_API_KEY and TYPESAFE_API_KEY are unset, so only answers the store holds can be given',
    'set ENGINE_API_KEY to the key of the host (docs/engine.md, Hosts)',
  )
}

async function listModels(
  input: DoctorInput,
  project: Project | null,
): Promise<{ check: Check; report: ModelsReport | null }> {
  const { engine, settings } = input
  if (settings.kind === 'simulated')
    return {
      check: check('host', 'ok', 'the simulated engine answers in-process: no host to reach, any model answered'),
      report: null,
    }
  if (engine === null) return { check: check('host', 'skip', 'the host was not asked: it needs the key'), report: null }
  try {
    const specs = project === null ? null : withDependencies(project, project.selected)
    const report = await engineModels({
      engine,
      defaultModel: input.defaultModel,
      answersAny: false,
      specs,
      kind: settings.kind,
      signal: input.signal,
    })
    const n = report.models.length
    return { check: check('host', 'ok', `${settings.url} answers: ${n} model${n === 1 ? '' : 's'} listed`), report }
  } catch (error) {
    return { check: hostProblem(settings, error), report: null }
  }
}

function hostProblem(s: EngineSettings, error: unknown): Check {
  const message = error instanceof Error ? error.message : String(error)
  const status = error instanceof EngineError ? error.engineStatus : null
  if (status === 401 || status === 403)
    return check(
      'host',
      'problem',
      `${s.url} refused the key: ${message}`,
      `check the key in ${s.from.apiKey}: it must be the host's own (a gateway's key for a gateway)`,
    )
  if (status === 404)
    return check(
      'host',
      'warn',
      `${s.url} answers but lists no models (${message}); the models in use cannot be checked`,
      'check ENGINE_URL: System One is asked at {ENGINE_URL}/v1/systemone',
    )
  if (status === null && error instanceof EngineError && error.transient)
    return check('host', 'problem', `${s.url} cannot be reached: ${message}`, 'check ENGINE_URL and the network')
  return check(
    'host',
    'problem',
    `${s.url} did not list its models: ${message}`,
    "check ENGINE_URL and the host's status",
  )
}

function modelChecks(report: ModelsReport): Check[] {
  const listed = report.models.map((m) => m.name).join(', ')
  const checks = report.unlisted.map((u) => {
    const model = `model ${u.model}, ${u.used_by.length > 0 ? `asked by ${u.used_by.join(', ')}` : 'the default'},`
    const fix =
      u.pinned_by.length > 0
        ? `set model: in the spec of ${u.pinned_by.join(', ')} to a listed model (judge models)`
        : 'set ENGINE_MODEL to a listed model (judge models)'
    // A list of aliases alone says nothing of builds: the model may well still answer.
    if (!report.lists_builds)
      return check(
        'model',
        'warn',
        `${model} cannot be checked: the engine lists only aliases (${listed})`,
        `${fix}, or keep it and watch the model each run reports`,
      )
    return check('model', 'problem', `${model} is not listed by the engine (it lists ${listed})`, fix)
  })
  for (const m of report.models.filter((m) => m.used_by.length > 0 || m.name === report.default_model)) {
    const users = m.used_by.length > 0 ? `, asked by ${m.used_by.join(', ')},` : ' (the default)'
    checks.push(
      m.alias
        ? check(
            'model',
            'warn',
            `model ${m.name}${users} is an alias: its answers may come from a newer build one day`,
            'pin a versioned model to keep the cache to one build (docs/engine.md)',
          )
        : check('model', 'ok', `model ${m.name}${users} is listed`),
    )
  }
  return checks
}

function paceChecks(s: EngineSettings): Check[] {
  const rate = s.rpm === 0 ? 'no pace' : `${s.rpm} requests a minute`
  return [
    check('rate', 'info', `${rate} (${s.rpmSet ? 'ENGINE_RPM' : `the default for ${s.kind}; ENGINE_RPM changes it`})`),
    check(
      'price',
      'info',
      `$${s.pricePerMtok} per million input tokens; a command spends at most $${s.maxCost.toFixed(2)} per ` +
        'judgment (JUDGE_MAX_COST)',
    ),
  ]
}
