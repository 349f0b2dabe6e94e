import t from 'tap'
import { pathChoices } from '../../../src/http/pages/path-choices.ts'

t.test('a page without path links the same page for each spec file, carrying the token', async (t) => {
  const text = pathChoices(['a/x.judge.yaml', 'b.judge.yaml'], '/runs', 'tok').text
  t.match(text, /Choose a spec file for <code>\/runs<\/code>, or see <a href="\/\?token=tok">every folder<\/a>/)
  t.match(
    text,
    /<li><a href="\/runs\?path=a%2Fx\.judge\.yaml&amp;token=tok"><code>a\/x\.judge\.yaml<\/code><\/a><\/li><li><a href="\/runs\?path=b\.judge\.yaml&amp;token=tok">/,
  )
  t.match(
    pathChoices([], '/runs', null).text,
    /holds no spec file yet: <code>judge init<\/code> writes one\. See <a href="\/">every folder<\/a>/,
  )
})
