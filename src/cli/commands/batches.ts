import { batchesOf, cancelBatch } from '../../app/batch/batches.ts'
import type { BatchRecord } from '../../ports/batch-store.ts'
import { COMMON_DOCS, COMMON_OPTIONS, helpText, onePath } from '../args.ts'
import { defineCommand } from '../command.ts'
import { withSession } from '../shared.ts'
import { table, usd } from '../text.ts'

/** The options `judge batches` parses; its help and docs/cli.md describe each. */
export const OPTIONS = { ...COMMON_OPTIONS, cancel: { type: 'string' } } as const

/** `judge batches`: the bulk lane's batches of a spec or folder; cancelling one. */
export const HELP = helpText(
  'judge batches <spec-or-folder> [--cancel ID] [--node NAME] [--json]',
  'Lists the batches `judge run` submitted through the bulk lane, newest first: the provider batch,\n' +
    'its state and request counts, whether its answers landed, and its estimate. --cancel asks the\n' +
    'provider to cancel a pending batch; the answers it gave land at the next bulk run.',
  [{ flag: '--cancel ID', text: "cancel the pending batch of this id (the provider's, or its tag)" }, ...COMMON_DOCS],
)

/** Runs `judge batches`; returns the exit status. */
export const batchesCommand = defineCommand('batches', OPTIONS, HELP, async ({ values, positionals }, io, options) => {
  return withSession(io, onePath('batches', positionals), options, async (session) => {
    if (values.cancel !== undefined) {
      const batch = await cancelBatch(session.runtime, session.project, values.cancel, io.signal)
      io.stdout.write(values.json ? JSON.stringify(batch, null, 2) + '\n' : `batch ${batch.batchId}: ${batch.state}\n`)
      return 0
    }
    const batches = batchesOf(session.runtime, session.project, values.node)
    if (values.json) io.stdout.write(JSON.stringify(batches, null, 2) + '\n')
    else io.stdout.write(batches.length === 0 ? 'no batches yet\n' : batchTable(batches))
    return 0
  })
})

function batchTable(batches: readonly BatchRecord[]): string {
  const rows = batches.map((b) => [
    b.batchId ?? b.tag,
    b.judgment,
    b.state,
    `${b.completed}/${b.total}`,
    String(b.failed),
    b.landedAt === null ? 'pending' : 'landed',
    usd(b.estimate),
    b.createdAt,
  ])
  return table(['batch', 'judgment', 'state', 'done', 'failed', 'answers', 'estimate', 'created'], rows) + '\n'
}
