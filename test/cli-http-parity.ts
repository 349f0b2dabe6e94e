import t from 'tap'
import { join } from 'node:path'
import { spawnCli } from './helpers/cli.ts'
import { startJudgeServer } from './helpers/judge-server.ts'
import { seedRuns } from './helpers/seed-runs.ts'

// `judge runs --json` and `GET /v1/runs` promise the same data: the real CLI, as a child process,
// and the real server, over one folder whose judgment `a` has 55 runs newer than b's only run.

const yaml = (name: string) =>
  `name: ${name}\nstate: [message]\nquestions:\n  ${name}_q:\n    ask: Question ${name}?\n    type: yes_no\n`

t.test(
  'judge runs --json and GET /v1/runs return the same records, and the same error for an unknown node',
  async (t) => {
    const root = t.testdir({ proj: { 'a.judge.yaml': yaml('a'), 'b.judge.yaml': yaml('b') } })
    const seeded = seedRuns(join(root, 'proj'), [
      { judgment: 'b', counts: { b_q: { yes: 1 } } },
      ...Array.from({ length: 55 }, (_, i) => ({ judgment: 'a', counts: { a_q: { yes: i, no: 1 } } })),
    ])
    const server = await startJudgeServer(t, root)
    const both = async (node: string | null) => {
      const cli = await spawnCli(['runs', 'proj', '--json', ...(node === null ? [] : ['--node', node])], {}, root)
      const http = await server.get(`/v1/runs?path=proj${node === null ? '' : `&node=${node}`}`)
      return { cli, http }
    }

    const b = await both('b')
    t.equal(b.cli.code, 0, b.cli.stderr)
    t.equal(b.http.status, 200)
    t.same(JSON.parse(b.cli.stdout), b.http.body, '--node b: the same records')
    t.same(
      b.http.body.map((r: { run_id: string }) => r.run_id),
      [seeded[0].run_id],
      "b's one run, behind 55 newer runs of a",
    )

    const all = await both(null)
    t.same(JSON.parse(all.cli.stdout), all.http.body, 'no node: the same records')
    t.equal(all.http.body.length, 50)
    t.same(
      all.http.body.map((r: { run_id: string }) => r.run_id),
      seeded
        .slice(6)
        .reverse()
        .map((r) => r.run_id),
      'the newest 50, all of a',
    )

    const a = await both('a')
    t.same(JSON.parse(a.cli.stdout), a.http.body, '--node a: the same records')

    const unknown = await both('zzz')
    t.equal(unknown.http.status, 400)
    t.equal(unknown.http.body.error, 'unknown node "zzz"; the judgments here are: a, b')
    t.equal(unknown.cli.code, 2)
    t.equal(unknown.cli.stderr, `judge runs: ${unknown.http.body.error}\n`, 'the same message on stderr')
    t.same(JSON.parse(unknown.cli.stdout), { error: unknown.http.body.error }, 'and as JSON on stdout')
  },
)
