import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parse } from 'csv-parse/sync'
import { stringify } from 'csv-stringify/sync'

/**
 * Real SMS messages from the example project (SMS Spam Collection v.1, T. A. Almeida and
 * J. M. Gómez Hidalgo, UCI Machine Learning Repository, CC BY 4.0).
 */
export function smsMessages(): { id: string; message: string }[] {
  return parse(readFileSync(resolve(import.meta.dirname, '../../examples/sms/messages.csv')), { columns: true })
}

/** A CSV data file of the first `n` messages, with every message after `repeatFrom` repeated once more. */
export function smsCsv(n: number, repeat = 0): string {
  const rows = smsMessages().slice(0, n)
  const all = [...rows, ...rows.slice(0, repeat)]
  return stringify([['id', 'message'], ...all.map((r) => [r.id, r.message])])
}
