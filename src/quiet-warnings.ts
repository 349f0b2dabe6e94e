/**
 * Silences the one warning every command would print: node:sqlite's "experimental" notice. Other
 * warnings still print as Node prints them. Imported first by the entry points.
 */
const ours = (warning: Error) => warning.name === 'ExperimentalWarning' && /SQLite/i.test(warning.message)

/** Replaces Node's warning printer with one that skips node:sqlite's notice. */
export function quietSqliteWarning(proc: NodeJS.Process = process): void {
  const printers = proc.listeners('warning')
  proc.removeAllListeners('warning')
  proc.on('warning', (warning) => {
    if (ours(warning)) return
    for (const print of printers) print(warning)
    if (printers.length === 0) proc.stderr.write(`${warning.name}: ${warning.message}\n`)
  })
}

quietSqliteWarning()
