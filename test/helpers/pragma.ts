import { DatabaseSync } from 'node:sqlite'

/** Reads one PRAGMA of a database file through a connection of its own. */
export function pragma(file: string, name: string): unknown {
  const db = new DatabaseSync(file)
  try {
    return Object.values(db.prepare(`PRAGMA ${name}`).get() ?? {})[0]
  } finally {
    db.close()
  }
}
