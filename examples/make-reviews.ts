import { readFileSync, rmSync } from 'node:fs'
import { resolve } from 'node:path'
import { recordVerdict, reviewQueue, queueTarget } from '../src/app/review.ts'
import type { Card } from '../src/core/review/queue.ts'
import { labelUnderCheck } from '../src/core/review/verdicts.ts'
import { loadProject } from '../src/adapters/files/spec-files.ts'
import { readConfig } from '../src/config.ts'
import { createRuntime } from '../src/runtime.ts'
import { buildExampleStore } from './build-store.ts'

// Writes sms/spam.reviews.csv, the example's verdicts: `node examples/make-reviews.ts <sms.tsv>`,
// given the SMS Spam Collection's own file (label, tab, message; its line number is a message's
// id in messages.csv). Two reviewers, ana and ben, work down the is_spam queue of a freshly built
// store through the same code as the review page, and every verdict is what the collection's
// label says: a disagreement with the key goes to the side that matches it, a spot check or an
// unsure row is confirmed when its label matches and relabeled when not. ben then takes the rows
// the queue offers him for a second review. Nothing is invented: where the collection has no
// label (topic, urgency) there is no verdict.

const REVIEWERS = [
  { name: 'ana', rows: 70 },
  { name: 'ben', rows: 40 },
] as const

/** The collection's label of each message, by its text: yes for spam, no for ham. */
function labels(collection: string): Map<string, string> {
  const byMessage = new Map<string, string>()
  for (const line of readFileSync(collection, 'utf8').split('\n')) {
    const tab = line.indexOf('\t')
    if (tab > 0) byMessage.set(line.slice(tab + 1), line.slice(0, tab) === 'spam' ? 'yes' : 'no')
  }
  return byMessage
}

/** The verdict the collection's label gives a card. */
function verdictOf(
  card: Card,
  truth: string,
): { verdict: 'key_right' | 'model_right' | 'confirmed' | 'labeled'; label?: string } {
  if (card.kind === 'disagreement') return { verdict: card.modelLabel === truth ? 'model_right' : 'key_right' }
  return labelUnderCheck({ modelLabel: card.modelLabel, keyLabel: card.keyLabel }) === truth
    ? { verdict: 'confirmed' }
    : { verdict: 'labeled', label: truth }
}

/** Builds the store afresh, and writes the reviews file from the collection's labels. */
export async function makeReviews(collection: string, root: string = import.meta.dirname): Promise<number> {
  const truth = labels(collection)
  const dir = resolve(root, 'sms')
  rmSync(resolve(dir, '.judge'), { recursive: true, force: true })
  rmSync(resolve(dir, 'spam.reviews.csv'), { force: true })
  if (await buildExampleStore(true, root, { write: () => true })) return 1
  const runtime = createRuntime(readConfig({ ENGINE: 'simulated' }, dir))
  const project = loadProject(resolve(dir, 'spam.judge.yaml'))
  const target = queueTarget(project, null, 30)
  let second = Date.parse('2026-11-20T09:00:00.000Z')
  let written = 0
  for (const reviewer of REVIEWERS) {
    for (let done = 0; done < reviewer.rows; ) {
      const queue = await reviewQueue(runtime, { ...target, limit: 1000, reviewedBy: reviewer.name })
      const card = queue.offered.find((c) => c.question === 'is_spam' && truth.has(String(c.state.message)))
      if (!card) break
      const reviewedAt = new Date((second += 17_000)).toISOString().slice(0, 23)
      await recordVerdict(runtime, target, {
        question: 'is_spam',
        stateHash: card.stateHash,
        kind: card.kind,
        reviewer: reviewer.name,
        reviewedAt,
        ...verdictOf(card, truth.get(String(card.state.message))!),
      })
      done++
      written++
    }
  }
  runtime.close()
  process.stdout.write(`${written} verdicts in ${resolve(dir, 'spam.reviews.csv')}\n`)
  return 0
}

if (import.meta.main) process.exitCode = await makeReviews(process.argv[2] ?? '../shared/data/sms-spam/sms.tsv')
