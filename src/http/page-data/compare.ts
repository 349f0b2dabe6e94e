import { compareStored, type CompareReport } from '../../app/compare.ts'
import { DEFAULT_MARGIN } from '../../core/compare/compare.ts'
import { UsageError } from '../../errors.ts'
import { relative } from 'node:path'
import { loadRequested, type HttpRequest, type ServerContext } from '../context.ts'
import { specFolders } from '../folders.ts'
import { NotFoundError } from '../../errors.ts'
import { param } from '../params.ts'

/**
 * What GET /compare shows: the comparison of a candidate spec with the live one, GET /v1/compare's body, and where they
 * sit.
 */
export interface CompareData {
  /** The live and candidate paths as requested, relative to the served folder. */
  readonly path: string
  readonly candidate: string
  readonly report: CompareReport
}

/** The margin a request asks for: `margin`, a share from 0 to below 1, default DEFAULT_MARGIN. */
export function marginParam(raw: string | null): number {
  if (raw === null) return DEFAULT_MARGIN
  const value = /^(0?\.\d{1,6}|0)$/.test(raw) ? Number(raw) : NaN
  if (!(value >= 0 && value < 1))
    throw new UsageError(
      `margin must be a share from 0 to below 1, such as 0.01, not ${JSON.stringify(raw.slice(0, 40))}`,
    )
  return value
}

/**
 * The comparison `path` (live) against `candidate`, on the kept rows whose candidate answers the store holds; asks
 * nothing.
 */
export async function compareData(ctx: ServerContext, request: HttpRequest): Promise<CompareData> {
  const { query } = request
  const path = param(query, 'path')
  const live = loadRequested(ctx, path)
  const shadow = param(query, 'shadow')
  const candidate =
    param(query, 'candidate') ?? (shadow === null ? null : shadowSpec(ctx, shadow, param(query, 'shadow_hash')))
  if (candidate === null)
    throw new UsageError(
      'candidate is required: the candidate spec file or folder, as for judge compare (or shadow: ' +
        "a shadow candidate's judgment name)",
    )
  const project = loadRequested(ctx, candidate, 'candidate')
  const report = await compareStored(
    ctx.runtime,
    { live, candidate: project, judgment: param(query, 'node'), margin: marginParam(param(query, 'margin')) },
    ctx.comparisons,
  )
  return { path: path!, candidate, report }
}

/**
 * The spec file of a shadow candidate, from the judgment name (and spec hash) its shadow pairs
 * recorded, searched in the served folders as the home page lists them: the link /runs gives next
 * to each shadow candidate. A 404 when no spec of that name (and hash) is served.
 */
export function shadowSpec(ctx: ServerContext, name: string, hash: string | null): string {
  for (const folder of specFolders(ctx.config.projects)) {
    let specs
    try {
      specs = loadRequested(ctx, folder).specs
    } catch {
      continue // a broken folder holds no candidate to compare
    }
    const found = specs.find((s) => s.name === name && (hash === null || s.hash === hash))
    if (found) return relative(ctx.config.projects, found.file)
  }
  throw new NotFoundError(
    'no served spec is the shadow ' +
      `candidate ${JSON.stringify(name.slice(0, 64))}${hash === null ? '' : ` with spec hash ${hash.slice(0, 16)}`}`,
  )
}
