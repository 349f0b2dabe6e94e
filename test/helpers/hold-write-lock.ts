import { DatabaseSync } from 'node:sqlite'

// Run as `node test/helpers/hold-write-lock.ts <store>`: opens the store in WAL mode and holds its
// write lock, as a long write of another process would, until its standard input closes. Says
// `held` once it holds it.
const db = new DatabaseSync(process.argv[2])
db.exec('PRAGMA journal_mode = WAL')
db.exec('BEGIN IMMEDIATE')
process.stdout.write('held\n')
process.stdin.on('end', () => {
  db.exec('ROLLBACK')
  db.close()
})
process.stdin.resume()
