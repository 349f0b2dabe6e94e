import { cacheGroups, pruneCache, type CacheGroup } from '../../app/cache.ts'
import { UsageError } from '../../errors.ts'
import { COMMON_DOCS, COMMON_OPTIONS, helpText, onePath } from '../args.ts'
import { defineCommand } from '../command.ts'
import { age, table } from '../text.ts'
import { withSession } from '../shared.ts'
import { plural } from '../../format.ts'

/** The options `judge cache` parses; its help and docs/cli.md describe each. */
export const OPTIONS = {
  ...COMMON_OPTIONS,
  prune: { type: 'boolean', default: false },
  yes: { type: 'boolean', default: false },
} as const

/** `judge cache`: the store's answers per question wording and model, and pruning of superseded ones. */
export const HELP = helpText(
  'judge cache <spec-or-folder> [--prune [--yes]] [--node NAME] [--json]',
  "Lists the store's answers per (judgment, question, model, fingerprint) with their count, age\n" +
    'and status for the judgments named. --prune deletes only the superseded answers: those of an\n' +
    'older wording of a question a named spec still has, unless a spec of the project or a shadow\n' +
    'candidate seen uses that wording. A dry run unless --yes is given.',
  [
    { flag: '--prune', text: 'show the superseded answers that would be deleted (a dry run)' },
    { flag: '--yes', text: 'with --prune: delete them' },
    ...COMMON_DOCS,
  ],
)

/** Runs `judge cache`; returns the exit status. */
export const cacheCommand = defineCommand('cache', OPTIONS, HELP, async ({ values, positionals }, io, options) => {
  if (values.yes && !values.prune)
    throw new UsageError('--yes confirms --prune; give both to delete superseded answers')
  return withSession(io, onePath('cache', positionals), options, async (session) => {
    const now = session.runtime.now()
    if (!values.prune) {
      const groups = cacheGroups(session.runtime, session.project, values.node)
      io.stdout.write(
        values.json
          ? JSON.stringify(groups, null, 2) + '\n'
          : groupTable(groups, now) || 'the store holds no answers\n',
      )
      return 0
    }
    const pruned = pruneCache(session.runtime, session.project, values.node, values.yes)
    if (values.json) {
      io.stdout.write(JSON.stringify(pruned, null, 2) + '\n')
      return 0
    }
    if (pruned.superseded.length === 0) {
      io.stdout.write('no superseded answers: nothing to prune\n')
      return 0
    }
    io.stdout.write(groupTable(pruned.superseded, now))
    io.stdout.write(
      pruned.dry_run
        ? `would delete ${plural(pruned.answers, 'answer')} of ${plural(pruned.superseded.length, 'superseded wording')}; nothing was deleted (give --yes to delete)\n`
        : `deleted ${plural(pruned.deleted, 'answer')} of ${plural(pruned.superseded.length, 'superseded wording')}\n`,
    )
    return 0
  })
})

function groupTable(groups: readonly CacheGroup[], now: Date): string {
  if (groups.length === 0) return ''
  const rows = groups.map((g) => [
    g.judgment,
    g.question,
    g.model,
    g.fingerprint,
    String(g.answers),
    age(g.newest, now),
    age(g.oldest, now),
    g.status,
  ])
  return table(['judgment', 'question', 'model', 'fingerprint', 'answers', 'newest', 'oldest', 'status'], rows)
}
