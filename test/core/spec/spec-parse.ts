import t from 'tap'
import { questionFingerprint } from '../../../src/core/spec/fingerprint.ts'
import { shortHash } from '../../../src/core/hash.ts'
import {
  DEFAULT_DOUBLE_REVIEW,
  DEFAULT_UNSURE_BELOW,
  defaultName,
  FILE_KEYS,
  MAX_RETAIN_DAYS,
  parseSpec,
  SPEC_KEYS,
} from '../../../src/core/spec/spec-parse.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'

const file = '/projects/sms/spam.judge.yaml'
const fails = (keyPath: string, problem: string) => ({
  name: 'SpecError',
  file,
  keyPath,
  message: `${file}: ${keyPath}: ${problem}`,
})
const minimal = 'state: [message]\nquestions:\n  is_spam: {ask: Is this spam?, type: yes_no}\n'

// The shared fixture with every optional key added.
const example =
  SPAM_YAML.replace('state:', 'model: jev-1.13.0\nstate:') +
  'key: spam.key.csv\nreviews: spam.reviews.csv\ndata: messages.csv\nunsure_below: 0.2\nmin_accuracy: 0.9\n'

t.test('loads the example spec of the documentation', async (t) => {
  const spec = parseSpec(example, file)
  t.equal(spec.name, 'spam')
  t.equal(spec.file, file)
  t.equal(spec.model, 'jev-1.13.0')
  t.same(spec.state, [{ name: 'message' }])
  t.same(
    spec.questions.map((q) => [q.name, q.type, q.labels]),
    [
      ['is_spam', 'yes_no', ['yes', 'no']],
      ['topic', 'choice', ['personal', 'promotion', 'service']],
      ['urgency', 'scale', ['low', 'medium', 'high']],
    ],
  )
  t.same(
    spec.act.is_spam.map((r) => r.route),
    ['block', 'review', 'deliver'],
  )
  t.equal(spec.key, '/projects/sms/spam.key.csv')
  t.equal(spec.reviews, '/projects/sms/spam.reviews.csv')
  t.equal(spec.data, '/projects/sms/messages.csv')
  t.equal(spec.unsureBelow, 0.2)
  t.equal(spec.minAccuracy, 0.9)
  t.equal(spec.hash, shortHash(example))
})

t.test('fills in the defaults of every optional key', async (t) => {
  const spec = parseSpec(minimal, file)
  t.equal(spec.name, 'spam')
  t.equal(spec.model, null)
  t.same(spec.act, {})
  t.equal(spec.key, null)
  t.equal(spec.reviews, '/projects/sms/spam.reviews.csv')
  t.equal(spec.data, null)
  t.equal(spec.keySample, 'chosen')
  t.equal(spec.unsureBelow, DEFAULT_UNSURE_BELOW)
  t.equal(DEFAULT_UNSURE_BELOW, 0.2)
  t.equal(spec.minAccuracy, null)
})

t.test('treats an optional key left empty as absent', async (t) => {
  const spec = parseSpec(`${minimal}model:\nkey: ~\nact:\nunsure_below:\n`, file)
  t.equal(spec.model, null)
  t.equal(spec.key, null)
  t.equal(spec.unsureBelow, DEFAULT_UNSURE_BELOW)
})

t.test('min_fit is the median option mass a question needs to fit its rows: 0.5 unless set, 0 to 1', async (t) => {
  t.equal(parseSpec(minimal, file).minFit, 0.5)
  t.equal(parseSpec(`${minimal}min_fit: 0.3\n`, file).minFit, 0.3)
  t.throws(
    () => parseSpec(`${minimal}min_fit: 1.2\n`, file),
    fails('min_fit', 'must be a number from 0 to 1, not the number 1.2'),
  )
})

t.test(
  'double_review is the share of reviewed sample rows a second reviewer sees: 0.1 unless set, 0 to 1',
  async (t) => {
    t.equal(parseSpec(minimal, file).doubleReview, DEFAULT_DOUBLE_REVIEW)
    t.equal(DEFAULT_DOUBLE_REVIEW, 0.1)
    t.equal(parseSpec(`${minimal}double_review: 0\n`, file).doubleReview, 0)
    t.equal(parseSpec(`${minimal}double_review: 0.25\n`, file).doubleReview, 0.25)
    t.throws(
      () => parseSpec(`${minimal}double_review: 2\n`, file),
      fails('double_review', 'must be a number from 0 to 1, not the number 2'),
    )
  },
)

t.test('retain_days is a whole number of days from 1 to a hundred years; without it nothing expires', async (t) => {
  t.equal(parseSpec(minimal, file).retainDays, null)
  t.equal(parseSpec(`${minimal}retain_days: 30\n`, file).retainDays, 30)
  t.equal(parseSpec(`${minimal}retain_days: ${MAX_RETAIN_DAYS}\n`, file).retainDays, 36_500)
  const rule = 'must be a whole number of days from 1 to 36500, not'
  t.throws(() => parseSpec(`${minimal}retain_days: 0\n`, file), fails('retain_days', `${rule} the number 0`))
  t.throws(() => parseSpec(`${minimal}retain_days: 1.5\n`, file), fails('retain_days', `${rule} the number 1.5`))
  t.throws(() => parseSpec(`${minimal}retain_days: 36501\n`, file), fails('retain_days', `${rule} the number 36501`))
  t.throws(
    () => parseSpec(`${minimal}retain_days: 30 days\n`, file),
    fails('retain_days', `${rule} the text "30 days"`),
  )
})

t.test('key_sample says whether the key was drawn at random; anything else is an error', async (t) => {
  t.equal(parseSpec(`${minimal}key_sample: random\n`, file).keySample, 'random')
  t.equal(parseSpec(`${minimal}key_sample: chosen\n`, file).keySample, 'chosen')
  t.throws(
    () => parseSpec(`${minimal}key_sample: yes\n`, file),
    fails(
      'key_sample',
      'must be random (the key\'s rows were drawn at random from the rows judged) or chosen, not the text "yes"',
    ),
  )
})

t.test('names the default reviews file after the judgment, beside the spec', async (t) => {
  t.equal(parseSpec(`name: sms-spam\n${minimal}`, file).reviews, '/projects/sms/sms-spam.reviews.csv')
})

t.test('takes the default name from the file name, for both endings', async (t) => {
  t.equal(defaultName('/a/spam.judge.yaml'), 'spam')
  t.equal(defaultName('/a/spam.judge.yml'), 'spam')
  t.equal(parseSpec(minimal, '/a/topic_v2.judge.yml').name, 'topic_v2')
})

t.test('rejects a default name outside [a-z0-9_-]+, asking for name: or a new file name', async (t) => {
  const bad = '/projects/sms/Spam Filter.judge.yaml'
  t.throws(() => parseSpec(minimal, bad), {
    keyPath: 'name',
    message:
      `${bad}: name: the file name gives the name "Spam Filter", which is not ` +
      'lowercase letters, digits, _ and - ([a-z0-9_-]+); set name: or rename the file',
  })
  t.equal(parseSpec(`name: spam\n${minimal}`, bad).name, 'spam')
})

t.test('rejects a name outside [a-z0-9_-]+', async (t) => {
  const cases = [
    ['Spam', 'the text "Spam"'],
    ['a.b', 'the text "a.b"'],
    ['__proto__', 'the text "__proto__"'],
    ['3', 'the number 3'],
  ]
  for (const [value, shown] of cases) {
    t.throws(
      () => parseSpec(`name: ${value}\n${minimal}`, file),
      fails('name', `must be lowercase letters, digits, _ and - ([a-z0-9_-]+), not ${shown}`),
    )
  }
})

t.test('rejects a spec that is not a mapping', async (t) => {
  const keys =
    'name, model, models, samples, state, questions, act, key, key_sample, reviews, data, delimiter, columns, anchors, unsure_below, min_accuracy, min_fit, double_review, accuracy_target, allocation, retain_days'
  t.throws(() => parseSpec('', file), {
    keyPath: '',
    message: `${file}: a spec must be a mapping of keys (${keys}), not empty`,
  })
  t.throws(() => parseSpec('- a\n', file), {
    message: `${file}: a spec must be a mapping of keys (${keys}), not a list`,
  })
  t.throws(() => parseSpec('1: a\n', file), { message: `${file}: keys must be text: quote 1 as "1"` })
})

t.test('rejects unknown top-level keys, listing the known ones', async (t) => {
  t.throws(
    () => parseSpec(`${minimal}threshold: 0.5\n`, file),
    fails(
      'threshold',
      'unknown key; the known keys are name, model, models, samples, state, questions, act, key, key_sample, reviews, data, delimiter, columns, anchors, unsure_below, min_accuracy, min_fit, double_review, accuracy_target, allocation, retain_days',
    ),
  )
  t.throws(() => parseSpec(`${minimal}review: x.csv\n`, file), {
    keyPath: 'review',
    message: /unknown key \(did you mean reviews\?\)/,
  })
})

t.test('turns YAML errors into spec errors with the line', async (t) => {
  t.throws(() => parseSpec('state: [message]\nstate: [other]\n', file), {
    message: `${file}: invalid YAML at line 2, column 1: Map keys must be unique`,
  })
})

t.test('requires state and questions', async (t) => {
  t.throws(() => parseSpec('questions: {q: {ask: x, type: yes_no}}\n', file), fails('state', 'is required'))
  t.throws(() => parseSpec('state: [message]\n', file), fails('questions', 'is required'))
  t.throws(() => parseSpec('state: [message]\nquestions:\n', file), fails('questions', 'is required'))
})

t.test('rejects a state that is not a non-empty list of distinct column names', async (t) => {
  const q = 'questions: {q: {ask: x, type: yes_no}}\n'
  t.throws(() => parseSpec(`state: message\n${q}`, file), fails('state', 'must be a list, not the text "message"'))
  t.throws(() => parseSpec(`state: []\n${q}`, file), fails('state', 'needs at least one column'))
  t.throws(() => parseSpec(`state: [a, ""]\n${q}`, file), fails('state[1]', 'must be a column name, not the text ""'))
  t.throws(() => parseSpec(`state: [a, 7]\n${q}`, file), fails('state[1]', 'must be a column name, not the number 7'))
  t.throws(() => parseSpec(`state: [a, b, a]\n${q}`, file), fails('state[2]', 'the column "a" is listed twice'))
  t.throws(
    () => parseSpec(`state: [a, __proto__]\n${q}`, file),
    fails('state[1]', 'the column "__proto__" cannot be read from a row: rename the column'),
  )
})

t.test('reads judgment.question state entries as references to another judgment', async (t) => {
  const state = 'state: [message, spam.is_spam, sender name, a.b.c, Spam.x, x.Topic, .x]\n'
  const spec = parseSpec(`${state}questions: {q: {ask: x, type: yes_no}}\n`, file)
  t.same(spec.state, [
    { name: 'message' },
    { name: 'spam.is_spam', ref: { judgment: 'spam', question: 'is_spam' } },
    { name: 'sender name' },
    { name: 'a.b.c' },
    { name: 'Spam.x' },
    { name: 'x.Topic' },
    { name: '.x' },
  ])
  t.same(parseSpec('state: [sms-v2.topic]\nquestions: {q: {ask: x, type: yes_no}}\n', file).state[0].ref, {
    judgment: 'sms-v2',
    question: 'topic',
  })
})

t.test('rejects a model that is not text', async (t) => {
  t.throws(() => parseSpec(`${minimal}model: [a]\n`, file), fails('model', 'must be text, not a list'))
  t.throws(() => parseSpec(`${minimal}model: " "\n`, file), fails('model', 'must not be empty'))
})

t.test('resolves key, reviews, data and anchors against the spec folder', async (t) => {
  const spec = parseSpec(
    `${minimal}key: ../keys/spam.csv\nreviews: reviews/spam.csv\ndata: ./messages.csv\nanchors: anchors.csv\n`,
    file,
  )
  t.equal(spec.key, '/projects/keys/spam.csv')
  t.equal(spec.reviews, '/projects/sms/reviews/spam.csv')
  t.equal(spec.data, '/projects/sms/messages.csv')
  t.equal(spec.anchors, '/projects/sms/anchors.csv')
  t.equal(parseSpec(minimal, file).anchors, null)
  t.throws(
    () => parseSpec(`${minimal}anchors: /etc/rows.csv\n`, file),
    fails('anchors', "must be relative to the spec's folder, not /etc/rows.csv"),
  )
})

t.test(
  "every spec field that holds a path resolved from the spec's folder is a file key, the list confinement reads",
  async (t) => {
    const spec = parseSpec(`${minimal}key: k.csv\nreviews: r.csv\ndata: d.csv\nanchors: a.csv\n`, file)
    const paths = Object.entries(spec)
      .filter(([field, value]) => field !== 'file' && typeof value === 'string' && value.startsWith('/projects/'))
      .map(([field]) => field)
    t.same(paths.sort(), [...FILE_KEYS].sort())
    for (const key of FILE_KEYS) t.ok(SPEC_KEYS.includes(key), `${key} is a spec key`)
  },
)

t.test('rejects file paths that are not relative text', async (t) => {
  t.throws(
    () => parseSpec(`${minimal}key: /etc/passwd\n`, file),
    fails('key', "must be relative to the spec's folder, not /etc/passwd"),
  )
  t.throws(() => parseSpec(`${minimal}reviews: "a\\0b.csv"\n`, file), fails('reviews', 'must not contain a NUL byte'))
  t.throws(() => parseSpec(`${minimal}data: 3\n`, file), fails('data', 'must be a file path, not the number 3'))
  t.throws(() => parseSpec(`${minimal}data: "  "\n`, file), fails('data', 'must be a file path, not the text "  "'))
})

t.test('rejects unsure_below and min_accuracy outside 0 to 1', async (t) => {
  t.throws(
    () => parseSpec(`${minimal}unsure_below: 1.5\n`, file),
    fails('unsure_below', 'must be a number from 0 to 1, not the number 1.5'),
  )
  t.throws(
    () => parseSpec(`${minimal}min_accuracy: "90%"\n`, file),
    fails('min_accuracy', 'must be a number from 0 to 1, not the text "90%"'),
  )
  t.throws(
    () => parseSpec(`${minimal}min_accuracy: .nan\n`, file),
    fails('min_accuracy', 'must be a number from 0 to 1, not the number NaN'),
  )
  t.equal(parseSpec(`${minimal}min_accuracy: 0\nunsure_below: 1\n`, file).minAccuracy, 0)
})

t.test('reports errors in questions and act with their key paths', async (t) => {
  t.throws(
    () => parseSpec('state: [m]\nquestions:\n  topic: {ask: x, labels: [a]}\n', file),
    fails('questions.topic.labels', 'needs at least 2 labels'),
  )
  t.throws(() => parseSpec(`${minimal}act: {is_spam: [{route: a, when: {label: maybe}}]}\n`, file), {
    name: 'SpecError',
    keyPath: 'act.is_spam[0].when.label',
  })
})

t.test('keeps question fingerprints when only act, key, reviews or another question change', async (t) => {
  const fingerprints = (text: string) =>
    Object.fromEntries(parseSpec(text, file).questions.map((q) => [q.name, q.fingerprint]))
  const before = fingerprints(example)
  const edited = example
    .replace('route: deliver', 'route: inbox')
    .replace('key: spam.key.csv', 'key: other.csv')
    .replace('reviews: spam.reviews.csv', 'reviews: other.csv')
    .replace('How urgent is the message', 'How pressing is the message')
  const after = fingerprints(edited)
  t.equal(after.is_spam, before.is_spam)
  t.equal(after.topic, before.topic)
  t.not(after.urgency, before.urgency)
  t.equal(
    before.urgency,
    questionFingerprint(
      'scale',
      'How urgent is the message for its reader?',
      ['low', 'medium', 'high'],
      [null, null, null],
    ),
  )
  t.not(parseSpec(edited, file).hash, parseSpec(example, file).hash)
})
