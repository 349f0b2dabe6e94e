import t from 'tap'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadProject } from '../../../src/adapters/files/spec-files.ts'
import { cli } from '../../helpers/cli.ts'

const LEVELS = ['low', 'medium', 'high']

/** A tickets file: a subject and a body of their own on each row, and columns of few values that repeat. */
function tickets(columns: Record<string, readonly string[]> = { priority: LEVELS }, rows = 12): string {
  const names = ['subject', 'body', ...Object.keys(columns)]
  const lines = Array.from({ length: rows }, (_, i) => [
    `Ticket ${i}`,
    `The printer on floor ${i} prints blank pages`,
    ...Object.values(columns).map((values) => values[i % values.length]),
  ])
  return [names, ...lines].map((cells) => cells.join(',') + '\n').join('')
}

const questionsOf = (dir: string, spec: string) =>
  loadProject(join(dir, spec)).selected[0].questions.map((q) => ({ name: q.name, type: q.type, labels: q.labels }))

t.test(
  'a column of few short values that repeat becomes the label, never the state; low, medium, high a scale in order',
  async (t) => {
    const dir = t.testdir({ 'tickets.csv': tickets() })
    const result = await cli(['init', 'tickets.csv'], {}, dir)
    t.equal(result.code, 0, result.stderr)
    t.same(
      loadProject(join(dir, 'tickets.judge.yaml')).selected[0].state.map((c) => c.name),
      ['subject', 'body'],
    )
    t.match(
      result.stdout,
      /\n {2}taking priority \(3 values: low, medium, high\) as the label column: its values look like labels, so the engine is not shown them; to choose otherwise, give --label COLUMN, or the state columns with --state A,B\n/,
    )
    t.match(result.stdout, /\n {2}priority: a scale, its values ordered low -> high: low, medium, high\n/)
    const questions = questionsOf(dir, 'tickets.judge.yaml')
    t.same(questions[0], { name: 'priority', type: 'scale', labels: LEVELS })
    t.same(
      questions.map((q) => q.name),
      ['priority', 'relevant', 'topic'],
      'no placeholder is named as a column',
    )
    t.match(readFileSync(join(dir, 'tickets.key.csv'), 'utf8'), /^subject,body,priority\nTicket 0,.*,low\n/)
    const test = await cli(['test', 'tickets.judge.yaml', '--json'], { ENGINE: 'simulated' }, dir)
    t.equal(test.code, 0, test.stderr)
    t.equal(JSON.parse(test.stdout).tickets.priority.counted, 12, 'judge test scores the scale against the key')
  },
)

t.test(
  '--label takes ordered levels as a scale in their order, in any case; values without one are a choice, said',
  async (t) => {
    const dir = t.testdir({
      'a.csv': tickets({ severity: ['Mild', 'Severe', 'None', 'moderate'] }),
      'b.csv': tickets({ rating: ['4', '1', '5', '2'] }),
      'c.csv': tickets({ team: ['billing', 'shipping', 'returns'] }),
    })
    const a = await cli(['init', 'a.csv', '--label', 'severity', '--json'], {}, dir)
    t.equal(a.code, 0, a.stderr)
    t.match(JSON.parse(a.stdout).key, {
      question: 'severity',
      type: 'scale',
      labels: ['None', 'Mild', 'moderate', 'Severe'],
    })
    t.same(questionsOf(dir, 'a.judge.yaml')[0].labels, ['None', 'Mild', 'moderate', 'Severe'])
    t.equal((await cli(['init', 'b.csv'], {}, dir)).code, 0)
    t.same(questionsOf(dir, 'b.judge.yaml')[0], { name: 'rating', type: 'scale', labels: ['1', '2', '3', '4', '5'] })
    const c = await cli(['init', 'c.csv'], {}, dir)
    t.equal(c.code, 0, c.stderr)
    t.same(questionsOf(dir, 'c.judge.yaml')[0], {
      name: 'team',
      type: 'choice',
      labels: ['billing', 'returns', 'shipping'],
    })
    t.match(
      c.stdout,
      /\n {2}team: a choice, its values in no order judge knows \(billing, returns, shipping\); if they have one, make it type: scale with the labels listed low -> high\n/,
    )
  },
)

t.test('several columns that look like labels stop init, which asks for --label or --state', async (t) => {
  const dir = t.testdir({ 'tickets.csv': tickets({ priority: LEVELS, queue: ['web', 'phone'] }) })
  const stopped = await cli(['init', 'tickets.csv'], {}, dir)
  t.equal(stopped.code, 2)
  t.equal(
    stopped.stderr,
    'judge init: tickets.csv: the columns priority (3 values: low, medium, high) and queue (2 values: web, phone) ' +
      'look like labels; init does not put them in the state, where the engine would be shown the answer: name the ' +
      'answer column with --label COLUMN (the others stay in the state), or the state columns with --state A,B\n',
  )
  t.notOk(existsSync(join(dir, 'tickets.judge.yaml')), 'nothing written')
  const labelled = await cli(['init', 'tickets.csv', '--label', 'priority', '--json'], {}, dir)
  t.equal(labelled.code, 0, labelled.stderr)
  t.match(JSON.parse(labelled.stdout), {
    state: ['subject', 'body', 'queue'],
    key: { question: 'priority', type: 'scale' },
    notes: [
      'in the state though its values look like labels: queue (2 values: web, phone); if it holds answers, name the state columns with --state A,B',
    ],
  })
})

t.test(
  '--state names the columns the engine sees; the one other column that looks like labels is the key',
  async (t) => {
    const dir = t.testdir({
      'tickets.csv': tickets({ priority: LEVELS, queue: ['web', 'phone'] }),
      'two.csv': tickets({ priority: LEVELS, queue: ['web', 'phone'] }),
      'both.csv': tickets({ priority: LEVELS, queue: ['web', 'phone'] }),
    })
    const result = await cli(['init', 'tickets.csv', '--state', 'body,queue', '--json'], {}, dir)
    t.equal(result.code, 0, result.stderr)
    t.match(JSON.parse(result.stdout), {
      state: ['body', 'queue'],
      left_out: [
        { column: 'subject', why: 'not among the state columns asked for' },
        { column: 'priority', why: /it holds the answers/ },
      ],
      key: { question: 'priority', type: 'scale', states: 12 },
      notes: [/^taking priority \(3 values: low, medium, high\) as the label column/],
    })
    t.equal(readFileSync(join(dir, 'tickets.key.csv'), 'utf8').split('\n')[0], 'body,queue,priority')
    const none = await cli(['init', 'two.csv', '--state', 'body', '--json'], {}, dir)
    t.match(
      JSON.parse(none.stdout),
      { state: ['body'], key: null, notes: [] },
      'two label-like columns left out: no key',
    )
    const both = await cli(['init', 'both.csv', '--state', 'body', '--label', 'queue', '--json'], {}, dir)
    t.match(JSON.parse(both.stdout), { state: ['body'], key: { question: 'queue' } })
    t.match(await cli(['init', 'tickets.csv', '--state', 'body,bdy'], {}, dir), {
      code: 2,
      stderr: /--state bdy: tickets\.csv has no such column \(did you mean body\?\); its columns are subject, body/,
    })
    t.match(await cli(['init', 'tickets.csv', '--state', 'body,body'], {}, dir), {
      code: 2,
      stderr: /--state must be distinct column names separated by commas, not "body,body"/,
    })
    t.match(await cli(['init', 'tickets.csv', '--state', 'body,priority', '--label', 'priority'], {}, dir), {
      code: 2,
      stderr: /--state names priority, the label column: the engine would be shown the answer/,
    })
    t.match(await cli(['init', '--state', 'x'], {}, dir), {
      code: 2,
      stderr: /--label, --state and --columns read a data file/,
    })
  },
)

t.test(
  'a label-like column that is the only column for the state stops init, as does a label column left alone',
  async (t) => {
    const rows = Array.from({ length: 6 }, (_, i) => `${i},${LEVELS[i % 3]}\n`).join('')
    const dir = t.testdir({ 'p.csv': `id,priority\n${rows}`, 'l.csv': `id,label\n${rows}` })
    t.match(await cli(['init', 'p.csv'], {}, dir), {
      code: 2,
      stderr:
        /p\.csv: the column priority \(3 values: low, medium, high\) looks like labels and is the only column left for the state, where the engine would be shown the answer: name the state columns with --state A,B\n/,
    })
    const chosen = await cli(['init', 'p.csv', '--state', 'priority', '--json'], {}, dir)
    t.match(JSON.parse(chosen.stdout), { state: ['priority'], key: null }, '--state puts it in the state on purpose')
    t.match(await cli(['init', 'l.csv'], {}, dir), {
      code: 2,
      stderr: /l\.csv: the label column label is the only column left for the state/,
    })
  },
)

t.test('placeholder questions are named apart from the data columns', async (t) => {
  const dir = t.testdir({ 'm.csv': 'Relevant,topic,urgency,priority\na,b,c,d\ne,f,g,h\n' })
  const result = await cli(['init', 'm.csv'], {}, dir)
  t.equal(result.code, 0, result.stderr)
  t.match(result.stdout, /questions is_relevant, main_topic and importance to edit/)
  t.same(
    questionsOf(dir, 'm.judge.yaml').map((q) => q.name),
    ['is_relevant', 'main_topic', 'importance'],
  )
  t.match(readFileSync(join(dir, 'm.judge.yaml'), 'utf8'), /\nact:\n {2}is_relevant:\n/)
})

t.test(
  'a column named __proto__ is left out with its reason, and the spec runs; a spec naming it is refused',
  async (t) => {
    const dir = t.testdir({
      'odd.csv': '__proto__,constructor,toString,text\nx,first,one,hello there\ny,second,two,good bye\n',
    })
    const result = await cli(['init', 'odd.csv', '--json'], {}, dir)
    t.equal(result.code, 0, result.stderr)
    t.match(JSON.parse(result.stdout), {
      state: ['constructor', 'toString', 'text'],
      left_out: [{ column: '__proto__', why: /^the name __proto__ cannot be read from a row: rename the column/ }],
    })
    t.match(await cli(['run', 'odd.judge.yaml', '--json'], { ENGINE: 'simulated' }, dir), { code: 0 })
    t.match(await cli(['init', 'odd.csv', '--label', '__proto__'], {}, dir), {
      code: 2,
      stderr: /--label __proto__: the name __proto__ cannot be read from a row; rename the column/,
    })
    writeFileSync(
      join(dir, 'hand.judge.yaml'),
      'state: [__proto__]\nquestions: {q: {ask: x, type: yes_no}}\ndata: odd.csv\n',
    )
    t.match(await cli(['run', 'hand.judge.yaml'], { ENGINE: 'simulated' }, dir), {
      code: 2,
      stderr: /state\[0\]: the column "__proto__" cannot be read from a row: rename the column/,
    })
  },
)

t.test(
  'JSON Lines rows without the column count as empty cells; yes and no are told as a yes/no question',
  async (t) => {
    const rows = Array.from({ length: 8 }, (_, i) =>
      JSON.stringify(
        i % 4 === 3
          ? { text: `row ${i}`, ...(i === 3 ? {} : { urgent: null }) }
          : { text: `row ${i}`, urgent: i % 2 === 0 ? 'yes' : 'no' },
      ),
    )
    const dir = t.testdir({ 'mail.jsonl': rows.join('\n') + '\n', 'gap.csv': 'body,\nhello,1\nbye,2\n' })
    const result = await cli(['init', 'mail.jsonl'], {}, dir)
    t.equal(result.code, 0, result.stderr)
    t.match(
      result.stdout,
      /state \[text\]; questions urgent, relevant, topic and priority to edit\n {2}taking urgent \(2 values: yes, no\)/,
    )
    t.match(result.stdout, /\n {2}urgent: a yes\/no question\n/)
    const gap = await cli(['init', 'gap.csv', '--state', 'body', '--json'], {}, dir)
    t.match(JSON.parse(gap.stdout).left_out, [{ column: '(unnamed)', why: 'not among the state columns asked for' }])
    const sample = await cli(['init', '--json'], {}, dir)
    t.match(JSON.parse(sample.stdout), { spec: 'starter.judge.yaml', notes: [] }, 'no data file: nothing chosen')
  },
)
