import t from 'tap'
import { noiseAboveError } from '../../src/app/noise-check.ts'
import type { Project } from '../../src/core/types.ts'
import { app, deps } from '../helpers/deps.ts'
import { reask } from '../helpers/contracts/reask-store.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { putSpam, spamVerdict } from '../helpers/spam-answers.ts'
import { spec, SPAM_YAML } from '../helpers/specs.ts'

const judgment = spec(SPAM_YAML.replace('name: spam\n', 'name: spam\nmodel: m\n'))
const project: Project = { path: '/p/spam.judge.yaml', dir: '/p', specs: [judgment], selected: [judgment] }
const isSpam = judgment.questions[0]

/** Sixty answers, every one reviewed right: an error rate of 0 with a narrow interval. */
function reviewed(flips: number) {
  const store = createMemoryStore()
  const messages = Array.from({ length: 60 }, (_, i) => `m${i}`)
  messages.forEach((m, i) => putSpam(store, isSpam, m, i < 10 ? 0.55 : 0.97))
  const verdicts = new Map(messages.map((m) => spamVerdict(m, 'confirmed', ['yes'])))
  const at = { model: 'm', fingerprint: isSpam.fingerprint, stratum: 'confident', stratumSize: 60 }
  store.addReasks(
    Array.from({ length: 40 }, (_, i) => reask({ ...at, stateHash: `s${i}`, label: i < flips ? 'no' : 'yes' })),
  )
  return app(deps(null, store), { reviews: async () => new Map([...verdicts].map(([k, v]) => [k, [v]])) })
}

t.test("a question whose labels flip above its error rate's interval is found, with both figures", async (t) => {
  const [finding, ...rest] = await noiseAboveError(reviewed(20), project, ['spam'])
  t.same(rest, [])
  t.match(finding, {
    judgment: 'spam',
    question: 'is_spam',
    checked_at: '2026-01-01T00:00:00.000',
    flip_rate: { point: 0.5 },
    error: { point: 0 },
  })
  t.ok(finding.error.interval[1] < 0.5)
})

t.test("no finding when the flip rate is within the error rate's interval, or nothing was checked", async (t) => {
  t.same(await noiseAboveError(reviewed(0), project, ['spam']), [])
  t.same(
    await noiseAboveError(app(deps(null, createMemoryStore())), project, ['spam']),
    [],
    'never checked: the accuracy is not read',
  )
})
