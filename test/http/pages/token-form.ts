import t from 'tap'
import { tokenForm } from '../../../src/http/pages/token-form.ts'
import { startJudgeServer } from '../../helpers/judge-server.ts'
import { reviewProject } from '../../helpers/review-project.ts'

t.test('the token form opens the same page with its query kept, the token added, every value escaped', async (t) => {
  const form = tokenForm('/review', new URLSearchParams('path=a"b.judge.yaml&reviewer=<ann>&token=wrong')).toString()
  t.match(form, '<form method="get" action="/review" class="token-form">')
  t.match(form, '<input type="hidden" name="path" value="a&quot;b.judge.yaml">')
  t.match(form, '<input type="hidden" name="reviewer" value="&lt;ann&gt;">')
  t.match(form, '<input type="password" name="token" required autocomplete="current-password"')
  t.notMatch(form, /wrong/, 'the token presented is not written back')
  t.equal(form.match(/name="token"/g)?.length, 1, 'one token field: the one to fill in')
})

t.test('a path that is not this server’s own gets no form', async (t) => {
  t.equal(tokenForm('//elsewhere.example/review', new URLSearchParams()), '')
  t.equal(tokenForm('/\\elsewhere.example', new URLSearchParams()), '')
  t.equal(tokenForm('review', new URLSearchParams()), '')
})

t.test('a page opened without its token offers a form to enter it, which opens the page asked for', async (t) => {
  const { dir } = await reviewProject(t)
  const server = await startJudgeServer(t, dir, { JUDGE_SERVER_TOKEN: 'tok-f' })
  const bare = await server.get('/review?path=spam.judge.yaml&reviewer=ann')
  t.equal(bare.status, 401)
  t.match(bare.text, /<h1>401 Unauthorized<\/h1>/)
  t.match(bare.text, '<form method="get" action="/review" class="token-form">')
  const fields = [...bare.text.matchAll(/<input type="(?:hidden|password)" name="([^"]+)"(?: value="([^"]*)")?/g)]
  t.same(
    fields.map(([, name, value]) => [name, value ?? null]),
    [
      ['path', 'spam.judge.yaml'],
      ['reviewer', 'ann'],
      ['token', null],
    ],
  )
  // What the browser sends when the form is filled in: the same page, the token added.
  const query = new URLSearchParams(fields.map(([, name, value]): [string, string] => [name, value ?? 'tok-f']))
  const opened = await server.get(`/review?${query}`)
  t.equal(opened.status, 200)
  t.match(opened.text, /<h1>Review <code>spam<\/code><\/h1>/)

  const wrong = await server.get('/runs?path=spam.judge.yaml&token=nope')
  t.equal(wrong.status, 401)
  t.match(wrong.text, '<form method="get" action="/runs" class="token-form">')
  t.notMatch(wrong.text, /nope/, 'a wrong token is never echoed')
  t.notMatch(wrong.text, /tok-f/, 'nor the right one')

  const api = await server.get('/v1/runs?path=spam.judge.yaml')
  t.equal(api.status, 401)
  t.notMatch(api.text, /form/, 'the JSON API answers with JSON')
  const posted = await server.call('POST', '/review', {
    body: 'path=spam.judge.yaml',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  t.equal(posted.status, 401)
  t.notMatch(posted.text, /<form [^>]*token-form/, 'a form posted without its token is not sent again as a GET')
})
